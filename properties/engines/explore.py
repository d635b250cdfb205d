"""Exhaustive breadth-first exploration of a game's state graph.

The search loop is kept lean: states are the model's own immutable, hashable
values; each distinct canonical key gets an integer index; parents and depths
are flat machine-integer arrays (4 bytes each a state), the action that
reached a state is one shared (interned) object per distinct action; a game
may offer ``successor(state, action)``, the step function without its
legality check, for actions it has itself listed as legal; networkx is
never touched during the search. The graph is built afterwards, from the
edge records, by :meth:`Exploration.graph` (only when ``keep_edges``).

Because the search is breadth-first, the first violation found of each
property is at the smallest depth: its path from the root is a shortest
counterexample.
"""

from __future__ import annotations

import resource
from array import array
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Protocol, Sequence, TypeVar

from cardrules.properties.engines.compact import PackedStates, PackedTable, StoredPacked
from cardrules.properties.core import Property

S = TypeVar("S")
A = TypeVar("A")


class Game(Protocol[S, A]):
    """What the explorer needs from a game's model under one rule set."""

    @property
    def name(self) -> str:
        """The game's id (``fftcg``, ``redemption``)."""
        ...

    def legal_actions(self, state: S) -> Sequence[A]: ...

    def step(self, state: S, action: A) -> S: ...

    def is_terminal(self, state: S) -> bool: ...

    def canonical_key(self, state: S) -> Hashable:
        """Equal for states that differ only by interchangeable cards (symmetry reduction)."""
        ...

    def turn(self, state: S) -> int:
        """How many turns have begun (for the turn bound)."""
        ...

    def action_text(self, action: A) -> str: ...

    def summary(self, state: S) -> str:
        """A one-line summary of a state, for narratives."""
        ...

    def action_from_text(self, text: str) -> A: ...

    def state_to_json(self, state: S) -> Any: ...

    def state_from_json(self, data: Any) -> S: ...


@dataclass(frozen=True)
class Violation:
    """The first (shallowest) state or transition that breaks a property."""

    property: Property
    state_index: int
    """Index of the violating state (for a transition: the state after it)."""
    via_parent: int | None = None
    """For a transition property: the state before the transition."""
    action: Any = None
    successor: Any = None
    """For a transition property: the real state after the transition (``states[state_index]``
    may be an equivalent representative under symmetry, not the state the action produced)."""


@dataclass(frozen=True)
class Bounds:
    """Where the search stops: depth (actions from the root), distinct states, turns begun."""

    max_depth: int | None = None
    max_states: int | None = 200_000
    max_turns: int | None = None

    def __post_init__(self) -> None:
        for name in ("max_depth", "max_states", "max_turns"):
            value = getattr(self, name)
            if value is not None and value < (1 if name == "max_states" else 0):
                raise ValueError(f"{name} must be {'positive' if name == 'max_states' else 'zero or more'}, not {value}")


@dataclass
class Stats:
    states: int = 0
    transitions: int = 0
    depth: int = 0
    seconds: float = 0.0
    peak_rss_mib: float = 0.0
    truncated: bool = False
    """True when the depth or state bound (or an early stop) ended the search before the graph was complete."""
    turn_bounded: bool = False
    """True when states past the turn bound were left unexpanded."""
    fallback: bool = False
    """Parallel search only: a state bound would have cut it, so it was run again sequentially."""
    worker_cpu_seconds: tuple[float, ...] = ()
    """Parallel search only: each worker process's CPU seconds."""
    coordinator_cpu_seconds: float = 0.0
    """Parallel search only: the coordinating process's CPU seconds."""
    critical_cpu_seconds: float = 0.0
    """Parallel search only: per level, the slowest worker's expansion plus the slowest worker's
    receiving, summed, plus the coordinator's CPU and the most CPU a worker spent outside the levels
    (starting, answering the last queries): about what the search would take on idle cores."""

    @property
    def complete(self) -> bool:
        """The whole reachable graph was explored: no bound cut anything off."""
        return not self.truncated and not self.turn_bounded

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else float("inf")


