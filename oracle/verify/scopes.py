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

import json
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
    workers: list[tuple[str, int, int]] = field(default_factory=list)
    """With workers: each worker's name, positions explored and peak resident memory (KiB)."""

    def to_json(self) -> dict[str, Any]:
        return {"scope": self.scope.describe(), "rule_set": self.rule_set.to_json(), "positions": self.positions,
                "states": self.states, "transitions": self.transitions, "complete": self.complete,
                "truncated_positions": self.truncated, "seconds": round(self.seconds, 3),
                "violations": self.violations, "deadlocks": self.deadlocks,
                **({"workers": [{"worker": name, "positions": tasks, "peak_mib": round(kib / 1024, 1)}
                                for name, tasks, kib in self.workers]} if self.workers else {})}


def explore_scope(scope: Any, rule_set: RuleSetSpec, positions: list[Scenario], on_position: Any = None,
                  workers: int = 1, backend: str = "processes", address: str | None = None,
                  reuse: bool = True) -> ScopeExploration:
    """Explore every position of ``scope`` under ``rule_set`` within its bounds, checking every property.

    With ``workers > 1`` or ``backend="ray"`` the positions are spread over worker processes or a Ray
    cluster (:func:`cardrules.properties.engines.by_position.map_in_order`), one whole position per task;
    the outcomes are folded in the positions' order, so the result is the sequential one (the first
    position breaking a property, its counterexample, the sums), only ``seconds`` is the workers' sum and
    ``workers`` says who ran what. ``reuse``: as :func:`cardrules.properties.engines.explore.explore`'s."""
    from cardrules.properties.engines.by_position import map_in_order, peak_per_worker

    result = ScopeExploration(scope, rule_set)
    uses = []
    tasks = [(scope.game, rule_set, position, reuse) for position in positions]
    for outcome, use in map_in_order(explore_position, tasks, workers, backend, address):
        uses.append(use)
        _add(result, outcome)
        if on_position is not None:
            on_position(result)
    if workers > 1 or backend == "ray":
        result.workers = peak_per_worker(uses)
    return result


@dataclass(frozen=True)
class PositionOutcome:
    """One position's exploration, as plain data (it crosses process and machine boundaries)."""

    name: str
    states: int
    transitions: int
    seconds: float
    complete: bool
    truncated: bool
    violations: tuple[tuple[str, dict[str, Any]], ...]
    """Each property broken from this position, with its position, state, narrative and trace (sorted)."""
    deadlock: dict[str, Any] | None


_GAMES: dict[tuple[str, str], Any] = {}
"""The game under a rule set, built once per worker process."""


def explore_position(task: tuple[str, RuleSetSpec, Scenario, bool]) -> PositionOutcome:
    """Explore one position (``(game, rule_set, position, reuse)``) within its bounds, checking every property
    (``reuse``: as :func:`cardrules.properties.engines.explore.explore`'s)."""
    from cardrules.properties.engines.explore import Bounds, explore, narrative
    from cardrules.properties.engines.trace_json import trace_to_json
    from cardrules.properties.games import make_game, properties_for, version_map

    game_name, rule_set, position, reuse = task
    key = (game_name, json.dumps(rule_set.to_json(), sort_keys=True))
    if key not in _GAMES:
        _GAMES[key] = make_game(game_name, rule_set)
    game = _GAMES[key]
    bounds = Bounds(max_depth=position.max_depth, max_states=position.max_states, max_turns=position.max_turns)
    props = properties_for(game_name, version_map(position, rule_set))
    found = explore(game, [game.state_from_json(position.state)], props, bounds, progress=False, reuse=reuse)
    violations = tuple(
        (prop, {"position": position.name, "description": position.description, "state": position.state,
                "narrative": narrative(found, prop, game).splitlines(),
                "trace": {**trace_to_json(found, prop, game, rule_set.to_json()), "position": position.name}})
        for prop in sorted(found.violations))
    deadlock = ({"position": position.name, "state": position.state,
                 "deadlock": game.summary(found.states[found.deadlocks[0]])} if found.deadlocks else None)
    return PositionOutcome(position.name, found.stats.states, found.stats.transitions, found.stats.seconds,
                           found.stats.complete, bool(found.stats.truncated), violations, deadlock)


def _add(result: ScopeExploration, outcome: PositionOutcome) -> None:
    """Fold one position's outcome into the scope's (positions in order: the first breaking position wins)."""
    result.positions += 1
    result.states += outcome.states
    result.transitions += outcome.transitions
    result.seconds += outcome.seconds
    result.complete &= outcome.complete
    if outcome.truncated:
        result.truncated.append(outcome.name)
    for prop, violation in outcome.violations:
        if prop not in result.violations:
            result.violations[prop] = violation
    if outcome.deadlock is not None:
        result.deadlocks.append(outcome.deadlock)
