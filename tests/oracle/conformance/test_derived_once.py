"""A targeted derivation's actions are worked out once per state JSON object and list of legal actions.

The suites of a game derive refusals at mostly the same states (:func:`~cardrules.oracle.conformance.candidates.
derived`); what a derivation gives must still follow what it is given: the state, and the legal actions where
it asks for them (they depend on the rule set).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import pytest

from cardrules.oracle.conformance.candidates import derived

pytestmark = pytest.mark.infrastructure("the conformance generator's targeted derivations, remembered")


def _counting(asks_legal: bool) -> tuple[Callable[[Any, Callable[[], Sequence[str]]], list[str]], list[int]]:
    calls = [0]

    def derive(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
        calls[0] += 1
        texts = [f"play {card} on x" for card in state["cards"]]
        return texts + [f"not {text}" for text in legal()] if asks_legal else texts

    return derive, calls


def test_a_derivation_that_reads_the_legal_actions_is_asked_again_only_when_they_differ() -> None:
    derive, calls = _counting(asks_legal=True)
    state = {"cards": ["a", "b"]}
    first = derived(derive, state, lambda: ["next"])
    again = derived(derive, state, lambda: ["next"])
    other = derived(derive, state, lambda: ["pass"])
    assert first == again == ("play a on x", "play b on x", "not next")
    assert other == ("play a on x", "play b on x", "not pass")
    assert calls[0] == 2


def test_a_derivation_of_the_state_alone_is_given_again_whatever_is_legal() -> None:
    derive, calls = _counting(asks_legal=False)
    state = {"cards": ["c"]}
    asked: list[str] = []
    assert derived(derive, state, lambda: asked.append("one") or ["next"]) == ("play c on x",)
    assert derived(derive, state, lambda: asked.append("two") or ["pass"]) == ("play c on x",)
    assert calls[0] == 1 and asked == []


def test_an_equal_but_other_state_object_is_derived_afresh() -> None:
    """Objects are told apart by identity (the state JSON of equal states is one object): an equal copy is
    derived again, and a different state gives its own actions."""
    derive, calls = _counting(asks_legal=False)
    assert derived(derive, {"cards": ["d"]}, lambda: []) == ("play d on x",)
    assert derived(derive, {"cards": ["d"]}, lambda: []) == ("play d on x",)
    assert derived(derive, {"cards": ["e"]}, lambda: []) == ("play e on x",)
    assert calls[0] == 3
