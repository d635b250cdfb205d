"""The model against the z3 encoding on every state of each scenario's exploration, per game.

:func:`crosscheck_scenarios` explores each scenario under each of its rule sets
(within its own bounds, or its first ``states_limit`` states) and hands every
state to the comparisons its game has (:data:`COMPARISONS`). A comparison z3
cannot decide is listed as unknown; a state or rule set outside what an
encoding covers is a failure (not compared is never a pass). The result says
which clauses took part in how many comparisons (:func:`total_counts`).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardrules.model.errors import ScenarioError
from cardrules.oracle.crosscheck.solutions import SolverUnknown
from cardrules.oracle.errors import InputError
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import RuleSetSpec, Scenario
from cardrules.specs.fileio import FileProblem, write_text
from cardrules.specs.smt.budget import Budget, current as current_budget, using


@dataclass(frozen=True)
class Comparison:
    """One kind of comparison a game's bridge makes on a list of explored states."""

    what: str
    """What is compared, as the report names it."""
    run: Callable[[list[Any], Any], Any]
    """(states, rule configuration) -> the bridge's report (states, comparisons, clauses, disagreements)."""
    out_of_scope: type[Exception]
    """What the bridge raises for a state or rule set its encoding does not cover."""
    in_scope: Callable[[Any], bool] = lambda state: True
    """The states this comparison takes (the others are another comparison's)."""


def _fftcg() -> tuple[Comparison, ...]:
    from cardrules.oracle.crosscheck.fftcg import crosscheck_many

    return (Comparison("legal actions and successors", crosscheck_many, ValueError),)


def _redemption() -> tuple[Comparison, ...]:
    from cardrules.oracle.crosscheck.redemption import battle, decisions

    return (
        Comparison("rule decisions", decisions.crosscheck_many, decisions.OutOfScope),
        Comparison("legal actions and successors (battle fragment)", battle.crosscheck_many, battle.OutOfScope,
                   battle.in_scope),
    )


COMPARISONS: Mapping[str, Callable[[], tuple[Comparison, ...]]] = {"fftcg": _fftcg, "redemption": _redemption}
"""Game -> its comparisons, in the order they run and are reported."""


@dataclass(frozen=True)
class Run:
    """One comparison on one scenario and rule set."""

    label: str
    what: str
    report: Any


@dataclass
class CrosscheckResult:
    """Every run, and what could not be decided or compared."""

    runs: list[Run] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def disagreed(self) -> bool:
        return any(r.report.disagreements for r in self.runs)


def explored_states(game: Any, root: Any, scenario: Scenario, limit: int | None) -> tuple[Sequence[Any], str]:
    """The states of the scenario's exploration within its own bounds (the whole exploration), or the
    first ``limit`` of them; and a note on what was left out (empty: nothing)."""
    cap = scenario.max_states if limit is None else min(limit, scenario.max_states or limit)
    bounds = Bounds(max_depth=scenario.max_depth, max_states=cap, max_turns=scenario.max_turns)
    result = explore(game, [root], [], bounds, progress=False)
    states = result.states
    note = ""
    if limit is not None and len(states) >= limit:
        note = f"first {limit:,} states (--states)"
    elif not getattr(result, "complete", True):
        note = "within the scenario's bounds"
    return states, note


def _compare(result: CrosscheckResult, label: str, comparison: Comparison, states: list[Any], config: Any,
             progress: Any) -> None:
    """Run one comparison into ``result``: its report, or a line under unknown or failures."""
    phase_of = progress.phase(f"{label}: {comparison.what}") if progress is not None else nullcontext(None)
    with phase_of as phase:
        try:
            report = comparison.run(states, config)
            result.runs.append(Run(label, comparison.what, report))
            if phase is not None:
                phase.result = f"{report.states:,} states, {len(report.disagreements)} disagreement(s)"
        except SolverUnknown as error:
            result.unknown.append(f"{label}: {comparison.what}: UNKNOWN ({error})")
            if phase is not None:
                phase.result = "UNKNOWN"
        except comparison.out_of_scope as reason:
            result.failures.append(f"{label}: {comparison.what}: NOT COMPARED: {reason}")
            if phase is not None:
                phase.result = "NOT COMPARED"


