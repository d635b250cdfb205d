"""``cardrules verify``: every property on every embedded scenario, rule set and engine (the main job)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from cardrules.oracle.cli.argtypes import MAX_EXAMPLES, MAX_JOBS, int_at_least, parse_decisions
from cardrules.oracle.cli.itf import write_itf_or_fail
from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_OK, EXIT_UNDECIDED, InputError
from cardrules.oracle.selection import select_scenarios
from cardrules.specs.fileio import check_output_file


def add_parser(sub: Any) -> None:
    """The ``verify`` subcommand."""
    p = sub.add_parser(
        "verify",
        help="run every property on every embedded scenario, rule set and engine (the main job)",
        description="Check every property on every embedded scenario and rule set with the explorer, the "
        "hypothesis machines and (FFTCG) the z3 transition system. Mutants (rules broken on purpose) must be caught. "
        "Prints one line per scenario, rule set and engine, and expands what did not pass. "
        "Exit 1 on any violation or missed mutant, 4 if z3 could not decide (and nothing failed), "
        "3 if nothing was selected.",
    )
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario (repeatable)")
    p.add_argument("--scenario-file", action="append", type=Path, metavar="PATH",
                   help="also check this scenario file of your own (repeatable; alone: only these files)")
    p.add_argument("--scope", action="append", metavar="SCOPE",
                   help="check every start position of a scope (repeatable): a named scope (small, medium: each "
                   "game's; GAME-NAME: one game's) or a cardrules-scope/1 file; the explore engine unless --engine "
                   "says otherwise; embedded scenarios only if --scenario or --scenario-file selects them")
    p.add_argument("--engine", action="append", choices=("explore", "hypothesis", "smt"),
                   help="only this engine (repeatable; smt is the FFTCG z3 transition system)")
    p.add_argument("--decision", action="append", metavar="ID=OPTION",
                   help="run each scenario's first rule set with this decision changed (repeatable); no mutants")
    p.add_argument("--no-mutants", action="store_true", help="skip the mutant rule sets")
    p.add_argument("--examples", type=int_at_least(1, MAX_EXAMPLES), default=60, metavar="N",
                   help=f"hypothesis examples per run (default 60, at most {MAX_EXAMPLES:,})")
    p.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=None, metavar="N",
                   help="runs at once, each in a worker process (default: the CPUs this process may use); "
                   "the same rows in the same order whatever N is")
    p.add_argument("--all", action="store_true", help="expand every property, not only those that did not pass")
    p.add_argument("--failures-only", action="store_true", help="print only the runs and properties that failed")
    p.add_argument("--quiet", action="store_true", help="no progress display (bar on a terminal, lines on stderr otherwise)")
    p.add_argument("--json", action="store_true", help="print JSON rows (with counterexample traces)")
    p.add_argument("--itf", type=Path, metavar="FILE",
                   help="write the counterexamples in the Informal Trace Format (Apalache, Quint)")
    p.add_argument("--no-record", action="store_true",
                   help="do not record a complete run's summary for the spec site (.cardrules/results/verify.json)")
    p.set_defaults(handler=cmd_verify)


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.jobs import available_cpus
    from cardrules.oracle.verify.runner import print_table, rows_to_json, verify

    if args.itf:
        check_output_file(args.itf)  # before the run: a bad path costs no minutes of work
    if args.scope:
        return _verify_scopes(args, out)
    scenarios = select_scenarios(args.scenario, args.scenario_file)
    try:
        decisions = parse_decisions(args.decision or [])
        rows = verify(
            scenarios,
            engines=args.engine or ("explore", "hypothesis", "smt"),
            quiet=args.quiet,
            examples=args.examples,
            include_mutants=not args.no_mutants,
            extra_decisions=decisions or None,
            jobs=args.jobs if args.jobs is not None else available_cpus(),
        )
    except ScenarioError as error:
        raise InputError(str(error)) from None
    if not rows:
        raise InputError(
            "nothing was checked: no selected scenario matches these engines and decisions "
            "(the smt engine is FFTCG only; a --decision selects the scenarios of its own game)"
        )
    _write_itf(args, rows)
    if args.json:
        print(rows_to_json(rows), file=out)
    else:
        print_table(rows, out, all_rows=args.all, failures_only=args.failures_only)
    if not args.no_record and complete_selection(args):
        _record_verify(rows, quiet=args.quiet)
    return _exit_code(rows)


def _write_itf(args: argparse.Namespace, rows: Sequence[Any]) -> None:
    if args.itf:
        traces = [r.trace for r in rows if r.trace is not None]
        if not traces:
            print("cardrules verify: no counterexample to write as ITF", file=sys.stderr)
        else:
            write_itf_or_fail(traces, args.itf)


def _exit_code(rows: Sequence[Any]) -> int:
    if any(r.failed and r.verdict != "UNKNOWN" for r in rows):
        return EXIT_CHECK_FAILED
    return EXIT_UNDECIDED if any(r.verdict == "UNKNOWN" for r in rows) else EXIT_OK


def _verify_scopes(args: argparse.Namespace, out: TextIO) -> int:
    """``verify --scope``: every position of each scope, its rows folded per property (never recorded)."""
    import json

    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.jobs import available_cpus
    from cardrules.oracle.verify.runner import print_table, verify
    from cardrules.oracle.verify.scopes import fold, label, positions_of, scopes_named

    scopes = scopes_named(args.scope)
    chosen = select_scenarios(args.scenario, args.scenario_file) if args.scenario or args.scenario_file else ()
    options = {"engines": args.engine or ("explore",), "quiet": args.quiet, "examples": args.examples,
               "jobs": args.jobs if args.jobs is not None else available_cpus()}
    try:
        decisions = parse_decisions(args.decision or []) or None
        folded = [fold(scope, positions, verify(positions, include_mutants=False, extra_decisions=decisions, **options))
                  for scope in scopes for positions in [positions_of(scope)]]
        rows = verify(chosen, include_mutants=not args.no_mutants, extra_decisions=decisions, **options) if chosen else []
    except ScenarioError as error:
        raise InputError(str(error)) from None
    every = [r for f in folded for r in f.rows] + rows
    if not every:
        raise InputError("nothing was checked: no scope position or scenario matches these engines and decisions")
    _write_itf(args, every)
    if args.json:
        print(json.dumps({"scopes": [f.to_json() for f in folded], "rows": [r.to_json() for r in rows]}, indent=2),
              file=out)
        return _exit_code(every)
    for f in folded:
        print(f"scope {label(f.scope)}: {len(f.positions):,} positions, {f.states:,} states", file=out)
    print_table(every, out, all_rows=args.all, failures_only=args.failures_only)
    return _exit_code(every)


def complete_selection(args: argparse.Namespace) -> bool:
    """Whether a verify run checked everything: every embedded scenario, engine and mutant, no changed decision."""
    from cardrules.oracle.verify.runner import ENGINES

    every_engine = not args.engine or set(args.engine) == set(ENGINES)
    return not (args.scenario or args.scenario_file or args.decision or args.no_mutants) and every_engine


def _record_verify(rows: Sequence[Any], *, quiet: bool) -> None:
    """Record a complete run's summary for the spec site."""
    from cardrules.oracle.verify.results import VERIFY_RESULT, record, verify_summary

    record(VERIFY_RESULT, verify_summary(rows), "cardrules verify", quiet=quiet)
