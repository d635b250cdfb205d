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

Vectors set apart (:data:`SET_APART`) are counted apart: ``unsupported`` (a
rule set or operation the engine does not implement), ``skipped`` (it needs
a feature the engine did not declare), ``reading`` (it differs only where
the engine declared another reading of a decision) and ``known`` (every
difference is in the engine's known-differences file,
:mod:`cardrules.oracle.conformance.known`). They are no failure, take no
part in the per-clause counts or the ranking of suspects, and a run whose
vectors all passed or were set apart passes (:func:`run_passed`), provided
at least one passed. Only ``fail``, ``error`` and the process faults fail a
run.

Every difference (the runner keeps going after the first) is grouped by
kind (:mod:`cardrules.oracle.conformance.grouping`); the text report gives
the adapter's declaration first, then the groups (largest first, each with
its shortest example whole), the per-clause table, the vectors that did not
pass, what was set apart, and what the engine lacks: the features it did not
declare and the vectors skipped for each, its readings and the vectors
classified ``reading``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence, TextIO

from cardrules.oracle.conformance.declaration import Declaration
from cardrules.oracle.conformance.grouping import Actions, Group, Seen, differences_of, group
from cardrules.oracle.conformance.known import FAILING, Classified, KnownFile, classify, known_json, known_lines
from cardrules.oracle.conformance.lacking import declaration_json, declaration_lines, lacks_json, lacks_lines
from cardrules.oracle.conformance.runner import VectorResult
from cardrules.specs.fileio import write_text

RESULTS_FORMAT = "cardrules-conformance-results/1"
VERDICT_ORDER = ("pass", "fail", "error", "crashed", "timeout", "garbage")
"""The verdicts that count, in the order the summary line gives them (those set apart come last)."""
SET_APART = ("unsupported", "skipped", "reading", "known")
"""Verdicts counted apart: never a failure, never a suspect, not in the per-clause counts."""
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
    first: Seen | None = None
    """The first difference blamed on the clause (of the first vector failing on it)."""
    vectors_failed: list[str] = field(default_factory=list)
    score: float = 0.0
    """Ochiai coefficient (0 when not blamed)."""
    suspect: bool = False


def counted(results: Sequence[VectorResult]) -> list[VectorResult]:
    """The results that count: every vector but those set apart (:data:`SET_APART`)."""
    return [r for r in results if r.verdict not in SET_APART]


def run_passed(results: Sequence[VectorResult]) -> bool:
    """Whether a run passes (exit 0): every vector passed or was set apart, and at least one passed."""
    return any(r.verdict == "pass" for r in results) and all(r.verdict in ("pass", *SET_APART) for r in results)


def failing_differences(results: Sequence[VectorResult], differences: Sequence[Seen] | None = None) -> list[Seen]:
    """The differences that fail the run (not ``reading``, not ``known``) of the vectors that count."""
    seen = differences if differences is not None else [s for r in counted(results) for s in differences_of(r)]
    keys = {(r.suite, r.vector) for r in counted(results) if r.verdict != "pass"}
    return [s for s in seen if s.verdict in FAILING and (s.suite, s.vector) in keys]


def by_clause(results: Sequence[VectorResult], differences: Sequence[Seen] | None = None) -> dict[str, ClauseVerdict]:
    """Clause ID -> its verdict counts, in clause ID order (vectors set apart are left out). A vector that did
    not pass counts as failed for every clause blamed by one of its failing differences (``differences``: the
    classified ones, :func:`cardrules.oracle.conformance.known.classify`; default: the results' own)."""
    table: dict[str, ClauseVerdict] = {}

    def entry(clause: str) -> ClauseVerdict:
        return table.setdefault(clause, ClauseVerdict(clause))

    results = counted(results)
    blamed: dict[tuple[str, str], list[Seen]] = {}
    for seen in failing_differences(results, differences):
        blamed.setdefault((seen.suite, seen.vector), []).append(seen)
    for result in results:
        for clause in result.clauses:
            if result.verdict == "pass":
                entry(clause).passed += 1
            else:
                entry(clause)
        for step in result.passed_steps:
            for clause in step:
                entry(clause).steps_passed += 1
        mine = blamed.get((result.suite, result.vector), [])
        for clause in dict.fromkeys(c for s in mine for c in s.blamed):
            verdict = entry(clause)
            verdict.failed += 1
            verdict.vectors_failed.append(result.vector)
            verdict.first = verdict.first or next(s for s in mine if clause in s.blamed)
    failing = sum(r.verdict != "pass" for r in results)
    for verdict in table.values():
        if verdict.failed:
            verdict.score = verdict.failed / math.sqrt(failing * (verdict.failed + verdict.steps_passed))
    best = max((v.score for v in table.values()), default=0.0)
    for verdict in table.values():
        verdict.suspect = verdict.failed > 0 and verdict.score >= best - 1e-9
    return dict(sorted(table.items()))


def suspects(results: Sequence[VectorResult], differences: Sequence[Seen] | None = None) -> list[str]:
    """The clauses blamed by failures that rank highest (vectors set apart are no failures)."""
    return [c for c, v in by_clause(results, differences).items() if v.suspect]


