"""Battles: numbers, defeat, outcome and initiative; starting and blocking.

Clause IDs: RED-BASE-DEFEAT, RED-BASE-MUTUAL-STALEMATE, RED-BR-FOUR-OUTCOMES,
RED-BASE-INITIATIVE, RED-BASE-RESCUE-OR-CHALLENGE, RED-BASE-BLOCKING,
RED-BASE-HERO-VS-EVIL, RED-BASE-PARALYZED-NO-BATTLE.
"""

from __future__ import annotations

from dataclasses import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.ops import leave_territory
from cardrules.model.redemption.state import (
    Battle,
    BattleKind,
    Fighter,
    Origin,
    OriginKind,
    Outcome,
    Prompt,
    PromptKind,
    State,
    Status,
)
from cardrules.specs.registry import implements


def strength(state: State, fighter: Fighter) -> int:
    """A character's strength in battle: its numbers plus its enhancements' (RED-BASE-ENHANCEMENTS),
    redirects included (:func:`model.redemption.numbers.numbers`)."""
    return numbers(state, fighter.card)[0] + sum(numbers(state, e)[0] for e in fighter.enhancements)


def toughness(state: State, fighter: Fighter) -> int:
    return numbers(state, fighter.card)[1] + sum(numbers(state, e)[1] for e in fighter.enhancements)


def side_strength(state: State, battle: Battle, side: int) -> int:
    return sum(strength(state, f) for f in battle.sides[side])


@implements("RED-BASE-DEFEAT")
def defeated(state: State, battle: Battle) -> frozenset[str]:
    """Characters whose toughness the opposing side's total strength reaches (RED-BASE-DEFEAT)."""
    out: set[str] = set()
    for side in (0, 1):
        against = side_strength(state, battle, 1 - side)
        out.update(f.card for f in battle.sides[side] if against >= toughness(state, f))
    return frozenset(out)


@implements("RED-BR-FOUR-OUTCOMES", "RED-BASE-MUTUAL-STALEMATE", "RED-BASE-DEFEAT")
def outcome(state: State, battle: Battle, config: RuleConfig) -> Outcome:
    """The outcome the battle stands at (RED-BR-FOUR-OUTCOMES).

    A side is beaten when all its characters are defeated (an empty side is
    beaten); decision ``br-outcome-several-characters``. Both beaten: mutual
    destruction; neither: stalemate (RED-BASE-MUTUAL-STALEMATE).
    """
    down = defeated(state, battle)
    beaten = [all(f.card in down for f in battle.sides[side]) for side in (0, 1)]
    if beaten[0] and beaten[1]:
        return Outcome.MUTUAL_DESTRUCTION
    if beaten[1]:
        return Outcome.SIDE0_WINS
    if beaten[0]:
        return Outcome.SIDE1_WINS
    return Outcome.STALEMATE


@implements("RED-BASE-INITIATIVE")
def initiative(state: State, battle: Battle, config: RuleConfig) -> int:
    """Who may play next in a battle (RED-BASE-INITIATIVE).

    The player whose side is losing; at a tie (stalemate or mutual
    destruction) the battling player who did not play the last card.
    """
    standing = outcome(state, battle, config)
    first, second = battle.players
    if standing is Outcome.SIDE0_WINS:
        return second
    if standing is Outcome.SIDE1_WINS:
        return first
    return second if battle.last_player == first else first


def play_prompt(state: State) -> State:
    """Give the active battle's initiative holder the next decision."""
    battle = state.active_battle
    assert battle is not None
    return replace(state, prompt=Prompt(PromptKind.PLAY, initiative(state, battle, RuleConfig())))


WAITING: frozenset[PromptKind] = frozenset({PromptKind.SPECIAL_INITIATIVE, PromptKind.HEAL_WINDOW, PromptKind.CHOOSE_SIDES})


