"""``cardrules diff`` as data: the ``--json`` report and the Markdown for a committee's minutes.

The Markdown opens with a summary table (one row per embedded scenario and per scope: start
positions, states, whether the exploration was complete, the differences by class), then gives each
class of difference with its decisive clause, its counts and its shortest scenario, then the
properties, the z3 contradiction check and the z3 difference search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardrules.oracle.rulechange.lockstep import KINDS, ScenarioDiff

if TYPE_CHECKING:
    from cardrules.oracle.rulechange.report import DiffReport, ReportClass, ScopeDiff


def class_id(report: DiffReport, found: ReportClass) -> str:
    """``C1``, ``C2``...: a class's number in the report, in the order first found."""
    return f"C{report.classes.index(found) + 1}"


def _class_json(report: DiffReport, found: ReportClass) -> dict[str, Any]:
    return {
        "id": class_id(report, found), "kind": found.key.kind, "follow_on": found.key.follow_on, "decisive": found.example.decisive.to_json(),
        "decisive_text": found.key.decisive, "action_kind": found.key.action, "field": found.key.field,
        "count": found.count, "by_source": dict(found.sources),
        "shortest": {"source": found.source, "scenario": found.scenario.name, "depth": found.example.depth,
                     "trace": found.trace},
    }


def by_class(report: DiffReport, results: list[ScenarioDiff]) -> dict[str, int]:
    ids = {c.key: class_id(report, c) for c in report.classes}
    counts: dict[str, int] = {}
    for result in results:
        for key, tally in result.classes.items():
            counts[ids[key]] = counts.get(ids[key], 0) + tally.count
    return dict(sorted(counts.items(), key=lambda item: int(item[0][1:])))


def _scenario_json(report: DiffReport, s: ScenarioDiff) -> dict[str, Any]:
    return {
        "scenario": s.scenario, "states": s.states, "transitions": s.transitions, "parted_pairs": s.parted,
        "complete": s.complete, "turn_bounded": s.turn_bounded, "depth_bounded": s.depth_bounded,
        "truncated": s.truncated, "bounds": s.bounds, "exploration": s.bound_text(),
        "seconds": round(s.seconds, 3), "states_per_second": round(s.states_per_second),
        "differences": {k: {str(d): n for d, n in sorted(s.by_depth[k].items())} for k in KINDS if s.by_depth[k]},
        "classes": by_class(report, [s]),
        "traces": report.traces.get(s.scenario, []),
        "follow_on_traces": report.follow_on_traces.get(s.scenario, []),
    }


def _scope_json(report: DiffReport, scope: ScopeDiff) -> dict[str, Any]:
    return {
        "scope": scope.name, "description": scope.description, "positions": len(scope.positions),
        "states": scope.states, "seconds": round(scope.seconds, 3), "complete": scope.complete,
        "truncated_positions": [p.scenario for p in scope.truncated], "exploration": scope.bound_text(),
        "classes": by_class(report, scope.positions),
        "position_results": [{"scenario": p.scenario, "states": p.states, "complete": p.complete,
                              "truncated": p.truncated, "classes": by_class(report, [p])} for p in scope.positions],
    }


def report_json(report: DiffReport) -> dict[str, Any]:
    """The ``--json`` report."""
    explorations = report.explorations
    return {
        "game": report.game, "a": report.a.text, "b": report.b.text,
        "verdict": report.verdict, "differs": report.differs, "executable": not report.not_executable,
        "unseen_here": report.unseen_here,
        "complete": all(s.complete for s in explorations) and not report.not_executable,
        "turn_bounded": any(s.turn_bounded for s in explorations),
        "truncated": bool(report.truncated),
        "clauses_touched": report.touched, "text_only_clauses": report.text_only,
        "never_exercised_clauses": report.never_exercised,
        "classes": [_class_json(report, c) for c in report.classes],
        "scenarios": [_scenario_json(report, s) for s in report.scenarios],
        "scopes": [_scope_json(report, scope) for scope in report.scopes],
        "properties": [vars(p) for p in report.properties],
        "smt": report.smt, "smt_note": report.smt_note,
        "smt_search": [result.to_json() for result in report.smt_search],
        "speed": {
            "product_states": sum(s.states for s in explorations),
            "product_seconds": round(sum(s.seconds for s in explorations), 3),
            "separate_states": report.separate_states,
            "separate_seconds": round(report.separate_seconds, 3),
        },
    }