@dataclass(frozen=True)
class _Task:
    """One scenario under one rule set, with what a worker process needs to cross-check it."""

    scenario: Scenario
    rule_set: RuleSetSpec
    states_limit: int | None
    budget: Budget


def _tasks(scenarios: Sequence[Scenario], decisions: Mapping[str, str], states_limit: int | None) -> list[_Task]:
    """Each scenario's rule sets (with ``decisions``: the first rule set only, those decisions changed)."""
    budget = current_budget()
    tasks = []
    for scenario in scenarios:
        for rule_set in (scenario.rule_sets if not decisions else scenario.rule_sets[:1]):
            if decisions:
                rule_set = RuleSetSpec("custom", rule_set.versions, {**rule_set.decisions, **decisions})
            tasks.append(_Task(scenario, rule_set, states_limit, budget))
    return tasks


def _crosscheck_task(task: _Task, result: CrosscheckResult, progress: Any = None) -> CrosscheckResult:
    """Every comparison of the task's game on its scenario and rule set, into ``result``; a rule set the model
    refuses is an :class:`InputError`."""
    scenario, rule_set = task.scenario, task.rule_set
    try:
        game = make_game(scenario.game, rule_set)
    except ScenarioError as error:
        raise InputError(str(error)) from None
    with using(task.budget):
        states, partial = explored_states(game, game.state_from_json(scenario.state), scenario, task.states_limit)
        config = game.config  # type: ignore[attr-defined]  # both adapters carry their RuleConfig
        label = f"{scenario.name} / {rule_set.name}" + (f" ({partial})" if partial else "")
        for comparison in COMPARISONS[scenario.game]():
            chosen = [s for s in states if comparison.in_scope(s)]
            if chosen:
                _compare(result, label, comparison, chosen, config, progress)
    return result


def portable(result: CrosscheckResult) -> CrosscheckResult:
    """``result`` with its disagreements' two answers as the text the report shows of them (a z3 term does
    not cross to another process)."""
    for run in result.runs:
        run.report.disagreements = [replace(d, smt=str(d.smt), model=str(d.model))
                                    for d in run.report.disagreements]
    return result


def _crosscheck_in_worker(task: _Task) -> tuple[CrosscheckResult, float]:
    """:func:`_crosscheck_task` in a worker process (:func:`portable`), and the seconds it took."""
    started = time.perf_counter()
    result = portable(_crosscheck_task(task, CrosscheckResult()))
    return result, time.perf_counter() - started


def recorded_states() -> dict[str, int]:
    """``SCENARIO / RULE SET`` -> the states its runs compared when the recorded counts were written
    (:data:`~cardrules.oracle.crosscheck.counts.COUNTS_PATH`): an estimate of a task's work, which orders the
    tasks given to worker processes (0 for one not there)."""
    from cardrules.oracle.crosscheck.counts import COUNTS_PATH

    try:
        runs = json.loads(COUNTS_PATH.read_text(encoding="utf-8")).get("runs", [])
    except (OSError, ValueError, AttributeError):
        return {}
    found: dict[str, int] = {}
    for run in runs if isinstance(runs, list) else []:
        if isinstance(run, dict) and isinstance(run.get("run"), str) and isinstance(run.get("states"), int):
            label = run["run"].split(" (", 1)[0]
            found[label] = found.get(label, 0) + run["states"]
    return found


