"""hypothesis: invariants over random legal play from random 2-4 player positions.

Each invariant is a small function (returning a problem string or None) so
the broken-variant test can show the once-per-turn check catches
``sb-per-turn-limit = two``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.errors import IllegalAction
from model.redemption.config import RuleConfig
from model.redemption.engine import legal_actions, step
from model.redemption.state import BattleKind, Effect, RecordStatus, State, all_locations, problems
from properties.redemption_strategies import positions, play, runs
from tests.redemption.helpers import act, game
from model.redemption.scenario import evil, evil_enh, hero
from model.redemption.state import Effect as E

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def main_battle_at_bottom(state: State) -> str | None:
    if not state.battles:
        return None
    bottom, rest = state.battles[0], state.battles[1:]
    if bottom.kind is BattleKind.SIDE or bottom.players[0] != state.active:
        return "the bottom of the stack is not the turn's main battle"
    if any(b.kind is not BattleKind.SIDE for b in rest):
        return "a main battle above the bottom"
    return None


def one_battle_per_character(state: State) -> str | None:
    seen: dict[str, int] = {}
    for battle in state.battles:
        for _, fighter in battle.fighters():
            if fighter.card in seen:
                return f"{fighter.card} is in battles {seen[fighter.card]} and {battle.id}"
            seen[fighter.card] = battle.id
    return None


def side_battles_per_player(state: State) -> str | None:
    # Counted two ways: the per-turn counter, and the side battle abilities that took effect
    # in this turn's records (one main battle per turn, records cleared after it).
    for player, count in enumerate(state.side_battles):
        used = sum(
            1 for r in state.records
            if r.player == player and r.effect is Effect.SIDE_BATTLE and r.status is not RecordStatus.BLANKED
        )
        if count > 1 or used > 1:
            return f"player {player} initiated {max(count, used)} side battles this turn"
    return None


def side_battle_players(state: State) -> str | None:
    for below, above in zip(state.battles, state.battles[1:]):
        if set(above.players) != set(below.players):
            return f"side battle {above.id} is fought by {above.players}, not {below.players}"
    return None


def cards_conserved(state: State) -> str | None:
    found = problems(state)
    if found:
        return f"{found[0][0]}: {found[0][1]}"
    placed = sorted(card for card, _ in all_locations(state))
    if placed != sorted(c.id for c in state.cards):
        return "cards not conserved"
    return None


INVARIANTS = (main_battle_at_bottom, one_battle_per_character, side_battles_per_player, side_battle_players, cards_conserved)


@pytest.mark.clause("RED-SB-SUSPEND", "RED-SB-RESUME", "RED-SB-ONCE-PER-TURN", "RED-SB-SIDES-BATTLE-PLAYERS", "RED-BASE-TURN-PHASES")
@SETTINGS
@given(runs(steps=50))
def test_invariants_hold_over_random_play(states: list[State]) -> None:
    for state in states:
        for invariant in INVARIANTS:
            assert invariant(state) is None, (invariant.__name__, invariant(state))


@SETTINGS
@given(runs(steps=30))
def test_step_is_deterministic_and_json_round_trips(states: list[State]) -> None:
    for state in states:
        assert State.from_json(json.loads(json.dumps(state.to_json()))) == state
        for action in legal_actions(state)[:4]:
            assert step(state, action) == step(state, action)


@SETTINGS
@given(runs(steps=30), st.data())
def test_legal_actions_are_exactly_what_step_accepts(states: list[State], data: st.DataObject) -> None:
    # Every listed action is accepted; a few plausible unlisted ones are refused with a clause ID.
    from model.redemption.actions import Block, Pass, Play, Sides, Next, CompleteDiscard, Decline

    state = states[-1]
    listed = legal_actions(state)
    for action in listed:
        step(state, action)
    ids = [c.id for c in state.cards]
    probes = [Pass(), Next(), CompleteDiscard(), Decline(), Block(())]
    if ids:
        a, b = data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids))
        probes += [Play(a, b), Play(a, b, (ids[0], ids[-1])), Sides(a, b)]
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
    # Under sb-per-turn-limit = two, p0 can start a second side battle; the check reports it.
    config = RuleConfig.of({"sb-per-turn-limit": "two"})
    cards = [evil("e1", 1, 1, 5), hero("k0", 0, 1, 5), evil_enh("sb9", 0, ability=E.SIDE_BATTLE), evil_enh("pad", 1)]
    s = game(2, cards, {0: {"hand": ["sb9"], "territory": ["k0"]}, 1: {"territory": ["e1"], "hand": ["pad"]}}, config=config)
    s = act(s, "play sb0 on h0 -> e0 e1", config)
    assert side_battles_per_player(s) is None
    s = act(s, "play pad on e0", config)
    s = act(s, "play sb9 on e1 -> h0 k0", config)
    assert side_battles_per_player(s) == "player 0 initiated 2 side battles this turn"
