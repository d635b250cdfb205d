"""Random legal play from random small positions keeps the invariants
(properties/fftcg/strategies.py), for every sound rule configuration."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.model.errors import IllegalAction
from cardrules.model.fftcg.actions import parse_action
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import State, Step
from cardrules.model.fftcg.validate import load_state
from cardrules.properties.fftcg.strategies import (
    choose_action,
    positions,
    sound_configs,
    split_violations,
    state_violations,
    transition_violations,
)

from tests.model.fftcg.helpers import fw, play, position

MAX_STEPS = 40

PROBE_ACTIONS = [
    "attack a1", "attack a1 a2", "attack a2 a3", "attack b1", "block b1", "block a1", "noblock",
    "split a1=1000 a2=0", "remove a1", "remove b2", "pass", "end-turn",
]


@pytest.mark.clause(
    "FF-PARTY-MIN-TWO", "FF-PARTY-FORM-VALID", "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-LEAVE-FIELD",
    "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-BASE-BREAK-DAMAGE",
)
@settings(max_examples=80, deadline=None)
@given(start=positions(), config=sound_configs(), data=st.data())
def test_random_play_keeps_invariants(start: State, config: RuleConfig, data: st.DataObject) -> None:
    state = start
    for _ in range(MAX_STEPS):
        legal = legal_actions(state, config)
        assert legal_actions(state, config) == legal  # deterministic
        assert list(legal) == sorted(legal, key=lambda a: a.sort_key())
        assert not state_violations(state, config, legal)
        assert load_state(json.loads(json.dumps(state.to_json()))) == state
        if not legal:
            assert state.outcome is not None  # only a finished game is stuck
            return
        action = data.draw(choose_action(legal))
        assert parse_action(str(action)) == action
        after = step(state, action, config)
        assert step(state, action, config) == after  # step is a function
        assert not transition_violations(state, action, after)
        state = after


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-FORM-DECLARATION")
@settings(max_examples=60, deadline=None)
@given(start=positions(max_forwards=3), data=st.data())
def test_step_accepts_exactly_the_legal_actions(start: State, data: st.DataObject) -> None:
    state = start
    for _ in range(15):
        legal = set(legal_actions(state))
        for text in PROBE_ACTIONS:
            action = parse_action(text)
            try:
                step(state, action)
            except IllegalAction as error:
                assert action not in legal
                assert error.clause_ids
            else:
                assert action in legal
        if not legal:
            return
        state = step(state, data.draw(choose_action(legal_actions(state))))


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_the_hundreds_mutant_is_caught_by_the_split_invariant() -> None:
    mutant = RuleConfig.of(broken=["party-split-in-hundreds"])  # the broken variant, not an option
    state = play(position([fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=3000)]),
                 "attack a1 a2", "pass", "block b1", "pass", config=mutant)
    assert state.step is Step.DAMAGE
    flagged = [a for a in legal_actions(state, mutant) if split_violations(state, a)]
    # 3000 = 30 units of 100 over 2 members: 31 splits, 4 of them in thousands -> 27 flagged
    assert len(flagged) == 27
    assert all(not split_violations(state, a) for a in legal_actions(state, RuleConfig()))