def crosscheck_scenarios(scenarios: Sequence[Scenario], decisions: Mapping[str, str], states_limit: int | None,
                         progress: Any = None, jobs: int = 1) -> CrosscheckResult:
    """Every comparison of each scenario's game on each of its rule sets (with ``decisions``: the
    first rule set only, those decisions changed); a rule set the model refuses is an :class:`InputError`.
    ``progress``: a :class:`~cardrules.oracle.progress.RunProgress` not yet entered (entered here, once any
    worker processes exist: a process must not fork while the live display's thread runs).

    ``jobs`` > 1: the scenarios and rule sets are cross-checked in that many worker processes, the largest
    first (by :func:`recorded_states`), each shown in ``progress`` as it ends; the runs are the same, in the
    same order, as with one."""
    tasks = _tasks(scenarios, decisions, states_limit)
    result = CrosscheckResult()
    with ExitStack() as stack:
        if jobs == 1 or len(tasks) <= 1:
            if progress is not None:
                stack.enter_context(progress)
            for task in tasks:
                _crosscheck_task(task, result, progress)
            return result
        for task in tasks:  # a rule set the model refuses is told here, as one line, before any worker starts
            try:
                make_game(task.scenario.game, task.rule_set)
            except ScenarioError as error:
                raise InputError(str(error)) from None
        from cardrules.oracle.jobs import run_jobs

        sizes = recorded_states()

        def shown(index: int, done: tuple[CrosscheckResult, float], running: list[int]) -> None:
            if progress is not None:
                part, seconds = done
                task = tasks[index]
                ahead = tasks[running[0]] if running else None
                progress.finished(
                    f"{task.scenario.name} / {task.rule_set.name}",
                    f"{sum(r.report.states for r in part.runs):,} states, "
                    f"{sum(len(r.report.disagreements) for r in part.runs)} disagreement(s)"
                    + (f", {len(part.unknown)} UNKNOWN" if part.unknown else "")
                    + (f", {len(part.failures)} NOT COMPARED" if part.failures else ""),
                    seconds,
                    running=f"{len(running)} to go: {ahead.scenario.name} / {ahead.rule_set.name}" if ahead else "")

        parts = run_jobs(tasks, _crosscheck_in_worker, jobs, on_done=shown,
                         on_start=(lambda: stack.enter_context(progress)) if progress is not None else None,
                         cost=lambda task: sizes.get(f"{task.scenario.name} / {task.rule_set.name}", 0))
    for part, _ in parts:
        result.runs += part.runs
        result.unknown += part.unknown
        result.failures += part.failures
    return result


def pairs(report: Any) -> int:
    """(state, action) pairs or rule decisions compared in a run."""
    return report.actions if hasattr(report, "actions") else report.transitions


def total_counts(runs: Sequence[Run]) -> dict[str, int]:
    """Clause -> comparisons it took part in, over every run, by clause ID."""
    total: Counter[str] = Counter()
    for run in runs:
        total.update(run.report.clauses)
    return dict(sorted(total.items()))


def run_json(run: Run) -> dict[str, Any]:
    """One run as ``smt crosscheck --json`` prints it."""
    r = run.report
    return {"run": run.label, "compared": run.what, "states": r.states, "pairs": pairs(r), "seconds": round(r.seconds, 2),
            "clauses": dict(sorted(r.clauses.items())), "out_of_scope": list(r.out_of_scope),
            "disagreements": [{"what": d.what, "action": d.action, "smt": str(d.smt), "model": str(d.model),
                               "clause_ids": list(d.clause_ids), "state": d.state} for d in r.disagreements]}


def write_counts(path: Path, runs: Sequence[Run], command: str) -> None:
    """Write the comparisons per clause of ``runs`` to ``path`` (atomically), stamped with ``command``."""
    from cardrules.oracle.crosscheck.counts import counts_document

    document = counts_document([{"run": r.label, "compared": r.what, "states": r.report.states,
                                 "clauses": dict(sorted(r.report.clauses.items()))} for r in runs], command)
    try:
        write_text(path, json.dumps(document, indent=1) + "\n")
    except FileProblem as problem:
        raise InputError(f"--write-counts {problem}") from None
