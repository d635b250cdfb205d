"""``cardrules diff`` as text on the terminal: per scenario and scope what was explored, then each class
of difference with its shortest scenario, the properties, z3, and the verdict."""

from __future__ import annotations

from typing import TextIO

from cardrules.oracle.rulechange.lockstep import KINDS, ScenarioDiff
from cardrules.oracle.rulechange.minutes import by_class, class_id, no_difference_lines
from cardrules.oracle.rulechange.report import DiffReport


def print_report(report: DiffReport, out: TextIO) -> None:
    """The report as text (see the module docstring)."""
    print(f"cardrules diff ({report.game}): A = {report.a.text}   B = {report.b.text}", file=out)
    print(f"clauses the change touches: {', '.join(report.touched) or 'none'}", file=out)
    if report.not_executable:
        print(f"\n{report.verdict}", file=out)
        return
    if report.text_only:
        print(f"changed in text only (not compared in play): {', '.join(report.text_only)}", file=out)
    if report.never_exercised:
        print(f"changed but never exercised (their code never ran in the exploration): "
              f"{', '.join(report.never_exercised)}", file=out)
    for s in report.scenarios:
        _print_scenario(report, s, out)
    for scope in report.scopes:
        counts = by_class(report, scope.positions)
        print(f"\nscope {scope.name}: {len(scope.positions):,} positions, {scope.states:,} states "
              f"({scope.bound_text()}); " + (", ".join(f"{cid} in {n:,} step(s)" for cid, n in counts.items())
                                             or "no difference found"), file=out)
    for line in no_difference_lines(report):
        print(line, file=out)
    _print_classes(report, out)
    _print_properties(report, out)
    _print_smt(report, out)
    explorations = report.explorations
    total = sum(s.states for s in explorations)
    seconds = sum(s.seconds for s in explorations)
    print(f"\nlockstep exploration: {total:,} states in {seconds:.2f}s; A and B explored apart (with every "
          f"property): {report.separate_states:,} states in {report.separate_seconds:.2f}s", file=out)
    print(f"verdict: {report.verdict}", file=out)


def _print_scenario(report: DiffReport, s: ScenarioDiff, out: TextIO) -> None:
    kinds = ", ".join(f"{k} in {sum(s.by_depth[k].values())} state(s)" for k in KINDS if s.by_depth[k])
    print(f"\n{s.scenario}: {kinds or 'no difference found'} ({s.bound_text()}; "
          f"{s.states_per_second:,.0f} states/s)", file=out)
    print(f"  bounds: {s.limits_text()}", file=out)
    counts = by_class(report, [s])
    if counts:
        print(f"  classes: {', '.join(f'{cid} in {n:,} step(s)' for cid, n in counts.items())}", file=out)


def _print_classes(report: DiffReport, out: TextIO) -> None:
    if not report.classes:
        return
    primary = [c for c in report.classes if not c.key.follow_on]
    print(f"\nclasses of difference ({len(primary)}):", file=out)
    for found in primary:
        where = ", ".join(f"{source}: {n:,}" for source, n in found.sources.items())
        print(f"\n{class_id(report, found)}: {found.key.kind}, action '{found.key.action}', field "
              f"'{found.key.field}'; {found.count:,} step(s) ({where})", file=out)
        print(f"  decisive clause: {found.example.decisive.text()}", file=out)
        position = f" (start position {found.scenario.name})" if found.source.startswith("scope ") else ""
        print(f"  shortest scenario, {found.source}{position}, depth {found.example.depth}:", file=out)
        for line in found.narrative[:-1]:  # the last line repeats the decisive clause
            print(f"    {line}", file=out)
    follow_on = [c for c in report.classes if c.key.follow_on]
    if follow_on:
        print(f"\nfollow-on differences ({len(follow_on)}): actions legal under one rule set only once the plays "
              "had parted visibly", file=out)
    for found in follow_on:
        print(f"  {class_id(report, found)}: {found.key.kind} '{found.key.action}' after '{found.key.field}' "
              f"differed; {found.count:,} step(s), shortest at depth {found.example.depth} ({found.source})", file=out)


def _print_properties(report: DiffReport, out: TextIO) -> None:
    if report.properties:
        print("\nproperties:", file=out)
        for p in report.properties:
            verb = "newly broken under B" if p.broken_under == "B" else "broken under A, holds under B"
            print(f"  {p.property} / {p.scenario}: {verb}", file=out)
    else:
        print("\nproperties: every property has the same verdict under A and B", file=out)


def _print_smt(report: DiffReport, out: TextIO) -> None:
    for entry in report.smt:
        cores = "; ".join("{" + ", ".join(c) + "}" for c in entry["contradictions"])
        print(f"smt {entry['area']} under {entry['rule_set']}: {entry['verdict']}"
              + (f": {cores}" if cores else "") + (f" ({entry['reason']})" if entry.get("reason") else ""), file=out)
    if report.smt_note:
        print(f"smt: {report.smt_note}", file=out)
    if report.smt_search:
        from cardrules.oracle.rulechange.smt_search import search_text

        for line in search_text(report.smt_search):
            print(line, file=out)

