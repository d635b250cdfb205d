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
attacker). The first difference is shown as expected vs got, one failure to a
block of whole lines; a legal-actions difference also lists the missing and
the extra actions in full, a perft difference its divide.

``unsupported`` vectors (a rule set or operation the engine does not
implement) are counted apart: they are no failure, take no part in the
ranking of suspects, and a run whose vectors all passed or were unsupported
passes (:func:`run_passed`), provided at least one passed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence, TextIO

from cardrules.oracle.conformance.runner import VectorResult
from cardrules.specs.fileio import write_text

RESULTS_FORMAT = "cardrules-conformance-results/1"
VERDICT_ORDER = ("pass", "fail", "error", "crashed", "timeout", "garbage")
"""The verdicts that count, in the order the summary line gives them (``unsupported`` comes last, apart)."""
TABLE_CELL = 160
"""Characters of the first difference shown in the per-clause table (the full one is in the failure's block)."""
VALUE_LINES = 40
"""Lines of one value (an adapter's standard error, say) shown in the text report; the rest is in --json."""


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


def counted(results: Sequence[VectorResult]) -> list[VectorResult]:
    """The results that count: every vector but the ``unsupported`` ones."""
    return [r for r in results if r.verdict != "unsupported"]


def run_passed(results: Sequence[VectorResult]) -> bool:
    """Whether a run passes (exit 0): every vector passed or was unsupported, and at least one passed."""
    return any(r.verdict == "pass" for r in results) and all(r.verdict in ("pass", "unsupported") for r in results)


def by_clause(results: Sequence[VectorResult]) -> dict[str, ClauseVerdict]:
    """Clause ID -> its verdict counts, in clause ID order (``unsupported`` vectors are left out)."""
    table: dict[str, ClauseVerdict] = {}

    def entry(clause: str) -> ClauseVerdict:
        return table.setdefault(clause, ClauseVerdict(clause))

    results = counted(results)
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
    """The clauses blamed by failures that rank highest (``unsupported`` vectors are no failures)."""
    return [c for c, v in by_clause(results).items() if v.suspect]


def counts(results: Sequence[VectorResult]) -> dict[str, int]:
    """Verdict -> number of vectors, in verdict name order."""
    out: dict[str, int] = {}
    for result in results:
        out[result.verdict] = out.get(result.verdict, 0) + 1
    return dict(sorted(out.items()))


def one_line(text: str) -> str:
    """``text`` on one line (a line break written as ``\\n``), for a table cell or an XML attribute."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def cut(text: str, limit: int, where: str) -> str:
    """``text`` whole, or its first ``limit`` characters and how many more there are (and ``where``)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters; {where})"


def value_lines(label: str, value: str, indent: str = "    ") -> list[str]:
    """``label: value`` as whole lines: a value's own line breaks kept, continuation lines indented under the
    value; past :data:`VALUE_LINES` lines the rest is counted, never cut within a line."""
    head = f"{indent}{label + ':':<10}"
    lines = value.split("\n")
    shown, rest = lines[:VALUE_LINES], lines[VALUE_LINES:]
    out = [head + shown[0]] + [" " * len(head) + line for line in shown[1:]]
    if rest:
        more = sum(len(line) + 1 for line in rest)  # each with the line break before it
        out.append(" " * len(head) + f"... ({more} more characters; see --json)")
    return out


def action_lines(label: str, actions: Sequence[str], indent: str = "    ") -> list[str]:
    """A heading naming how many actions, then each action whole on its own line."""
    if not actions:
        return []
    return [f"{indent}{label} ({len(actions)}):"] + [f"{indent}  {action}" for action in actions]


def divide_lines(divide: Sequence[tuple[str, int, int]], indent: str = "    ") -> list[str]:
    """A perft's divide: each first action whose count of leaves differs, expected then got."""
    if not divide:
        return []
    width = max(len(action) for action, _, _ in divide)
    digits = max(len(str(expected)) for _, expected, _ in divide)
    return [f"{indent}perft divide, actions from the start position whose counts differ:"] + [
        f"{indent}  {action.ljust(width)}  expected {expected:>{digits}}  got {got}" for action, expected, got in divide]


def failure_lines(r: VectorResult, indent: str = "    ") -> list[str]:
    """One vector that did not pass: a heading line, then where, expected, got and the details, each on its
    own indented line(s), never cut within a line."""
    step = f" step {r.step}" if r.step is not None else ""
    lines = [f"{indent[:-2]}{r.verdict} {r.suite} {r.vector}{step}"]
    for label, value in (("where", r.where), ("expected", r.expected), ("got", r.got)):
        if value or label == "got":
            lines += value_lines(label, value, indent)
    lines += action_lines("missing actions", r.missing, indent) + action_lines("extra actions", r.extra, indent)
    lines += divide_lines(r.divide, indent)
    if r.blamed:
        lines.append(f"{indent}{'blamed:':<10}{', '.join(r.blamed)}")
    return lines


