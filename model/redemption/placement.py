"""Enhancements played outside battle (decision ``red-base-enhancement-timing`` = any-time).

By default (in-battle-own-character) an enhancement is played only in the active battle, by a battling
player holding initiative, on one of their own characters there. Under ``any-time`` the turn's player
may also play one while no battle is on: whenever they act outside battle after drawing, they put an
enhancement from their hand on a character of theirs in their territory of the same alignment with a
shared brigade (RED-BASE-ENHANCEMENTS). It stays placed on that character (``State.placed``) and goes
into battle with it, where its numbers count like any enhancement's.

Limits of the reading, recorded with the decision: only enhancements without a special ability (an
ability's timing outside battle is given by its own area: heal outside battle by the heal clauses);
only the turn's player (the base rules give players outside battle no other moment to act); in battle
the initiative still decides who plays (RED-BASE-INITIATIVE).

Clause IDs: RED-BASE-ENHANCEMENTS, RED-BASE-CHARACTERS.
"""

from __future__ import annotations

from cardrules.model.errors import IllegalAction
from cardrules.model.fastcopy import replace
from cardrules.model.redemption.actions import Play
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.ops import remove_from
from cardrules.model.redemption.state import CardType, Phase, State
from cardrules.specs.catalogue.registry import implements


def plays_outside_battle(config: RuleConfig) -> bool:
    """Whether the reading in force lets the turn's player play enhancements outside battle."""
    return config.option("red-base-enhancement-timing") == "any-time"


def _matches(state: State, enhancement: str, character: str) -> bool:
    enh, char = state.card(enhancement), state.card(character)
    return char.type is CardType.CHARACTER and enh.alignment is char.alignment and bool(enh.brigades & char.brigades)


@implements("RED-BASE-ENHANCEMENTS")
def placements(state: State, config: RuleConfig) -> tuple[Play, ...]:
    """Every ``play E on C`` the turn's player may make outside battle under ``any-time``: ``E`` an
    enhancement without an ability in their hand, ``C`` a matching character in their territory."""
    if not plays_outside_battle(config) or state.prompt is not None or state.battles or state.phase is Phase.DRAW:
        return ()
    player = state.active
    zones = state.zones[player]
    return tuple(
        Play(enh, char)
        for enh in sorted(zones.hand)
        if state.card(enh).type is CardType.ENHANCEMENT and state.card(enh).ability is None
        for char in sorted(zones.territory)
        if _matches(state, enh, char)
    )


@implements("RED-BASE-ENHANCEMENTS")
def place(state: State, action: Play, config: RuleConfig) -> State:
    """The turn's player puts ``action.card`` from their hand on ``action.on`` in their territory."""
    if action not in placements(state, config):
        raise IllegalAction(action.text(), "outside battle an enhancement without an ability may be put only on a "
                            "character of the same alignment and a shared brigade in your own territory",
                            ("RED-BASE-ENHANCEMENTS",))
    state = remove_from(state, state.active, "hand", action.card)
    return replace(state, placed=state.placed | {(action.card, action.on)})
