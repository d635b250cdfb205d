"""Hash-partitioned parallel exploration on several processes (``cardrules explore --workers N``, issue 17).

Each of N worker processes owns the states whose canonical state hashes to
it: their visited set and their part of the frontier. One breadth-first
level at a time:

1. every worker checks and expands its frontier states (state properties,
   legal actions, successors, transition properties) and sends each
   successor it does not own to its owner, one batch per owner, tagged
   ``parent index << 16 | action position``;
2. each owner keeps the successors it has not seen, one per new state: the
   one with the smallest tag, that is the one the sequential search reaches
   first;
3. the coordinator merges the workers' new tags (each list already sorted)
   and numbers the level's new states in that order, so every state gets the
   index, parent and action the sequential search gives it, and the shortest
   counterexamples are the sequential ones. The indices go back with the
   command to expand the next level (one round trip per level).

The partitions' loop is the sequential explorer's (:class:`Partition`): a
packed frontier, the canonical state packed inline, properties already
violated no longer checked. A successor crosses to another worker as its
packed key (the sender's part numbers, translated by the owner), not as a
state. The result keeps parents and action positions; states and actions
are rebuilt on demand by replaying the path from the root
(``ReplayStates``).

When a state bound would cut the search, the parallel result could differ
from the sequential one in which states were kept, so the search is run
again sequentially (``explore``), and the result says so
(``Exploration.stats.fallback``). Requires the ``fork`` start method (Linux):
hashes of strings agree between forked processes.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import json
import multiprocessing as mp
import operator
import pickle
import zlib
import resource
import time
from array import array
from typing import Any, Callable, Hashable, Iterable, Sequence

from cardrules.properties.core import Property
from cardrules.properties.engines.explore import Bounds, Exploration, Game, Stats, Violation, explore


class _Replay:
    """States and actions by index, rebuilt from the root along parents and action positions."""

    def __init__(self, game: Game[Any, Any], roots: list[Any], parent: array, position: array) -> None:
        self.game = game
        self.roots = roots
        self.parent = parent
        self.position = position
        self.root_of: dict[int, Any] = {}

    def path(self, index: int) -> list[int]:
        chain = []
        while index >= 0:
            chain.append(index)
            index = self.parent[index]
        return chain[::-1]

    def state_and_action(self, index: int) -> tuple[Any, Any]:
        chain = self.path(index)
        state = self.roots[self.position[chain[0]]]
        action = None
        for step in chain[1:]:
            action = self.game.legal_actions(state)[self.position[step]]
            state = self.game.step(state, action)
        return state, action


class ReplayStates(Sequence[Any]):
    def __init__(self, replay: _Replay, actions: bool = False) -> None:
        self.replay = replay
        self.actions = actions

    def __len__(self) -> int:
        return len(self.replay.parent)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        state, action = self.replay.state_and_action(index)
        return action if self.actions else state


_FIELDS: dict[type, tuple[str, ...]] = {}
"""Field names of each frozen, slotted dataclass seen while pickling; () for any other type."""
_BUILDERS: dict[type, Callable[[tuple[Any, ...]], Any]] = {}


def _value_fields(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        frozen_slotted = (dataclasses.is_dataclass(cls) and isinstance(cls, type) and "__slots__" in cls.__dict__
                          and cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
        found = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls)) if frozen_slotted else ()
    return found


def _rebuild(cls: type, values: tuple[Any, ...]) -> Any:
    """A frozen, slotted value from its field values, as unpickling would make it, by code compiled once per class."""
    build = _BUILDERS.get(cls)
    if build is None:
        names = _value_fields(cls)
        lines = ["def build(values):", "    new = NEW(CLS)"]
        lines += [f"    SET(new, {name!r}, values[{n}])" for n, name in enumerate(names)]
        lines.append("    return new")
        namespace: dict[str, Any] = {"CLS": cls, "NEW": object.__new__, "SET": object.__setattr__}
        exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own field names
        build = _BUILDERS[cls] = namespace["build"]
    return build(values)


class _ValuePickler(pickle.Pickler):
    """Pickles the models' frozen, slotted dataclasses as (class, field values).

    The standard way for such a class calls ``dataclasses.fields`` on every
    object it unpickles, which made exchanging successors between workers
    cost more than computing them. Same objects back, shared ones still
    pickled once (the memo), hashes cached in a state kept (forked workers
    hash alike).
    """

    def reducer_override(self, obj: Any) -> Any:
        names = _value_fields(type(obj))
        if not names:
            return NotImplemented
        values = operator.attrgetter(*names)(obj)
        return _rebuild, (type(obj), values if len(names) > 1 else (values,))


def _dumps(value: Any) -> bytes:
    buffer = io.BytesIO()
    _ValuePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


_POSITION_BITS = 16
"""A successor's tag is ``parent index << 16 | action position``: one integer that sorts as the
sequential search meets successors (a root's parent index is -1)."""


def _tag(index: int, position: int) -> int:
    return index << _POSITION_BITS | position


def _portable_owner(game: Game[Any, Any], canon: Any, workers: int) -> int:
    """The owner by a hash every process computes alike (separate interpreters, as Ray's, hash ``None``
    and strings differently): CRC-32 of the canonical state's JSON text."""
    text = canon if isinstance(canon, str) else json.dumps(game.state_to_json(canon), sort_keys=True)
    return zlib.crc32(text.encode()) % workers


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
                 bounds: Bounds, portable: bool = False) -> None:
        self.portable = portable
        """Partitions in separate interpreters (not forked): route by a portable hash, rebuild received states."""
        self.number = number
        self.workers = workers
        self.game = game
        self.bounds = bounds
        self.codec = game.codec() if hasattr(game, "codec") else None
        self.successor_of = getattr(game, "successor", None) or game.step
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

    def _sync_hashes(self) -> None:
        values, hashes = self.codec.intern.values, self.part_hash  # type: ignore[union-attr]
        if len(hashes) < len(values):
            hashes.extend(map(hash, values[len(hashes):]))

    def _key_owner(self, state: Any) -> tuple[Hashable, int, Any]:
        """(key, owner, canonical state) of ``state``, as the expansion loop computes them inline."""
        canon = self.game.canonical_key(state)
        if self.codec is None:
            key: Hashable = canon
            owner = _portable_owner(self.game, canon, self.workers) if self.portable else hash(canon) % self.workers
            return key, owner, canon
        numbers = [self.codec.intern(part) for part in self.codec.parts(canon)]
        self._sync_hashes()
        key = array("I", numbers).tobytes()
        if self.portable:
            return key, _portable_owner(self.game, canon, self.workers), canon
        return key, hash(tuple(self.part_hash[n] for n in numbers)) % self.workers, canon

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
        game, workers, me = self.game, self.workers, self.number
        codec, portable = self.codec, self.portable
        unpack = codec.unpack if codec is not None else None
        pack = codec.pack if codec is not None else None
        parts_of = codec.parts if codec is not None else None
        intern = codec.intern if codec is not None else None
        by_id = intern.by_id.get if intern is not None else None
        values = intern.values if intern is not None else []
        part_hash = self.part_hash
        hash_of = part_hash.__getitem__
        canonical, successor_of, legal_actions = game.canonical_key, self.successor_of, game.legal_actions
        is_terminal, max_turns = game.is_terminal, self.bounds.max_turns
        seen, best, held = self.seen, self.best, self.held
        pending_state, pending_transition = self.pending_state, self.pending_transition
        sent: set[Hashable] = set()
        sent_before = self.sent_before
        keys_out = [bytearray() for _ in range(workers)]
        tags_out = [array("q") for _ in range(workers)]
        items_out: list[list[Any]] = [[] for _ in range(workers)]
        report = Report([], [], False, 0, [], [], 0.0)
        transitions = state_found = transition_found = 0
        for index, stored in self.frontier:
            state = unpack(stored) if unpack is not None else stored
            if pending_state:
                for name, check in pending_state:
                    if not check(game, state):
                        report.state_violations.append((name, index))
                if len(report.state_violations) != state_found:
                    state_found = len(report.state_violations)
                    self._forget(name for name, _ in report.state_violations)
            if check_only:
                continue
            if is_terminal(state):
                report.terminals.append(index)
                continue
            if max_turns is not None and game.turn(state) > max_turns:
                report.turn_bounded = True
                continue
            actions = legal_actions(state)
            if not actions:
                report.deadlocks.append(index)
                continue
            if len(actions) >> _POSITION_BITS:
                raise ValueError(f"state {index} has {len(actions)} legal actions; the parallel search takes "
                                 f"at most {(1 << _POSITION_BITS) - 1}")
            base = index << _POSITION_BITS
            for position, action in enumerate(actions):
                successor = successor_of(state, action)
                transitions += 1
                for name, check in pending_transition:
                    if not check(game, state, action, successor):
                        report.transition_violations.append((name, index, position))
                if len(report.transition_violations) != transition_found:
                    transition_found = len(report.transition_violations)
                    self._forget(name for name, _, _ in report.transition_violations)
                canon = canonical(successor)
                if parts_of is not None:  # ``codec.pack`` inline, with the owner read off the parts' numbers
                    parts = parts_of(canon)
                    numbers = list(map(by_id, map(id, parts)))
                    if None in numbers:
                        numbers = [n if n is not None else intern(part) for n, part in zip(numbers, parts)]  # type: ignore[misc]
                    if len(part_hash) < len(values):  # parts interned here, or by a ``pack`` of a held state
                        part_hash.extend(map(hash, values[len(part_hash):]))
                    key: Hashable = array("I", numbers).tobytes()
                    owner = (_portable_owner(game, canon, workers) if portable
                             else hash(tuple(map(hash_of, numbers))) % workers)
                else:
                    key = canon
                    owner = _portable_owner(game, canon, workers) if portable else hash(canon) % workers
                if owner == me:
                    if key in seen or key in best:
                        continue  # known, or reached already this level by a smaller tag
                    best[key] = base | position
                    if parts_of is None:
                        held[key] = successor
                    elif canon is not successor:
                        held[key] = pack(successor)  # type: ignore[misc]
                    continue
                if key in sent or key in sent_before:
                    continue  # the owner has it, or gets it this level with a smaller tag
                sent.add(key)
                tags_out[owner].append(base | position)
                if portable:
                    items_out[owner].append(successor)
                elif parts_of is None:
                    items_out[owner].append((successor, None if canon is successor else canon))
                else:
                    keys_out[owner] += key  # type: ignore[operator]
                    if canon is not successor:
                        items_out[owner].append((len(tags_out[owner]) - 1, pack(successor)))  # type: ignore[misc]
        self.sent_before = sent
        report.transitions = transitions
        outgoing: list[Any] = [None] * workers
        for other in range(workers):
            if other == me or check_only:
                continue
            if parts_of is None or portable:
                outgoing[other] = (tags_out[other].tobytes(), items_out[other])
                continue
            needed = set(array("I", keys_out[other]))
            for _, packed in items_out[other]:
                needed.update(array("I", packed))
            new = needed - self.told[other]
            self.told[other] |= new
            outgoing[other] = (sorted((n, values[n]) for n in new), bytes(keys_out[other]), tags_out[other].tobytes(),
                               items_out[other])
        report.expand_cpu = time.process_time() - started
        return report, outgoing

    def receive(self, payloads: Sequence[tuple[int, Any]]) -> tuple[bytes, float]:
        """Offer the successors the other partitions sent ((source, payload) as :meth:`expand` made
        them; None payloads are skipped), then settle the level: (tags of the new states in order,
        CPU seconds spent)."""
        started = time.process_time()
        offer = self._offer
        for source, payload in payloads:
            if payload is None:
                continue
            if self.codec is not None and not self.portable:
                self._receive_parts(source, payload)
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

    def _receive_parts(self, source: int, payload: Any) -> None:
        """Successors sent as packed keys in the sender's numbering (see :meth:`expand`)."""
        new_values, keys, tags, apart = payload
        intern = self.codec.intern  # type: ignore[union-attr]
        table = self.translate[source]
        for n, value in new_values:
            table[n] = intern(value)
        self._sync_hashes()
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


