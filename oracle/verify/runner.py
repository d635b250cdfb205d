"""``cardrules verify``: every property on every embedded scenario and rule set, by every engine.

Engines: ``explore`` (exhaustive breadth-first exploration within the
scenario's bounds), ``hypothesis`` (the rule-based state machine, random
play from the scenario) and, for FFTCG, ``smt`` (the z3 transition system
from the scenario: k-induction, else a bounded check; counterexamples are
replayed on the model). Mutant rule sets (broken variants, rules broken on
purpose: :mod:`cardrules.specs.catalogue.broken`) must be caught: a mutant none of
whose expected violations any engine finds fails the run.

Exit code: 0 when every sound rule set holds and every mutant is caught, 1
otherwise (an SMT ``unknown`` counts as a failure, never as a pass).
"""

from __future__ import annotations

import builtins
import contextlib
import io
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TextIO

from hypothesis import strategies as st

from cardrules.model.errors import ScenarioError
from cardrules.oracle.jobs import run_jobs
from cardrules.oracle.progress import Phase, RunProgress
from cardrules.oracle.verify.report import print_table, rows_to_json  # noqa: F401  (re-exported)
from cardrules.oracle.verify.rows import Row  # noqa: F401  (Row is part of this module's API)
from cardrules.properties.core import Property
from cardrules.properties.games import checked_game, make_game, properties_for, version_map
from cardrules.properties.engines.explore import Bounds, Exploration, Game, explore, narrative
from cardrules.properties.engines.machines import run_machine
from cardrules.properties.scenarios import RuleSetSpec, Scenario, load_scenarios
from cardrules.properties.engines.trace_json import trace_to_json

ENGINES = ("explore", "hypothesis", "smt")
SMT_DEPTH = 6
"""Bounded check depth of the ``smt`` engine (after k-induction up to :data:`SMT_INDUCTION_K` fails)."""
SMT_INDUCTION_K = 2


def game_of_decision(decision_id: str) -> str:
    """The game whose catalogue clause records this decision (ScenarioError if none)."""
    from cardrules.specs.catalogue import default_catalogue

    found = default_catalogue().decisions.get(decision_id)
    if found is None:
        raise ScenarioError(f"--decision {decision_id}", "unknown decision")
    return found[0].game


def _verdict(violated: bool, mutant: RuleSetSpec | None, prop: Property, complete: bool) -> str:
    if mutant is not None and prop.name in mutant.expect_violated:
        return "caught" if violated else "MISSED"
    if violated:
        return "violated" if prop.must_hold else "known-gap"
    return "holds" if complete else "holds-bounded"


def _explore_rows(
    scenario: Scenario, rule_set: RuleSetSpec, mutant: bool, game: Game[Any, Any], root: Any,
    props: Sequence[Property], phase: Phase | None = None,
) -> list[Row]:
    bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
    stop = frozenset(rule_set.expect_violated) if mutant else None
    on_progress = (lambda states: phase.count(states, "states")) if phase is not None else None
    result: Exploration[Any, Any] = explore(
        game, [root], props, bounds, stop_when_violated=stop, progress=False, on_progress=on_progress,
        compact=False,  # verify's bounds keep every exploration small: states as objects, no packing
        sample_costly_checks=True,  # step determinism on a sample of transitions: random play checks every step
    )
    rows = []
    complete = result.stats.complete
    for prop in props:
        violated = prop.name in result.violations
        row = Row(
            prop.name, scenario.name, rule_set.name, "explore",
            _verdict(violated, rule_set if mutant else None, prop, complete),
            result.stats.states, result.stats.seconds, prop.clause_ids,
        )
        if violated:
            row.counterexample = narrative(result, prop.name, game).splitlines()
            row.trace = trace_to_json(result, prop.name, game, rule_set.to_json())
        rows.append(row)
    if result.deadlocks:
        index = result.deadlocks[0]
        rows.append(
            Row("no-deadlock", scenario.name, rule_set.name, "explore", "violated", result.stats.states,
                result.stats.seconds, (), [f"no legal action in: {game.summary(result.states[index])}"])
        )
    return rows


