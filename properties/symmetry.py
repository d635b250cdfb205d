"""Canonical state keys under symmetry: interchangeable cards explored once.

Two cards are interchangeable when they are the same printed card (every
static attribute equal, only the id differs). Renaming such cards among
themselves maps a state to an equivalent one. The canonical key of a state is
the smallest serialisation over every such renaming (the orbit's
representative), so two states get the same key exactly when a renaming of
identical cards turns one into the other.

The fast path: a state with no two identical cards is its own key.
"""

from __future__ import annotations

from itertools import permutations, product
from typing import Any, Hashable, Iterable, Mapping, Sequence


def _freeze(value: Any, rename: Mapping[str, str], unordered: frozenset[str], key: str = "") -> Any:
    if isinstance(value, str):
        return rename.get(value, value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(item, rename, unordered, k)) for k, item in value.items()))
    if isinstance(value, list):
        items = [_freeze(item, rename, unordered) for item in value]
        if key in unordered:
            return tuple(sorted(items, key=repr))
        return tuple(items)
    return value


def interchangeable_classes(cards: Iterable[tuple[str, Hashable]]) -> list[list[str]]:
    """Group card ids by static signature; only groups of two or more are returned."""
    groups: dict[Hashable, list[str]] = {}
    for card_id, signature in cards:
        groups.setdefault(signature, []).append(card_id)
    return [sorted(ids) for ids in groups.values() if len(ids) > 1]


def canonical_json_key(data: Any, classes: Sequence[Sequence[str]], unordered: frozenset[str] = frozenset()) -> str:
    """The smallest serialisation of ``data`` (a JSON form) over renamings within ``classes``.

    ``unordered``: keys whose list values are sets in the model's meaning (a
    zone whose order the rules never read); they are sorted after renaming.
    """
    best: str | None = None
    for choice in product(*(permutations(ids) for ids in classes)):
        rename = {old: new for ids, perm in zip(classes, choice) for old, new in zip(ids, perm)}
        text = repr(_freeze(data, rename, unordered))
        if best is None or text < best:
            best = text
    assert best is not None
    return best
