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

The search's types live in :mod:`cardrules.properties.engines.exploration`; they are importable from
here too, beside the search that takes and returns them.
"""

from __future__ import annotations

import resource
import io
import sys
import time
from array import array
from typing import Any, Callable, Generic, Hashable, Protocol, Sequence, TypeVar, cast

from cardrules.properties.core import Property
from cardrules.properties.engines.compact import PackedStates, PackedTable, StateCodec, StoredPacked
from cardrules.properties.engines.exploration import (
    Bounds,
    Exploration,
    Game,
    Stats,
    Violation,
    game_codec,
)
from cardrules.properties.engines.reuse import Expander
from cardrules.specs.fileio import write_bytes, write_text

S = TypeVar("S")
A = TypeVar("A")
K = TypeVar("K")


class _Progress:
    """The progress display: a line on ``stream`` and/or a caller's ``on_progress``, about twice a second
    (the first report after two seconds)."""

    def __init__(self, stream: Any, show: bool, on_progress: Callable[[int], None] | None) -> None:
        self.stream = stream
        self.show = show
        self.on_progress = on_progress
        self.started = 0.0
        self.next_report = float("inf")
        self.shown = False  # whether a progress line was written (it is ended by :meth:`finish`)

    def start(self) -> float:
        """The search begins now: the time it began (the first report is due two seconds later)."""
        self.started = time.perf_counter()
        self.next_report = self.started + 2.0
        return self.started

    def tick(self, states: int, depth: int, frontier: int) -> None:
        """Report, if it is time to: ``states`` stored so far, the level's depth and next frontier's size."""
        if (self.show or self.on_progress) and time.perf_counter() >= self.next_report:
            if self.on_progress is not None:
                self.on_progress(states)
            if self.show:
                rate = states / max(time.perf_counter() - self.started, 1e-9)
                self.stream.write(f"\r  {states:>10,} states  depth {depth:>3}  frontier {frontier:>9,}  "
                                  f"{rate:>9,.0f} states/s")
                self.stream.flush()
                self.shown = True
            self.next_report = time.perf_counter() + 0.5

    def finish(self) -> None:
        if self.shown:
            self.stream.write("\n")


class _Checks:
    """The properties' checks and the violations found.

    The checks of properties not violated yet are kept, with their check functions looked up once;
    a property is reported at its first, shallowest violation and never checked again. With
    ``sample``, a transition property with :attr:`~cardrules.properties.core.Property.explore_every`
    ``n`` is checked on the transitions numbered 0, n, 2n, ... in the order the search takes them
    (the same ones every run); without, on every transition.
    """

    def __init__(self, game: Game[Any, Any], properties: Sequence[Property], sample: bool = False) -> None:
        self.game = game
        self.violations: dict[str, Violation] = {}
        self.pending_state = [(p, p.check) for p in properties if p.kind == "state"]
        self.pending_transition = [(p, p.check, p.explore_every if sample else 1)
                                   for p in properties if p.kind == "transition"]
        self.known_violations = 0  # how many violations the pending lists have been trimmed for

    def trim(self) -> None:
        """Drop the checks of properties violated since the last trim (both lists, in place)."""
        violations = self.violations
        if len(violations) != self.known_violations:
            self.pending_state[:] = [(p, c) for p, c in self.pending_state if p.name not in violations]
            self.pending_transition[:] = [(p, c, n) for p, c, n in self.pending_transition
                                          if p.name not in violations]
            self.known_violations = len(violations)

    def check_state(self, state: Any, index: int) -> None:
        """Check a newly stored state (index ``index``) against the pending state properties."""
        if self.pending_state:
            for prop, check in self.pending_state:
                if not check(self.game, state):
                    self.violations[prop.name] = Violation(prop, index)
            self.trim()

    def check_transition(self, state: Any, action: Any, successor: Any, index: int,
                         target: Callable[[], int], number: int) -> None:
        """Check the transition from state ``index`` by ``action`` (the search's transition ``number``,
        from 0) against the pending transition properties; ``target()`` gives the index of the state it
        reaches (asked only on a violation)."""
        for prop, check, every in self.pending_transition:
            if every != 1 and number % every:
                continue
            if not check(self.game, state, action, successor):
                self.violations[prop.name] = Violation(prop, target(), via_parent=index, action=action,
                                                       successor=successor)
        if len(self.violations) != self.known_violations:
            self.trim()


class _Store(Protocol[S, K]):
    """The visited set and the stored states, by index."""

    def keyed(self, state: S) -> tuple[K, bool]:
        """(the state's key, whether the state must be stored apart from its key)."""
        ...

    def known(self, key: K) -> bool: ...

    def index_for(self, key: K) -> int:
        """The index of the stored state with ``key`` (a transition violation reaching a known state)."""
        ...

    def add(self, key: K, apart: bool, state: S) -> tuple[int, bool]:
        """Store ``state`` unless its key is known: (its index, or -1 for a known state when the store
        keeps no key -> index map; whether it is new)."""
        ...

    def held(self, state: S) -> S | None:
        """What the frontier holds for a new state (None: it is unpacked from the store when expanded)."""
        ...

    def stored(self, index: int) -> S:
        """The stored state ``index``."""
        ...

    def states(self) -> Sequence[S]:
        """The stored states by index, as the exploration's result gives them."""
        ...


class _PackedStore(Generic[S]):
    """With a codec: the visited keys, packed, and their indices in a :class:`PackedTable`.

    A state whose canonical key is not its own packing is stored apart (``apart``). The frontier then
    holds only indices (a state is unpacked from its interned parts when expanded), so no state is
    kept as separate objects.
    """

    def __init__(self, game: Game[S, Any], codec: StateCodec[S]) -> None:
        # A game with a codec gives a state (its class's representative) as the canonical key, which the
        # codec packs; the Game protocol only promises a Hashable.
        self.canonical = cast("Callable[[S], S]", game.canonical_key)
        self.codec = codec
        self.table = PackedTable()
        self.apart: dict[int, bytes] = {}

    def keyed(self, state: S) -> tuple[bytes, bool]:
        canon = self.canonical(state)
        return self.codec.pack(canon), canon is not state

    def known(self, key: bytes) -> bool:
        return self.table.find(key) >= 0

    def index_for(self, key: bytes) -> int:
        return self.table.find(key)

    def add(self, key: bytes, apart: bool, state: S) -> tuple[int, bool]:
        index, new = self.table.add(key)
        if new and apart:
            self.apart[index] = self.codec.pack(state)
        return index, new

    def held(self, state: S) -> S | None:
        return None

    def stored(self, index: int) -> S:
        """What ``states()[index]`` reads, without its checks: the index is a stored state's."""
        raw = self.apart.get(index)
        return self.codec.unpack(raw if raw is not None else self.table.key(index))

    def states(self) -> Sequence[S]:
        """Each stored state's packed form by index (its key, or its entry in ``apart``), unpacked when read."""
        return PackedStates(StoredPacked(self.table, self.apart), self.codec.unpack)


class _ObjectStore(Generic[S]):
    """Without a codec: the stored states themselves, and their canonical keys.

    A key -> index map is kept only for the edges; without them the visited keys are a set (no index
    object per state), and an index is looked up by :meth:`index_for` when rarely needed.
    """

    def __init__(self, game: Game[S, Any], keep_edges: bool) -> None:
        self.canonical = game.canonical_key
        self.seen: set[Hashable] = set()
        self.index_of: dict[Hashable, int] | None = {} if keep_edges else None
        self.kept: list[S] = []

    def keyed(self, state: S) -> tuple[Hashable, bool]:
        return self.canonical(state), False

    def known(self, key: Hashable) -> bool:
        return key in (self.seen if self.index_of is None else self.index_of)

    def index_for(self, key: Hashable) -> int:
        """The key -> index map is built once from the stored states, and kept from then on."""
        if self.index_of is None:
            self.index_of = {self.canonical(state): i for i, state in enumerate(self.kept)}
            self.seen.clear()
        return self.index_of[key]

    def add(self, key: Hashable, apart: bool, state: S) -> tuple[int, bool]:
        if self.index_of is None:
            seen = self.seen
            before = len(seen)
            seen.add(key)  # one hash of the key (a state's hash may not be cached), not a lookup and an add
            if len(seen) == before:
                return -1, False
        else:
            found = self.index_of.get(key)
            if found is not None:
                return found, False
            self.index_of[key] = len(self.kept)
        self.kept.append(state)
        return len(self.kept) - 1, True

    def held(self, state: S) -> S | None:
        return state

    def stored(self, index: int) -> S:
        return self.kept[index]

    def states(self) -> Sequence[S]:
        return self.kept


# (index, the state held, or None when it is read from the store) of each state to expand, by index
Frontier = list[tuple[int, S | None]]


class _Search(Generic[S, A]):
    """One breadth-first search: the store, the per-state records and the statistics.

    The records are flat machine-integer arrays (``parent``, ``depth``, 4 bytes each a state) and
    ``via``, the action that reached each state as one shared (interned) object per distinct action.
    """

    def __init__(self, game: Game[S, A], properties: Sequence[Property], bounds: Bounds, keep_edges: bool,
                 stop_when_violated: frozenset[str] | None, progress: _Progress, compact: bool = True,
                 sample: bool = False, reuse: bool = True) -> None:
        self.game = game
        self.bounds = bounds
        self.stop_when_violated = stop_when_violated
        self.progress = progress
        codec = game_codec(game) if compact else None
        self.store: _Store[S, Any]
        if codec is not None:
            self.store = _PackedStore(game, codec)
        else:
            self.store = _ObjectStore(game, keep_edges)
        self.checks = _Checks(game, properties, sample)
        self.parent = array("i")
        self.via: list[Any] = []
        self.depth = array("i")
        interned: dict[Any, Any] = {}
        self.intern_action = interned.setdefault  # one shared object per distinct action, for ``via`` and edges
        self.expander: Expander[S, A] = Expander(game, reuse, prepare=codec.interned if codec is not None else None)
        self.deadlocks: list[int] = []
        self.terminals: list[int] = []
        self.edges: list[tuple[int, int, Any]] | None = [] if keep_edges else None
        self.stats = Stats()
        self.transitions = 0
        self.max_states = bounds.max_states if bounds.max_states is not None else sys.maxsize
        self.level = 0

    def add(self, state: S, from_index: int, action: Any, depth: int, key: Hashable, apart: bool) -> tuple[int, bool]:
        """Store ``state`` unless its key is known, and check it: (its index, or -1 for a known state
        without the key -> index map; whether it is new)."""
        index, new = self.store.add(key, apart, state)
        if not new:
            return index, False
        self.parent.append(from_index)
        self.via.append(self.intern_action(action, action))
        self.depth.append(depth)
        self.checks.check_state(state, index)
        return index, True

    def run(self, roots: Sequence[S]) -> None:
        """Store the roots, then expand level by level until the frontier is empty or a bound stops it."""
        frontier: Frontier[S] = []
        for root in roots:
            index, new = self.add(root, -1, None, 0, *self.store.keyed(root))
            if new:
                frontier.append((index, self.store.held(root)))
        while frontier:
            if self.bounds.max_depth is not None and self.level >= self.bounds.max_depth:
                self.stats.truncated = True
                break
            frontier = self.expand_level(frontier)
            if frontier:
                self.level += 1

    def expand_level(self, frontier: Frontier[S]) -> Frontier[S]:
        """Expand one level's states in index order: the next level's frontier.

        After each state expanded (terminal, turn-bounded and deadlocked ones aside) progress is
        reported and the early stop checked; the level ends there once the search is truncated.
        """
        next_frontier: Frontier[S] = []
        for index, held in frontier:
            state = held if held is not None else self.store.stored(index)
            expansion = self.expansion(index, state)
            if expansion is None:
                continue
            if not self.expand_state(index, state, expansion, next_frontier):
                next_frontier = []
            self.progress.tick(len(self.parent), self.level, len(next_frontier))
            if self.stop_when_violated and self.stop_when_violated & self.checks.violations.keys():
                self.stats.truncated = True
            if self.stats.truncated:
                break
        return next_frontier

    def expansion(self, index: int, state: S) -> tuple[Sequence[A], list[S]] | None:
        """The legal actions of state ``index`` and the successor by each, or None when it is not
        expanded (terminal, past the turn bound, or a deadlock: each recorded)."""
        if self.game.is_terminal(state):
            self.terminals.append(index)
            return None
        if self.bounds.max_turns is not None and self.game.turn(state) > self.bounds.max_turns:
            self.stats.turn_bounded = True
            return None
        actions, successors = self.expander.expand(state)
        if not actions:
            self.deadlocks.append(index)
            return None
        return actions, successors

    def expand_state(self, index: int, state: S, expansion: tuple[Sequence[A], list[S]],
                     next_frontier: Frontier[S]) -> bool:
        """Take each action from state ``index``: store and check its successors (new ones join
        ``next_frontier``), record the edges, check the transitions. False when the state bound stopped
        it: a new state would pass the bound, so the search stops before storing it."""
        store, checks, edges, intern_action = self.store, self.checks, self.edges, self.intern_action
        depth = self.level + 1
        for action, successor in zip(*expansion):
            key, apart = store.keyed(successor)
            if len(self.parent) >= self.max_states and not store.known(key):
                self.stats.truncated = True
                return False
            number = self.transitions
            self.transitions += 1
            target, new = self.add(successor, index, action, depth, key, apart)
            if edges is not None:
                edges.append((index, target, intern_action(action, action)))
            if checks.pending_transition:
                checks.check_transition(state, action, successor, index,
                                        lambda: target if target >= 0 else store.index_for(key), number)
            if new:
                next_frontier.append((target, store.held(successor)))
        return True

    def result(self, started: float) -> Exploration[S, A]:
        """The exploration, with its statistics (``started``: when the search began)."""
        stats = self.stats
        stats.transitions = self.transitions
        stats.states = len(self.parent)
        stats.depth = max(self.depth, default=0)
        stats.expansions_reused = self.expander.reused
        stats.seconds = time.perf_counter() - started
        stats.peak_rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        self.progress.finish()
        return Exploration(self.game.name, self.store.states(), self.parent, self.via, self.depth,
                           self.checks.violations, self.deadlocks, self.terminals, stats, self.edges)


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
    compact: bool = True,
    sample_costly_checks: bool = False,
    reuse: bool = True,
) -> Exploration[S, A]:
    """Explore every state reachable from ``roots`` within ``bounds``, checking ``properties``.

    ``progress``: show a progress line on stderr after two seconds (default:
    only when stderr is a terminal). ``stop_when_violated``: stop as soon as
    any property named there has a violation (used for mutants, which only
    need to be caught once); the result is then marked truncated.
    ``on_progress``: called with the number of states stored so far, about
    twice a second (a caller's own progress display; ``progress`` is then off).
    ``compact``: store the states packed when the game has a codec (the least memory); False keeps
    them as objects (more memory, less CPU: no packing of each successor, no unpacking of each
    state expanded). Either way the same states are found, in the same order, with the same indices.
    ``sample_costly_checks``: check a transition property that asks for it
    (:attr:`~cardrules.properties.core.Property.explore_every`, step determinism) on one transition in
    its ``explore_every`` only (``cardrules verify``, whose random play checks it on every step);
    the states found are the same.
    ``reuse``: list the actions and successors of states that differ only in a log the game declares
    write-only once (:mod:`cardrules.properties.engines.reuse`); False expands every state directly.
    The states found are the same either way.
    """
    stream = progress_stream or sys.stderr
    show_progress = stream.isatty() if progress is None and on_progress is None else bool(progress)
    progress_display = _Progress(stream, show_progress, on_progress)
    search: _Search[S, A] = _Search(game, properties, bounds, keep_edges, stop_when_violated, progress_display,
                                    compact, sample_costly_checks, reuse)
    started = progress_display.start()
    search.run(roots)
    return search.result(started)


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
    write_text(path, "\n".join(lines) + "\n")


def write_graphml(exploration: Exploration[Any, Any], path: str) -> None:
    """Write the explored graph (kept edges) as GraphML through networkx."""
    import networkx as nx

    buffer = io.BytesIO()
    nx.write_graphml(exploration.graph(), buffer)
    write_bytes(path, buffer.getvalue())