def completeness(results: list[ScenarioDiff]) -> str:
    """``complete``, ``within bounds`` (turn or depth bound, nothing truncated) or ``truncated``."""
    if any(r.truncated for r in results):
        return "truncated"
    return "complete" if all(r.complete for r in results) else "within bounds"


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{cid}: {n:,}" for cid, n in counts.items()) or "none"


def _summary(report: DiffReport) -> list[str]:
    lines = ["| explored | positions | states | complete? | differences by class (steps) |",
             "| --- | ---: | ---: | --- | --- |"]
    for s in report.scenarios:
        lines.append(f"| scenario `{s.scenario}` | 1 | {s.states:,} | {completeness([s])} | "
                     f"{_counts_text(by_class(report, [s]))} |")
    for scope in report.scopes:
        lines.append(f"| scope `{scope.name}` | {len(scope.positions):,} | {scope.states:,} | "
                     f"{completeness(scope.positions)} | {_counts_text(by_class(report, scope.positions))} |")
    return lines


def _classes(report: DiffReport) -> list[str]:
    lines: list[str] = []
    for found in report.classes:
        if found.key.follow_on:
            continue
        where = ", ".join(f"{source}: {n:,}" for source, n in found.sources.items())
        position = f", start position `{found.scenario.name}`" if found.source.startswith("scope ") else ""
        lines += [f"### {class_id(report, found)}: {found.key.kind}, action `{found.key.action}`, "
                  f"field `{found.key.field}`", "",
                  f"Decisive clause: {found.example.decisive.text()}.", "",
                  f"{found.count:,} differing step(s) ({where}). Shortest scenario ({found.source}{position}, "
                  f"depth {found.example.depth}):", "", "```text", *found.narrative, "```", ""]
    return lines


def no_difference_lines(report: DiffReport) -> list[str]:
    """``No difference found within scope S (N positions, M states)`` for each scope without one; then, for an
    option whose play these positions never reach, why (the catalogue's ``unseen_here``)."""
    return [f"No difference found within scope {scope.name} ({len(scope.positions):,} positions, {scope.states:,} states)"
            for scope in report.scopes if not scope.differs] + [
        f"Why no position here shows {item}: {why}" for item, why in report.unseen_here.items()]


def markdown(report: DiffReport) -> str:
    """The report as Markdown, for a committee's minutes."""
    lines = [f"# What changes from `{report.a.text}` to `{report.b.text}` ({report.game})", "",
             f"Verdict: {report.verdict}.", ""]
    if report.text_only and not report.not_executable:
        lines += [f"Changed in text only (not compared in play): {', '.join(report.text_only)}.", ""]
    if report.never_exercised:
        lines += [f"Changed but never exercised: {', '.join(report.never_exercised)}.", ""]
    if report.not_executable:
        return "\n".join(lines) + "\n"
    lines += ["## Summary", "", *_summary(report), ""]
    lines += [f"{line}." for line in no_difference_lines(report)] + ([""] if no_difference_lines(report) else [])
    lines += ["## Classes of difference", ""]
    lines += _classes(report) or ["No difference in play found.", ""]
    follow_on = [c for c in report.classes if c.key.follow_on]
    if follow_on:
        lines += ["## Follow-on differences", "",
                  "Actions legal under one rule set only once the two plays had already parted visibly:", ""]
        lines += [f"- {class_id(report, c)}: {c.key.kind} `{c.key.action}` after `{c.key.field}` differed; "
                  f"{c.count:,} step(s); shortest at depth {c.example.depth} ({c.source})" for c in follow_on] + [""]
    lines += ["## Properties", ""]
    lines += [f"- `{p.property}` in `{p.scenario}`: broken under {p.broken_under} only" for p in report.properties] \
        or ["Every property has the same verdict under both rule sets."]
    lines += ["", "## Contradictions (z3)", ""]
    for entry in report.smt:
        cores = "; ".join(", ".join(c) for c in entry["contradictions"])
        lines.append(f"- {entry['area']} under {entry['rule_set']}: {entry['verdict']}" + (f" ({cores})" if cores else "")
                     + (f": {entry['reason']}" if entry["verdict"] == "not-encoded" else ""))
    if report.smt_note:
        lines.append(f"- {report.smt_note}")
    if not report.smt_checked:
        lines.append("- not checked (`--no-smt`)")
    if report.smt_search:
        from cardrules.oracle.rulechange.smt_search import search_markdown

        lines += ["", "## Differences searched with z3", "", *search_markdown(report.smt_search)]
    return "\n".join(lines) + "\n"
