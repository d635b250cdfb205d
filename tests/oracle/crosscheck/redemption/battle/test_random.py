"""Random fragment positions (hypothesis): random numbers, brigades (one or two of three, so
enhancements match some characters and not others), owners other than the controller, characters
that cannot attack or block (an Evil Character in the turn player's territory, a Hero in the
other's), Lost Souls and rescued souls, either player's turn; a random legal run from each, every battle/discard-phase state cross-checked."""

from __future__ import annotations

from typing import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from cardrules.model.redemption.state import Card, State
from cardrules.oracle.crosscheck.redemption.battle import SOURCE_PHASES, crosscheck_state

from .test_crosscheck import ALL_CLAUSES, VARIANTS

BRIGADES = ("blue", "crimson", "green")


@st.composite
def fragment_positions(draw: Callable) -> State:
    """A battle-phase start of a two-player game inside the fragment."""
    brigades = st.lists(st.sampled_from(BRIGADES), min_size=1, max_size=2, unique=True)
    cards: list[Card] = []
    zones: dict[int, dict[str, list[str]]] = {}
    active = draw(st.integers(0, 1))
    owners = st.integers(0, 1)
    for p in (0, 1):
        z: dict[str, list[str]] = {"territory": [], "hand": [], "bondage": [], "redemption": []}
        attacker = p == active
        for i in range(draw(st.integers(1 if attacker else 0, 2))):
            make = hero if attacker else evil
            card = make(f"p{p}c{i}", draw(owners), draw(st.integers(0, 4)), draw(st.integers(0, 4)), draw(brigades))
            cards.append(card)
            z["territory"].append(card.id)
        for i in range(draw(st.integers(0, 1))):
            make = evil if attacker else hero
            card = make(f"p{p}o{i}", p, draw(st.integers(0, 4)), draw(st.integers(0, 4)), draw(brigades))
            cards.append(card)
            z["territory"].append(card.id)
        for i in range(draw(st.integers(0, 3))):
            make = good_enh if draw(st.booleans()) else evil_enh
            card = make(f"p{p}n{i}", draw(owners), draw(st.integers(0, 3)), draw(st.integers(0, 2)),
                        brigades=draw(brigades))
            cards.append(card)
            z["hand"].append(card.id)
        for i in range(draw(st.integers(0, 2))):
            card = soul(f"p{p}s{i}", p)
            cards.append(card)
            z["bondage"].append(card.id)
        for i in range(draw(st.integers(0, 4))):
            card = soul(f"p{p}r{i}", 1 - p)
            cards.append(card)
            z["redemption"].append(card.id)
        zones[p] = z
    return position(cards, zones, 2, active=active)


def _run(data: st.DataObject, config: RuleConfig) -> list[State]:
    state = data.draw(fragment_positions())
    states = [state]
    for _ in range(12):
        legal = legal_actions(state, config)
        if not legal or state.phase not in SOURCE_PHASES:
            break
        state = step(state, data.draw(st.sampled_from(legal)), config)
        states.append(state)
    return [s for s in states if s.phase in SOURCE_PHASES]


@pytest.mark.clause(*ALL_CLAUSES)
@given(st.data())
@settings(max_examples=15)
def test_random_default(data: st.DataObject) -> None:
    for state in _run(data, DEFAULT):
        found = crosscheck_state(state, DEFAULT)
        assert not found, "\n".join(str(d) for d in found[:2])


@pytest.mark.clause(*ALL_CLAUSES)
@pytest.mark.parametrize(("decision", "option"), VARIANTS[:2], ids=[f"{d}={o}" for d, o in VARIANTS[:2]])
@given(data=st.data())
@settings(max_examples=6)
def test_random_variants(decision: str, option: str, data: st.DataObject) -> None:
    config = RuleConfig.of({decision: option})
    for state in _run(data, config):
        found = crosscheck_state(state, config)
        assert not found, "\n".join(str(d) for d in found[:2])
