"""Sets of coverage features held as integers, a bit per feature.

The generator lists tens of thousands of candidates per suite (:mod:`.candidates`), each with a
hundred or so coverage features, most of them shared with its neighbours (the clauses and outcomes of
listing the actions of its state, of its step). Built as sets of strings, the features of one suite
took a fifth of its time: every union copies strings' references, and the set cover hashed and compared
each set again. Here a feature is a bit of a :class:`FeatureSpace` (one per game, numbered in order of
first use in the process), the parts of a candidate's features are worked out once per distinct part
(:meth:`FeatureSpace.mask_of`), and a candidate's features are their bitwise or.

The numbering never shows: a :class:`Features` reads as the set of its names, and the set cover's
choices depend on the sizes of sets and their overlaps, not on which bit a feature has.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Iterator

MEMO_LIMIT = 200_000
"""Parts remembered with their bits (:meth:`FeatureSpace.mask_of`) before the memory of them starts afresh."""


class FeatureSpace:
    """The bit of each feature name met so far, and the bits of each part (a set of names) worked out."""

    def __init__(self) -> None:
        self.bits: dict[str, int] = {}
        self.names: list[str] = []
        self._memo: dict[Hashable, int] = {}

    def bit(self, name: str) -> int:
        """The bit of ``name`` (a new one the first time it is met)."""
        found = self.bits.get(name)
        if found is None:
            found = self.bits[name] = 1 << len(self.names)
            self.names.append(name)
        return found

    def mask(self, names: Iterable[str]) -> int:
        """The bits of ``names``."""
        bits = self.bits
        mask = 0
        for name in names:
            found = bits.get(name)
            mask |= found if found is not None else self.bit(name)
        return mask

    def mask_of(self, key: Hashable, names: Iterable[str]) -> int:
        """The bits of ``names``, worked out once per ``key`` (which must name the same names every time it
        is given: a set of names itself, or what they are made from)."""
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            found = self._memo[key] = self.mask(names)
        return found

    def names_of(self, mask: int) -> frozenset[str]:
        """The names of the bits of ``mask``."""
        names = self.names
        found = []
        while mask:
            low = mask & -mask
            found.append(names[low.bit_length() - 1])
            mask ^= low
        return frozenset(found)


_SPACES: dict[str, FeatureSpace] = {}


def space(game: str) -> FeatureSpace:
    """The feature space of ``game``'s candidates in this process (one per game: a suite's sets stay as
    small as the features of its own game)."""
    found = _SPACES.get(game)
    if found is None:
        found = _SPACES[game] = FeatureSpace()
    return found


class Features:
    """An immutable set of feature names, held as the bits of a :class:`FeatureSpace`: ``in``, iteration,
    ``len``, ``|`` and equality as for a ``frozenset`` of the names."""

    __slots__ = ("space", "mask")

    def __init__(self, space: FeatureSpace, mask: int) -> None:
        self.space = space
        self.mask = mask

    @classmethod
    def of(cls, names: Iterable[str], within: FeatureSpace | None = None) -> "Features":
        """``names`` as features of ``within`` (a space of names given by hand, if None)."""
        found = space("") if within is None else within
        return cls(found, found.mask(names))

    def names(self) -> frozenset[str]:
        return self.space.names_of(self.mask)

    def __contains__(self, name: object) -> bool:
        bit = self.space.bits.get(name) if isinstance(name, str) else None
        return bit is not None and bool(self.mask & bit)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.names()))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __or__(self, other: Iterable[str]) -> "Features":
        if isinstance(other, Features) and other.space is self.space:
            return Features(self.space, self.mask | other.mask)
        return Features(self.space, self.mask | self.space.mask(other))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Features):
            return (self.space is other.space and self.mask == other.mask) or self.names() == other.names()
        if isinstance(other, (set, frozenset)):
            return self.names() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.names())

    def __repr__(self) -> str:
        return f"Features({sorted(self.names())!r})"