@dataclass
class Exploration(Generic[S, A]):
    """The result of one exploration: states, parent records, violations, statistics."""

    game_name: str
    states: Sequence[S]
    """The states by index (for a game with a codec, stored packed and unpacked when read)."""
    parent: Sequence[int]
    """Index of the state each state was first reached from (-1 for a root); a flat int array."""
    via: list[Any]
    depth: Sequence[int]
    violations: dict[str, Violation]
    deadlocks: list[int]
    terminals: list[int]
    stats: Stats
    edges: list[tuple[int, int, Any]] | None = None

    def path_to(self, index: int) -> list[tuple[Any, S]]:
        """``[(None, root), (action1, s1), ...]`` from the root to state ``index``."""
        steps: list[tuple[Any, S]] = []
        while index >= 0:
            steps.append((self.via[index], self.states[index]))
            index = self.parent[index]
        return steps[::-1]

    def counterexample(self, name: str) -> list[tuple[Any, S]]:
        """The shortest path that breaks property ``name`` (the transition included)."""
        violation = self.violations[name]
        if violation.via_parent is None:
            return self.path_to(violation.state_index)
        return self.path_to(violation.via_parent) + [(violation.action, violation.successor)]

    def graph(self) -> Any:
        """The explored graph as a networkx DiGraph (needs ``keep_edges=True``)."""
        import networkx as nx

        if self.edges is None:
            raise ValueError("this exploration kept no edges; explore with keep_edges=True")
        graph = nx.DiGraph()
        terminals = set(self.terminals)
        deadlocks = set(self.deadlocks)
        for index in range(len(self.states)):
            graph.add_node(index, depth=self.depth[index], terminal=index in terminals, deadlock=index in deadlocks)
        for source, target, action in self.edges:
            graph.add_edge(source, target, action=str(action))
        return graph


def _progress(started: float, states: int, depth: int, frontier: int, out: Any) -> None:
    rate = states / max(time.perf_counter() - started, 1e-9)
    out.write(f"\r  {states:>10,} states  depth {depth:>3}  frontier {frontier:>9,}  {rate:>9,.0f} states/s")
    out.flush()


