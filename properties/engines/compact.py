"""Compact storage of explored states: each state packed into a short byte string.

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
from typing import Any, Callable, Generic, Hashable, Iterator, Sequence, TypeVar, cast, overload

S = TypeVar("S")


class Interner:
    """Numbers distinct hashable values 0, 1, 2, ... in order of first sight."""

    def __init__(self) -> None:
        self.number: dict[Hashable, int] = {}
        self.values: list[Any] = []
        self.by_id: dict[int, int] = {}
        """``id()`` of each value kept in ``values`` -> its number. The values are kept alive, so no
        other live object has their ids: an object found here *is* that value, and its number is
        read without hashing it (most parts of a successor are its parent's own, interned, objects)."""

    def __call__(self, value: Hashable) -> int:
        found = self.number.get(value)
        if found is None:
            found = self.number[value] = len(self.values)
            self.values.append(value)
            self.by_id[id(value)] = found
        return found


class StateCodec(Generic[S]):
    """Packs a state as the numbers of its parts; a game says what its parts are."""

    def __init__(self, parts: Callable[[S], tuple[Hashable, ...]], build: Callable[[tuple[Any, ...]], S],
                 log_part: int | None = None) -> None:
        self.parts = parts
        self.build = build
        self.log_part = log_part
        """The index among the parts of the game's write-only log, if it declares one
        (:mod:`cardrules.properties.engines.reuse`): a partitioned search routes by the other parts."""
        self.intern = Interner()

    def pack(self, state: S) -> bytes:
        parts = self.parts(state)
        intern = self.intern
        numbers = list(map(intern.by_id.get, map(id, parts)))
        if None in numbers:  # some part is not itself an interned object: look it up by value
            number = intern.number
            try:
                numbers = [n if n is not None else number[part] for n, part in zip(numbers, parts)]
            except KeyError:  # a new value: numbered in order of first sight
                numbers = [n if n is not None else intern(part) for n, part in zip(numbers, parts)]
        return array("I", cast("list[int]", numbers)).tobytes()  # every None was filled in above

    def interned(self, state: S) -> S:
        """``state`` rebuilt from the interned values of its parts (each part numbered, when new): equal
        to it, and packed without hashing any part but those built afresh by ``parts`` itself."""
        intern, values = self.intern, self.intern.values
        by_id = intern.by_id
        return self.build(tuple(part if id(part) in by_id else values[intern(part)] for part in self.parts(state)))

    def unpack(self, packed: bytes) -> S:
        values = self.intern.values
        return self.build(tuple(values[n] for n in array("I", packed)))


class PackedStates(Sequence[S]):
    """The explored states, stored packed, unpacked when read."""

    def __init__(self, packed: Sequence[bytes], unpack: Callable[[bytes], S]) -> None:
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


class PackedTable:
    """The visited set of an exploration with a codec: packed keys of one fixed width, stored one
    after the other in one ``bytearray`` in the order they were added, and an open-addressing hash
    table of their indices (linear probing, at most half full).

    Per state that is the key's bytes and 8 to 16 bytes of table, with no Python object (a set of
    ``bytes`` costs a 33-byte object header per key and 27 to 53 bytes of table). ``add`` gives the
    index of a key, new or not, so the explorer keeps no key -> index map beside it.
    """

    def __init__(self) -> None:
        self.width = 0
        self.keys = bytearray()
        self.slots = array("i", [-1]) * 1024
        self.mask = 1023
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def key(self, index: int) -> bytes:
        width = self.width
        return bytes(self.keys[index * width:(index + 1) * width])

    def _slot(self, key: bytes) -> int:
        """The slot holding ``key``, or the empty slot where it would go (linear probing)."""
        slots, keys, width, mask = self.slots, self.keys, self.width, self.mask
        slot = hash(key) & mask
        while True:
            index = slots[slot]
            if index < 0 or keys[index * width:(index + 1) * width] == key:
                return slot
            slot = (slot + 1) & mask

    def find(self, key: bytes) -> int:
        """The index of ``key``, or -1."""
        return self.slots[self._slot(key)]

    def add(self, key: bytes) -> tuple[int, bool]:
        """(the index of ``key``, whether it was new): a new key gets the next index."""
        if not self.width:
            self.width = len(key)
        elif len(key) != self.width:
            raise ValueError(f"packed keys of {len(key)} bytes in a table of {self.width}-byte keys")
        slot = self._slot(key)
        found = self.slots[slot]
        if found >= 0:
            return found, False
        index = self.count
        self.slots[slot] = index
        self.keys += key
        self.count += 1
        if 2 * self.count > self.mask:
            self._grow()
        return index, True

    def _grow(self) -> None:
        size = 2 * (self.mask + 1)
        slots = array("i", [-1]) * size
        mask, keys, width = size - 1, self.keys, self.width
        for index in range(self.count):
            slot = hash(bytes(keys[index * width:(index + 1) * width])) & mask
            while slots[slot] >= 0:
                slot = (slot + 1) & mask
            slots[slot] = index
        self.slots, self.mask = slots, mask


class StoredPacked(Sequence[bytes]):
    """The packed states of an exploration by index: each state's key in a :class:`PackedTable`,
    except those stored apart (a state whose canonical key is another state's packing)."""

    def __init__(self, table: PackedTable, apart: dict[int, bytes]) -> None:
        self.table = table
        self.apart = apart

    def __len__(self) -> int:
        return len(self.table)

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        found = self.apart.get(index)
        return found if found is not None else self.table.key(index)
