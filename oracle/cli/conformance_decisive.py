"""``cardrules conformance decisive``: per clause in force, the vectors of the version suites that fail
when the clause's own code is mutated (:mod:`cardrules.oracle.mutation.decisive`).

Exit codes: 0 every clause in force is decided by some vector, or is listed with its reason (no mutant of
its own code, a catalogue excuse, or a reason in ``never_decisive.toml``); 1 a clause covered but never
decisive with no recorded reason; 3 bad input (no suites, a suite the unmutated model fails, a malformed
reasons file, an output file that cannot be written).
"""

from __future__ import annotations

import argparse
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence, TextIO

from cardrules.oracle.cli.argtypes import MAX_JOBS, int_at_least
from cardrules.oracle.cli.common import EXIT_CHECK_FAILED, EXIT_OK, InputError
from cardrules.specs.fileio import FileProblem, check_output_file, write_text


def add_decisive(commands: Any) -> None:
    """Register ``conformance decisive``."""
    from cardrules.oracle.mutation.decisive import PROFILES

    p = commands.add_parser(
        "decisive", help="per clause: the vectors that fail when the clause's own code is mutated",
        description="Runs every vector of the version suites (one per game and rule version; option suites are "
        "left out) under every single-point mutant of a function marked as implementing a clause, each mutant in "
        "its own process, through the reference adapter in the observable profile. Per clause in force: the "
        "vectors covering it, its mutants, those some vector kills, and the decisive vectors (failing under one "
        "of them), with the shortest. A clause no vector decides is listed with its reason: no-mutant, excused "
        "(catalogue), listed (oracle/conformance/never_decisive.toml), or 'not decisive' (exit 1). A long job, "
        "like the mutation score.",
    )
    p.add_argument("--suite", action="append", type=Path, metavar="PATH",
                   help="a suite file or a folder of them (repeatable; default: ./conformance)")
    p.add_argument("--profile", choices=PROFILES, default="observable",
                   help="how states are compared (default: observable, what an engine is held to)")
    p.add_argument("--area", action="append", metavar="A",
                   help="only the clauses of this catalogue area, and the mutants of its code (repeatable)")
    p.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=min(2, os.cpu_count() or 1), metavar="N",
                   help="mutants run at once (default: 2, or 1 on one core)")
    p.add_argument("--reasons", type=Path, metavar="FILE",
                   help="TOML of clauses no vector decides, with reasons (default: the package's never_decisive.toml)")
    p.add_argument("--json", action="store_true", help="print the table as JSON (cardrules-decisive/1)")
    p.add_argument("--write-result", type=Path, metavar="FILE",
                   help="also write the table as a docs/results file (the spec site renders it)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(handler=cmd_decisive)


def version_suites(suites: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The suites generated under a rule version with no decision option: what an engine is first held to."""
    return [s for s in suites if not (s.get("rule_set") or {}).get("decisions")]


def decisive_rows(suites: Sequence[dict[str, Any]], *, profile: str, jobs: int, reasons_path: Path | None,
                  quiet: bool, areas: Sequence[str] = ()) -> tuple[list[Any], list[str]]:
    """The per-clause table of the version suites among ``suites`` (the clauses of ``areas`` only, when
    given), and the stale recorded reasons."""
    from cardrules.oracle.mutation.decisive import (
        REASONS_PATH, DecisiveInputError, clause_table, load_reasons, mutant_kills, stale_reasons,
    )
    from cardrules.oracle.mutation.mutants import all_mutants
    from cardrules.oracle.mutation.probe import ProbeInputError, load_equivalents
    from cardrules.oracle.progress import RunProgress
    from cardrules.specs.catalogue import default_catalogue

    catalogue = default_catalogue()
    known = {a.id for a in catalogue.areas}
    unknown = [a for a in areas if a not in known]
    if unknown:
        raise InputError(f"--area: unknown area {unknown[0]!r}; known: {', '.join(sorted(known))}")
    suites = version_suites(suites)
    if not suites:
        raise InputError("no version suite among the suites given (each names decision options): "
                         "run `cardrules conformance generate` first, or give --suite")
    try:
        reasons = load_reasons(reasons_path or REASONS_PATH)
        equivalents = load_equivalents()
        area_of = {c.id: c.area for c in catalogue.clauses}
        mutants = [m for m in all_mutants() if m.own and m.id not in equivalents
                   and (not areas or any(area_of.get(c) in areas for c in m.clauses))]
        with RunProgress("decisive", len(mutants), quiet=quiet) as progress:
            def shown(kills: Any) -> None:
                with progress.phase(kills.mutant.id) as phase:
                    phase.result = f"{len(kills.failing)} vector(s) fail" if kills.status == "done" else kills.status

            kills = mutant_kills(mutants, suites, profile=profile, jobs=jobs, on_result=shown)
    except (DecisiveInputError, ProbeInputError) as problem:
        raise InputError(str(problem)) from None
    excuses = {c.id: c.conformance_excuse for c in catalogue.clauses if c.conformance_excuse}
    rows = clause_table(suites, kills, equivalents=equivalents, reasons=reasons, excuses=excuses)
    if areas:
        rows = [r for r in rows if area_of.get(r.clause) in areas]
        reasons = {c: r for c, r in reasons.items() if area_of.get(c) in areas}
    return rows, stale_reasons(rows, reasons)


def cmd_decisive(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.cli.mutate import load_suites_for
    from cardrules.oracle.mutation.decisive import dumps

    if args.write_result is not None:
        check_output_file(args.write_result)
    args.commit = _commit()  # the code measured is the code at the start
    rows, stale = decisive_rows(load_suites_for(args.suite), profile=args.profile, jobs=args.jobs,
                                reasons_path=args.reasons, quiet=args.quiet, areas=args.area or ())
    out.write(dumps(rows, args.profile) if args.json else text_report(rows, stale))
    if args.write_result is not None:
        try:
            write_text(args.write_result, result_toml(rows, args))
        except FileProblem as problem:
            raise InputError(str(problem)) from None
    return EXIT_OK if all(r.passes for r in rows) else EXIT_CHECK_FAILED


def text_report(rows: Sequence[Any], stale: Sequence[str]) -> str:
    """One table per suite, then the clauses no vector decides, each with its reason."""
    lines: list[str] = []
    for suite in dict.fromkeys(r.suite for r in rows):
        mine = [r for r in rows if r.suite == suite]
        width = max(len(r.clause) for r in mine)
        lines += ["", f"{suite}: {sum(r.status == 'decisive' for r in mine)} of {len(mine)} clauses in force "
                      "decided by a vector",
                  f"  {'clause'.ljust(width)}  covered  mutants  killed  decisive  shortest decisive vector / status"]
        for r in mine:
            tail = r.shortest if r.status == "decisive" else r.status
            lines.append(f"  {r.clause.ljust(width)}  {r.covered:>7}  {r.mutants:>7}  {r.killed:>6}  "
                         f"{len(r.decisive):>8}  {tail}")
    undecided = [r for r in rows if r.status != "decisive"]
    if undecided:
        lines += ["", "clauses in force that no vector decides:"]
        lines += [f"  {r.clause} ({r.suite}): {r.status}: {r.reason}" for r in undecided]
    lines += [f"note: never_decisive.toml gives a reason for {c}, which a vector decides or no suite has in force"
              for c in stale]
    failing = [r for r in rows if not r.passes]
    lines += ["", f"{len(failing)} clause(s) covered but never decisive, with no recorded reason" if failing
              else "every clause in force is decided by a vector or listed with its reason"]
    return "\n".join(lines).lstrip("\n") + "\n"


def _commit() -> str:
    """The checkout's commit (``-dirty`` when it has uncommitted changes), or empty outside git."""
    try:
        found = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return found.stdout.strip() if found.returncode == 0 else ""


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def result_toml(rows: Sequence[Any], args: argparse.Namespace) -> str:
    """The table as a ``docs/results`` file (see docs/_ext/cardrules_results.py)."""
    commit = getattr(args, "commit", "") or _commit()
    head = [
        "# Per clause in force in each version suite: the vectors whose clauses name it (covered), the",
        "# non-equivalent mutants of its own code, those some vector kills, and the decisive vectors.",
        f"measured = {datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%S')}",
        f"command = {_toml_string(f'cardrules conformance decisive --profile {args.profile} --jobs {args.jobs}')}",
        'machine = "loaded"',
        'conditions = "2 cores shared with other jobs; the counts are the same on any machine"',
    ]
    if commit:
        head.append(f"commit = {_toml_string(commit)}")
    head += ['note = "A clause no vector decides shows its status and reason instead of the shortest decisive '
             'vector: no-mutant (nothing of its own code can be mutated), excused (the catalogue), listed '
             '(oracle/conformance/never_decisive.toml)."',
             'columns = ["clause", "suite", "covered", "mutants", "killed", "decisive", "shortest decisive vector '
             'or reason"]', "rows = ["]
    for r in rows:
        tail = r.shortest if r.status == "decisive" else f"{r.status}: {r.reason}"
        cells = [_toml_string(r.clause), _toml_string(r.suite), str(r.covered), str(r.mutants), str(r.killed),
                 str(len(r.decisive)), _toml_string(tail)]
        head.append(f"  [{', '.join(cells)}],")
    head.append("]")
    return "\n".join(head) + "\n"
