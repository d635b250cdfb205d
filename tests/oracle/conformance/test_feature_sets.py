"""Coverage features held as bits (:mod:`cardrules.oracle.conformance.feature_sets`): a candidate's features read
as the set of their names whatever bits they were given, and the parts a candidate is made of are worked
out once."""

from __future__ import annotations

from typing import Iterator

import pytest

from cardrules.oracle.conformance.candidates import Candidate
from cardrules.oracle.conformance.feature_sets import Features, FeatureSpace
from cardrules.oracle.conformance.generate import greedy_cover

pytestmark = pytest.mark.infrastructure("the conformance generator's coverage features held as bits")


def test_features_read_as_the_set_of_their_names() -> None:
    space = FeatureSpace()
    space.bit("z")  # numbered first: bits follow first use, not the alphabet
    features = Features(space, space.mask(["RED-SB-SUSPEND", "refused:pass"]))
    assert features.names() == frozenset({"RED-SB-SUSPEND", "refused:pass"})
    assert "refused:pass" in features and "z" not in features and "never-seen" not in features
    assert len(features) == 2 and list(features) == ["RED-SB-SUSPEND", "refused:pass"]
    assert features == frozenset({"RED-SB-SUSPEND", "refused:pass"})
    assert (features | {"z"}).names() == frozenset({"RED-SB-SUSPEND", "refused:pass", "z"})
    # the same names in another space, numbered otherwise, are the same set
    other = FeatureSpace()
    assert Features(other, other.mask(["refused:pass", "RED-SB-SUSPEND"])) == features


def test_a_part_is_worked_out_once_per_key() -> None:
    space = FeatureSpace()
    read: list[str] = []

    def names(*given: str) -> Iterator[str]:  # the names, read only when iterated
        for name in given:
            read.append(name)
            yield name

    first = space.mask_of(("listing", 1), names("a", "b"))
    again = space.mask_of(("listing", 1), names("not", "read"))  # the key names the same part: not read again
    other = space.mask_of(("listing", 2), names("b"))
    assert first == again == space.mask(["b", "a"]) and other == space.mask(["b"])
    assert read == ["a", "b", "b"]


def test_a_candidate_given_names_by_hand_holds_them_as_features() -> None:
    candidate = Candidate(0, 0, "pass", "play", frozenset({"a", "b"}), 1)
    assert isinstance(candidate.features, Features) and candidate.features == frozenset({"a", "b"})


def test_the_cover_chooses_alike_from_features_numbered_in_different_spaces() -> None:
    """Candidates whose features were numbered in two spaces (given by hand, then by a game's generation)
    are compared by name: a covers {a, b}, then c adds c; d adds nothing new."""
    left, right = FeatureSpace(), FeatureSpace()
    right.bit("c")
    candidates = [
        Candidate(0, 0, "x", "play", Features(left, left.mask(["a", "b"])), 1),
        Candidate(0, 1, "y", "play", Features(right, right.mask(["b", "c"])), 1),
        Candidate(0, 2, "z", "play", Features(right, right.mask(["a"])), 1),
    ]
    assert greedy_cover(candidates, ["v0", "v1", "v2"]) == [0, 1]
