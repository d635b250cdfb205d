"""Building ``cardrules-vectors/2`` vectors from chosen candidates.

A play vector replays the shortest path to its state plus one step on the
model and records, at the start and after every step, the sorted legal
actions and the state; every step also lists the clauses in force that the
model exercised in it (the step itself and listing the actions after it),
which is what the runner blames when that step is the first difference.
A refusal vector records the same prefix, then the action that must be
refused and the clauses the model's ``IllegalAction`` names. A perft vector
counts action sequences to a small depth, with a per-first-action divide.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from cardrules.oracle.conformance.candidates import Candidate, ScenarioGraph, state_json, sorted_legal
from cardrules.oracle.trace.coverage import clauses_exercised
from cardrules.properties.engines.exploration import Game

PERFT_MAX_DEPTH = 3
PERFT_MAX_NODES = 300
"""Perft vectors stop at the deepest depth (at most 3) whose node total stays within this."""


def vector_id(scenario: str, kind: str, actions: list[str]) -> str:
    """A stable id: the scenario, the kind and a digest of the action texts."""
    digest = hashlib.sha256("\n".join(actions).encode()).hexdigest()[:12]
    return f"{scenario}/{kind}/{digest}"


def path_texts(graph: ScenarioGraph, source: int) -> list[str]:
    """Action texts of the shortest path from the scenario start to state ``source``."""
    game = graph.game
    return [game.action_text(a) for a, _ in graph.exploration.path_to(source)[1:]]


def candidate_id(graph: ScenarioGraph, candidate: Candidate) -> str:
    return vector_id(graph.scenario.name, candidate.kind, path_texts(graph, candidate.source) + [candidate.action])


def candidate_ids(graphs: Sequence[ScenarioGraph], candidates: Sequence[Candidate]) -> list[str]:
    """:func:`candidate_id` of each candidate, the path to each state replayed once (many candidates share
    their state)."""
    paths: dict[tuple[int, int], list[str]] = {}
    out: list[str] = []
    for c in candidates:
        path = paths.get((c.graph, c.source))
        if path is None:
            path = paths[c.graph, c.source] = path_texts(graphs[c.graph], c.source)
        out.append(vector_id(graphs[c.graph].scenario.name, c.kind, path + [c.action]))
    return out


def listing(game: Game[Any, Any], state: Any, in_force: frozenset[str]) -> tuple[list[str], set[str]]:
    if game.is_terminal(state):
        return [], set()
    _, clauses = clauses_exercised(lambda: game.legal_actions(state))
    return sorted_legal(game, state), set(clauses & in_force)


Replayed = dict[tuple[int, str], tuple[Any, dict[str, Any], Any]]
"""Steps replayed for one suite: (``id`` of the state stepped from, the action's text) -> that state (kept, so
that its id stays its own), the step's record and the state it reached."""


def replay_steps(game: Game[Any, Any], root: Any, texts: list[str], in_force: frozenset[str],
                 replayed: Replayed | None = None) -> tuple[list[dict[str, Any]], Any]:
    """Replay ``texts`` from ``root``: one step record each, and the final state. ``replayed``: the steps of
    one suite (one game and one set of clauses in force) replayed before, each made once: the vectors of a
    suite share the first steps of their paths. A record is shared, never changed. A replay gives the record a
    first replay gave: a step's clauses do not depend on what the process ran before (no remembered model
    function, nor anything it calls, is linked to a clause)."""
    state = root
    steps: list[dict[str, Any]] = []
    for text in texts:
        before = state
        found = replayed.get((id(before), text)) if replayed is not None else None
        if found is not None and found[0] is before:
            steps.append(found[1])
            state = found[2]
            continue
        state, clauses = clauses_exercised(lambda: game.step(before, game.action_from_text(text)))
        legal, listed = listing(game, state, in_force)
        steps.append({
            "action": text,
            "state": state_json(game, state),
            "legal_actions": legal,
            "clauses": sorted((clauses & in_force) | listed),
        })
        if replayed is not None:
            replayed[id(before), text] = (before, steps[-1], state)
    return steps, state


def build_vector(graph: ScenarioGraph, candidate: Candidate, in_force: frozenset[str],
                 replayed: Replayed | None = None) -> dict[str, Any]:
    """The vector of one chosen candidate (``replayed``: :func:`replay_steps`'s, for the suite's vectors)."""
    game, scenario = graph.game, graph.scenario.name
    root = graph.exploration.states[0]
    prefix = path_texts(graph, candidate.source)
    start_legal, start_clauses = listing(game, root, in_force)
    texts = prefix + ([candidate.action] if candidate.kind == "play" else [])
    steps, final = replay_steps(game, root, texts, in_force, replayed)
    clauses = set(start_clauses).union(*(s["clauses"] for s in steps))
    before = graph.exploration.states[candidate.source]
    vector: dict[str, Any] = {
        "id": vector_id(scenario, candidate.kind, prefix + [candidate.action]),
        "kind": candidate.kind,
        "clauses": [],
        "narrative": "",
        "scenario": scenario,
        "state": state_json(game, root),
        "legal_actions": start_legal,
        "start_clauses": sorted(start_clauses),
        "steps": steps,
    }
    where = f"{scenario}, after {len(prefix)} step(s) [{game.summary(before)}]"
    if candidate.kind == "play":
        vector["narrative"] = f"{where}: {candidate.action} -> [{game.summary(final)}]"
    else:
        clauses |= set(candidate.refused_by)
        vector["refuse"] = {"action": candidate.action, "clauses": list(candidate.refused_by),
                            "reason": candidate.reason}
        vector["narrative"] = f"{where}: {candidate.action} is refused ({candidate.reason})"
    vector["clauses"] = sorted(clauses)
    return vector