def groups_of(results: Sequence[VectorResult], differences: Sequence[Seen] | None = None) -> list[Group]:
    """The failing differences grouped by kind, each attributed to its highest-ranking blamed clause."""
    ranking = {c: v.score for c, v in by_clause(results, differences).items()}
    return group(failing_differences(results, differences), ranking)


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


def later_lines(r: VectorResult, differences: Sequence[Seen], indent: str = "    ") -> list[str]:
    """A vector's differences other than its headline (the runner kept going), one whole line each."""
    mine = [s for s in differences if (s.suite, s.vector) == (r.suite, r.vector)]
    # the vector's headline (failure_lines) is the first difference of its verdict, not always its first one
    headline = next((s.index for s in mine if (s.step, s.where, s.expected, s.got) == (r.step, r.where, r.expected, r.got)), 0)
    later = [s for s in mine if s.index != headline]
    if not later:
        return []
    lines = [f"{indent}{'later' if headline == 0 else 'other'} differences ({len(later)}):"]
    for s in later:
        tag = f" [{s.verdict}{': ' + s.reason if s.reason else ''}]" if s.verdict not in FAILING else ""
        lines.append(f"{indent}  {one_line(s.where)}: expected {one_line(s.expected)}, got {one_line(s.got)}{tag}")
    return lines


def example_lines(s: Seen, indent: str = "      ") -> list[str]:
    """A group's example difference whole: heading, where, expected, got, missing and extra actions, blamed."""
    step = f" step {s.step}" if s.step is not None else ""
    action = f" ({s.action})" if s.action else ""
    lines = [f"{indent[:-2]}example: {s.suite} {s.vector}{step}{action}"]
    for label, value in (("where", s.where), ("expected", s.expected), ("got", s.got)):
        lines += value_lines(label, value, indent)
    lines += action_lines("missing actions", s.missing, indent) + action_lines("extra actions", s.extra, indent)
    return lines + [f"{indent}{'blamed:':<10}{', '.join(s.blamed)}"] if s.blamed else lines


def group_lines(groups: Sequence[Group]) -> list[str]:
    """Every group of differences, the largest first: its kind and counts, then its shortest example whole."""
    if not groups:
        return []
    total = sum(g.count for g in groups)
    lines = [f"differences by kind ({total} difference{'s' if total != 1 else ''} in {len(groups)} "
             f"group{'s' if len(groups) != 1 else ''}; clause, action, field):"]
    for number, g in enumerate(groups, 1):
        lines.append(f"  #{number} {g.clause}, {g.action}, {g.field}: {g.count} difference{'s' if g.count != 1 else ''}"
                     f" in {g.vectors} vector{'s' if g.vectors != 1 else ''}")
        lines += example_lines(g.example)
    return lines


def _plural(n: int, word: str = "vector") -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def unsupported_lines(results: Sequence[VectorResult]) -> list[str]:
    """The unsupported vectors, one line per suite and reason."""
    groups: dict[tuple[str, str], int] = {}
    for r in results:
        if r.verdict == "unsupported":
            reason = one_line(f"{r.where}: {r.got}")
            groups[(r.suite, reason)] = groups.get((r.suite, reason), 0) + 1
    return [f"  {suite}: {_plural(n)}, {reason}" for (suite, reason), n in groups.items()]


def summary_line(results: Sequence[VectorResult]) -> str:
    """``P/N vectors passed: P pass, F fail, ..., U unsupported, S skipped (not counted)``; N counts none set
    apart."""
    tally = counts(results)
    order = list(VERDICT_ORDER) + sorted(set(tally) - set(VERDICT_ORDER) - set(SET_APART))
    parts = [f"{tally.get(v, 0)} {v}" for v in order if v in ("pass", "fail") or v in tally]
    apart = [v for v in SET_APART if v in tally]
    if apart:
        parts[-1] += ", " + ", ".join(f"{tally[v]} {v}" for v in apart) + " (not counted)"
    line = f"{tally.get('pass', 0)}/{len(counted(results))} vectors passed: {', '.join(parts)}"
    if results and not counted(results):
        line += f"; no vector was checked (every one {' or '.join(apart)}): the run fails"
    return line


