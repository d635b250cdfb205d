"""Targeted FFTCG refusals: action texts derived from a state that break one party clause.

Each function takes a state's JSON form and its legal action texts and gives
the action texts to try (see :data:`cardrules.oracle.conformance.targeted.TARGETED`).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence


def split_off_the_unit(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """FF-BASE-PARTY-SPLIT: the first legal split of the blocker's damage with 500 moved from its (first)
    largest share to the next member: the same members and total, in shares that are not whole thousands."""
    for text in legal():
        words = text.split(" ")
        if words[0] != "split" or len(words) < 3:
            continue
        members = [w.split("=", 1)[0] for w in words[1:]]
        amounts = [int(w.split("=", 1)[1]) for w in words[1:]]
        largest = amounts.index(max(amounts))
        if amounts[largest] < 500:
            return []
        amounts[largest] -= 500
        amounts[(largest + 1) % len(amounts)] += 500
        return ["split " + " ".join(f"{m}={a}" for m, a in zip(members, amounts))]
    return []


def party_without_a_common_element(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """FF-PARTY-ELEMENT: two Forwards that may each attack alone, share no element and do not both have the
    P icon, declared together as a party. Whether a group forms a party never changes in play, so no
    scenario's graph holds such a declaration as a legal action to reuse."""
    texts = set(legal())
    alone = sorted(t.split(" ")[1] for t in texts if t.startswith("attack ") and len(t.split(" ")) == 2)
    player = state["players"][state["turn_player"]]
    cards = {f["id"]: f for f in player.get("forwards", [])}
    for n, first in enumerate(alone):
        for second in alone[n + 1:]:
            a, b = cards.get(first), cards.get(second)
            if a is None or b is None or set(a["elements"]) & set(b["elements"]):
                continue
            if a.get("p_icon") and b.get("p_icon"):
                continue
            if f"attack {first} {second}" not in texts:
                return [f"attack {first} {second}"]
    return []