def explore(
    game: Game[S, A],
    roots: Sequence[S],
    properties: Sequence[Property],
    bounds: Bounds = Bounds(),
    *,
    keep_edges: bool = False,
    stop_when_violated: frozenset[str] | None = None,
    progress: bool | None = None,
    progress_stream: Any = None,
    on_progress: Callable[[int], None] | None = None,
) -> Exploration[S, A]:
    """Explore every state reachable from ``roots`` within ``bounds``, checking ``properties``.

    ``progress``: show a progress line on stderr after two seconds (default:
    only when stderr is a terminal). ``stop_when_violated``: stop as soon as
    any property named there has a violation (used for mutants, which only
    need to be caught once); the result is then marked truncated.
    ``on_progress``: called with the number of states stored so far, about
    twice a second (a caller's own progress display; ``progress`` is then off).
    """
    stream = progress_stream or sys.stderr
    show_progress = stream.isatty() if progress is None and on_progress is None else bool(progress)
    state_checks = [p for p in properties if p.kind == "state"]
    transition_checks = [p for p in properties if p.kind == "transition"]
    codec = game.codec() if hasattr(game, "codec") else None
    table = PackedTable() if codec is not None else None
    """With a codec: the visited keys, packed, and their indices; a state whose canonical key is not
    its own packing is stored apart (``apart``). The frontier then holds only indices (a state is
    unpacked from its interned parts when expanded), so no state is kept as separate objects."""
    apart: dict[int, bytes] = {}
    packed = StoredPacked(table, apart) if table is not None else None
    """With a codec: each stored state's packed form by index (its key, or its entry in ``apart``)."""
    index_of: dict[Hashable, int] | None = {} if keep_edges and codec is None else None
    """Without a codec: key -> index of each stored state, kept only for the edges; without them the
    visited keys are a set (no index object per state), and an index is looked up by
    :func:`index_for` when rarely needed."""
    seen: set[Hashable] = set()
    states: list[S] = []
    """Without a codec: the stored states."""
    parent = array("i")
    via: list[Any] = []
    depth = array("i")
    interned: dict[Any, Any] = {}
    intern_action = interned.setdefault
    """One shared object per distinct action, for the records kept (``via``, edges)."""
    successor_of = getattr(game, "successor", None) or game.step
    canonical = game.canonical_key

    def keyed(state: S) -> tuple[Hashable, Any]:
        """(the state's key, what to store for it: None when that is its own packed form, still to make)."""
        if codec is None:
            return canonical(state), state
        canon = canonical(state)
        key = codec.pack(canon)
        return key, (key if canon is state else None)
    violations: dict[str, Violation] = {}
    pending_state = [(p, p.check) for p in state_checks]
    pending_transition = [(p, p.check) for p in transition_checks]
    """The checks of properties not violated yet (a property is reported at its first, shallowest
    violation and never checked again), with their check functions looked up once."""
    known_violations = [0]
    """How many violations the pending lists have been trimmed for."""

    def trim_pending() -> None:
        """Drop the checks of properties violated since the last trim (both lists, in place)."""
        if len(violations) != known_violations[0]:
            pending_state[:] = [(p, c) for p, c in pending_state if p.name not in violations]
            pending_transition[:] = [(p, c) for p, c in pending_transition if p.name not in violations]
            known_violations[0] = len(violations)
    deadlocks: list[int] = []
    terminals: list[int] = []
    edges: list[tuple[int, int, Any]] | None = [] if keep_edges else None
    stats = Stats()
    started = time.perf_counter()
    next_report = started + 2.0
    shown = False

    def index_for(key: Hashable) -> int:
        """The index of the stored state with ``key`` (a transition violation reaching a known state):
        the key -> index map is built once from the stored states, and kept from then on."""
        nonlocal index_of
        if table is not None:
            return table.find(key)  # type: ignore[arg-type]
        if index_of is None:
            index_of = {canonical(state): i for i, state in enumerate(states)}
            seen.clear()
        return index_of[key]

    def known(key: Hashable) -> bool:
        if table is not None:
            return table.find(key) >= 0  # type: ignore[arg-type]
        return key in (seen if index_of is None else index_of)

    def add(state: S, from_index: int, action: Any, d: int, key: Hashable, stored: Any) -> tuple[int, bool]:
        """Store ``state`` unless its key is known: (its index, or -1 for a known state without the
        key -> index map; whether it is new)."""
        if table is not None:
            index, new = table.add(key)  # type: ignore[arg-type]
            if not new:
                return index, False
            if stored is None:
                apart[index] = codec.pack(state)  # type: ignore[union-attr]
        else:
            if index_of is None:
                if key in seen:
                    return -1, False
                seen.add(key)
            else:
                found = index_of.get(key)
                if found is not None:
                    return found, False
                index_of[key] = len(states)
            index = len(states)
            states.append(stored)
        parent.append(from_index)
        via.append(intern_action(action, action))
        depth.append(d)
        if pending_state:
            for prop, check in pending_state:
                if not check(game, state):
                    violations[prop.name] = Violation(prop, index)
            trim_pending()
        return index, True

    max_states = bounds.max_states if bounds.max_states is not None else sys.maxsize
    pack = codec.pack if codec is not None else None
    unpack = codec.unpack if codec is not None else None
    transitions = 0
    frontier: list[tuple[int, S | None]] = []
    for root in roots:
        index, new = add(root, -1, None, 0, *keyed(root))
        if new:
            frontier.append((index, None if codec is not None else root))
    level = 0
    while frontier:
        if bounds.max_depth is not None and level >= bounds.max_depth:
            stats.truncated = True
            break
        next_frontier: list[tuple[int, S | None]] = []
        for index, held in frontier:
            if held is not None:
                state: S = held
            else:  # what ``packed[index]`` reads, without its checks: the index is a stored state's
                raw = apart.get(index)
                state = unpack(raw if raw is not None else table.key(index))  # type: ignore[union-attr]
            if game.is_terminal(state):
                terminals.append(index)
                continue
            if bounds.max_turns is not None and game.turn(state) > bounds.max_turns:
                stats.turn_bounded = True
                continue
            actions = game.legal_actions(state)
            if not actions:
                deadlocks.append(index)
                continue
            for action in actions:
                successor = successor_of(state, action)
                if codec is not None:
                    canon = canonical(successor)
                    key = pack(canon)
                    stored = key if canon is successor else None
                else:
                    key, stored = canonical(successor), successor
                if len(parent) >= max_states and not known(key):
                    stats.truncated = True  # a new state would pass the bound: stop before storing it
                    next_frontier = []
                    frontier = []
                    break
                transitions += 1
                target, new = add(successor, index, action, level + 1, key, stored)
                if edges is not None:
                    edges.append((index, target, intern_action(action, action)))
                for prop, check in pending_transition:
                    if not check(game, state, action, successor):
                        violations[prop.name] = Violation(prop, target if target >= 0 else index_for(key),
                                                          via_parent=index, action=action,
                                                          successor=successor)
                if len(violations) != known_violations[0]:
                    trim_pending()
                if new:
                    next_frontier.append((target, None if codec is not None else successor))
            if (show_progress or on_progress) and time.perf_counter() >= next_report:
                if on_progress is not None:
                    on_progress(len(parent))
                if show_progress:
                    _progress(started, len(parent), level, len(next_frontier), stream)
                    shown = True
                next_report = time.perf_counter() + 0.5
            if stop_when_violated and stop_when_violated & violations.keys():
                stats.truncated = True
            if stats.truncated:
                break
        frontier = next_frontier
        if frontier:
            level += 1
    stats.transitions = transitions
    stats.states = len(parent)
    stats.depth = max(depth, default=0)
    stats.seconds = time.perf_counter() - started
    stats.peak_rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if shown:
        stream.write("\n")
    stored: Sequence[S] = states if table is None else PackedStates(packed, codec.unpack)  # type: ignore[union-attr,arg-type]
    return Exploration(game.name, stored, parent, via, depth, violations, deadlocks, terminals, stats, edges)


