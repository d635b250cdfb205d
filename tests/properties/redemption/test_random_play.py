"""hypothesis: invariants over random legal play from random 2-4 player positions.

Each invariant is a small function (returning a problem string or None) so
the broken-variant test can show the once-per-turn check catches the broken
variant ``two-side-battles-per-turn``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.state import State
from cardrules.model.redemption.validate import load_state
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.redemption.invariants import (
    cards_conserved,
    main_battle_at_bottom,
    one_battle_per_character,
    one_side_battle_per_turn,
    side_battle_control,
)
from cardrules.properties.redemption.strategies import runs
from tests.model.redemption.helpers import act, game
from cardrules.model.redemption.scenario import evil, evil_enh, hero
from cardrules.model.redemption.state import Effect as E

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _as_problem(check):
    """A registered state property (properties.redemption.invariants) as ``state -> problem or None``."""

    def problem(state: State) -> str | None:
        return None if check(GAME, state) else f"{check.__name__} does not hold"

    problem.__name__ = check.__name__
    return problem


GAME = RedemptionGame()
INVARIANTS = tuple(
    _as_problem(check)
    for check in (main_battle_at_bottom, one_battle_per_character, one_side_battle_per_turn, side_battle_control, cards_conserved)
)


@pytest.mark.clause("RED-SB-SUSPEND", "RED-SB-RESUME", "RED-SB-ONCE-PER-TURN", "RED-SB-SIDES-BATTLE-PLAYERS", "RED-BASE-TURN-PHASES")
@SETTINGS
@given(runs(steps=50))
def test_invariants_hold_over_random_play(states: list[State]) -> None:
    for state in states:
        for invariant in INVARIANTS:
            assert invariant(state) is None, (invariant.__name__, invariant(state))


OUTSIDER = RuleConfig.of({"sb-user-outside-battle": "any-player"})


@pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-ONCE-PER-TURN", "RED-SB-SUSPEND")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs(steps=50, config=OUTSIDER))
def test_invariants_hold_when_players_outside_the_battle_use_side_battles(states: list[State]) -> None:
    # Decision sb-user-outside-battle = any-player: the same invariants (every side battle fought by
    # the two players of the battle below it, one side battle per player per turn, the stack, cards
    # conserved).
    for state in states:
        for invariant in INVARIANTS:
            assert invariant(state) is None, (invariant.__name__, invariant(state))


@pytest.mark.infrastructure("the step function's contract: pure, deterministic, its listing and step agree")
@SETTINGS
@given(runs(steps=30))
def test_step_is_deterministic_and_json_round_trips(states: list[State]) -> None:
    for state in states:
        assert load_state(json.loads(json.dumps(state.to_json()))) == state
        for action in legal_actions(state)[:4]:
            assert step(state, action) == step(state, action)


@pytest.mark.infrastructure("the step function's contract: pure, deterministic, its listing and step agree")
@SETTINGS
@given(runs(steps=30), st.data())
def test_legal_actions_are_exactly_what_step_accepts(states: list[State], data: st.DataObject) -> None:
    # Every listed action is accepted; a few plausible unlisted ones are refused with a clause ID.
    from cardrules.model.redemption.actions import Block, Pass, Play, Sides, Next, CompleteDiscard, Decline, Use

    state = states[-1]
    listed = legal_actions(state)
    for action in listed:
        step(state, action)
    ids = [c.id for c in state.cards]
    probes = [Pass(), Next(), CompleteDiscard(), Decline(), Block(())]
    if ids:
        a, b = data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids))
        probes += [Play(a, b), Play(a, b, (ids[0], ids[-1])), Sides(a, b), Use(a), Use(a, (ids[0], ids[-1]))]
    for probe in probes:
        if probe in listed:
            continue
        try:
            step(state, probe)
        except IllegalAction as error:
            assert error.clause_ids
        else:
            raise AssertionError(f"step accepted unlisted {probe.text()}")


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_broken_variant_is_caught_by_the_invariant() -> None:
    # Under the broken variant two-side-battles-per-turn, p0 can start a second side battle; the check reports it.
    config = RuleConfig.of(broken=["two-side-battles-per-turn"])
    cards = [evil("e1", 1, 1, 5), hero("k0", 0, 1, 5), evil_enh("sb9", 0, ability=E.SIDE_BATTLE), evil_enh("pad", 1)]
    s = game(2, cards, {0: {"hand": ["sb9"], "territory": ["k0"]}, 1: {"territory": ["e1"], "hand": ["pad"]}}, config=config)
    s = act(s, "play sb0 on h0 -> e0 e1", config)
    assert one_side_battle_per_turn(GAME, s)
    s = act(s, "play pad on e0", config)
    s = act(s, "play sb9 on e1 -> h0 k0", config)
    assert s.side_battles[0] == 2  # player 0 started two side battles this turn
    assert not one_side_battle_per_turn(GAME, s)
