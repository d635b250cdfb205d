"""``cardrules diff A B``: where two rule sets differ in play, found by exploring them in lockstep.

Both rule sets are played from the same scenario positions. Both models
share one state form, so the product of the two state graphs needs one state
per node while they agree: at each reachable state the explorer compares

* the legal actions: an action legal under A and refused under B is a
  **tightened** difference (B forbids what A allowed); legal under B only,
  a **relaxed** one (B allows more);
* for every action legal under both, the successor: different successors
  are a **changed** difference (same action, another result).

A branch stops at its first changed action (the two games have parted); an
agreed successor is explored further. Breadth-first order makes the first
difference of each kind a shortest distinguishing scenario, kept as a
replayable ``cardrules-diff/1`` trace. The clause IDs involved are those of
the ``@implements`` model code that ran for the differing step, under either
rule set. Bounds are the scenario's (or ``--max-states``): each scenario says
whether it was explored completely, completely within its turn or depth
bound, or truncated by its state bound (then "no difference found" only
holds for what was explored).
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Hashable, Literal, Sequence

from cardrules.oracle.rulechange.guard import ProposalCodeError
from cardrules.oracle.trace.coverage import clauses_exercised
from cardrules.oracle.jsondiff import first_difference
from cardrules.properties.engines.exploration import Bounds, Game
from cardrules.properties.scenarios import RuleSetSpec, Scenario

DiffKind = Literal["tightened", "relaxed", "changed"]
KINDS: tuple[DiffKind, ...] = ("tightened", "relaxed", "changed")
FORMAT = "cardrules-diff/1"


@dataclass
class Example:
    """One distinguishing scenario: the actions to a state, and the action whose treatment differs."""

    kind: DiffKind
    depth: int
    prefix: list[tuple[str, Any]]
    """(action text, state JSON after it) from the scenario's start to the differing state."""
    action: str
    legal_a: bool
    legal_b: bool
    result_a: Any = None
    """The state JSON after ``action`` under A (when legal there)."""
    result_b: Any = None
    clause_ids: tuple[str, ...] = ()


@dataclass
class ScenarioDiff:
    """The lockstep exploration of one scenario under A and B."""

    scenario: str
    states: int = 0
    transitions: int = 0
    seconds: float = 0.0
    complete: bool = False
    """Nothing was cut by any bound: every reachable state explored."""
    truncated: bool = False
    """The state bound stopped the search (what lies past it is unknown)."""
    turn_bounded: bool = False
    """Some states lay past the turn bound (complete within it, unless truncated)."""
    depth_bounded: bool = False
    """Some states lay at the depth bound (complete within it, unless truncated)."""
    max_states: int | None = None
    max_depth: int | None = None
    max_turns: int | None = None
    by_depth: dict[DiffKind, Counter[int]] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    """Per kind: depth -> number of states where a difference of that kind shows."""
    examples: dict[DiffKind, Example] = field(default_factory=dict)
    """Per kind, the shortest distinguishing scenario."""

    @property
    def differs(self) -> bool:
        return bool(self.examples)

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else 0.0

    @property
    def bounds(self) -> dict[str, int | None]:
        """The bounds the exploration ran under."""
        return {"max_states": self.max_states, "max_depth": self.max_depth, "max_turns": self.max_turns}

    def limits_text(self) -> str:
        """The bounds in words: ``max 100,000 states, depth unbounded, 2 turns``."""
        states = f"max {self.max_states:,} states" if self.max_states is not None else "states unbounded"
        depth = f"depth {self.max_depth}" if self.max_depth is not None else "depth unbounded"
        turns = f"{self.max_turns} turn(s)" if self.max_turns is not None else "turns unbounded"
        return f"{states}, {depth}, {turns}"

    def bound_text(self) -> str:
        """How the exploration ended: complete, complete within the turn/depth bound, or truncated."""
        if self.truncated:
            return (f"truncated at {self.states:,} states by the state bound: "
                    "states past it were not explored")
        if self.complete:
            return "complete: every reachable state explored"
        within = [f"the turn bound ({self.max_turns} turn(s))"] if self.turn_bounded else []
        within += [f"the depth bound ({self.max_depth})"] if self.depth_bounded else []
        return f"complete within {' and '.join(within)}: {self.states:,} states"


