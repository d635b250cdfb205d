"""Canonical state keys under symmetry: interchangeable cards explored once.

Two cards are interchangeable when they are the same printed card (every
static attribute equal, only the id differs). Renaming such cards among
themselves maps a state to an equivalent one. The canonical key of a state is
the smallest serialisation over every such renaming (the orbit's
representative), so two states get the same key exactly when a renaming of
identical cards turns one into the other.

The fast path: a state with no two identical cards is its own key.
:func:`canonical_dataclass_key` reads a frozen dataclass state directly (no
JSON form on the way): it freezes the state once into nested tuples, marking
the set-like collections, and only renames and re-sorts that tree for each
renaming.
"""

from __future__ import annotations

import dataclasses
import enum
from functools import lru_cache
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


class _Unordered(tuple):
    """A frozen collection whose order the rules never read (sorted again after each renaming)."""

    __slots__ = ()


class _Record(tuple):
    """A dataclass value's frozen fields (a plain tuple in every other way: the same ``repr``)."""

    __slots__ = ()


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


_MEMO_LIMIT = 50_000
"""Entries each identity memo below keeps before it is emptied (a bound on its memory: a few tens of MB)."""
_FROZEN: dict[int, tuple[Any, frozenset[str], Any]] = {}
"""``id()`` of a dataclass value -> (the value, kept alive so that its id stays its own; the ``unordered``
names it was frozen with; its frozen form)."""
_FROZEN_BY_VALUE: dict[tuple[Any, frozenset[str]], Any] = {}
"""(a dataclass value, the ``unordered`` names) -> its frozen form: equal values (the class is part of a
dataclass's equality) share one frozen object."""
_RENAMED: dict[tuple[int, int], tuple[Any, Mapping[str, str], str]] = {}
"""(``id()`` of a frozen record, ``id()`` of a renaming) -> (the record and renaming, kept alive; the
text of the record renamed)."""


def _freeze_value(value: Any, unordered: frozenset[str], key: str = "") -> Any:
    """``value`` as nested tuples: a dataclass is the :class:`_Record` of its fields in declaration order
    (one state type per place, so names are not needed); an enum its value; a frozenset, or a tuple held
    by a field named in ``unordered``, an :class:`_Unordered` of its items; scalars themselves.

    A dataclass value is frozen once while it lives (values are immutable, and a successor shares most
    of its parent's): its frozen form is remembered by identity, and by value (:data:`_FROZEN_BY_VALUE`,
    for an equal value built afresh by a step), which makes the same frozen object stand for it in
    every state that holds it (:func:`_renamed_text` remembers by that identity in turn)."""
    kind: type = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is tuple:
        items = tuple(_freeze_value(item, unordered) for item in value)
        return _Unordered(items) if key in unordered else items
    if kind is frozenset:
        return _Unordered(_freeze_value(item, unordered) for item in value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        found = _FROZEN.get(id(value))
        if found is not None and found[0] is value and found[1] is unordered:
            return found[2]
        by_value = (value, unordered)
        hashable = True
        try:
            frozen = _FROZEN_BY_VALUE.get(by_value)
        except TypeError:  # an unhashable value (a state's values are hashable): frozen afresh, not kept
            frozen, hashable = None, False
        if frozen is None:
            frozen = _Record(_freeze_value(getattr(value, name), unordered, name) for name in _field_names(kind))
            if hashable:
                if len(_FROZEN_BY_VALUE) >= _MEMO_LIMIT:
                    _FROZEN_BY_VALUE.clear()
                _FROZEN_BY_VALUE[by_value] = frozen
        if len(_FROZEN) >= _MEMO_LIMIT:
            _FROZEN.clear()
        _FROZEN[id(value)] = (value, unordered, frozen)
        return frozen
    raise TypeError(f"no frozen form for {kind.__name__}")


def _renamed_text(node: Any, rename: Mapping[str, str]) -> str:
    """``repr`` of ``node`` (a frozen form) renamed by ``rename``, each :class:`_Unordered` collection
    sorted by its renamed items' text: the text of the renamed tree, written without building it.

    A record's text is remembered by the identities of the record and the renaming (the frozen
    records are shared by the states that hold the same values, so most of a successor's text is
    found there); a tuple's text is ``repr``'s: ``(a, b)``, ``(a,)`` or ``()``."""
    kind = type(node)
    if kind is str:
        return repr(rename.get(node, node))
    if kind is _Record:
        memo_key = (id(node), id(rename))
        found = _RENAMED.get(memo_key)
        if found is not None and found[0] is node and found[1] is rename:
            return found[2]
        text = _tuple_text([_renamed_text(item, rename) for item in node])
        if len(_RENAMED) >= _MEMO_LIMIT:
            _RENAMED.clear()
        _RENAMED[memo_key] = (node, rename, text)
        return text
    if kind is tuple:
        return _tuple_text([_renamed_text(item, rename) for item in node])
    if kind is _Unordered:
        return _tuple_text(sorted(_renamed_text(item, rename) for item in node))
    return repr(node)


def _tuple_text(items: list[str]) -> str:
    """``repr`` of a tuple whose items' ``repr`` are ``items``."""
    if len(items) == 1:
        return f"({items[0]},)"
    return f"({', '.join(items)})"


@lru_cache(maxsize=64)
def _renamings(classes: tuple[tuple[str, ...], ...]) -> tuple[dict[str, str], ...]:
    """Every renaming within ``classes``, in the order of the product of their permutations (the same
    objects every time: :func:`_renamed` remembers its answers by them)."""
    return tuple({old: new for ids, perm in zip(classes, choice) for old, new in zip(ids, perm)}
                 for choice in product(*(permutations(ids) for ids in classes)))


def canonical_dataclass_key(
    state: Any, classes: Sequence[Sequence[str]], unordered: frozenset[str] = frozenset()
) -> str:
    """The smallest serialisation of a frozen dataclass ``state`` over renamings within ``classes``:
    the same equivalence as :func:`canonical_json_key` on the state's JSON form (a frozenset is a set,
    as are the tuples of fields named in ``unordered``; every other order is kept), without it."""
    # the state itself is frozen and renamed without the memories (it is asked once); its parts with them
    kind: type = type(state)
    frozen = (tuple(_freeze_value(getattr(state, name), unordered, name) for name in _field_names(kind))
              if dataclasses.is_dataclass(state) else _freeze_value(state, unordered))
    best: str | None = None
    for rename in _renamings(tuple(tuple(ids) for ids in classes)):
        text = _renamed_text(frozen, rename)
        if best is None or text < best:
            best = text
    assert best is not None
    return best