def _machine_rows(
    scenario: Scenario, rule_set: RuleSetSpec, mutant: bool, game: Game[Any, Any], root: Any,
    props: Sequence[Property], examples: int, steps: int,
) -> list[Row]:
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        # no shrinking here: the explorer already gives shortest counterexamples
        result = run_machine(
            game, st.just(root), props, max_examples=examples, steps=steps, shrink=False, max_turns=scenario.max_turns
        )
    seconds = time.perf_counter() - started
    broken = result.violation.prop.name if result.violation else None
    rows = []
    for prop in props:
        violated = prop.name == broken
        row = Row(
            prop.name, scenario.name, rule_set.name, "hypothesis",
            _verdict(violated, rule_set if mutant else None, prop, False), result.steps_played, seconds, prop.clause_ids,
        )
        if violated and result.violation is not None:
            row.counterexample = [
                f"start: {game.summary(s)}" if a is None else f"{game.action_text(a)} -> {game.summary(s)}"
                for a, s in result.violation.path
            ]
        rows.append(row)
    if result.deadlock:
        rows.append(Row("no-deadlock", scenario.name, rule_set.name, "hypothesis", "violated", result.steps_played,
                        seconds, (), [result.deadlock]))
    if result.error:
        rows.append(Row("engine-error", scenario.name, rule_set.name, "hypothesis", "violated", result.steps_played,
                        seconds, (), [result.error]))
    return rows


def _smt_rows(scenario: Scenario, rule_set: RuleSetSpec, mutant: bool, root: Any) -> list[Row]:
    """The FFTCG z3 transition system from the scenario: k-induction, else a bounded check.

    A counterexample is decoded and replayed on the executable model; one that
    does not replay is a failure of the cross-check, reported as violated.

    The k-inductions of every property share one transition system (built once: most of the
    engine's time was building it again per property). A proof is a proof whatever z3 checked before
    it, and so is an induction step that did not close (every base case unsatisfiable, every step
    case satisfiable: no model is read); any other answer is asked again alone, in a fresh context
    (:func:`bmc_from_state`), as is the bounded check that follows, so a counterexample or an
    undecided query still depends only on its own question. The session's first check is that
    question asked alone (a fresh context, the transition system built, then this one check: what
    :func:`bmc_from_state` does), so its answer is kept as it is; a mutant's expected violations are
    checked first, as they are the answers most likely to be counterexamples.
    """
    from cardrules.model.fftcg.config import RuleConfig as FfConfig
    from cardrules.oracle.crosscheck.fftcg import BmcResult, bmc_from_state, bmc_session, smt_properties
    from cardrules.specs.smt.fftcg.bmc import Verdict

    config = FfConfig.of(rule_set.decisions, broken=rule_set.broken)
    rows = []
    checked = [p for p in smt_properties().values() if p.must_hold]
    expected = frozenset(rule_set.expect_violated) if mutant else frozenset()
    order = sorted(range(len(checked)), key=lambda i: checked[i].name not in expected)  # stable: expected first
    proofs: dict[int, tuple[BmcResult, float]] = {}
    with bmc_session(root, config) as session:  # one transition system for every property's k-induction
        for index in order:
            started = time.perf_counter()
            proofs[index] = (session.check(checked[index].name, SMT_INDUCTION_K, induction=True),
                             time.perf_counter() - started)
    for index, prop in enumerate(checked):
        result, seconds = proofs[index]
        if result.verdict not in (Verdict.PROVED, Verdict.HOLDS_TO_DEPTH) and index != order[0]:
            # a counterexample or an unknown is asked again alone, in a context of its own (the first check was)
            started = time.perf_counter()
            result = bmc_from_state(root, prop.name, SMT_INDUCTION_K, config, induction=True)
            seconds += time.perf_counter() - started
        induction_note = ""
        if result.verdict is Verdict.UNKNOWN:
            induction_note = f"k-induction undecided: {result.reason}"
        if result.verdict is not Verdict.PROVED and result.verdict is not Verdict.VIOLATED:
            started = time.perf_counter()  # the bounded check in a context of its own, as bmc_from_state alone
            result = bmc_from_state(root, prop.name, SMT_DEPTH, config)
            seconds += time.perf_counter() - started
        violated = result.verdict is Verdict.VIOLATED
        if result.verdict is Verdict.UNKNOWN:
            verdict = "UNKNOWN"
        elif mutant and prop.name in rule_set.expect_violated:
            verdict = "caught" if violated and not result.replay_problems else "MISSED"
        elif violated:
            verdict = "violated"
        else:
            verdict = "proved" if result.verdict is Verdict.PROVED else "holds-bounded"
        row = Row(prop.name, scenario.name, rule_set.name, "smt", verdict, result.depth, seconds, prop.clause_ids)
        if violated:
            row.counterexample = [str(action) for action, _ in result.trace[1:]] + [
                f"replay on the model: {'; '.join(result.replay_problems) or 'reproduced'}"
            ]
        if result.verdict is Verdict.UNKNOWN:
            row.counterexample = [f"z3 could not decide: {result.reason}"]
        row.note = induction_note
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Run:
    """One engine on one rule set of one scenario: a phase of ``verify``."""

    scenario: Scenario
    rule_set: RuleSetSpec
    mutant: bool
    engine: str

    @builtins.property
    def label(self) -> str:
        return f"{self.scenario.name} / {self.rule_set.name} / {self.engine}"


