"""The report of ``cardrules verify``: a line per run, failures expanded, and JSON rows."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Sequence, TextIO

from cardrules.oracle.verify.rows import SIZE_NAMES

if TYPE_CHECKING:
    from cardrules.oracle.verify.rows import Row


PASSING = ("holds", "holds-bounded", "proved", "not-reached")


def _verdict_counts(rows: Sequence[Row]) -> str:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    return ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _print_columns(table: Sequence[tuple[str, ...]], right_from: int, out: TextIO) -> None:
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for number, cells in enumerate(table):
        print("  ".join(cell.ljust(w) if i < right_from else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(cells, widths))).rstrip(), file=out)
        if number == 0:
            print("  ".join("-" * w for w in widths), file=out)


def print_table(rows: Sequence[Row], out: TextIO, *, all_rows: bool = False, failures_only: bool = False) -> None:
    """One line per scenario, rule set and engine (its properties, verdicts, size, seconds).

    Rows that are not passing (violations, mutants caught or missed,
    undecided) are expanded below, one per property, with counterexamples.
    ``all_rows`` expands every property; ``failures_only`` prints only the
    groups with a failure.
    """
    groups: dict[tuple[str, str, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.scenario, row.rule_set, row.engine), []).append(row)
    header = ("scenario", "rule set", "engine", "properties", "failed", "verdicts", "size", "seconds")
    table: list[tuple[str, ...]] = [header]
    for (scenario, rule_set, engine), members in groups.items():
        failed_count = sum(1 for r in members if r.failed)
        if failures_only and not failed_count:
            continue
        size = max(r.states for r in members)
        seconds = max(r.seconds for r in members)
        unit = SIZE_NAMES.get(engine, "size").split("_")[0]
        table.append((scenario, rule_set, engine, str(len(members)), str(failed_count), _verdict_counts(members),
                      f"{size:,} {unit}", f"{seconds:.2f}"))
    if len(table) > 1:
        _print_columns(table, 6, out)
    expanded = [r for r in rows if all_rows or r.verdict not in PASSING]
    if failures_only:
        expanded = [r for r in expanded if r.failed]
    if expanded:
        print(file=out)
        _print_columns([("property", "scenario", "rule set", "engine", "verdict")] + [
            (r.property, r.scenario, r.rule_set, r.engine, r.verdict) for r in expanded], 5, out)
    for row in rows:
        if row.counterexample and (row.failed or row.verdict == "caught") and (not failures_only or row.failed):
            title = "counterexample" if row.failed else "caught (expected) with counterexample"
            print(f"\n{row.property} / {row.scenario} / {row.rule_set} / {row.engine}: {title}", file=out)
            for line in row.counterexample:
                print(f"  {line}", file=out)
    for row in rows:
        if row.note:
            print(f"\nnote: {row.property} / {row.scenario} / {row.rule_set} / {row.engine}: {row.note}", file=out)
    failed = [r for r in rows if r.failed]
    caught = sum(1 for r in rows if r.verdict == "caught")
    holding = sum(1 for r in rows if r.verdict in ("holds", "holds-bounded", "proved"))
    if not rows:
        print("nothing was checked", file=out)
        return
    print(f"\n{len(rows)} checks in {len(groups)} runs: {holding} hold, {caught} mutant violations caught, "
          f"{len(failed)} failed", file=out)


def rows_to_json(rows: Sequence[Row]) -> str:
    return json.dumps([r.to_json() for r in rows], indent=2)
