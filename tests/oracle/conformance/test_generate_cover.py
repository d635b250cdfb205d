"""The conformance generator's greedy set cover: which candidates become vectors, worked out by hand.

Greedy: again and again the candidate adding the most uncovered features; ties go to fewer steps, then a
play before a refusal, then the smaller vector id, then the earlier candidate. Candidates with the same
features are set aside but the first by those tie-breaks, and gains are recomputed lazily: neither may
change a pick.
"""

from __future__ import annotations

import pytest

from cardrules.oracle.conformance.candidates import Candidate
from cardrules.oracle.conformance.generate import greedy_cover

pytestmark = pytest.mark.infrastructure("the conformance generator's set cover: which candidates become vectors")


def _candidate(features: str, length: int, kind: str = "play") -> Candidate:
    return Candidate(0, 0, "pass", kind, frozenset(features), length)


def test_among_equal_gains_the_shortest_then_the_play_wins_and_twins_add_nothing() -> None:
    candidates = [
        _candidate("ab", 3),  # 0: gain 2, three steps
        _candidate("ab", 2, "refusal"),  # 1: the same features, two steps, a refusal
        _candidate("ab", 2),  # 2: the same features, two steps, a play: first of the three twins
        _candidate("c", 2),  # 3: gain 1
        _candidate("bc", 1),  # 4: gain 2 in one step
    ]
    # round 1: gains 2, 2, 2, 1, 2; of the gains of 2, #4 has the fewest steps. Covered: b, c.
    # round 2: #0, #1, #2 add a; #3 adds nothing. Two steps beat three; the play #2 beats the refusal #1.
    # round 3: nothing is left to add.
    assert greedy_cover(candidates, ["v3", "v1", "v2", "v0", "v9"]) == [4, 2]


def test_the_vector_id_then_the_order_break_a_tie_of_twins() -> None:
    twins = [_candidate("x", 1), _candidate("x", 1)]
    assert greedy_cover(twins, ["b", "a"]) == [1]
    assert greedy_cover(twins, ["a", "b"]) == [0]
    assert greedy_cover(twins, ["same", "same"]) == [0]


def test_a_gain_that_shrank_is_compared_at_its_new_size() -> None:
    candidates = [
        _candidate("abcd", 1),  # 0: gain 4
        _candidate("abx", 1),  # 1: gain 3 at first, 1 (x) once a, b are covered
        _candidate("cy", 2),  # 2: gain 2 at first, 1 (y) once c is covered
        _candidate("xy", 3),  # 3: gain 2 all along
    ]
    # round 1: #0 (4). round 2: #1 adds x, #2 adds y, #3 adds x and y: #3, though the longest.
    # round 3: #1 and #2 add nothing.
    assert greedy_cover(candidates, ["p", "q", "r", "s"]) == [0, 3]


def test_no_candidate_or_only_empty_ones_give_no_vector() -> None:
    assert greedy_cover([], []) == []
    assert greedy_cover([_candidate("", 1)], ["a"]) == []
