"""The runner's reports: per clause, per vector, JSON and JUnit XML.

Per clause: the vectors that exercise it and passed, the vectors whose first
difference was at a step that exercises it (*failed*), and whether it is a
*suspect*: spectrum-based localisation by the Ochiai coefficient,
``failed / sqrt(failing vectors * (failed + steps passed))``; the clauses
blamed by failures with the highest coefficient are the suspects (a clause
blamed by every failure and never seen in a step that passed scores 1; one
that also ran correctly in passing steps is less likely to be the broken
rule, but still a suspect when nothing fits better: a bug that shows only
in some situations of a clause, an unblocked party of two but not a lone
attacker). The first difference is shown as expected vs got.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence, TextIO

from cardrules.oracle.conformance.runner import VectorResult
from cardrules.specs.fileio import write_text

RESULTS_FORMAT = "cardrules-conformance-results/1"


@dataclass
class ClauseVerdict:
    clause: str
    passed: int = 0
    failed: int = 0
    steps_passed: int = 0
    first: VectorResult | None = None
    vectors_failed: list[str] = field(default_factory=list)
    score: float = 0.0
    """Ochiai coefficient (0 when not blamed)."""
    suspect: bool = False


def by_clause(results: Sequence[VectorResult]) -> dict[str, ClauseVerdict]:
    """Clause ID -> its verdict counts, in clause ID order."""
    table: dict[str, ClauseVerdict] = {}

    def entry(clause: str) -> ClauseVerdict:
        return table.setdefault(clause, ClauseVerdict(clause))

    for result in results:
        for clause in result.clauses:
            if result.verdict == "pass":
                entry(clause).passed += 1
            else:
                entry(clause)
        for step in result.passed_steps:
            for clause in step:
                entry(clause).steps_passed += 1
        if result.verdict != "pass":
            for clause in result.blamed:
                verdict = entry(clause)
                verdict.failed += 1
                verdict.vectors_failed.append(result.vector)
                verdict.first = verdict.first or result
    failing = sum(r.verdict != "pass" for r in results)
    for verdict in table.values():
        if verdict.failed:
            verdict.score = verdict.failed / math.sqrt(failing * (verdict.failed + verdict.steps_passed))
    best = max((v.score for v in table.values()), default=0.0)
    for verdict in table.values():
        verdict.suspect = verdict.failed > 0 and verdict.score >= best - 1e-9
    return dict(sorted(table.items()))


def suspects(results: Sequence[VectorResult]) -> list[str]:
    """Clauses blamed by a failure and never exercised by a step that passed."""
    return [c for c, v in by_clause(results).items() if v.suspect]


def counts(results: Sequence[VectorResult]) -> dict[str, int]:
    out: dict[str, int] = {}
    for result in results:
        out[result.verdict] = out.get(result.verdict, 0) + 1
    return dict(sorted(out.items()))


def print_report(results: Sequence[VectorResult], out: TextIO) -> None:
    """The per-clause table, then every vector that did not pass, then the totals."""
    table = by_clause(results)
    rows = [("clause", "passed", "failed", "", "first difference (expected vs got)")]
    for clause, v in table.items():
        first = ""
        if v.first is not None:
            f = v.first
            first = f"{f.vector} {f.where}: expected {f.expected} got {f.got}"[:160]
        rows.append((clause, str(v.passed), str(v.failed), "suspect" if v.suspect else "", first))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        out.write("  ".join(c.ljust(w) if i == 0 or i == 3 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
                  + "  " + row[4] + "\n")
    failures = [r for r in results if r.verdict != "pass"]
    if failures:
        out.write("\nvectors that did not pass:\n")
        for r in failures:
            step = f" step {r.step}" if r.step is not None else ""
            out.write(f"  {r.verdict:<11} {r.suite} {r.vector}{step}: {r.where}: expected {r.expected} got {r.got}\n"[:400])
    total = len(results)
    passed = sum(r.verdict == "pass" for r in results)
    summary = ", ".join(f"{n} {k}" for k, n in counts(results).items())
    out.write(f"\n{passed}/{total} vectors passed ({summary})")
    blamed = suspects(results)
    out.write(f"; suspect clauses: {', '.join(blamed)}\n" if blamed else "\n")


def results_json(results: Sequence[VectorResult], adapter: str, suites: Sequence[str]) -> dict[str, Any]:
    table = by_clause(results)
    return {
        "format": RESULTS_FORMAT,
        "adapter": adapter,
        "suites": list(suites),
        "summary": {"vectors": len(results), **counts(results)},
        "suspects": [c for c, v in table.items() if v.suspect],
        "clauses": [
            {"clause": c, "passed": v.passed, "failed": v.failed, "suspect": v.suspect,
             "failed_vectors": v.vectors_failed,
             "first_difference": None if v.first is None else
             {"vector": v.first.vector, "where": v.first.where, "expected": v.first.expected, "got": v.first.got}}
            for c, v in table.items()
        ],
        "vectors": [r.to_json() for r in results],
    }


def write_junit(results: Sequence[VectorResult], path: str) -> None:
    """JUnit XML through the ``junit-xml`` package: a test suite per conformance suite, a case per vector."""
    from junit_xml import TestCase, TestSuite, to_xml_report_string

    suites: dict[str, list[Any]] = {}
    for r in results:
        case = TestCase(r.vector, classname=r.suite, elapsed_sec=round(r.seconds, 4))
        message = f"{r.where}: expected {r.expected} got {r.got}; clauses {', '.join(r.blamed)}"
        if r.verdict == "fail":
            case.add_failure_info(message=message[:500], failure_type="difference")
        elif r.verdict == "unsupported":
            case.add_skipped_info(message=message[:500])
        elif r.verdict != "pass":
            case.add_error_info(message=message[:500], error_type=r.verdict)
        suites.setdefault(r.suite, []).append(case)
    text = to_xml_report_string([TestSuite(name, cases) for name, cases in suites.items()])
    write_text(path, text)  # whole or not at all; a failure is a FileProblem naming the path
