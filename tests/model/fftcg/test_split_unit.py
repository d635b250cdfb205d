"""The step of the blocker's split as an extension point (``blocker-split-unit``): its default is the
catalogue's reading, a proposal may answer another positive whole step, and an answer outside the
contract is refused rather than enumerated.

Expected values by hand from FF-PARTY-SPLIT-THOUSANDS (shares are multiples of 1000) and the decision
party-blocker-power-remainder = floor (a 5500 blocker divides 5000, the 500 reaching no one): against a
party of two, 5000 in thousands is 5 units over 2 members, 6 ordered ways; in steps of 500 the whole
5500 is 11 units, 12 ways. A member breaks when its damage reaches its power (FF-BASE-BREAK-DAMAGE).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cardrules.model.extension import EXTENSION_POINTS
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.contracts import SPLIT_STEP, split_count
from cardrules.model.fftcg.damage import split_unit, thousands
from cardrules.model.fftcg.state import State

from .helpers import DEFAULT, assert_illegal, broken_ids, fw, legal_texts, play, position

pytestmark = pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")


def blocked_by_5500() -> State:
    """A Fire party of 3000 (a1) and 2500 (a2) blocked by a 5500 Forward, the split to choose."""
    start = position([fw("a1", power=3000), fw("a2", power=2500)], [fw("b1", "earth", 5500)])
    return play(start, "attack a1 a2", "pass", "block b1", "pass")


def with_step(answer: Any) -> RuleConfig:
    return replace(DEFAULT, hooks=(("blocker-split-unit", lambda state, attack: answer),))


def splits(state: State, config: RuleConfig = DEFAULT) -> list[str]:
    return [t for t in legal_texts(state, config) if t.startswith("split")]


def test_the_point_is_declared_with_its_contract_and_its_default_is_1000() -> None:
    point = EXTENSION_POINTS[("fftcg", "blocker-split-unit")]
    assert point.parameters == ("state", "attack") and point.default is thousands
    assert set(point.clause_ids) == {"FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT"}
    state = blocked_by_5500()
    assert state.attack is not None
    assert thousands(state, state.attack) == 1000 and split_unit(state, DEFAULT) == 1000


def test_by_default_a_5500_blocker_divides_5000_in_thousands() -> None:
    state = blocked_by_5500()
    assert splits(state) == [f"split a1={a} a2={5000 - a}" for a in range(5000, -1, -1000)]
    assert_illegal(state, "split a1=3000 a2=2500", "FF-PARTY-SPLIT-THOUSANDS")
    after = play(state, "split a1=3000 a2=2000")
    assert broken_ids(after, 0) == ["a1"]  # 2000 on the 2500 member does not break it
    assert broken_ids(after, 1) == ["b1"]  # the party's 3000 + 2500 reaches the blocker's 5500


def test_a_step_of_500_divides_the_whole_5500_and_can_break_both_members() -> None:
    config = with_step(500)
    state = blocked_by_5500()
    assert splits(state, config) == [f"split a1={a} a2={5500 - a}" for a in range(5500, -1, -500)]
    assert_illegal(state, "split a1=3000 a2=2000", "FF-PARTY-SPLIT-THOUSANDS", config)  # 5000: not the power
    after = play(state, "split a1=3000 a2=2500", config=config)
    assert sorted(broken_ids(after, 0)) == ["a1", "a2"] and broken_ids(after, 1) == ["b1"]


def test_the_broken_variant_still_splits_in_hundreds() -> None:
    state = blocked_by_5500()
    assert split_unit(state, RuleConfig.of(broken=["party-split-in-hundreds"])) == 100


@pytest.mark.parametrize("answer", [0, -500, True, 500.0, "500", None])
def test_an_answer_that_is_not_a_positive_int_is_refused(answer: Any) -> None:
    state = blocked_by_5500()
    assert state.attack is not None
    assert SPLIT_STEP.check(answer, (state, state.attack)) is not None
    with pytest.raises(ValueError, match="blocker-split-unit"):
        legal_texts(state, with_step(answer))


def test_a_step_too_fine_to_list_is_refused_before_any_split_is_listed() -> None:
    # three members against 9000 in steps of 1: C(9002, 2) = 40,513,501 ways, over MAX_SPLITS (200,000)
    assert split_count(9000, 3, 1) == 9002 * 9001 // 2
    start = position([fw("a1", power=3000), fw("a2", power=3000), fw("a3", power=3000)], [fw("b1", "earth", 9000)])
    state = play(start, "attack a1 a2 a3", "pass", "block b1", "pass")
    assert state.attack is not None
    problem = SPLIT_STEP.check(1, (state, state.attack))
    assert problem is not None and "4.05e+07 ways" in problem
    with pytest.raises(ValueError, match="4.05e"):
        legal_texts(state, with_step(1))
    assert SPLIT_STEP.check(100, (state, state.attack)) is None  # C(92, 2) = 4,186 ways


def test_split_count_counts_the_remainder_given_to_one_member() -> None:
    assert split_count(5000, 2, 1000) == 6
    assert split_count(5500, 2, 1000) == 12  # 6 splits of 5000, the 500 to either member
    assert split_count(5500, 2, 500) == 12
    assert split_count(800, 3, 1000) == 3  # nothing divisible; the 800 to one of three
