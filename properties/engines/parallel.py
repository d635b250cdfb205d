"""Hash-partitioned parallel exploration on several processes (``cardrules explore --workers N``).

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

The partitions' loop is the sequential explorer's
(:class:`~cardrules.properties.engines.partition.Partition`): a packed frontier, the
canonical state packed inline, properties already violated no longer
checked. A successor crosses to another worker as its packed key (the
sender's part numbers, translated by the owner), not as a state. The
partitions run in forked processes
(:class:`~cardrules.properties.engines.processes.ProcessPool`) or as Ray actors
(:mod:`cardrules.properties.engines.ray_backend`). This module is the
coordinator. The result keeps parents and action positions; states and
actions are rebuilt on demand by replaying the path from the root
(``ReplayStates``).

When a state bound would cut the search, the parallel result could differ
from the sequential one in which states were kept, so the search is run
again sequentially (``explore``), and the result says so
(``Exploration.stats.fallback``). Requires the ``fork`` start method (Linux):
hashes of strings agree between forked processes.
"""

from __future__ import annotations

import resource
import time
from array import array
from typing import Any, Protocol, Sequence

from cardrules.properties.core import Property
from cardrules.properties.engines.explore import explore
from cardrules.properties.engines.exploration import Bounds, Exploration, Game, Stats, Violation
from cardrules.properties.engines.partition import POSITION_BITS, Report
from cardrules.properties.engines.processes import ProcessPool


class Pool(Protocol):
    """Where the partitions run: :class:`ProcessPool`, or a Ray backend's ``RayPool``."""

    workers: int

    def roots(self, roots: list[tuple[int, Any]]) -> list[bytes]:
        """Give every partition the roots (order, state): each partition's tags of the new ones."""
        ...

    def step(self, numbers: list[bytes], violated: list[str], expand: bool) -> list[tuple[Report, bytes]]:
        """Give each partition its new states' indices, then expand (or only check) and exchange:
        (report, tags of the next level's new states) per partition."""
        ...

    def lookup(self, state: Any) -> list[int | None]:
        """Each partition's index of ``state`` (None where it does not own it)."""
        ...

    def usage(self) -> list[tuple[float, int, float]]:
        """Each partition's (CPU seconds, peak RSS in KiB, seconds waiting for other workers)."""
        ...

    def close(self) -> None: ...


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


