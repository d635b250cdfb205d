"""One partition of the hash-partitioned parallel search: the states one worker owns.

A :class:`Partition` keeps the visited set of the states whose canonical
state hashes to it, checks and expands its part of each level's frontier,
keeps the successors it owns and sends the others to their owners, one batch
per owner, tagged ``parent index << 16 | action position`` (see
:mod:`cardrules.properties.engines.parallel`, which coordinates the levels,
and :mod:`cardrules.properties.engines.processes` and
:mod:`cardrules.properties.engines.ray_backend`, where partitions run).
"""

from __future__ import annotations

import dataclasses
import json
import resource
import time
import zlib
from array import array
from typing import Any, Hashable, Iterable, Sequence, TypeGuard

from cardrules.properties.core import Property
from cardrules.properties.engines.compact import StateCodec
from cardrules.properties.engines.exploration import Bounds, Game, game_codec
from cardrules.properties.engines.reuse import Expander

POSITION_BITS = 16
"""A successor's tag is ``parent index << 16 | action position``: one integer that sorts as the
sequential search meets successors (a root's parent index is -1)."""


def _tag(index: int, position: int) -> int:
    return index << POSITION_BITS | position


def _portable_owner(game: Game[Any, Any], canon: Any, workers: int) -> int:
    """The owner by a hash every process computes alike (separate interpreters, as Ray's, hash ``None``
    and strings differently): CRC-32 of the canonical state's JSON text."""
    text = canon if isinstance(canon, str) else json.dumps(game.state_to_json(canon), sort_keys=True)
    return zlib.crc32(text.encode()) % workers


def _all_numbered(numbers: list[int | None]) -> TypeGuard[list[int]]:
    """Whether every part was found interned (no None among the numbers)."""
    return None not in numbers


@dataclasses.dataclass
class Report:
    """What a partition found while expanding its part of one level (all indices are sequential ones)."""

    terminals: list[int]
    deadlocks: list[int]
    turn_bounded: bool
    transitions: int
    state_violations: list[tuple[str, int]]
    """(property, state index): each property's first violation in this partition's part of the level."""
    transition_violations: list[tuple[str, int, int]]
    """(property, parent index, action position): likewise, for transition properties."""
    expand_cpu: float
    receive_cpu: float = 0.0
    reused: int = 0
    """States of the level whose expansion was reused (:class:`cardrules.properties.engines.reuse.Expander`)."""


class _Outbox:
    """The successors one level sends to other owners: per owner their tags, and (by the way states
    cross) the states, or their packed keys and the packed states stored apart from their keys."""

    def __init__(self, workers: int) -> None:
        self.sent: set[Hashable] = set()  # keys sent this level (to any owner)
        self.keys = [bytearray() for _ in range(workers)]
        self.tags = [array("q") for _ in range(workers)]
        self.items: list[list[Any]] = [[] for _ in range(workers)]

    def first(self, key: Hashable, sent_before: set[Hashable]) -> bool:
        """Whether ``key`` is to be sent: not sent this level nor the previous one (its owner then has
        it, or gets it this level with a smaller tag). A key to send is marked sent."""
        if key in self.sent or key in sent_before:
            return False
        self.sent.add(key)
        return True


