"""Seeded random play against an engine over the adapter protocol, shrunk to the shortest divergence."""

from __future__ import annotations

import sys

import pytest

from cardrules.oracle.conformance.declaration import LEGACY
from cardrules.oracle.conformance.random_play import random_divergences, random_play
from .conftest import ADAPTERS, REFERENCE

BUGGY = [sys.executable, str(ADAPTERS / "party_damage_per_member.py")]


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_planted_party_damage_bug_is_found_and_shrunk_to_five_actions() -> None:
    # An unblocked party deals exactly one damage: the shortest game showing the planted bug (one damage per
    # member) declares a party attack, passes Attack Declaration, declares no block, passes Block Declaration
    # and passes into Damage Resolution: five actions, the damage seen in the state after the fifth.
    # Seed 29's first game removes a Forward before and one during that attack: shrinking drops both.
    found = random_divergences(BUGGY, LEGACY, "fftcg", 29, 1, 12, 10.0)
    assert len(found) == 1
    result, suite = found[0].result, found[0].suite
    assert (result.kind, result.verdict, result.step) == ("random", "fail", 5)
    assert "FF-PARTY-UNBLOCKED-ONE" in result.blamed
    actions = [step["action"] for step in suite["vectors"][0]["steps"]]
    assert len(actions) == 5
    assert actions[0].startswith("attack ") and len(actions[0].split()) >= 3  # a party: two Forwards or more
    assert actions[1:] == ["pass", "noblock", "pass", "pass"]


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_random_play_is_deterministic_for_a_seed() -> None:
    first = random_play(BUGGY, LEGACY, "fftcg", 29, 1, 12, 10.0)
    again = random_play(BUGGY, LEGACY, "fftcg", 29, 1, 12, 10.0)
    assert [(r.vector, r.step, r.where) for r in first] == [(r.vector, r.step, r.where) for r in again]


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_the_reference_model_never_diverges_from_itself() -> None:
    # Same seed, same games: the walk that exposed the bug above passes on the reference adapter.
    assert random_play(REFERENCE, LEGACY, "fftcg", 29, 3, 12, 10.0) == []