class _Coordinator:
    """The coordinator's records of a partitioned search: parent, action position and depth of each
    state by its sequential index, the violations found, the terminal and deadlocked states, the
    statistics and the CPU accounts."""

    def __init__(self, workers: int, bounds: Bounds) -> None:
        self.workers = workers
        self.bounds = bounds
        self.parent = array("i")
        self.position = array("i")
        self.depth = array("i")
        self.violations: dict[str, tuple[int, int, int]] = {}  # name -> (state index, parent index or -1, action position)
        self.deadlocks: list[int] = []
        self.terminals: list[int] = []
        self.stats = Stats()
        self.critical = 0.0  # per level, the slowest worker's expansion plus the slowest worker's receiving
        self.in_levels = [0.0] * workers  # each worker's CPU seconds spent in the levels

    def run(self, pool: Pool, roots: Sequence[Any]) -> bool:
        """Explore level by level, as far as the bounds let it: False when a state bound would cut the
        search (the result could then differ from the sequential one), True otherwise."""
        level_tags = pool.roots(list(enumerate(roots)))
        level = 0
        while True:
            merged = self._merge(level_tags)
            if self.bounds.max_states is not None and len(self.parent) + len(merged) > self.bounds.max_states:
                return False
            if not merged:
                return True
            numbers = self._number(merged, level)
            last = self.bounds.max_depth is not None and level >= self.bounds.max_depth
            replies = pool.step(numbers, sorted(self.violations), not last)
            self._record([report for report, _ in replies])
            if last:
                self.stats.truncated = True
                return True
            level += 1
            level_tags = [tags for _, tags in replies]

    def _merge(self, level_tags: list[bytes]) -> list[int]:
        """The level's new states in the sequential order, from each worker's tags: tag * workers + owner."""
        workers = self.workers
        merged: list[int] = []
        for worker, tags in enumerate(level_tags):
            tag_list = array("q")
            tag_list.frombytes(tags)
            merged += [tag * workers + worker for tag in tag_list]
        merged.sort()
        return merged

    def _number(self, merged: list[int], level: int) -> list[bytes]:
        """Number the level's new states in order (their parents, action positions and depth recorded):
        each worker's indices, as ``Partition.numbers`` takes them."""
        workers = self.workers
        numbers = [array("i") for _ in range(workers)]
        appends = [n.append for n in numbers]
        for index, entry in enumerate(merged, len(self.parent)):
            appends[entry % workers](index)
        tags_in_order = [entry // workers for entry in merged]
        position_mask = (1 << POSITION_BITS) - 1
        self.parent.extend([tag >> POSITION_BITS for tag in tags_in_order])
        self.position.extend([tag & position_mask for tag in tags_in_order])
        self.depth.extend(array("i", [level]) * len(merged))
        return [n.tobytes() for n in numbers]

    def _record(self, reports: list[Report]) -> None:
        """Take in the partitions' reports of one level: CPU, states found, each property's first violation."""
        self.critical += max(r.expand_cpu for r in reports) + max(r.receive_cpu for r in reports)
        for worker, report in enumerate(reports):
            self.in_levels[worker] += report.expand_cpu + report.receive_cpu
        for report in reports:
            self.terminals.extend(report.terminals)
            self.deadlocks.extend(report.deadlocks)
            self.stats.turn_bounded |= report.turn_bounded
            self.stats.transitions += report.transitions
            self.stats.expansions_reused += report.reused
        for name, index in sorted((v for r in reports for v in r.state_violations), key=lambda v: v[1]):
            self.violations.setdefault(name, (index, -1, -1))
        for name, index, pos in sorted((v for r in reports for v in r.transition_violations),
                                       key=lambda v: (v[1], v[2])):
            self.violations.setdefault(name, (-1, index, pos))

    def resolve(self, game: Game[Any, Any], pool: Pool, states: Sequence[Any],
                by_name: dict[str, Property]) -> dict[str, Violation]:
        """The violations as the sequential search reports them: a transition's by the states before and
        after it (the index of the one after found by the partition that owns it)."""
        resolved: dict[str, Violation] = {}
        for name, (index, parent_index, pos) in self.violations.items():
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
                                   f"{parent_index}, {pos}, {len(self.parent)})")
            resolved[name] = Violation(by_name[name], target, parent_index, action, successor)
        return resolved

    def finish(self, started: float, cpu_started: float, usage: list[tuple[float, int, float]]) -> Stats:
        """The statistics, complete (``started``, ``cpu_started``: the search's start, in wall-clock and
        CPU seconds; ``usage``: each worker's, as :meth:`Pool.usage` gives it)."""
        self.terminals.sort()
        self.deadlocks.sort()
        stats = self.stats
        stats.states = len(self.parent)
        stats.depth = max(self.depth, default=0)
        stats.seconds = time.perf_counter() - started
        coordinator_cpu = time.process_time() - cpu_started
        stats.worker_cpu_seconds = tuple(cpu for cpu, _, _ in usage)
        stats.coordinator_cpu_seconds = coordinator_cpu
        outside = max(cpu - spent for (cpu, _, _), spent in zip(usage, self.in_levels))
        stats.critical_cpu_seconds = self.critical + coordinator_cpu + max(outside, 0.0)
        stats.peak_rss_mib = max(max(rss for _, rss, _ in usage), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
        return stats


def explore_parallel(game: Game[Any, Any], roots: Sequence[Any], properties: Sequence[Property],
                     bounds: Bounds = Bounds(), workers: int = 2, pool: Pool | None = None,
                     reuse: bool = True) -> Exploration[Any, Any]:
    """What :func:`explore` returns (same counts, indices, parents and counterexamples), on ``workers`` partitions.

    ``pool``: where the partitions run (default: a :class:`ProcessPool` of forked processes).
    ``reuse``: as :func:`explore`'s, for the default pool and a fallback to the sequential search (a
    pool given is built with its own).
    """
    if workers < 2 and pool is None:
        return explore(game, roots, properties, bounds, progress=False, reuse=reuse)
    started, cpu_started = time.perf_counter(), time.process_time()
    pool = pool or ProcessPool(workers, game, properties, bounds, reuse)
    search = _Coordinator(pool.workers, bounds)
    try:
        within_bound = search.run(pool, roots)
        if within_bound:
            states = ReplayStates(_Replay(game, list(roots), search.parent, search.position))
            resolved = search.resolve(game, pool, states, {p.name: p for p in properties})
            usage = pool.usage()
    finally:
        pool.close()
    if not within_bound:
        result = explore(game, roots, properties, bounds, progress=False, reuse=reuse)
        result.stats.fallback = True
        return result
    stats = search.finish(started, cpu_started, usage)
    return Exploration(game.name, states, search.parent, ReplayStates(states.replay, actions=True), search.depth,
                       resolved, search.deadlocks, search.terminals, stats)