class Partition:
    """The states one worker owns: visited set, the level's new states, and frontier.

    The same object runs in a forked process (the ``processes`` backend) or
    as a Ray actor (the ``ray`` backend, :mod:`cardrules.properties.engines.ray_backend`).

    Forked, with a codec (FFTCG), the loop is the sequential explorer's: the
    frontier holds packed states (unpacked when expanded), the canonical
    state is packed inline (parts found by ``id()`` first), properties
    already violated are no longer checked. A state's owner is a hash of its
    packed parts' own hashes (each part hashed once, when first interned;
    forked processes hash alike), so routing costs a few list reads. A
    successor crosses to its owner as its packed key in the sender's own
    numbering, with the values of the parts that owner has not had yet; the
    owner translates the numbers to its codec's and has the key, without
    canonicalising or hashing the state again.
    """

    def __init__(self, number: int, workers: int, game: Game[Any, Any], properties: Sequence[Property],
                 bounds: Bounds, portable: bool = False, reuse: bool = True) -> None:
        self.portable = portable
        """Partitions in separate interpreters (not forked): route by a portable hash, rebuild received states."""
        self.number = number
        self.workers = workers
        self.game = game
        self.bounds = bounds
        self.codec: StateCodec[Any] | None = game_codec(game)
        self.log_part = self.codec.log_part if self.codec is not None else None
        self.expander: Expander[Any, Any] = Expander(
            game, reuse, prepare=self.codec.interned if self.codec is not None else None)
        """Lists each frontier state's actions and successors (``reuse``: shared across states that differ
        only in a log the game declares write-only, :mod:`cardrules.properties.engines.reuse`)."""
        self.pending_state = [(p.name, p.check) for p in properties if p.kind == "state"]
        self.pending_transition = [(p.name, p.check) for p in properties if p.kind == "transition"]
        """The checks of properties not known to be violated (the first violation is the one reported)."""
        self.seen: set[Hashable] = set()
        """Keys of the states this partition owns: stored, or new this level."""
        self.best: dict[Hashable, int] = {}
        """The level's new states: key -> smallest tag that reaches it."""
        self.held: dict[Hashable, Any] = {}
        """The level's new states whose stored form is not their key: key -> packed state (with a codec,
        when the canonical state is not the state itself) or the state (without a codec)."""
        self.pending: list[Hashable] = []
        self.pending_stored: list[Any] = []
        """The level's new states in tag order (keys, stored forms), waiting for their indices."""
        self.frontier: list[tuple[int, Any]] = []
        """(index, stored form) of the states to expand, by index."""
        self.stored_keys: list[Hashable] = []
        self.stored_index = array("i")
        """Key and index of each numbered state (for :meth:`lookup`, which builds its map once)."""
        self.index_of: dict[Hashable, int] | None = None
        self.sent_before: set[Hashable] = set()
        """Keys sent to other workers during the previous level: their owners have them now."""
        self.part_hash: list[int] = []
        """With a codec: hash of each interned part value, by its number (the owner is read off these)."""
        self.told: list[set[int]] = [set() for _ in range(workers)]
        """Part numbers whose values each other worker has been sent."""
        self.translate: list[dict[int, int]] = [{} for _ in range(workers)]
        """Each other worker's part numbers -> this codec's numbers."""
        self.exchange_wait = 0.0
        """Seconds spent waiting for the other workers' successors (processes backend)."""

    # -- keys and owners ---------------------------------------------------------------------------

    def _sync_hashes(self, codec: StateCodec[Any]) -> None:
        """Hash the parts interned since the last call (parts interned by an expansion, or by a ``pack``)."""
        values, hashes = codec.intern.values, self.part_hash
        if len(hashes) < len(values):
            hashes.extend(map(hash, values[len(hashes):]))

    def _key_owner(self, state: Any) -> tuple[Hashable, int, Any]:
        """(key, owner, canonical state) of ``state``, as the expansion loop computes them inline."""
        canon = self.game.canonical_key(state)
        codec = self.codec
        if codec is None:
            key: Hashable = canon
            owner = _portable_owner(self.game, canon, self.workers) if self.portable else hash(canon) % self.workers
            return key, owner, canon
        numbers = [codec.intern(part) for part in codec.parts(canon)]
        self._sync_hashes(codec)
        key = array("I", numbers).tobytes()
        if self.portable:
            return key, _portable_owner(self.game, canon, self.workers), canon
        return key, self._owner(numbers), canon

    def _packed_route(self, codec: StateCodec[Any], canon: Any) -> tuple[bytes, int]:
        """(packed key, owner) of a canonical state: ``codec.pack`` inline (parts found by ``id()`` first),
        the owner read off the parts' hashes."""
        intern = codec.intern
        parts = codec.parts(canon)
        found = list(map(intern.by_id.get, map(id, parts)))
        numbers = found if _all_numbered(found) else [n if n is not None else intern(part)
                                                      for n, part in zip(found, parts)]
        if len(self.part_hash) < len(intern.values):
            self._sync_hashes(codec)
        key = array("I", numbers).tobytes()
        if self.portable:
            return key, _portable_owner(self.game, canon, self.workers)
        return key, self._owner(numbers)

    def _owner(self, numbers: list[int]) -> int:
        """The owner of a packed state by its parts' hashes; without its write-only log part when the
        codec has one (:attr:`StateCodec.log_part`), so that states differing only in their logs meet in
        one partition, where their expansions are listed once (:mod:`cardrules.properties.engines.reuse`)."""
        log_part = self.log_part
        if log_part is not None:
            numbers = numbers[:log_part] + numbers[log_part + 1:]
        return hash(tuple(map(self.part_hash.__getitem__, numbers))) % self.workers

    def _stored(self, state: Any, canon: Any) -> Any:
        """What to hold for a state whose stored form is not its key (None: it is its key)."""
        if self.codec is None:
            return state
        return None if canon is state else self.codec.pack(state)

    def _local(self, state: Any) -> Any:
        """A state that came from another interpreter, rebuilt here: a model's state may carry a cached
        hash, and another process (a Ray actor, the driver) may hash strings differently."""
        return self.game.state_from_json(self.game.state_to_json(state))

    def _offer(self, key: Hashable, tag: int, stored: Any) -> None:
        """A successor reaching ``key`` by ``tag``: kept if the key is new and the tag the smallest yet."""
        if key in self.seen:
            return
        found = self.best.get(key)
        if found is None or tag < found:
            self.best[key] = tag
            if stored is not None:
                self.held[key] = stored
            elif found is not None:
                self.held.pop(key, None)

    def _claim(self, key: Hashable, tag: int) -> bool:
        """Keep a successor of this level's own expansion reaching ``key`` by ``tag``, unless the key is
        known or reached already this level (by a smaller tag: the expansion goes in tag order)."""
        if key in self.seen or key in self.best:
            return False
        self.best[key] = tag
        return True

    def _forget(self, names: Iterable[str]) -> None:
        """Stop checking properties known to be violated (in place: the loops hold the lists)."""
        names = set(names)
        if names:
            self.pending_state[:] = [(n, c) for n, c in self.pending_state if n not in names]
            self.pending_transition[:] = [(n, c) for n, c in self.pending_transition if n not in names]

    # -- one level ---------------------------------------------------------------------------------

    def roots(self, roots: list[tuple[int, Any]]) -> bytes:
        """Keep the roots this partition owns: the tags of the new ones (as :meth:`receive`)."""
        for order, root in roots:
            root = self._local(root)
            key, owner, canon = self._key_owner(root)
            if owner == self.number:
                self._offer(key, _tag(-1, order), self._stored(root, canon))
        return self._settle()

    def numbers(self, numbers: bytes, violated: Sequence[str] = ()) -> None:
        """The sequential indices of the pending new states (increasing, as their tags): the next frontier.
        ``violated``: properties violated anywhere so far, no longer checked."""
        indices = array("i")
        indices.frombytes(numbers)
        self.frontier = list(zip(indices, self.pending_stored))
        self.stored_keys.extend(self.pending)
        self.stored_index.extend(indices)
        self.pending, self.pending_stored = [], []
        self._forget(violated)

    def expand(self, check_only: bool = False) -> tuple[Report, list[Any]]:
        """Check and expand the frontier: (what it found, the successors for each other owner; None for
        this one, whose successors are offered here directly). ``check_only``: the depth bound is
        reached, only the state properties are checked (as the sequential search checks its last level)."""
        started = time.process_time()
        codec = self.codec
        report = Report([], [], False, 0, [], [], 0.0)
        out = _Outbox(self.workers)
        reused_before = self.expander.reused
        for index, stored in self.frontier:
            state = codec.unpack(stored) if codec is not None else stored
            self._check_state(index, state, report)
            if check_only:
                continue
            expansion = self._expansion(index, state, report)
            if expansion is not None:
                self._expand_state(index, state, expansion, report, out)
        self.sent_before = out.sent
        outgoing: list[Any] = [None] * self.workers if check_only else self._payloads(out)
        report.reused = self.expander.reused - reused_before
        report.expand_cpu = time.process_time() - started
        return report, outgoing

    def _check_state(self, index: int, state: Any, report: Report) -> None:
        """Check a frontier state against the state properties not known to be violated."""
        if self.pending_state:
            violations = report.state_violations
            found = len(violations)
            for name, check in self.pending_state:
                if not check(self.game, state):
                    violations.append((name, index))
            if len(violations) != found:
                self._forget(name for name, _ in violations)

    def _expansion(self, index: int, state: Any, report: Report) -> tuple[Sequence[Any], list[Any]] | None:
        """The legal actions of a frontier state and the successor by each, or None when it is not
        expanded (terminal, past the turn bound, or a deadlock: each reported)."""
        if self.game.is_terminal(state):
            report.terminals.append(index)
            return None
        if self.bounds.max_turns is not None and self.game.turn(state) > self.bounds.max_turns:
            report.turn_bounded = True
            return None
        actions, successors = self.expander.expand(state)
        if not actions:
            report.deadlocks.append(index)
            return None
        return actions, successors

    def _expand_state(self, index: int, state: Any, expansion: tuple[Sequence[Any], list[Any]], report: Report,
                      out: _Outbox) -> None:
        """Take each action from frontier state ``index``: check the transition, keep or send the successor."""
        actions, successors = expansion
        if len(actions) >> POSITION_BITS:
            raise ValueError(f"state {index} has {len(actions)} legal actions; the parallel search takes "
                             f"at most {(1 << POSITION_BITS) - 1}")
        game, codec = self.game, self.codec
        pending_transition, violations = self.pending_transition, report.transition_violations
        base = index << POSITION_BITS
        for position, (action, successor) in enumerate(zip(actions, successors)):
            report.transitions += 1
            found = len(violations)
            for name, check in pending_transition:
                if not check(game, state, action, successor):
                    violations.append((name, index, position))
            if len(violations) != found:
                self._forget(name for name, _, _ in violations)
            if codec is not None:
                self._successor_packed(codec, successor, base | position, out)
            else:
                self._successor_object(successor, base | position, out)

    def _successor_object(self, successor: Any, tag: int, out: _Outbox) -> None:
        """Without a codec: keep a successor this partition owns, or queue it for its owner."""
        canon = self.game.canonical_key(successor)
        owner = _portable_owner(self.game, canon, self.workers) if self.portable else hash(canon) % self.workers
        if owner == self.number:
            if self._claim(canon, tag):
                self.held[canon] = successor
        elif out.first(canon, self.sent_before):
            out.tags[owner].append(tag)
            out.items[owner].append(successor if self.portable else (successor, None if canon is successor else canon))

    def _successor_packed(self, codec: StateCodec[Any], successor: Any, tag: int, out: _Outbox) -> None:
        """With a codec: keep a successor this partition owns (packed apart when its canonical state is
        not itself), or queue it for its owner (forked: as its packed key in this codec's numbering)."""
        canon = self.game.canonical_key(successor)
        key, owner = self._packed_route(codec, canon)
        if owner == self.number:
            if self._claim(key, tag) and canon is not successor:
                self.held[key] = codec.pack(successor)
        elif out.first(key, self.sent_before):
            out.tags[owner].append(tag)
            if self.portable:
                out.items[owner].append(successor)
            else:
                out.keys[owner] += key
                if canon is not successor:
                    out.items[owner].append((len(out.tags[owner]) - 1, codec.pack(successor)))

    def _payloads(self, out: _Outbox) -> list[Any]:
        """One payload per other owner (None for this one), as :meth:`receive` takes them."""
        outgoing: list[Any] = [None] * self.workers
        codec = self.codec
        for other in range(self.workers):
            if other == self.number:
                continue
            if codec is None or self.portable:
                outgoing[other] = (out.tags[other].tobytes(), out.items[other])
            else:
                outgoing[other] = self._parts_payload(codec, other, out)
        return outgoing

    def _parts_payload(self, codec: StateCodec[Any], other: int, out: _Outbox) -> tuple[Any, ...]:
        """The packed successors for owner ``other``: the values of the parts it has not had yet, the keys,
        the tags, and the packed states stored apart from their keys (by their position)."""
        needed = set(array("I", out.keys[other]))
        for _, packed in out.items[other]:
            needed.update(array("I", packed))
        new = needed - self.told[other]
        self.told[other] |= new
        values = codec.intern.values
        return (sorted((n, values[n]) for n in new), bytes(out.keys[other]), out.tags[other].tobytes(),
                out.items[other])

    def receive(self, payloads: Sequence[tuple[int, Any]]) -> tuple[bytes, float]:
        """Offer the successors the other partitions sent ((source, payload) as :meth:`expand` made
        them; None payloads are skipped), then settle the level: (tags of the new states in order,
        CPU seconds spent)."""
        started = time.process_time()
        offer = self._offer
        codec = self.codec
        for source, payload in payloads:
            if payload is None:
                continue
            if codec is not None and not self.portable:
                self._receive_parts(codec, source, payload)
                continue
            tags, items = payload
            tag_list = array("q")
            tag_list.frombytes(tags)
            for tag, item in zip(tag_list, items):
                if self.portable:
                    successor = self._local(item)
                    key, _, canon = self._key_owner(successor)
                    offer(key, tag, self._stored(successor, canon))
                else:
                    successor, canon = item
                    offer(successor if canon is None else canon, tag, successor)
        return self._settle(), time.process_time() - started

    def _receive_parts(self, codec: StateCodec[Any], source: int, payload: Any) -> None:
        """Successors sent as packed keys in the sender's numbering (see :meth:`expand`)."""
        new_values, keys, tags, apart = payload
        intern = codec.intern
        table = self.translate[source]
        for n, value in new_values:
            table[n] = intern(value)
        self._sync_hashes(codec)
        translated = array("I", map(table.__getitem__, array("I", keys))).tobytes()
        tag_list = array("q")
        tag_list.frombytes(tags)
        if not tag_list:
            return
        width = len(translated) // len(tag_list)
        stored_of = {item: array("I", map(table.__getitem__, array("I", packed))).tobytes() for item, packed in apart}
        seen, best, held = self.seen, self.best, self.held
        for item, tag in enumerate(tag_list):
            key = translated[item * width:(item + 1) * width]
            if key in seen:
                continue
            found = best.get(key)
            if found is None or tag < found:
                best[key] = tag
                stored = stored_of.get(item)
                if stored is not None:
                    held[key] = stored
                elif found is not None:
                    held.pop(key, None)

    def _settle(self) -> bytes:
        """The level's new states, in tag order, become pending: their tags (8 bytes each)."""
        best, held = self.best, self.held
        order = sorted(best, key=best.__getitem__)
        tags = array("q", map(best.__getitem__, order))
        self.seen.update(order)
        self.pending = order
        self.pending_stored = [held.get(key, key) for key in order]
        self.best, self.held = {}, {}
        return tags.tobytes()

    def advance(self, numbers: bytes, violated: Sequence[str], expand: bool) -> tuple[Any, ...]:
        """:meth:`numbers`, then :meth:`expand` (or only check, when ``expand`` is false) as one value per
        owner after the report (a Ray method with ``workers + 1`` returns)."""
        self.numbers(numbers, violated)
        report, outgoing = self.expand(check_only=not expand)
        return (report, *outgoing)

    def receive_from(self, *payloads: Any) -> tuple[bytes, float]:
        """:meth:`receive` of one payload per source, in source order (Ray passes them as arguments)."""
        return self.receive(list(enumerate(payloads)))

    def lookup(self, state: Any) -> int | None:
        """The index of ``state`` if this partition owns it."""
        key, owner, _ = self._key_owner(self._local(state))
        if owner != self.number:
            return None
        if self.index_of is None:
            self.index_of = dict(zip(self.stored_keys, self.stored_index))
        return self.index_of.get(key)

    def usage(self) -> tuple[float, int, float]:
        """(CPU seconds of this process, its peak RSS in KiB, seconds spent waiting for other workers)."""
        return time.process_time(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, self.exchange_wait
