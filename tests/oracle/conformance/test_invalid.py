"""Invalid-state vectors rest on the state's consistency rules only: never on the card list's order
(an engine may sort on load) nor on the reference model's input bounds (limits of this model)."""

from __future__ import annotations

import pytest

from cardrules.oracle.conformance.invalid import corruptions, invalid_candidates
from cardrules.properties.scenarios import load_scenarios

pytestmark = pytest.mark.infrastructure("the conformance suites' invalid-state vectors: what they may rest on")


def _start(name: str) -> dict:
    return next(s for s in load_scenarios() if s.name == name).state


def test_a_card_in_no_zone_is_a_candidate_and_the_card_order_is_not() -> None:
    state = _start("redemption-plain-battle")
    assert not any(change == "unsorted" for _, change, _ in corruptions(state))
    found = invalid_candidates("redemption", "redemption-plain-battle", [state])
    # player 0's territory holds f1, h1 and h2: dropping f1 leaves it in no zone, and the model has no
    # removed-from-game zone, so every card is in exactly one place
    dropped = [c for c in found if c.field == "zones[].territory" and c.change == "dropped"]
    assert dropped and "f1" in dropped[0].problem and "no" in dropped[0].problem


def test_no_candidate_rests_on_a_bound_of_the_model() -> None:
    # strength 99 is the model's MAX_NUMBER: one more is past a bound of this model, not against a rule
    state = _start("redemption-plain-battle")
    state["cards"][0]["strength"] = 99
    found = invalid_candidates("redemption", "redemption-plain-battle", [state])
    assert not any(c.field == "cards[].strength" and c.change == "+1" for c in found)
