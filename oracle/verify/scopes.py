"""``--scope`` for ``verify`` and ``explore``: every position of a scope checked, the rows folded per property.

A scope (:mod:`cardrules.properties.scopes`) enumerates hundreds of start
positions; ``verify`` runs its engines on each (the positions are ordinary
scenarios, so :func:`cardrules.oracle.verify.runner.verify` runs them, on
``--jobs`` workers) and :func:`fold` folds the rows of one property over all the
positions into one row: it fails when any position fails, and then names the
first failing position (``small#12``), whose state is the trace's
``initial_state`` and which ``cardrules explore --scope SCOPE small#12``
explores alone. ``explore`` explores every position in turn
(:func:`explore_scope`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from cardrules.oracle.errors import InputError
from cardrules.oracle.verify.rows import Row
from cardrules.properties.scenarios import RuleSetSpec, Scenario

SEVERITY = ("violated", "MISSED", "UNKNOWN", "known-gap", "holds-bounded", "not-reached", "caught", "holds", "proved")
"""Verdicts from the worst: a folded row takes the worst verdict of its positions."""


def scopes_named(texts: Sequence[str], games: tuple[str, ...] | None = None) -> list[Any]:
    """The scopes ``--scope`` names (each a name, ``GAME-NAME`` or a scope file); bad input is an InputError."""
    from cardrules.properties.scopes import GAMES, ScopeError, load_scopes

    found: list[Any] = []
    try:
        for text in texts:
            for scope in load_scopes(text, games or GAMES):
                if all((s.game, s.name, s.source) != (scope.game, scope.name, scope.source) for s in found):
                    found.append(scope)
    except ScopeError as error:
        raise InputError(str(error)) from None
    return found


def positions_of(scope: Any) -> list[Scenario]:
    """The scope's positions (an InputError when its domains give an illegal position or too many)."""
    from cardrules.properties.scopes import ScopeError, enumerate_positions

    try:
        return enumerate_positions(scope)
    except ScopeError as error:
        raise InputError(str(error)) from None


def label(scope: Any) -> str:
    """``redemption small`` (a named scope) or ``fftcg path/to/file.toml``."""
    return f"{scope.game} {scope.name if scope.source == 'named' else scope.source}"


def handle(scope: Any) -> str:
    """What ``--scope`` takes to name this scope again: ``GAME-NAME``, or the file's path."""
    return f"{scope.game}-{scope.name}" if scope.source == "named" else scope.source


@dataclass
class Folded:
    """The rows of one scope folded per property, rule set and engine."""

    scope: Any
    positions: list[Scenario]
    rows: list[Row] = field(default_factory=list)
    states: int = 0
    """States explored over every position (the explore engine's rows)."""

    def to_json(self) -> dict[str, Any]:
        states = {p.name: p.state for p in self.positions}
        failing = [{"property": r.property, "rule_set": r.rule_set, "engine": r.engine, "verdict": r.verdict,
                    "position": r.scenario, "state": states.get(r.scenario), "trace": r.trace}
                   for r in self.rows if r.scenario in states]
        return {"scope": self.scope.describe(), "positions": len(self.positions), "states": self.states,
                "rows": [r.to_json() for r in self.rows], "failing_positions": failing}


def fold(scope: Any, positions: list[Scenario], rows: Sequence[Row]) -> Folded:
    """One row per (property, rule set, engine) over every position: the worst verdict, summed sizes and
    seconds; a row that did not hold names its first such position and keeps its counterexample and trace."""
    result = Folded(scope, positions)
    names = {p.name: p for p in positions}
    groups: dict[tuple[str, str, str], list[Row]] = {}
    for row in rows:
        if row.scenario in names:
            groups.setdefault((row.property, row.rule_set, row.engine), []).append(row)
    result.states = sum(max((r.states for r in rs), default=0) for rs in _by_position(rows, names).values())
    every = f"{scope.name} ({len(positions)} positions)"
    for (prop, rule_set, engine), group in groups.items():
        worst = min(group, key=lambda r: SEVERITY.index(r.verdict) if r.verdict in SEVERITY else 0)
        folded = Row(prop, every, rule_set, engine, worst.verdict, sum(r.states for r in group),
                     sum(r.seconds for r in group), worst.clause_ids)
        if worst.verdict not in ("holds", "proved", "holds-bounded", "caught", "not-reached"):
            position = names[worst.scenario]
            folded.scenario = position.name
            folded.counterexample = [f"from position {position.name} of scope {label(scope)}: {position.description}",
                                     f"(explore it alone: cardrules explore --scope {handle(scope)} {position.name})",
                                     *worst.counterexample]
            if worst.trace is not None:
                folded.trace = {**worst.trace, "scope": scope.describe(), "position": position.name}
        folded.note = worst.note
        result.rows.append(folded)
    return result


def _by_position(rows: Sequence[Row], names: dict[str, Scenario]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for row in rows:
        if row.scenario in names and row.engine == "explore":
            out.setdefault(row.scenario, []).append(row)
    return out


@dataclass
class ScopeExploration:
    """``explore --scope``: every position explored under one rule set."""

    scope: Any
    rule_set: RuleSetSpec
    positions: int = 0
    states: int = 0
    transitions: int = 0
    complete: bool = True
    truncated: list[str] = field(default_factory=list)
    """Positions whose exploration the state bound cut short."""
    violations: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Property -> the first position breaking it: its name, state, narrative and trace."""
    deadlocks: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"scope": self.scope.describe(), "rule_set": self.rule_set.to_json(), "positions": self.positions,
                "states": self.states, "transitions": self.transitions, "complete": self.complete,
                "truncated_positions": self.truncated, "seconds": round(self.seconds, 3),
                "violations": self.violations, "deadlocks": self.deadlocks}


def explore_scope(scope: Any, rule_set: RuleSetSpec, positions: list[Scenario], on_position: Any = None) -> ScopeExploration:
    """Explore every position of ``scope`` under ``rule_set`` within its bounds, checking every property."""
    from cardrules.properties.engines.explore import Bounds, explore, narrative
    from cardrules.properties.engines.trace_json import trace_to_json
    from cardrules.properties.games import make_game, properties_for, version_map

    game = make_game(scope.game, rule_set)
    result = ScopeExploration(scope, rule_set)
    for position in positions:
        bounds = Bounds(max_depth=position.max_depth, max_states=position.max_states, max_turns=position.max_turns)
        props = properties_for(scope.game, version_map(position, rule_set))
        found = explore(game, [game.state_from_json(position.state)], props, bounds, progress=False)
        result.positions += 1
        result.states += found.stats.states
        result.transitions += found.stats.transitions
        result.seconds += found.stats.seconds
        result.complete &= found.stats.complete
        if found.stats.truncated:
            result.truncated.append(position.name)
        for prop in sorted(found.violations):
            if prop not in result.violations:
                result.violations[prop] = {
                    "position": position.name, "description": position.description, "state": position.state,
                    "narrative": narrative(found, prop, game).splitlines(),
                    "trace": {**trace_to_json(found, prop, game, rule_set.to_json()), "position": position.name},
                }
        for index in found.deadlocks[:1]:
            result.deadlocks.append({"position": position.name, "state": position.state,
                                     "deadlock": game.summary(found.states[index])})
        if on_position is not None:
            on_position(result)
    return result
