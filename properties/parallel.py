"""Hash-partitioned parallel exploration on several processes (``cardrules explore --workers N``, issue 17).

Each of N worker processes owns the states whose canonical state hashes to
it (``hash % N``): their visited set (packed, when the game has a codec) and
their part of the frontier. One breadth-first level at a time:

1. every worker expands its frontier states (legal actions, successors,
   transition properties) and sends each successor to its owner, one batch
   per owner;
2. each owner keeps the successors it has not seen, one per new state: the
   one reached first in the sequential order, (parent's index, action's
   position);
3. the coordinator numbers the level's new states in that same order, so
   every state gets the index, parent and action the sequential search gives
   it, and the shortest counterexamples are the sequential ones.

Only the numbering is central, and it moves two small integers per new
state. States cross process boundaries when their owner is another worker
(pickled), which with the per-level barrier is what limits the speed-up.
The result keeps parents and action positions; states and actions are
rebuilt on demand by replaying the path from the root (``ReplayStates``).

When a state bound would cut the search, the parallel result could differ
from the sequential one in which states were kept, so the search is run
again sequentially (``explore``), and the result says so
(``Exploration.stats.fallback``). Requires the ``fork`` start method (Linux):
hashes of strings agree between forked processes.
"""

from __future__ import annotations

import dataclasses
import io
import json
import multiprocessing as mp
import operator
import pickle
import zlib
import resource
import time
from array import array
from typing import Any, Callable, Hashable, Iterable, Iterator, Sequence

from cardrules.properties.compact import Interner
from cardrules.properties.core import Property
from cardrules.properties.explore import Bounds, Exploration, Game, Stats, Violation, explore


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


class _PartsWire:
    """Successors sent to other workers as the numbers of their parts (:class:`~properties.compact.StateCodec`).

    Each worker numbers the parts it sends to each other worker (its own
    interner per destination) and sends a part's value only the first time;
    the receiver maps the sender's numbers to its own codec's. A state then
    crosses as a few integers, and the receiver reads its packed key off them
    (the same bytes ``codec.pack`` gives), with no hashing of its parts.
    Exact: interning is a bijection, and ``build(parts(s)) == s``.
    """

    def __init__(self, codec: Any, workers: int) -> None:
        self.codec = codec
        self.sent = [Interner() for _ in range(workers)]
        self.sent_upto = [0] * workers
        self.received: list[list[int]] = [[] for _ in range(workers)]

    def encode(self, other: int, batch: list[tuple[Any, Any, int, int]]) -> tuple[list[Any], list[tuple[Any, ...]]]:
        intern, parts = self.sent[other], self.codec.parts
        items = [(array("I", [intern(part) for part in parts(successor)]).tobytes(),
                  None if canon is None else array("I", [intern(part) for part in parts(canon)]).tobytes(),
                  index, position)
                 for successor, canon, index, position in batch]
        new = intern.values[self.sent_upto[other]:]
        self.sent_upto[other] = len(intern.values)
        return new, items

    def decode(self, source: int, payload: tuple[list[Any], list[tuple[Any, ...]]]) -> Iterator[tuple[Any, bytes, int, int]]:
        new, items = payload
        local, intern = self.received[source], self.codec.intern
        local.extend(intern(value) for value in new)
        values, build = intern.values, self.codec.build
        for numbers, canon_numbers, index, position in items:
            mine = array("I", [local[n] for n in array("I", numbers)])
            successor = build(tuple(values[n] for n in mine))
            key = mine.tobytes() if canon_numbers is None else array("I", [local[n] for n in array("I", canon_numbers)]).tobytes()
            yield successor, key, index, position


def _owner(canon: Any, workers: int) -> int:
    return hash(canon) % workers


def _portable_owner(game: Game[Any, Any], canon: Any, workers: int) -> int:
    """The owner by a hash every process computes alike (separate interpreters, as Ray's, hash ``None``
    and strings differently): CRC-32 of the canonical state's JSON text."""
    text = canon if isinstance(canon, str) else json.dumps(game.state_to_json(canon), sort_keys=True)
    return zlib.crc32(text.encode()) % workers


