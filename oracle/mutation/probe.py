"""Running checks over mutants and scoring them per area and per check.

For every selected mutant and every check, the check runs in a forked child
with the mutant active (:func:`cardrules.oracle.mutation.apply.run_isolated`).
First the checks run once on the unmutated model: a check that fails there
cannot judge mutants (bad input), and its time sets the per-mutant deadline
(``--timeout``, default ten times the reference time plus 30 s). A mutant
whose check fails, errs, crashes or passes its deadline is *killed* by that
check; one no check kills *survived*. Mutants listed in ``equivalent.toml``
(in ``oracle/conformance/``) with a reason behave like the reference model by
construction: they are run and shown, but not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TextIO

from cardrules.oracle.mutation.apply import Isolated, Task, run_isolated
from cardrules.oracle.mutation.checks import CHECKS, Verdict, games_of, job_for
from cardrules.oracle.mutation.mutants import Mutant
from cardrules.specs.fileio import FileProblem, load_toml

EQUIVALENT_PATH = Path(__file__).resolve().parents[1] / "conformance" / "equivalent.toml"
GOAL = 0.95
"""Share of non-equivalent mutants every area must kill."""


class ProbeInputError(ValueError):
    """A check that fails on the unmutated model, or a malformed equivalents file."""


def load_reasoned(path: Path, table: str) -> dict[str, str]:
    """``[[table]]`` entries of a TOML file, each an ``id`` with its ``reason``: ID -> reason (its
    whitespace folded); a malformed file or entry is a :class:`ProbeInputError` naming it."""
    try:
        data = load_toml(path, 16 * 1024 * 1024)
    except FileProblem as problem:
        raise ProbeInputError(str(problem)) from None
    out: dict[str, str] = {}
    for index, entry in enumerate(data.get(table, [])):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry.get("reason"):
            raise ProbeInputError(f"{path}: {table}[{index}] needs an 'id' and a non-empty 'reason'")
        out[entry["id"]] = " ".join(str(entry["reason"]).split())
    return out


def load_equivalents(path: Path = EQUIVALENT_PATH) -> dict[str, str]:
    """Mutant ID -> the reason it is equivalent to the reference model."""
    return load_reasoned(path, "mutant")


@dataclass
class Outcome:
    """One check on one mutant."""

    check: str
    status: str
    """``killed``, ``survived``, ``timeout`` (killed), ``error`` (killed: the check crashed), ``not-applied``."""
    detail: str = ""
    seconds: float = 0.0

    @property
    def kills(self) -> bool:
        return self.status in ("killed", "timeout", "error")


@dataclass
class MutantResult:
    mutant: Mutant
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    equivalent: str | None = None

    @property
    def killed(self) -> bool:
        return any(o.kills for o in self.outcomes.values())

    @property
    def applied(self) -> bool:
        return not any(o.status == "not-applied" for o in self.outcomes.values())


def _outcome(check: str, isolated: Isolated) -> Outcome:
    if isolated.status == "done":
        verdict: Verdict = isolated.value
        return Outcome(check, "killed" if verdict.killed else "survived", verdict.detail, isolated.seconds)
    return Outcome(check, isolated.status, isolated.detail, isolated.seconds)


def calibrate(checks: Sequence[str], games: Sequence[str], suites: Sequence[dict[str, Any]], jobs: int,
              timeout: float | None) -> dict[tuple[str, str], float]:
    """Each (check, game) on the unmutated model: must pass; returns the deadline for mutants."""
    tasks = [Task(None, job_for(check, game, suites), 3600.0, (check, game)) for check in checks for game in games]
    deadlines: dict[tuple[str, str], float] = {}
    for task, isolated in run_isolated(tasks, jobs):
        outcome = _outcome(task.tag[0], isolated)
        if outcome.status != "survived":
            raise ProbeInputError(f"the {task.tag[0]} check fails on the unmutated {task.tag[1]} model "
                                  f"({outcome.status}: {outcome.detail}); it cannot judge mutants")
        deadlines[task.tag] = timeout if timeout is not None else 10 * isolated.seconds + 30
    return deadlines


def probe(
    mutants: Sequence[Mutant],
    checks: Sequence[str],
    suites: Sequence[dict[str, Any]] = (),
    *,
    jobs: int = 1,
    timeout: float | None = None,
    equivalents: Mapping[str, str] | None = None,
    every_check: bool = True,
    on_result: Callable[[MutantResult], None] | None = None,
) -> list[MutantResult]:
    """Run ``checks`` over ``mutants``. With ``every_check`` off, the checks after the first that
    kills a mutant are skipped (the score needs only "killed or not")."""
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        raise ProbeInputError(f"unknown check {unknown[0]!r}; known: {', '.join(CHECKS)}")
    games = sorted({g for m in mutants for g in games_of(m.game)})
    deadlines = calibrate(checks, games, suites, jobs, timeout)
    equivalents = equivalents or {}
    results = {m.id: MutantResult(m, equivalent=equivalents.get(m.id)) for m in mutants}

    def tasks_for(mutant: Mutant, check: str) -> Task:
        deadline = sum(deadlines[(check, g)] for g in games_of(mutant.game))
        return Task(mutant, job_for(check, mutant.game, suites), deadline, check)

    order: list[MutantResult] = []
    if every_check:
        stream = run_isolated([tasks_for(m, c) for m in mutants for c in checks], jobs)
        remaining = {m.id: len(checks) for m in mutants}
        for task, isolated in stream:
            assert task.mutant is not None
            result = results[task.mutant.id]
            result.outcomes[task.tag] = _outcome(task.tag, isolated)
            remaining[task.mutant.id] -= 1
            if remaining[task.mutant.id] == 0:
                order.append(result)
                if on_result:
                    on_result(result)
    else:
        for check in checks:
            todo = [r.mutant for r in results.values() if not r.killed and r.applied]
            for task, isolated in run_isolated([tasks_for(m, check) for m in todo], jobs):
                assert task.mutant is not None
                results[task.mutant.id].outcomes[check] = _outcome(check, isolated)
        for result in results.values():
            order.append(result)
            if on_result:
                on_result(result)
    return [results[m.id] for m in mutants]


# --- the report -------------------------------------------------------------------


@dataclass
class Tally:
    total: int = 0
    killed: int = 0
    equivalent: int = 0
    not_applied: int = 0
    by_check: dict[str, int] = field(default_factory=dict)

    @property
    def counted(self) -> int:
        return self.total - self.equivalent - self.not_applied

    @property
    def score(self) -> float | None:
        return self.killed / self.counted if self.counted else None


def tally(results: Sequence[MutantResult], checks: Sequence[str]) -> dict[str, Tally]:
    """Area -> counts (and ``all``); equivalent and unapplied mutants are not counted."""
    table: dict[str, Tally] = {}
    for result in results:
        for key in (result.mutant.area, "all"):
            t = table.setdefault(key, Tally(by_check={c: 0 for c in checks}))
            t.total += 1
            if result.equivalent is not None:
                t.equivalent += 1
            elif not result.applied:
                t.not_applied += 1
            else:
                t.killed += result.killed
                for check in checks:
                    outcome = result.outcomes.get(check)
                    t.by_check[check] += bool(outcome and outcome.kills)
    return dict(sorted(table.items(), key=lambda kv: (kv[0] == "all", kv[0])))


def survivors(results: Sequence[MutantResult]) -> list[MutantResult]:
    return [r for r in results if r.applied and not r.killed and r.equivalent is None]


def meets_goal(results: Sequence[MutantResult], checks: Sequence[str]) -> bool:
    return all(t.score is None or t.score >= GOAL for t in tally(results, checks).values())


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def print_report(results: Sequence[MutantResult], checks: Sequence[str], out: TextIO, *, per_check: bool,
                 sample: str = "") -> None:
    """Per area: mutants, equivalent, killed (and per check), score; then the survivors."""
    table = tally(results, checks)
    head = ["area", "mutants", "equiv.", "killed", "score"] + ([f"by {c}" for c in checks] if per_check else [])
    rows = [head]
    for area, t in table.items():
        row = [area, str(t.total), str(t.equivalent), f"{t.killed}/{t.counted}", _pct(t.killed, t.counted)]
        if per_check:
            row += [f"{t.by_check[c]} ({_pct(t.by_check[c], t.counted)})" for c in checks]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for row in rows:
        out.write("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))) + "\n")
    if sample:
        out.write(sample + "\n")
    left = survivors(results)
    out.write(f"\nsurvivors ({len(left)}):\n" if left else "\nno survivors\n")
    for r in left:
        out.write(f"  {r.mutant.id} [{r.mutant.area}] {r.mutant.description}\n")
    unapplied = [r for r in results if not r.applied]
    for r in unapplied:
        detail = next((o.detail for o in r.outcomes.values() if o.status == "not-applied"), "")
        out.write(f"  not applied: {r.mutant.id}: {detail}\n")
    named = [r for r in results if r.mutant.named]
    if named:
        out.write("\nnamed mutants:\n")
        for r in named:
            by = [c for c in checks if (o := r.outcomes.get(c)) and o.kills]
            out.write(f"  {r.mutant.id}: {'killed by ' + ', '.join(by) if by else 'SURVIVED'}\n")
    ok = meets_goal(results, checks)
    out.write(f"\ngoal: at least {GOAL:.0%} of non-equivalent mutants killed in every area: {'met' if ok else 'NOT met'}\n")


def results_json(results: Sequence[MutantResult], checks: Sequence[str], sample: dict[str, Any]) -> dict[str, Any]:
    table = tally(results, checks)
    return {
        "format": "cardrules-mutation/1",
        "checks": list(checks),
        "sample": sample,
        "goal": GOAL,
        "goal_met": meets_goal(results, checks),
        "areas": {a: {"mutants": t.total, "equivalent": t.equivalent, "not_applied": t.not_applied,
                      "killed": t.killed, "counted": t.counted, "score": t.score, "killed_by": t.by_check}
                  for a, t in table.items()},
        "mutants": [
            {"id": r.mutant.id, "area": r.mutant.area, "function": f"{r.mutant.module}.{r.mutant.function}",
             "description": r.mutant.description, "equivalent": r.equivalent, "killed": r.killed,
             "checks": {c: {"status": o.status, "detail": o.detail, "seconds": round(o.seconds, 2)}
                        for c, o in r.outcomes.items()}}
            for r in results
        ],
        "survivors": [r.mutant.id for r in survivors(results)],
    }