def plan_runs(
    scenarios: Sequence[Scenario],
    engines: Sequence[str] = ENGINES,
    *,
    include_mutants: bool = True,
    extra_decisions: dict[str, str] | None = None,
) -> list[Run]:
    """Every (scenario, rule set, engine) that ``verify`` will run, in order.

    With ``extra_decisions``, each scenario of the decisions' game runs its
    first rule set with them changed (and no mutants); the ``smt`` engine
    exists for FFTCG only.
    """
    runs: list[Run] = []
    for scenario in scenarios:
        rule_sets: list[tuple[RuleSetSpec, bool]] = [(r, False) for r in scenario.rule_sets]
        if extra_decisions:
            mine = {d: o for d, o in extra_decisions.items() if game_of_decision(d) == scenario.game}
            if not mine:
                continue  # none of these decisions is about this scenario's game
            rule_sets = [(RuleSetSpec("custom", r.versions, {**r.decisions, **mine}), False)
                         for r in scenario.rule_sets[:1]]
        elif include_mutants:
            rule_sets += [(m, True) for m in scenario.mutants]
        for rule_set, mutant in rule_sets:
            for engine in ENGINES:
                if engine in engines and (engine != "smt" or checked_game(scenario.game).smt_engine):
                    runs.append(Run(scenario, rule_set, mutant, engine))
    return runs


def run_rows(run: Run, examples: int, steps: int, phase: Phase | None) -> list[Row]:
    scenario, rule_set, mutant = run.scenario, run.rule_set, run.mutant
    game = make_game(scenario.game, rule_set)
    root = game.state_from_json(scenario.state)
    props = properties_for(scenario.game, version_map(scenario, rule_set))
    if run.engine == "explore":
        return _explore_rows(scenario, rule_set, mutant, game, root, props, phase)
    if run.engine == "hypothesis":
        return _machine_rows(scenario, rule_set, mutant, game, root, props, examples, steps)
    return _smt_rows(scenario, rule_set, mutant, root)


def reconcile_mutant(rows: Sequence[Row]) -> None:
    """A mutant caught by any engine (or on any expected property) is not MISSED by the others."""
    if any(r.verdict == "caught" for r in rows):
        for row in rows:
            if row.verdict == "MISSED":
                row.verdict = "not-reached"


def _phase_result(rows: Sequence[Row]) -> str:
    failed = sum(1 for r in rows if r.failed)
    caught = sum(1 for r in rows if r.verdict == "caught")
    size = max((r.states for r in rows), default=0)
    unit = rows[0].size_name.replace("_", " ") if rows else ""
    extra = f", {caught} caught" if caught else ""
    return f"{len(rows)} properties, {failed} failed{extra}, {size:,} {unit}"


@dataclass(frozen=True)
class RunDone:
    """A finished run: its rows, and the wall and CPU seconds it took (where it ran)."""

    run: Run
    rows: list[Row]
    seconds: float
    cpu_seconds: float


