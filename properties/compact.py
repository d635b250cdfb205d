"""Compact storage of explored states: each state packed into a short byte string (issue 17).

A :class:`StateCodec` interns the parts of a state (each distinct part value
gets a small integer, once per exploration) and packs a state as the
machine-integer array of its parts' numbers. Equal states pack to equal bytes
and different states to different bytes (interning is a bijection between
part values and numbers, and the layout is fixed), so the packed bytes are an
exact key: the explorer finds the same distinct states as with the states
themselves, in far less memory, since the parts are shared by every state
that has them. :class:`PackedStates` gives the packed states back as states,
unpacked on access.
"""

from __future__ import annotations

from array import array
from typing import Any, Callable, Generic, Hashable, Iterator, Sequence, TypeVar, overload

S = TypeVar("S")


class Interner:
    """Numbers distinct hashable values 0, 1, 2, ... in order of first sight."""

    def __init__(self) -> None:
        self.number: dict[Hashable, int] = {}
        self.values: list[Any] = []

    def __call__(self, value: Hashable) -> int:
        found = self.number.get(value)
        if found is None:
            found = self.number[value] = len(self.values)
            self.values.append(value)
        return found


class StateCodec(Generic[S]):
    """Packs a state as the numbers of its parts; a game says what its parts are."""

    def __init__(self, parts: Callable[[S], tuple[Hashable, ...]], build: Callable[[tuple[Any, ...]], S]) -> None:
        self.parts = parts
        self.build = build
        self.intern = Interner()

    def pack(self, state: S) -> bytes:
        intern = self.intern
        return array("I", [intern(part) for part in self.parts(state)]).tobytes()

    def unpack(self, packed: bytes) -> S:
        values = self.intern.values
        return self.build(tuple(values[n] for n in array("I", packed)))


class PackedStates(Sequence[S]):
    """The explored states, stored packed, unpacked when read."""

    def __init__(self, packed: list[bytes], unpack: Callable[[bytes], S]) -> None:
        self.packed = packed
        self.unpack = unpack

    def __len__(self) -> int:
        return len(self.packed)

    @overload
    def __getitem__(self, index: int) -> S: ...

    @overload
    def __getitem__(self, index: slice) -> list[S]: ...

    def __getitem__(self, index: int | slice) -> S | list[S]:
        if isinstance(index, slice):
            return [self.unpack(p) for p in self.packed[index]]
        return self.unpack(self.packed[index])

    def __iter__(self) -> Iterator[S]:
        return (self.unpack(p) for p in self.packed)
