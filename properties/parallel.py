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

import multiprocessing as mp
import resource
import time
from array import array
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

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


@dataclass
class _Worker:
    """One partition's state, inside its process."""

    number: int
    workers: int
    game: Game[Any, Any]
    properties: Sequence[Property]
    bounds: Bounds
    seen: dict[Hashable, int] = field(default_factory=dict)
    frontier: list[tuple[int, Any]] = field(default_factory=list)


def _owner(canon: Any, workers: int) -> int:
    return hash(canon) % workers


def _run_worker(number: int, workers: int, game: Game[Any, Any], properties: Sequence[Property], bounds: Bounds,
                inboxes: list[Any], commands: Any, results: Any) -> None:
    codec = game.codec() if hasattr(game, "codec") else None
    successor_of = getattr(game, "successor", None) or game.step
    state_checks = [p for p in properties if p.kind == "state"]
    transition_checks = [p for p in properties if p.kind == "transition"]
    seen: dict[Hashable, int] = {}
    frontier: list[tuple[int, Any]] = []
    pending: list[tuple[Hashable, Any]] = []  # new states of this level, waiting for their numbers
    while True:
        command, payload = commands.get()
        if command == "stop":
            return
        if command == "roots":
            fresh = []
            for order, root in payload:
                canon = game.canonical_key(root)
                key = codec.pack(canon) if codec else canon
                if _owner(canon, workers) == number and key not in seen:
                    seen[key] = -1
                    pending.append((key, root))
                    fresh.append((-1, order, 0, [p.name for p in state_checks if not p.check(game, root)]))
            results.put(("new", number, fresh))
        elif command == "expand":
            outgoing: list[list[tuple[Any, int, int]]] = [[] for _ in range(workers)]
            terminal, bounded, dead, violated = [], False, [], []
            transitions = 0
            for index, state in frontier:
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
                    successor = successor_of(state, action)
                    transitions += 1
                    for prop in transition_checks:
                        if not prop.check(game, state, action, successor):
                            violated.append((prop.name, index, position))
                    outgoing[_owner(game.canonical_key(successor), workers)].append((successor, index, position))
            for other in range(workers):
                if other != number:
                    inboxes[other].put(outgoing[other])
            batches = [outgoing[number]] + [inboxes[number].get() for _ in range(workers - 1)]
            best: dict[Hashable, tuple[int, int, Any]] = {}
            for batch in batches:
                for successor, index, position in batch:
                    canon = game.canonical_key(successor)
                    key = codec.pack(canon) if codec else canon
                    if key in seen:
                        continue
                    found = best.get(key)
                    if found is None or (index, position) < found[:2]:
                        best[key] = (index, position, successor)
            new = []
            pending = []
            for key, (index, position, successor) in best.items():
                seen[key] = -1
                pending.append((key, successor))
                new.append((index, position, 0, [p.name for p in state_checks if not p.check(game, successor)]))
            results.put(("expanded", number, (terminal, bounded, dead, violated, transitions, new)))
        elif command == "numbers":
            frontier = []
            for (key, state), index in zip(pending, payload):
                seen[key] = index
                frontier.append((index, state))
            frontier.sort(key=lambda item: item[0])
            pending = []
            results.put(("numbered", number, None))
        elif command == "lookup":
            results.put(("found", number, [seen.get(codec.pack(game.canonical_key(s)) if codec else
                                                    game.canonical_key(s)) for s in payload]))
        elif command == "rss":
            results.put(("rss", number, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def explore_parallel(game: Game[Any, Any], roots: Sequence[Any], properties: Sequence[Property],
                     bounds: Bounds = Bounds(), workers: int = 2) -> Exploration[Any, Any]:
    """What :func:`explore` returns (same counts, indices, parents and counterexamples), on ``workers`` processes."""
    if workers < 2:
        return explore(game, roots, properties, bounds, progress=False)
    started = time.perf_counter()
    context = mp.get_context("fork")
    inboxes = [context.Queue() for _ in range(workers)]
    commands = [context.Queue() for _ in range(workers)]
    results = context.Queue()
    processes = [context.Process(target=_run_worker, args=(n, workers, game, properties, bounds, inboxes,
                                                           commands[n], results), daemon=True)
                 for n in range(workers)]
    for process in processes:
        process.start()

    def gather(kind: str) -> list[Any]:
        replies: list[Any] = [None] * workers
        for _ in range(workers):
            got, number, payload = results.get()
            assert got == kind, (got, kind)
            replies[number] = payload
        return replies

    by_name = {p.name: p for p in properties}
    parent = array("i")
    position = array("i")
    depth = array("i")
    violations: dict[str, tuple[int, int, int]] = {}  # name -> (state index or -1, parent index, action position)
    deadlocks: list[int] = []
    terminals: list[int] = []
    stats = Stats()
    fallback = False
    try:
        for n in range(workers):
            commands[n].put(("roots", list(enumerate(roots))))
        level_new = gather("new")
        level = 0
        while True:
            new = sorted((index, pos, worker, slot, bad) for worker, items in enumerate(level_new)
                         for slot, (index, pos, _, bad) in enumerate(items))
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
                depth.append(level if index >= 0 else 0)
            for n in range(workers):
                commands[n].put(("numbers", numbers[n]))
            gather("numbered")
            if not new:
                break
            if bounds.max_depth is not None and level >= bounds.max_depth:
                stats.truncated = True
                break
            for n in range(workers):
                commands[n].put(("expand", None))
            replies = gather("expanded")
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
                violations.setdefault(name, (-2, index, pos))
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
                for n in range(workers):
                    commands[n].put(("lookup", [successor]))
                target = next(found[0] for found in gather("found") if found[0] is not None)
                resolved[name] = Violation(by_name[name], target, parent_index, action, successor)
            for n in range(workers):
                commands[n].put(("rss", None))
            peak_kib = max(gather("rss"))
    finally:
        for n in range(workers):
            commands[n].put(("stop", None))
        for process in processes:
            process.join(timeout=10)
    if fallback:
        result = explore(game, roots, properties, bounds, progress=False)
        result.stats.fallback = True  # type: ignore[attr-defined]
        return result
    terminals.sort()
    deadlocks.sort()
    via = ReplayStates(replay, actions=True)
    stats.states = len(parent)
    stats.depth = max(depth, default=0)
    stats.seconds = time.perf_counter() - started
    stats.peak_rss_mib = max(peak_kib, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
    return Exploration(game.name, states, parent, via, depth, resolved, deadlocks, terminals, stats)  # type: ignore[arg-type]
