"""Round trips of the one decoding module: model state -> z3 frame -> model state,
and model action -> z3 action variables -> model action."""

from __future__ import annotations

from typing import Callable

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import State
from cardrules.oracle.crosscheck.fftcg import (
    canonical, decode_action, decode_state, encode_action, encode_cards, encode_state, layout_of,
)
from cardrules.properties.fftcg.strategies import choose_action, positions
from cardrules.specs.smt.fftcg.vocabulary import Vocabulary, domain

from .helpers import ROOTS, explore


def _round_trip(state: State) -> State:
    L = layout_of(state)
    voc = Vocabulary(L)
    c, s = voc.cards(), voc.at(3)
    solver = z3.Solver()
    solver.add(*encode_cards(state, L, c), *encode_state(state, L, s), domain(L, s))
    assert solver.check() == z3.sat
    names = {f.id: f.name for p in state.players for f in (*p.forwards, *p.break_zone)}
    return decode_state(solver.model(), L, c, s, names)


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-BREAK-CREDIT", "FF-PARTY-LEAVE-FIELD")
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
def test_state_round_trip_explored(root: Callable[[], State]) -> None:
    for state in explore(root(), RuleConfig(), limit=60):
        assert canonical(_round_trip(state)) == canonical(state)


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
@given(st.data())
def test_state_round_trip_random_play(data: st.DataObject) -> None:
    state = data.draw(positions(max_forwards=3))
    for _ in range(data.draw(st.integers(0, 14))):
        legal = legal_actions(state)
        if not legal:
            break
        state = step(state, data.draw(choose_action(legal)))
    assert canonical(_round_trip(state)) == canonical(state)


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-FORM-DECLARATION", "FF-BASE-BLOCK")
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
def test_action_round_trip(root: Callable[[], State]) -> None:
    for state in explore(root(), RuleConfig(), limit=40):
        L = layout_of(state)
        voc = Vocabulary(L)
        s, a = voc.at(0), voc.action_at(0)
        for action in legal_actions(state):
            solver = z3.Solver()
            solver.add(*encode_state(state, L, s), *encode_action(action, L, a))
            assert solver.check() == z3.sat
            assert decode_action(solver.model(), L, a, s) == action