def _run_job(job: tuple[Run, int, int]) -> RunDone:
    """One run, timed (the work of a ``--jobs`` worker process, or of this one)."""
    run, examples, steps = job
    wall, cpu = time.perf_counter(), time.process_time()
    rows = run_rows(run, examples, steps, None)
    return RunDone(run, rows, time.perf_counter() - wall, time.process_time() - cpu)


def _cost(job: tuple[Run, int, int]) -> float:
    """A rough estimate of a run's work, to start the longest first (order only, never a result).

    The explorer's work grows with the scenario's reach, unknown before it
    runs: every engine run of a scenario counts as one, the explorer's and
    z3's of a sound rule set more (they search the whole bound, where a
    mutant's stops at its first violation)."""
    run = job[0]
    weight = {"explore": 3.0, "hypothesis": 1.0, "smt": 2.0}[run.engine]
    return weight if not run.mutant or run.engine == "hypothesis" else 1.0


def verify(
    scenarios: Sequence[Scenario] | None = None,
    engines: Sequence[str] = ENGINES,
    *,
    quiet: bool = True,
    examples: int = 60,
    steps: int = 40,
    include_mutants: bool = True,
    extra_decisions: dict[str, str] | None = None,
    on_row: Callable[[Row], None] | None = None,
    progress_stream: TextIO | None = None,
    jobs: int = 1,
    on_run: Callable[[RunDone], None] | None = None,
) -> list[Row]:
    """Run the engines over the scenarios; returns one row per property, scenario, rule set and engine.

    Progress goes to ``progress_stream`` (default stderr): a live bar on a
    terminal, one line per run elsewhere; ``quiet`` silences it.
    ``jobs``: runs at once, each in a worker process (:mod:`cardrules.oracle.jobs`);
    the rows are the same and in the same order whatever ``jobs`` is (only
    their seconds differ). ``on_run``: told of each run as it finishes (its wall
    and CPU seconds: the benchmark's breakdown).
    """
    runs = plan_runs(scenarios if scenarios is not None else load_scenarios(), engines,
                     include_mutants=include_mutants, extra_decisions=extra_decisions)
    by_rule_set: dict[tuple[str, str], list[Row]] = {}

    def reconciled(result: RunDone) -> str:
        """Reconcile the run's mutant verdicts with the runs of its rule set finished so far; its summary."""
        same_rule_set = by_rule_set.setdefault((result.run.scenario.name, result.run.rule_set.name), [])
        same_rule_set.extend(result.rows)
        reconcile_mutant(same_rule_set)
        return _phase_result(result.rows)

    progress = RunProgress("verify", len(runs), quiet=quiet, stream=progress_stream)
    with contextlib.ExitStack() as stack:
        if jobs == 1 or len(runs) <= 1:
            stack.enter_context(progress)
            done = [_run_here(run, examples, steps, progress, reconciled) for run in runs]
        else:
            for run in runs:  # bad input is told here, as one line, before any worker starts
                make_game(run.scenario.game, run.rule_set).state_from_json(run.scenario.state)

            def finished(index: int, result: RunDone, running: list[int]) -> None:
                progress.finished(result.run.label, reconciled(result), result.seconds,
                                  running=f"{len(running)} to go: {runs[running[0]].label}" if running else "")

            # the live bar's thread starts once the workers are forked (on_start)
            done = run_jobs([(run, examples, steps) for run in runs], _run_job, jobs, cost=_cost,
                            on_start=lambda: stack.enter_context(progress), on_done=finished)
    rows = [row for result in done for row in result.rows]
    for result in done:
        if on_run:
            on_run(result)
    for row in rows:
        if on_row:
            on_row(row)
    return rows


def _run_here(run: Run, examples: int, steps: int, progress: RunProgress,
              reconciled: Callable[[RunDone], str]) -> RunDone:
    """One run in this process, its live count (states explored) on the progress display."""
    wall, cpu = time.perf_counter(), time.process_time()
    with progress.phase(run.label) as phase:
        produced = run_rows(run, examples, steps, phase)
        result = RunDone(run, produced, time.perf_counter() - wall, time.process_time() - cpu)
        phase.result = reconciled(result)
    return result