def _run_worker(partition: Partition, inboxes: list[Any], commands: Any, results: Any) -> None:
    gc.freeze()  # what the fork inherited is never garbage: the collector need not walk it (nor copy its pages)
    number, workers = partition.number, partition.workers
    while True:
        command, payload = commands.get()
        if command == "stop":
            return
        if command == "roots":
            results.put((number, partition.roots(payload)))
        elif command == "step":
            numbers, violated, expand = payload
            report, *outgoing = partition.advance(numbers, violated, expand)
            if not expand:
                results.put((number, (report, b"")))
                continue
            sending = time.process_time()
            for other in range(workers):
                if other != number:
                    inboxes[other].put(_dumps((number, outgoing[other])))
            report.expand_cpu += time.process_time() - sending
            waited = time.perf_counter()
            wired = [inboxes[number].get() for _ in range(workers - 1)]
            partition.exchange_wait += time.perf_counter() - waited
            reading = time.process_time()
            received = sorted(pickle.loads(data) for data in wired)
            tags, _ = partition.receive(received)
            report.receive_cpu = time.process_time() - reading  # unpickling included
            results.put((number, (report, tags)))
        elif command == "lookup":
            results.put((number, partition.lookup(payload)))
        elif command == "usage":
            results.put((number, partition.usage()))