class Partition:
    """The states one worker owns (``hash(canonical state) % workers == number``): visited set and frontier.

    The same object runs in a forked process (the ``processes`` backend) or
    as a Ray actor (the ``ray`` backend, :mod:`cardrules.properties.ray_backend`).
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
        self.state_checks = [p for p in properties if p.kind == "state"]
        self.transition_checks = [p for p in properties if p.kind == "transition"]
        self.seen: dict[Hashable, int] = {}
        self.frontier: list[tuple[int, Any]] = []
        self.pending: list[tuple[Hashable, Any]] = []
        """New states of this level, waiting for their numbers."""
        self.parts_wire = _PartsWire(self.codec, workers) if self.codec is not None and not portable else None
        self.sent_before: set[Any] = set()
        """Canonical states sent to other workers during the previous level: their owners have them now."""

    def _owner(self, canon: Any) -> int:
        return _portable_owner(self.game, canon, self.workers) if self.portable else _owner(canon, self.workers)

    def _key(self, canon: Any) -> Hashable:
        return self.codec.pack(canon) if self.codec is not None else canon

    def _local(self, state: Any) -> Any:
        """A state that came from the driver, rebuilt here: a model's state may carry a cached hash,
        and another process (a Ray actor) may hash strings differently from the driver."""
        return self.game.state_from_json(self.game.state_to_json(state))

    def roots(self, roots: list[tuple[int, Any]]) -> list[tuple[int, int, list[str]]]:
        fresh = []
        for order, root in roots:
            root = self._local(root)
            canon = self.game.canonical_key(root)
            key = self._key(canon)
            if self._owner(canon) == self.number and key not in self.seen:
                self.seen[key] = -1
                self.pending.append((key, root))
                fresh.append((-1, order, [p.name for p in self.state_checks if not p.check(self.game, root)]))
        return fresh

    def expand(self) -> tuple[tuple[Any, ...], list[list[tuple[Any, Any, int, int]]]]:
        """Expand the frontier: (what it found, the successors for each owner)."""
        game, bounds = self.game, self.bounds
        outgoing: list[list[tuple[Any, int, int]]] = [[] for _ in range(self.workers)]
        terminal, bounded, dead, violated = [], False, [], []
        transitions = 0
        sent: set[Any] = set()
        sent_before = self.sent_before
        for index, state in self.frontier:
            if game.is_terminal(state):
                terminal.append(index)
                continue
            if bounds.max_turns is not None and game.turn(state) > bounds.max_turns:
                bounded = True
                continue
            actions = game.legal_actions(state)
            if not actions:
                dead.append(index)
                continue
            for position, action in enumerate(actions):
                successor = self.successor_of(state, action)
                transitions += 1
                for prop in self.transition_checks:
                    if not prop.check(game, state, action, successor):
                        violated.append((prop.name, index, position))
                canon = game.canonical_key(successor)
                owner = self._owner(canon)
                if owner != self.number:
                    if canon in sent or canon in sent_before:
                        continue  # the owner has it already, or gets it this level from an earlier (index, position)
                    sent.add(canon)
                # the canonical state goes along (None: the successor itself), so that its owner need not
                # compute it again; a separate interpreter (portable) computes its own
                handed = None if self.portable or canon is successor else canon
                outgoing[owner].append((successor, handed, index, position))
        self.sent_before = sent
        return (terminal, bounded, dead, violated, transitions), outgoing

    def receive(self, *batches: list[tuple[Any, Any, int, int]]) -> list[tuple[int, int, list[str]]]:
        """Keep the successors not seen before, each new state once, reached first in the sequential order
        (batches as :meth:`expand` made them: this worker's own, or another's through Ray)."""
        return self._keep(item for batch in batches for item in self._keyed(batch))

    def receive_wired(self, own: list[tuple[Any, Any, int, int]],
                      wired: list[tuple[int, Any]]) -> list[tuple[int, int, list[str]]]:
        """:meth:`receive` for this worker's own batch and the (source, :meth:`wire`) batches of the others."""
        def items() -> Iterator[tuple[Any, Hashable, int, int]]:
            yield from self._keyed(own)
            for source, payload in wired:
                if self.parts_wire is None:
                    yield from self._keyed(payload)
                else:
                    yield from self.parts_wire.decode(source, payload)
        return self._keep(items())

    def wire(self, other: int, batch: list[tuple[Any, Any, int, int]]) -> Any:
        """A batch for worker ``other``: as its parts' numbers when the game has a codec."""
        return batch if self.parts_wire is None else self.parts_wire.encode(other, batch)

    def _keyed(self, batch: list[tuple[Any, Any, int, int]]) -> Iterator[tuple[Any, Hashable, int, int]]:
        for successor, canon, index, position in batch:
            if self.portable:
                successor = self._local(successor)
                canon = self.game.canonical_key(successor)
            elif canon is None:
                canon = successor
            yield successor, self._key(canon), index, position

    def _keep(self, items: Iterable[tuple[Any, Hashable, int, int]]) -> list[tuple[int, int, list[str]]]:
        best: dict[Hashable, tuple[int, int, Any]] = {}
        seen = self.seen
        for successor, key, index, position in items:
            if key in seen:
                continue
            found = best.get(key)
            if found is None or (index, position) < found[:2]:
                best[key] = (index, position, successor)
        new = []
        self.pending = []
        for key, (index, position, successor) in best.items():
            seen[key] = -1
            self.pending.append((key, successor))
            new.append((index, position, [p.name for p in self.state_checks if not p.check(self.game, successor)]))
        return new

    def numbers(self, numbers: list[int]) -> None:
        """The sequential indices of the pending new states: they become the next frontier."""
        self.frontier = []
        for (key, state), index in zip(self.pending, numbers):
            self.seen[key] = index
            self.frontier.append((index, state))
        self.frontier.sort(key=lambda item: item[0])
        self.pending = []

    def expand_split(self) -> tuple[Any, ...]:
        """:meth:`expand` as one value per owner after the report (a Ray method with ``workers + 1`` returns)."""
        report, outgoing = self.expand()
        return (report, *outgoing)

    def lookup(self, state: Any) -> int | None:
        return self.seen.get(self._key(self.game.canonical_key(self._local(state))))

    def peak_rss_kib(self) -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _run_worker(partition: Partition, inboxes: list[Any], commands: Any, results: Any) -> None:
    number, workers = partition.number, partition.workers
    while True:
        command, payload = commands.get()
        if command == "stop":
            return
        if command == "roots":
            results.put((number, partition.roots(payload)))
        elif command == "expand":
            report, outgoing = partition.expand()
            for other in range(workers):
                if other != number:
                    inboxes[other].put(_dumps((number, partition.wire(other, outgoing[other]))))
            wired = sorted(pickle.loads(inboxes[number].get()) for _ in range(workers - 1))
            results.put((number, (*report, partition.receive_wired(outgoing[number], wired))))
        elif command == "numbers":
            results.put((number, partition.numbers(payload)))
        elif command == "lookup":
            results.put((number, partition.lookup(payload)))
        elif command == "rss":
            results.put((number, partition.peak_rss_kib()))


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

    def roots(self, roots: list[tuple[int, Any]]) -> list[Any]:
        return self._all("roots", [roots] * self.workers)

    def expand(self) -> list[Any]:
        return self._all("expand", [None] * self.workers)

    def numbers(self, numbers: list[list[int]]) -> None:
        self._all("numbers", numbers)

    def lookup(self, state: Any) -> list[int | None]:
        return self._all("lookup", [state] * self.workers)

    def peak_rss_kib(self) -> int:
        return max(self._all("rss", [None] * self.workers))

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
    started = time.perf_counter()
    pool = pool or ProcessPool(workers, game, properties, bounds)
    by_name = {p.name: p for p in properties}
    parent = array("i")
    position = array("i")
    depth = array("i")
    violations: dict[str, tuple[int, int, int]] = {}  # name -> (state index, parent index or -1, action position)
    deadlocks: list[int] = []
    terminals: list[int] = []
    stats = Stats()
    fallback = False
    try:
        level_new = pool.roots(list(enumerate(roots)))
        level = 0
        while True:
            new = sorted((index, pos, worker, slot, bad) for worker, items in enumerate(level_new)
                         for slot, (index, pos, bad) in enumerate(items))
            if bounds.max_states is not None and len(parent) + len(new) > bounds.max_states:
                fallback = True
                break
            numbers: list[list[int]] = [[0] * len(items) for items in level_new]
            for index, pos, worker, slot, bad in new:
                numbers[worker][slot] = len(parent)
                for name in bad:
                    violations.setdefault(name, (len(parent), -1, -1))
                parent.append(index)
                position.append(pos)
                depth.append(level)
            pool.numbers(numbers)
            if not new:
                break
            if bounds.max_depth is not None and level >= bounds.max_depth:
                stats.truncated = True
                break
            replies = pool.expand()
            level += 1
            level_new = []
            found_violations = []
            for terminal, bounded, dead, violated, transitions, fresh in replies:
                terminals.extend(terminal)
                deadlocks.extend(dead)
                stats.turn_bounded |= bounded
                stats.transitions += transitions
                found_violations.extend(violated)
                level_new.append(fresh)
            for name, index, pos in sorted(found_violations, key=lambda v: (v[1], v[2])):
                violations.setdefault(name, (-1, index, pos))
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
            peak_kib = pool.peak_rss_kib()
    finally:
        pool.close()
    if fallback:
        result = explore(game, roots, properties, bounds, progress=False)
        result.stats.fallback = True  # type: ignore[attr-defined]
        return result
    terminals.sort()
    deadlocks.sort()
    stats.states = len(parent)
    stats.depth = max(depth, default=0)
    stats.seconds = time.perf_counter() - started
    stats.peak_rss_mib = max(peak_kib, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
    return Exploration(game.name, states, parent, ReplayStates(replay, actions=True), depth, resolved,  # type: ignore[arg-type]
                       deadlocks, terminals, stats)