class _Counter:
    """The action sequences of each length from one root, each (state, length) counted once and each state's
    successors (one per legal action, in order) listed once: the counts of counting from scratch at each
    length, with each state listed and stepped once (asked whether the game is over once per length), in the
    order a count from scratch first asks (so the same model functions run). States are told apart by
    identity, never hashed: a state's hash or equality is model code, and running it while clauses are
    collected would add its clauses."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.counted: dict[tuple[int, int], int] = {}
        self.listed: dict[int, tuple[list[Any], list[Any]]] = {}
        """``id(state)`` -> its legal actions and the successor by each; every state counted is kept in a list
        here, so no id is reused."""

    def count(self, state: Any, depth: int) -> int:
        if depth == 0:
            return 1
        key = (id(state), depth)
        found = self.counted.get(key)
        if found is None:
            found = self.counted[key] = 0 if self.game.is_terminal(state) else sum(
                self.count(successor, depth - 1) for successor in self.listing(state)[1])
        return found

    def listing(self, state: Any) -> tuple[list[Any], list[Any]]:
        """The legal actions at ``state`` (not over) and the successor by each, in order."""
        found = self.listed.get(id(state))
        if found is None:
            game = self.game
            actions = list(game.legal_actions(state))
            found = self.listed[id(state)] = (actions, [game.step(state, a) for a in actions])
        return found


def perft_vector(graph: ScenarioGraph, in_force: frozenset[str]) -> dict[str, Any] | None:
    """A perft vector from the scenario's start, to the deepest depth within :data:`PERFT_MAX_NODES`."""
    return perft_from(graph.game, graph.exploration.states[0], graph.scenario.name, in_force, PERFT_MAX_DEPTH)


def shared_perft_vector(graph: ScenarioGraph, in_force: frozenset[str]) -> dict[str, Any] | None:
    """:func:`perft_vector`, from the graph's shared answers where an equal start was counted under a rule set
    that answers every option read while counting alike (:meth:`~cardrules.oracle.trace.shared.View.result`;
    the vector is the same object for every suite given it: read, never changed)."""
    root = graph.exploration.states[0]
    return graph.answers.result("perft", root, (graph.scenario.name, in_force),
                                lambda: perft_vector(graph, in_force), remember=True)


def perft_from(game: Game[Any, Any], root: Any, scenario: str, in_force: frozenset[str], max_depth: int,
               tag: str = "") -> dict[str, Any] | None:
    """A perft vector from ``root`` (a position of ``scenario``), to the deepest depth up to ``max_depth``
    within :data:`PERFT_MAX_NODES`; ``tag`` goes into the id (a second perft vector of the same scenario)."""
    nodes: list[int] = []
    clauses: set[str] = set()
    counter = _Counter(game)  # a depth's count asks the model only what the depths before did not
    for depth in range(1, max_depth + 1):
        count, seen = clauses_exercised(lambda: counter.count(root, depth))
        if nodes and sum(nodes) + count > PERFT_MAX_NODES:
            break
        nodes.append(count)
        clauses |= seen & in_force
        if count == 0:
            break  # no action sequence of this length, so none longer
    if not nodes or (nodes[0] == 0 and not tag):
        return None  # a scenario's start with no action; a later position with none (a game won) is a valid load
    depth = len(nodes)
    divide = {} if game.is_terminal(root) else {
        game.action_text(a): counter.count(successor, depth - 1) for a, successor in zip(*counter.listing(root))}
    return {
        "id": vector_id(scenario, "perft", [str(depth)] + ([tag] if tag else [])),
        "kind": "perft",
        "clauses": sorted(clauses),
        "narrative": (f"{scenario}, from a later position: the game is over, no action" if game.is_terminal(root)
                      else f"{scenario}{', from a later position' if tag else ''}: {nodes[-1]} action sequences of "
                      f"length {depth} from {'it' if tag else 'the start'}"),
        "scenario": scenario,
        "state": game.state_to_json(root),
        "depth": depth,
        "nodes": nodes,
        "divide": dict(sorted(divide.items())),
    }


_listing = listing
"""Former private name of :func:`listing` (import :func:`listing`)."""
_steps = replay_steps
"""Former private name of :func:`replay_steps` (import :func:`replay_steps`)."""
