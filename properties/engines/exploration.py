"""What an exhaustive exploration is given and gives back: the game it searches (:class:`Game`), its
bounds, its statistics, the violations it found and the whole result (:class:`Exploration`).

The search itself is :func:`cardrules.properties.engines.explore.explore`; the parallel and Ray searches
return the same :class:`Exploration`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Hashable, Protocol, Sequence, TypeVar

from cardrules.properties.core import Property
from cardrules.properties.engines.compact import StateCodec

S = TypeVar("S")
A = TypeVar("A")
K = TypeVar("K")


class Game(Protocol[S, A]):
    """What the explorer needs from a game's model under one rule set.

    A game may offer more, which the explorer uses when present: ``successor(state, action)``, the
    step function without its legality check, for actions the game listed as legal; ``codec()``, a
    compact codec for storing states packed (:mod:`cardrules.properties.engines.compact`); and
    ``split_log``, ``without_log`` and ``join_log``, which declare a log the rules only write, so that
    states differing only in that log share one expansion (:mod:`cardrules.properties.engines.reuse`).
    """

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
    expansions_reused: int = 0
    """States whose legal actions and successors were those of an earlier state differing only in a
    write-only log (:mod:`cardrules.properties.engines.reuse`), joined to the state's own log."""
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
    via: Sequence[Any]
    """The action that reached each state (None for a root)."""
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


def game_codec(game: Game[S, Any]) -> StateCodec[S] | None:
    """The game's compact codec, when it offers one (a ``codec()`` method), else None."""
    if not hasattr(game, "codec"):
        return None
    codec: StateCodec[S] = getattr(game, "codec")()
    return codec