def play_prompt_unless_waiting(state: State) -> State:
    """``play_prompt``, unless a decision (special initiative, a heal window) is still open."""
    if state.prompt is not None and state.prompt.kind in WAITING:
        return state
    return play_prompt(state)


def in_battle(state: State, card_id: str) -> bool:
    return state.fighter(card_id) is not None


@implements("RED-BASE-PARALYZED-NO-BATTLE")
def may_enter_battle(state: State, card_id: str) -> bool:
    """A paralyzed character cannot enter a battle (RED-BASE-PARALYZED-NO-BATTLE)."""
    return not state.has_status(card_id, Status.PARALYZED)


@implements("RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-HERO-VS-EVIL")
def start_battle(state: State, opponent: int, heroes: tuple[str, ...], action: str, config: RuleConfig) -> State:
    """The turn's player sends Heroes from their territory against ``opponent``.

    A rescue attempt if the opponent has a Lost Soul in their Land of
    Bondage, else a battle challenge (RED-BASE-RESCUE-OR-CHALLENGE). One
    main battle per turn (decision ``red-base-battles-per-turn``).
    """
    player = state.active
    if state.battles_started >= 1:
        raise IllegalAction(action, "only one battle may be started per turn", ("RED-BASE-TURN-PHASES",))
    if not 0 <= opponent < state.players or opponent == player:
        raise IllegalAction(action, f"player {opponent} is not an opponent", ("RED-BASE-RESCUE-OR-CHALLENGE",))
    for hero in heroes:
        if hero not in state.zones[player].territory or not state.card(hero).is_hero:
            raise IllegalAction(action, f"{hero} is not a Hero in your territory", ("RED-BASE-RESCUE-OR-CHALLENGE",))
        if not may_enter_battle(state, hero):
            raise IllegalAction(action, f"{hero} is paralyzed", ("RED-BASE-PARALYZED-NO-BATTLE",))
    kind = BattleKind.RESCUE if state.zones[opponent].bondage else BattleKind.CHALLENGE
    fighters = []
    for hero in sorted(heroes):
        state, carried = leave_territory(state, player, hero)
        fighters.append(Fighter(hero, player, (Origin(OriginKind.TERRITORY, player),), carried))
    battle = Battle(
        id=state.next_battle, kind=kind, players=(player, opponent), sides=(tuple(fighters), ()), last_player=player
    )
    return replace(
        state,
        battles=(battle,),
        next_battle=state.next_battle + 1,
        battles_started=state.battles_started + 1,
        prompt=Prompt(PromptKind.BLOCK, opponent),
    )


@implements("RED-BASE-BLOCKING", "RED-BASE-HERO-VS-EVIL")
def block(state: State, blockers: tuple[str, ...], action: str, config: RuleConfig) -> State:
    """The opponent blocks with Evil Characters from their territory (RED-BASE-BLOCKING).

    With no blockers the battle is resolved at once (the Hero side wins
    unless its toughness is 0). After blocking, the blocker counts as the
    last card put in (decision ``red-base-first-initiative``).
    """
    from cardrules.model.redemption.resolution import begin_resolution

    battle = state.battles[0]
    player = battle.players[1]
    for evil in blockers:
        if evil not in state.zones[player].territory or not state.card(evil).is_evil_character:
            raise IllegalAction(action, f"{evil} is not an Evil Character in your territory", ("RED-BASE-BLOCKING", "RED-BASE-HERO-VS-EVIL"))
        if not may_enter_battle(state, evil):
            raise IllegalAction(action, f"{evil} is paralyzed", ("RED-BASE-PARALYZED-NO-BATTLE",))
    blocking = []
    for evil in sorted(blockers):
        state, carried = leave_territory(state, player, evil)
        blocking.append(Fighter(evil, player, (Origin(OriginKind.TERRITORY, player),), carried))
    battle = replace(battle, sides=(battle.sides[0], tuple(blocking)), last_player=player)
    state = replace(state, battles=(battle,))
    if not blockers:
        return begin_resolution(state, config)
    return play_prompt(state)