class ProcessPool:
    """Partitions in forked processes, successors exchanged through one queue per worker."""

    def __init__(self, workers: int, game: Game[Any, Any], properties: Sequence[Property], bounds: Bounds) -> None:
        context = mp.get_context("fork")
        self.workers = workers
        inboxes = [context.Queue() for _ in range(workers)]
        self.commands = [context.Queue() for _ in range(workers)]
        self.results = context.Queue()
        self.processes = [
            context.Process(target=_run_worker, args=(Partition(n, workers, game, properties, bounds), inboxes,
                                                      self.commands[n], self.results), daemon=True)
            for n in range(workers)
        ]
        for process in self.processes:
            process.start()

    def _all(self, command: str, payloads: list[Any]) -> list[Any]:
        for n, payload in enumerate(payloads):
            self.commands[n].put((command, payload))
        replies: list[Any] = [None] * self.workers
        for _ in range(self.workers):
            number, reply = self.results.get()
            replies[number] = reply
        return replies

    def roots(self, roots: list[tuple[int, Any]]) -> list[bytes]:
        return self._all("roots", [roots] * self.workers)

    def step(self, numbers: list[bytes], violated: list[str], expand: bool) -> list[tuple[Report, bytes]]:
        """Give each partition its new states' indices, then expand (or only check) and exchange:
        (report, tags of the next level's new states) per partition."""
        return self._all("step", [(n, violated, expand) for n in numbers])

    def lookup(self, state: Any) -> list[int | None]:
        return self._all("lookup", [state] * self.workers)

    def usage(self) -> list[tuple[float, int, float]]:
        return self._all("usage", [None] * self.workers)

    def close(self) -> None:
        for n in range(self.workers):
            self.commands[n].put(("stop", None))
        for process in self.processes:
            process.join(timeout=10)


