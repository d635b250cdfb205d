"""The checks that may kill a mutant of the model: ``cardrules mutate`` runs them all; the conformance score uses ``conformance``.

Each check runs for one game (a mutant of ``model/fftcg`` cannot change a
Redemption answer: the two models never import each other) and returns a
:class:`Verdict`: ``killed`` with the first failure it found, or not. A check
stops at its first failure, so killed mutants cost little; a survivor costs
a whole run.

* ``verify``: every property on every embedded scenario of the game and
  every rule set (and rule-set mutant), by every engine, as ``cardrules
  verify`` (killed: a row that is not a pass, a mutant rule set missed);
* ``crosscheck``: ``cardrules smt crosscheck --game G`` (killed: a
  disagreement with z3, an undecided comparison, any non-zero exit);
* ``conformance``: every vector of the game's suites through the reference
  adapter, in-process (the same :meth:`ReferenceAdapter.handle` the
  ``cardrules conformance adapter`` process serves, each request and reply
  round-tripped through JSON; killed: a vector that does not pass).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence

CHECKS = ("verify", "crosscheck", "conformance")


@dataclass(frozen=True)
class Verdict:
    killed: bool
    detail: str = ""


class InProcessAdapter:
    """The reference adapter behind the runner's process interface, without a pipe.

    Requests and replies go through JSON text exactly as on the adapter's
    stdin and stdout, so a vector passes here if and only if it passes
    against ``cardrules conformance adapter``.
    """

    fresh = False

    def __init__(self) -> None:
        from cardrules.oracle.conformance.adapter import ReferenceAdapter

        self.adapter = ReferenceAdapter()

    def request(self, message: dict[str, Any], deadline: float) -> dict[str, Any]:
        reply = self.adapter.handle(json.loads(json.dumps(message)))
        result: dict[str, Any] = json.loads(json.dumps(reply, separators=(",", ":")))
        return result

    def close(self) -> None:
        pass


def games_of(game: str) -> tuple[str, ...]:
    """The games a mutant of this part of the model can affect (``common``: both)."""
    from cardrules.model.games import GAME_NAMES

    return (game,) if game in GAME_NAMES else GAME_NAMES


def conformance_check(suites: Sequence[dict[str, Any]], game: str) -> Verdict:
    from cardrules.oracle.conformance.runner import run_vector

    process = InProcessAdapter()
    ran = 0
    for suite in suites:
        if suite["game"] not in games_of(game):
            continue
        for vector in suite["vectors"]:
            result = run_vector(process, suite, vector, timeout=3600.0)  # type: ignore[arg-type]
            ran += 1
            if result.verdict != "pass":
                return Verdict(True, f"{suite['suite']} {result.vector} step {result.step}: {result.where}: "
                                     f"expected {result.expected} got {result.got}"[:400])
    return Verdict(False, f"{ran} vectors passed")


def verify_check(game: str) -> Verdict:
    from cardrules.oracle.verify.runner import plan_runs, reconcile_mutant, run_rows
    from cardrules.properties.scenarios import load_scenarios

    scenarios = [s for s in load_scenarios() if s.game in games_of(game)]
    groups: dict[tuple[str, str], list[Any]] = {}
    for run in plan_runs(scenarios):
        groups.setdefault((run.scenario.name, run.rule_set.name), []).append(run)
    checked = 0
    for runs in groups.values():
        rows: list[Any] = []
        for run in runs:
            rows += run_rows(run, 60, 40, None)
        reconcile_mutant(rows)
        checked += len(rows)
        failed = [r for r in rows if r.failed]
        if failed:
            r = failed[0]
            return Verdict(True, f"{r.property} on {r.scenario} / {r.rule_set} / {r.engine}: {r.verdict}")
    return Verdict(False, f"{checked} property rows passed")


def crosscheck_check(game: str) -> Verdict:
    """The whole-exploration cross-check of every embedded scenario of the games a mutant can affect,
    as ``cardrules smt crosscheck --game G`` runs it: killed by a disagreement, a state or rule set the
    encoding does not cover, an undecided comparison, or a scenario the mutated model refuses to load."""
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.crosscheck.run import crosscheck_scenarios
    from cardrules.oracle.errors import InputError
    from cardrules.properties.scenarios import load_scenarios

    for one in games_of(game):
        scenarios = [s for s in load_scenarios() if s.game == one]
        try:
            result = crosscheck_scenarios(scenarios, {}, None)
        except (InputError, ScenarioError) as error:  # as the CLI reports bad input: exit 3
            return Verdict(True, f"smt crosscheck --game {one}: {error}"[:400])
        problems = [f"{r.label}: {r.what}: {len(r.report.disagreements)} disagreement(s)"
                    for r in result.runs if r.report.disagreements]
        problems += result.failures + result.unknown
        problems += [f"{r.label}: {r.what}: OUT OF SCOPE: {line}" for r in result.runs for line in r.report.out_of_scope]
        if problems:
            return Verdict(True, f"smt crosscheck --game {one}: {problems[0]}"[:400])
    return Verdict(False, "no disagreement")


def job_for(check: str, game: str, suites: Sequence[dict[str, Any]] = ()) -> Callable[[], Verdict]:
    """The check as a job without arguments (run under a mutant by :func:`run_isolated`)."""
    if check == "verify":
        return lambda: verify_check(game)
    if check == "crosscheck":
        return lambda: crosscheck_check(game)
    if check == "conformance":
        return lambda: conformance_check(suites, game)
    raise ValueError(f"unknown check {check!r}; known: {', '.join(CHECKS)}")
