"""The observable projection of an FFTCG position: what players see, never the model's bookkeeping."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.fftcg.observable import observe
from cardrules.model.fftcg.state import Event, Step
from tests.model.fftcg.helpers import fw, play, position

pytestmark = pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-ATTACK-DULLS", "FF-BASE-BLOCK")


def fields(state: object) -> dict[str, object]:
    return dict(observe(state))  # type: ignore[arg-type]


def test_the_event_log_and_attack_memory_are_bookkeeping() -> None:
    state = position([fw("a1")], [fw("b1")])
    logged = replace(state, events=(Event("hit", ("a1",), "p1", 1),), attacked=frozenset({"a1"}))
    assert observe(logged) == observe(state)
    hash(observe(state))


def test_an_attack_dulls_the_attacker_and_hands_the_block_to_the_defender() -> None:
    # FF-BASE-ATTACK-DULLS: attacking dulls a1; FF-BASE-BLOCK: once both pass, p1 (the defender) decides
    # whether to block; until then the turn player holds the decision
    state = position([fw("a1")], [fw("b1")])
    after = play(state, "attack a1")
    assert fields(state)["P0 field"] == (("a1", 0, False),)
    assert fields(after)["P0 field"] == (("a1", 0, True),)
    assert fields(after)["decision"] == (Step.DECLARATION.value, 0)
    assert fields(play(after, "pass"))["decision"] == (Step.BLOCK.value, 1)
    assert fields(after)["attack"] == (("a1",), False, None, None)


def test_damage_and_the_field_as_a_set() -> None:
    first = position([fw("a1"), fw("a2")], [], damage=(0, 5))
    swapped = position([fw("a2"), fw("a1")], [], damage=(0, 5))
    assert observe(first) == observe(swapped)  # the rules give the field no order
    assert fields(first)["P1 damage"] == 5
    assert fields(first)["outcome"] is None