def narrative(
    exploration: Exploration[S, A],
    name: str,
    game: Game[S, A],
    clause_titles: Callable[[str], str] | None = None,
) -> str:
    """A counterexample as readable steps: state summary, action, clause IDs involved."""
    violation = exploration.violations[name]
    prop = violation.property
    lines = [f"Property {prop.name} is violated: {prop.statement}", f"Clauses: {', '.join(prop.clause_ids)}"]
    for number, (action, state) in enumerate(exploration.counterexample(name)):
        if action is None:
            lines.append(f"  start: {game.summary(state)}")
        else:
            lines.append(f"  {number:>2}. {game.action_text(action)}")
            lines.append(f"      -> {game.summary(state)}")
    return "\n".join(lines)


def write_dot(exploration: Exploration[Any, Any], path: str, game: Game[Any, Any] | None = None) -> None:
    """Write the explored graph (kept edges) in Graphviz DOT; node labels are state summaries when ``game`` is given."""
    if exploration.edges is None:
        raise ValueError("this exploration kept no edges; explore with keep_edges=True")

    def quote(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    terminals = set(exploration.terminals)
    violating = {v.state_index for v in exploration.violations.values()}
    lines = [f"digraph {quote(exploration.game_name)} {{"]
    for index, state in enumerate(exploration.states):
        label = game.summary(state) if game is not None else str(index)
        style = ', style=filled, fillcolor="#f4cccc"' if index in violating else (", shape=doublecircle" if index in terminals else "")
        lines.append(f"  s{index} [label={quote(label)}{style}];")
    for source, target, action in exploration.edges:
        text = game.action_text(action) if game is not None else str(action)
        lines.append(f"  s{source} -> s{target} [label={quote(text)}];")
    lines.append("}")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def write_graphml(exploration: Exploration[Any, Any], path: str) -> None:
    """Write the explored graph (kept edges) as GraphML through networkx."""
    import networkx as nx

    nx.write_graphml(exploration.graph(), path)