def _path(parents: list[int], via: list[str | None], states: list[Any], index: int,
          game: Game[Any, Any]) -> list[tuple[str, Any]]:
    steps: list[tuple[str, Any]] = []
    while parents[index] >= 0:
        action = via[index]
        assert action is not None
        steps.append((action, game.state_to_json(states[index])))
        index = parents[index]
    return steps[::-1]


def changed_clauses(game: str, a: RuleSetSpec, b: RuleSetSpec) -> frozenset[str]:
    """The clauses the change touches: those whose decision differs, and those in force under one wording only."""
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

    catalogue = default_catalogue()
    out: set[str] = set()
    for decision_id in set(a.decisions) | set(b.decisions):
        clause, decision = catalogue.decisions[decision_id]
        if a.decisions.get(decision_id, decision.chosen) != b.decisions.get(decision_id, decision.chosen):
            out.add(clause.id)
    for area in catalogue.areas:
        if area.game != game:
            continue
        in_force = [set(clauses_in_force(area.id, RuleSet(
            versions={area.id: frozenset(spec.versions.get(area.id, (area.default_version,)))},
            decisions=dict(spec.decisions)))) for spec in (a, b)]
        out |= in_force[0] ^ in_force[1]
    return frozenset(out)


def _blame(touched: frozenset[str], run_a: Any, run_b: Any) -> tuple[str, ...]:
    """The clauses behind a difference: those the change touches whose code ran for the step.

    When no touched clause's code ran (the change acts through data, not a
    linked function), every clause the change touches is named.
    """
    clauses: set[str] = set()
    for run in (run_a, run_b):
        try:
            _, found = clauses_exercised(run)
        except ProposalCodeError:
            raise  # a proposal's hook failed on the rerun: bad input, never hidden
        except Exception:  # a refusal raised by the model: the clauses that ran are still recorded
            found = frozenset()
        clauses |= found
    return tuple(sorted(clauses & touched or touched))


def diff_scenario(
    scenario: Scenario, game_a: Game[Any, Any], game_b: Game[Any, Any], bounds: Bounds | None = None,
    touched: frozenset[str] = frozenset(),
) -> ScenarioDiff:
    """Explore ``scenario`` under A and B in lockstep (see the module docstring).

    ``touched``: the clauses the change touches (:func:`changed_clauses`), to
    name the clauses behind each difference.
    """
    bounds = bounds or Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states,
                              max_turns=scenario.max_turns)
    result = ScenarioDiff(scenario.name, max_states=bounds.max_states, max_depth=bounds.max_depth,
                          max_turns=bounds.max_turns)
    started = time.perf_counter()
    root = game_a.state_from_json(scenario.state)
    states: list[Any] = [root]
    parents: list[int] = [-1]
    via: list[str | None] = [None]
    depth: list[int] = [0]
    seen: dict[Hashable, int] = {game_a.canonical_key(root): 0}
    queue: deque[int] = deque([0])
    while queue:
        index = queue.popleft()
        state, level = states[index], depth[index]
        if bounds.max_depth is not None and level >= bounds.max_depth:
            result.depth_bounded = True
            continue
        if game_a.is_terminal(state) and game_b.is_terminal(state):
            continue
        if bounds.max_turns is not None and game_a.turn(state) > bounds.max_turns:
            result.turn_bounded = True
            continue
        legal_a = {game_a.action_text(a): a for a in game_a.legal_actions(state)}
        legal_b = {game_b.action_text(a): a for a in game_b.legal_actions(state)}
        kinds_here: set[DiffKind] = set()
        for text in sorted(set(legal_a) ^ set(legal_b)):
            kind: DiffKind = "tightened" if text in legal_a else "relaxed"
            kinds_here.add(kind)
            if kind not in result.examples:
                example = Example(kind, level, _path(parents, via, states, index, game_a), text,
                                  text in legal_a, text in legal_b)
                example.clause_ids = _blame(touched, lambda: game_a.legal_actions(state),
                                            lambda: game_b.legal_actions(state))
                result.examples[kind] = example
        for text in sorted(set(legal_a) & set(legal_b)):
            after_a = game_a.step(state, legal_a[text])
            after_b = game_b.step(state, legal_b[text])
            result.transitions += 1
            if after_a != after_b:
                kinds_here.add("changed")
                if "changed" not in result.examples:
                    example = Example("changed", level, _path(parents, via, states, index, game_a), text, True, True,
                                      game_a.state_to_json(after_a), game_b.state_to_json(after_b))
                    action_a, action_b = legal_a[text], legal_b[text]
                    example.clause_ids = _blame(touched, lambda: game_a.step(state, action_a),
                                                lambda: game_b.step(state, action_b))
                    result.examples["changed"] = example
                continue
            key = game_a.canonical_key(after_a)
            if key in seen:
                continue
            if bounds.max_states is not None and len(states) >= bounds.max_states:
                result.truncated = True
                queue.clear()
                break
            seen[key] = len(states)
            states.append(after_a)
            parents.append(index)
            via.append(text)
            depth.append(level + 1)
            queue.append(len(states) - 1)
        for kind in kinds_here:
            result.by_depth[kind][level] += 1
    result.states = len(states)
    result.complete = not (result.truncated or result.turn_bounded or result.depth_bounded)
    result.seconds = time.perf_counter() - started
    return result


