"""Where a battle stands: strength, toughness, defeat and outcome; who may enter.

Pure reads of the state (layer 1 of the model): the rule areas and the
initiative rule (:mod:`model.redemption.initiative`) all read them.

Clause IDs: RED-BASE-DEFEAT, RED-BASE-MUTUAL-STALEMATE, RED-BR-FOUR-OUTCOMES,
RED-BASE-PARALYZED-NO-BATTLE.
"""

from __future__ import annotations

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.state import Battle, Fighter, Outcome, State, Status
from cardrules.specs.catalogue.registry import implements


def strength(state: State, fighter: Fighter, config: RuleConfig) -> int:
    """A character's strength in battle: its numbers plus its enhancements' (RED-BASE-ENHANCEMENTS),
    redirects included (:func:`model.redemption.numbers.numbers`)."""
    return numbers(state, fighter.card, config)[0] + sum(numbers(state, e, config)[0] for e in fighter.enhancements)


def toughness(state: State, fighter: Fighter, config: RuleConfig) -> int:
    return numbers(state, fighter.card, config)[1] + sum(numbers(state, e, config)[1] for e in fighter.enhancements)


def side_strength(state: State, battle: Battle, side: int, config: RuleConfig) -> int:
    return sum(strength(state, f, config) for f in battle.sides[side])


@implements("RED-BASE-DEFEAT")
def defeated(state: State, battle: Battle, config: RuleConfig) -> frozenset[str]:
    """Characters whose toughness the opposing side's total strength reaches (RED-BASE-DEFEAT)."""
    out: set[str] = set()
    for side in (0, 1):
        against = side_strength(state, battle, 1 - side, config)
        out.update(f.card for f in battle.sides[side] if against >= toughness(state, f, config))
    return frozenset(out)


@implements("RED-BR-FOUR-OUTCOMES", "RED-BASE-MUTUAL-STALEMATE", "RED-BASE-DEFEAT")
def outcome(state: State, battle: Battle, config: RuleConfig) -> Outcome:
    """The outcome the battle stands at (RED-BR-FOUR-OUTCOMES).

    Decision ``br-outcome-several-characters``: a side is beaten when all its
    characters are defeated (all-defeated), or as soon as one of them is
    (any-defeated); an empty side is beaten under both. Both beaten: mutual
    destruction; neither: stalemate (RED-BASE-MUTUAL-STALEMATE).
    """
    down = defeated(state, battle, config)
    test = any if config.option("br-outcome-several-characters") == "any-defeated" else all
    beaten = [not battle.sides[side] or test(f.card in down for f in battle.sides[side]) for side in (0, 1)]
    if beaten[0] and beaten[1]:
        return Outcome.MUTUAL_DESTRUCTION
    if beaten[1]:
        return Outcome.SIDE0_WINS
    if beaten[0]:
        return Outcome.SIDE1_WINS
    return Outcome.STALEMATE


@implements("RED-BASE-PARALYZED-NO-BATTLE")
def may_enter_battle(state: State, card_id: str) -> bool:
    """A paralyzed character cannot enter a battle (RED-BASE-PARALYZED-NO-BATTLE)."""
    return not state.has_status(card_id, Status.PARALYZED)
