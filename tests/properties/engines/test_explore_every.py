"""A transition property a sampling exploration checks on one transition in n (``Property.explore_every``).

The toy game counts from 0 to 5 by +1 and +2 (5 ends it). Breadth-first from 0, with actions in the
order +1, +2, the search takes its eight transitions in this order (worked out by hand):

    #0 0+1->1   #1 0+2->2   #2 1+1->2   #3 1+2->3   #4 2+1->3   #5 2+2->4   #6 3+1->4   #7 3+2->5

(4 has only +1: #8 4+1->5; 5 is terminal.) So the +2 steps are transitions 1, 3, 5 and 7.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import strategies as st

from cardrules.properties.core import Property, PropertyError, transition_property
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.engines.machines import run_machine
from tests.properties.engines.test_explore import Counter

pytestmark = pytest.mark.infrastructure("the explorer's sampling of costly transition checks")


@dataclass(frozen=True)
class UpToFive(Counter):
    """The explorer tests' counter (states 0..5, +1 and +2, 5 terminal) without its dead end at 4."""

    name: str = field(default="up-to-five")

    def legal_actions(self, state: int) -> tuple[int, ...]:
        return tuple(a for a in (1, 2) if state + a <= 5)


NO_TWO = Property("no-plus-two", "No step adds 2.", (), "toy", "transition", lambda game, a, action, b: action != 2)


def _explored(every: int, sample: bool = True) -> Any:
    return explore(UpToFive(), [0], [replace(NO_TWO, explore_every=every)], Bounds(), progress=False,
                   sample_costly_checks=sample)


def test_every_transition_is_checked_by_default() -> None:
    result = _explored(1)
    assert result.stats.transitions == 9
    assert [s for _, s in result.counterexample("no-plus-two")] == [0, 2]  # transition #1


def test_one_transition_in_three_is_checked_from_the_first() -> None:
    # transitions 0, 3, 6, ...: #3 is 1+2->3, the first +2 checked
    result = _explored(3)
    assert [(a, s) for a, s in result.counterexample("no-plus-two")] == [(None, 0), (1, 1), (2, 3)]


def test_a_sample_that_misses_every_bad_step_finds_nothing() -> None:
    # transitions 0, 2, 4, 6, 8 are all +1 steps
    result = _explored(2)
    assert result.violations == {}
    assert result.stats.transitions == 9  # the search itself is unchanged


def test_an_exploration_not_asked_to_sample_checks_every_transition() -> None:
    result = _explored(2, sample=False)
    assert [s for _, s in result.counterexample("no-plus-two")] == [0, 2]


def test_random_play_checks_every_step_whatever_the_explorer_samples() -> None:
    # one game in eight from 0 to 5 adds 1 five times; random play soon adds 2, and the sampled-out
    # check still sees it
    sampled = replace(NO_TWO, explore_every=1000)
    result = run_machine(UpToFive(), st.just(0), [sampled], max_examples=50, steps=10, shrink=False)
    assert result.violation is not None and result.violation.prop.name == "no-plus-two"
    assert result.violation.path[-1][0] == 2


def test_a_sample_rate_below_one_is_refused() -> None:
    with pytest.raises(PropertyError, match="explore_every must be 1 or more, not 0"):
        transition_property("never", "Never checked.", game="toy", explore_every=0)