def example_to_json(example: Example, game: str, scenario: Scenario, a: RuleSetSpec, b: RuleSetSpec) -> dict[str, Any]:
    """A ``cardrules-diff/1`` trace: the steps to the differing state and the action treated differently."""
    return {
        "format": FORMAT,
        "game": game,
        "scenario": scenario.name,
        "rule_set_a": a.to_json(),
        "rule_set_b": b.to_json(),
        "kind": example.kind,
        "clause_ids": list(example.clause_ids),
        "initial_state": dict(scenario.state),
        "steps": [{"action": action, "state": state} for action, state in example.prefix],
        "action": example.action,
        "a": {"legal": example.legal_a, "state": example.result_a},
        "b": {"legal": example.legal_b, "state": example.result_b},
    }


def narrative(example: Example, game: Game[Any, Any]) -> list[str]:
    """The distinguishing scenario in words: the steps, then what A and B do with the action."""
    lines = [f"{number}. {action}" for number, (action, _) in enumerate(example.prefix, 1)]
    where = game.summary(game.state_from_json(example.prefix[-1][1])) if example.prefix else "the start"
    lines.append(f"in: {where}")
    if example.kind == "changed":
        lines.append(f"'{example.action}' is legal under both, with different results:")
        lines.append(f"  A -> {game.summary(game.state_from_json(example.result_a))}")
        lines.append(f"  B -> {game.summary(game.state_from_json(example.result_b))}")
        found = first_difference(example.result_a, example.result_b, "state")
        if found is not None:
            path, under_a, under_b = found
            lines.append(f"  first difference at {path}: A {under_a!r}, B {under_b!r}")
    elif example.kind == "tightened":
        lines.append(f"'{example.action}' is legal under A and refused under B")
    else:
        lines.append(f"'{example.action}' is refused under A and legal under B")
    lines.append(f"clauses involved: {', '.join(example.clause_ids) or '(none recorded)'}")
    return lines


def replay_diff(trace: dict[str, Any], game_a: Game[Any, Any], game_b: Game[Any, Any]) -> tuple[bool, str]:
    """Replay a ``cardrules-diff/1`` trace under both rule sets; True when the difference is reproduced."""
    state = game_a.state_from_json(trace["initial_state"])
    for number, step in enumerate(trace["steps"]):
        text = step["action"]
        after_a = game_a.step(state, game_a.action_from_text(text))
        after_b = game_b.step(state, game_b.action_from_text(text))
        recorded = game_a.state_from_json(step["state"])
        if after_a != recorded or after_b != recorded:
            return False, f"steps[{number}] ({text}): the rule sets do not reach the recorded state"
        state = after_a
    text = trace["action"]
    legal_a = text in {game_a.action_text(a) for a in game_a.legal_actions(state)}
    legal_b = text in {game_b.action_text(a) for a in game_b.legal_actions(state)}
    if (legal_a, legal_b) != (trace["a"]["legal"], trace["b"]["legal"]):
        return False, f"'{text}': legal under A {legal_a}, under B {legal_b}; recorded otherwise"
    if trace["kind"] == "changed":
        after_a = game_a.step(state, game_a.action_from_text(text))
        after_b = game_b.step(state, game_b.action_from_text(text))
        if after_a == after_b:
            return False, f"'{text}': both rule sets reach the same state"
        if (game_a.state_to_json(after_a), game_b.state_to_json(after_b)) != (trace["a"]["state"], trace["b"]["state"]):
            return False, f"'{text}': the results differ from the recorded ones"
    return True, f"{len(trace['steps'])} steps reproduced under both rule sets; '{text}' is {trace['kind']}"


def scenarios_for(game: str, scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The scenarios of one game."""
    return [s for s in scenarios if s.game == game]