def unsupported_lines(results: Sequence[VectorResult]) -> list[str]:
    """The unsupported vectors, one line per suite and reason."""
    groups: dict[tuple[str, str], int] = {}
    for r in results:
        if r.verdict == "unsupported":
            reason = one_line(f"{r.where}: {r.got}")
            groups[(r.suite, reason)] = groups.get((r.suite, reason), 0) + 1
    return [f"  {suite}: {n} vector{'s' if n != 1 else ''}, {reason}" for (suite, reason), n in groups.items()]


def summary_line(results: Sequence[VectorResult]) -> str:
    """``P/N vectors passed: P pass, F fail, ..., U unsupported (not counted)``; N counts no unsupported."""
    tally = counts(results)
    order = list(VERDICT_ORDER) + sorted(set(tally) - set(VERDICT_ORDER) - {"unsupported"})
    parts = [f"{tally.get(v, 0)} {v}" for v in order if v in ("pass", "fail") or v in tally]
    if "unsupported" in tally:
        parts.append(f"{tally['unsupported']} unsupported (not counted)")
    line = f"{tally.get('pass', 0)}/{len(counted(results))} vectors passed: {', '.join(parts)}"
    if results and not counted(results):
        line += "; no vector was checked (every one unsupported): the run fails"
    return line


def table_lines(results: Sequence[VectorResult]) -> list[str]:
    """The per-clause table: passed, failed, suspect, and the first difference (cut, on one line)."""
    rows = [("clause", "passed", "failed", "", "first difference (expected vs got)")]
    for clause, v in by_clause(results).items():
        first = ""
        if v.first is not None:
            f = v.first
            first = cut(one_line(f"{f.vector} {f.where}: expected {f.expected} got {f.got}"), TABLE_CELL, "see below")
        rows.append((clause, str(v.passed), str(v.failed), "suspect" if v.suspect else "", first))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return ["  ".join(c.ljust(w) if i in (0, 3) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
            + "  " + row[4] for row in rows]


def print_report(results: Sequence[VectorResult], out: TextIO) -> None:
    """The per-clause table, then every vector that did not pass (a block of whole lines each), the unsupported
    ones, then the totals and the suspects."""
    lines = table_lines(results)
    failures = [r for r in counted(results) if r.verdict != "pass"]
    if failures:
        lines += ["", "vectors that did not pass:"]
        for r in failures:
            lines += failure_lines(r)
    unsupported = unsupported_lines(results)
    if unsupported:
        lines += ["", "unsupported (not counted: no failure, no suspect):"] + unsupported
    blamed = suspects(results)
    lines += ["", summary_line(results) + (f"; suspect clauses: {', '.join(blamed)}" if blamed else "")]
    out.write("\n".join(lines) + "\n")


def results_json(results: Sequence[VectorResult], adapter: str, suites: Sequence[str]) -> dict[str, Any]:
    """The results as ``--json`` prints them: the summary (``counted``: the vectors but the unsupported ones;
    ``passed``: the run passes), the suspects, the per-clause table and every vector."""
    table = by_clause(results)
    return {
        "format": RESULTS_FORMAT,
        "adapter": adapter,
        "suites": list(suites),
        "summary": {"vectors": len(results), "counted": len(counted(results)), "passed": run_passed(results),
                    **counts(results)},
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
    """JUnit XML through the ``junit-xml`` package: a test suite per conformance suite, a case per vector. A
    case that did not pass has the first difference as its message (on one line) and the whole failure block
    (missing and extra actions, the perft divide) as its text; an unsupported one is skipped."""
    from junit_xml import TestCase, TestSuite, to_xml_report_string

    suites: dict[str, list[Any]] = {}
    for r in results:
        case = TestCase(r.vector, classname=r.suite, elapsed_sec=round(r.seconds, 4))
        message = cut(one_line(f"{r.where}: expected {r.expected} got {r.got}; clauses {', '.join(r.blamed)}"),
                      500, "see the text")
        output = "\n".join(failure_lines(r, indent="  "))
        if r.verdict == "fail":
            case.add_failure_info(message=message, output=output, failure_type="difference")
        elif r.verdict == "unsupported":
            case.add_skipped_info(message=message, output=output)
        elif r.verdict != "pass":
            case.add_error_info(message=message, output=output, error_type=r.verdict)
        suites.setdefault(r.suite, []).append(case)
    text = to_xml_report_string([TestSuite(name, cases) for name, cases in suites.items()])
    write_text(path, text)  # whole or not at all; a failure is a FileProblem naming the path