def explore_parallel(game: Game[Any, Any], roots: Sequence[Any], properties: Sequence[Property],
                     bounds: Bounds = Bounds(), workers: int = 2, pool: Any = None) -> Exploration[Any, Any]:
    """What :func:`explore` returns (same counts, indices, parents and counterexamples), on ``workers`` partitions.

    ``pool``: where the partitions run (default: a :class:`ProcessPool` of forked processes).
    """
    if workers < 2 and pool is None:
        return explore(game, roots, properties, bounds, progress=False)
    started, cpu_started = time.perf_counter(), time.process_time()
    pool = pool or ProcessPool(workers, game, properties, bounds)
    workers = pool.workers
    in_levels = [0.0] * workers
    by_name = {p.name: p for p in properties}
    parent = array("i")
    position = array("i")
    depth = array("i")
    violations: dict[str, tuple[int, int, int]] = {}  # name -> (state index, parent index or -1, action position)
    deadlocks: list[int] = []
    terminals: list[int] = []
    stats = Stats()
    fallback = False
    critical = 0.0
    position_mask = (1 << _POSITION_BITS) - 1
    try:
        level_tags = pool.roots(list(enumerate(roots)))
        level = 0
        while True:
            merged: list[int] = []  # the level's new states in the sequential order: tag * workers + owner
            for worker, tags in enumerate(level_tags):
                tag_list = array("q")
                tag_list.frombytes(tags)
                merged += [tag * workers + worker for tag in tag_list]
            merged.sort()
            if bounds.max_states is not None and len(parent) + len(merged) > bounds.max_states:
                fallback = True
                break
            if not merged:
                break
            numbers = [array("i") for _ in range(workers)]
            appends = [n.append for n in numbers]
            for index, entry in enumerate(merged, len(parent)):
                appends[entry % workers](index)
            tags_in_order = [entry // workers for entry in merged]
            parent.extend([tag >> _POSITION_BITS for tag in tags_in_order])
            position.extend([tag & position_mask for tag in tags_in_order])
            depth.extend(array("i", [level]) * len(merged))
            last = bounds.max_depth is not None and level >= bounds.max_depth
            replies = pool.step([n.tobytes() for n in numbers], sorted(violations), not last)
            reports = [report for report, _ in replies]
            critical += max(r.expand_cpu for r in reports) + max(r.receive_cpu for r in reports)
            for worker, report in enumerate(reports):
                in_levels[worker] += report.expand_cpu + report.receive_cpu
            for report in reports:
                terminals.extend(report.terminals)
                deadlocks.extend(report.deadlocks)
                stats.turn_bounded |= report.turn_bounded
                stats.transitions += report.transitions
            for name, index in sorted((v for r in reports for v in r.state_violations), key=lambda v: v[1]):
                violations.setdefault(name, (index, -1, -1))
            for name, index, pos in sorted((v for r in reports for v in r.transition_violations),
                                           key=lambda v: (v[1], v[2])):
                violations.setdefault(name, (-1, index, pos))
            if last:
                stats.truncated = True
                break
            level += 1
            level_tags = [tags for _, tags in replies]
        if not fallback:
            replay = _Replay(game, list(roots), parent, position)
            states = ReplayStates(replay)
            resolved: dict[str, Violation] = {}
            for name, (index, parent_index, pos) in violations.items():
                if parent_index < 0:
                    resolved[name] = Violation(by_name[name], index)
                    continue
                before = states[parent_index]
                action = game.legal_actions(before)[pos]
                successor = game.step(before, action)
                answers = pool.lookup(successor)
                target = next((found for found in answers if found is not None), None)
                if target is None:
                    raise RuntimeError(f"no partition holds the successor of a violating transition ({answers}, "
                                       f"{parent_index}, {pos}, {len(parent)})")
                resolved[name] = Violation(by_name[name], target, parent_index, action, successor)
            usage = pool.usage()
    finally:
        pool.close()
    if fallback:
        result = explore(game, roots, properties, bounds, progress=False)
        result.stats.fallback = True
        return result
    terminals.sort()
    deadlocks.sort()
    stats.states = len(parent)
    stats.depth = max(depth, default=0)
    stats.seconds = time.perf_counter() - started
    coordinator_cpu = time.process_time() - cpu_started
    stats.worker_cpu_seconds = tuple(cpu for cpu, _, _ in usage)
    stats.coordinator_cpu_seconds = coordinator_cpu
    outside = max(cpu - spent for (cpu, _, _), spent in zip(usage, in_levels))
    stats.critical_cpu_seconds = critical + coordinator_cpu + max(outside, 0.0)
    stats.peak_rss_mib = max(max(rss for _, rss, _ in usage), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
    return Exploration(game.name, states, parent, ReplayStates(replay, actions=True), depth, resolved,  # type: ignore[arg-type]
                       deadlocks, terminals, stats)