def table_lines(results: Sequence[VectorResult], differences: Sequence[Seen] | None = None) -> list[str]:
    """The per-clause table: passed, failed, suspect, and the first difference (cut, on one line)."""
    rows = [("clause", "passed", "failed", "", "first difference (expected vs got)")]
    for clause, v in by_clause(results, differences).items():
        first = ""
        if v.first is not None:
            f = v.first
            first = cut(one_line(f"{f.vector} {f.where}: expected {f.expected} got {f.got}"), TABLE_CELL, "see below")
        rows.append((clause, str(v.passed), str(v.failed), "suspect" if v.suspect else "", first))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return [("  ".join(c.ljust(w) if i in (0, 3) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
             + "  " + row[4]).rstrip() for row in rows]


def print_report(results: Sequence[VectorResult], out: TextIO, *, declaration: Declaration | None = None,
                 known: KnownFile | None = None, games: Sequence[str] = (), actions: Actions | None = None) -> None:
    """The adapter's declaration, the groups of differences, the per-clause table, then every vector that did not
    pass (a block of whole lines each), those set apart, the totals and the suspects, and what the engine lacks."""
    outcome = classify(results, known, actions)
    results, differences = outcome.results, outcome.differences
    lines = declaration_lines(declaration) if declaration is not None else []
    groups = group_lines(groups_of(results, differences))
    lines += groups + [""] if groups else []
    lines += table_lines(results, differences)
    failures = [r for r in counted(results) if r.verdict != "pass"]
    if failures:
        lines += ["", "vectors that did not pass:"]
        for r in failures:
            lines += failure_lines(r) + later_lines(r, differences)
    for heading, part in (("unsupported (not counted: no failure, no suspect):", unsupported_lines(results)),
                          ("", known_lines(outcome))):
        if part:
            lines += [""] + ([heading] if heading else []) + part
    blamed = suspects(results, differences)
    lines += ["", summary_line(results) + (f"; suspect clauses: {', '.join(blamed)}" if blamed else "")]
    lacking = lacks_lines(results, declaration, games)
    if lacking:
        lines += [""] + lacking
    out.write("\n".join(lines) + "\n")


def results_json(results: Sequence[VectorResult], adapter: str, suites: Sequence[str], *,
                 declaration: Declaration | None = None, known: KnownFile | None = None, games: Sequence[str] = (),
                 actions: Actions | None = None) -> dict[str, Any]:
    """The results as ``--json`` prints them: the summary (``counted``: the vectors but those set apart;
    ``passed``: the run passes), the suspects, the adapter's declaration, the groups of differences, the vectors
    skipped, classified ``reading`` and ``known``, the per-clause table and every vector."""
    outcome = classify(results, known, actions)
    results, differences = outcome.results, outcome.differences
    table = by_clause(results, differences)
    vectors = []
    for r in results:
        entry = r.to_json()
        if r.verdict != "pass":
            entry["differences"] = [s.to_json() for s in differences if (s.suite, s.vector) == (r.suite, r.vector)]
        vectors.append(entry)
    return {
        "format": RESULTS_FORMAT,
        "adapter": adapter,
        "suites": list(suites),
        "summary": {"vectors": len(results), "counted": len(counted(results)), "passed": run_passed(results),
                    **counts(results)},
        "suspects": [c for c, v in table.items() if v.suspect],
        "declaration": None if declaration is None else declaration_json(declaration),
        "groups": [g.to_json() for g in groups_of(results, differences)],
        **lacks_json(results, declaration, games),
        "known": known_json(outcome),
        "clauses": [
            {"clause": c, "passed": v.passed, "failed": v.failed, "suspect": v.suspect,
             "failed_vectors": v.vectors_failed,
             "first_difference": None if v.first is None else
             {"vector": v.first.vector, "where": v.first.where, "expected": v.first.expected, "got": v.first.got}}
            for c, v in table.items()
        ],
        "vectors": vectors,
    }


def write_junit(results: Sequence[VectorResult], path: str, *, known: KnownFile | None = None,
                actions: Actions | None = None) -> None:
    """JUnit XML through the ``junit-xml`` package: a test suite per conformance suite, a case per vector. A
    case that did not pass has the first difference as its message (on one line) and the whole failure block
    (missing and extra actions, the perft divide) as its text; one set apart is skipped: ``unsupported`` with
    its difference, ``skipped`` as ``not implemented: FEATURES``, ``reading`` and ``known`` with the reason."""
    from junit_xml import TestCase, TestSuite, to_xml_report_string

    outcome = classify(results, known, actions)
    suites: dict[str, list[Any]] = {}
    for r in outcome.results:
        case = TestCase(r.vector, classname=r.suite, elapsed_sec=round(r.seconds, 4))
        message = cut(one_line(f"{r.where}: expected {r.expected} got {r.got}; clauses {', '.join(r.blamed)}"),
                      500, "see the text")
        output = "\n".join(failure_lines(r, indent="  ") + later_lines(r, outcome.differences, indent="  "))
        if r.verdict == "fail":
            case.add_failure_info(message=message, output=output, failure_type="difference")
        elif r.verdict in SET_APART:
            case.add_skipped_info(message=cut(one_line(apart_reason(r, outcome) or message), 500, "see the text"),
                                  output=output if r.verdict != "skipped" else "")
        elif r.verdict != "pass":
            case.add_error_info(message=message, output=output, error_type=r.verdict)
        suites.setdefault(r.suite, []).append(case)
    text = to_xml_report_string([TestSuite(name, cases) for name, cases in suites.items()])
    write_text(path, text)  # whole or not at all; a failure is a FileProblem naming the path


def apart_reason(r: VectorResult, outcome: Classified) -> str:
    """Why a vector was set apart, on one line (empty for ``unsupported``: its difference says it)."""
    if r.verdict == "skipped":
        return "not implemented: " + ", ".join(r.skipped_for)
    if r.verdict == "reading":
        return "a declared reading: " + ", ".join(r.reading)
    if r.verdict == "known":
        return "known: " + "; ".join(outcome.reasons(r.suite, r.vector))
    return ""
