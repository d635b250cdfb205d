"""``cardrules mutate`` (the mutation probe) and the options it shares with ``cardrules conformance score``.

Exit codes: 0 every area reaches the goal (``mutate``: no non-equivalent
mutant survives every check), 1 it does not, 3 bad input (an unknown mutant
ID, area or check; a check that fails on the unmutated model; no suites).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence, TextIO

from cardrules.model.games import GAME_NAMES
from cardrules.oracle.cli.argtypes import MAX_JOBS, MAX_MUTANTS, MAX_SECONDS, MAX_SEED, int_at_least, seconds_up_to
from cardrules.oracle.cli.common import EXIT_CHECK_FAILED, EXIT_OK, InputError


def add_selection_options(p: argparse.ArgumentParser) -> None:
    """Options shared by ``mutate`` and ``conformance score``: which mutants, how to run, how to print."""
    p.add_argument("--area", action="append", metavar="A", help="only mutants of this clause area (repeatable)")
    p.add_argument("--game", choices=GAME_NAMES, help="only mutants of this game's model")
    p.add_argument("--mutant", action="append", metavar="ID", help="only this mutant (repeatable; IDs from --list)")
    p.add_argument("--limit", type=int_at_least(0, MAX_MUTANTS), metavar="N", help="a sample of N mutants, spread over the areas (named ones added)")
    p.add_argument("--seed", type=int_at_least(0, MAX_SEED), default=0, metavar="N", help="seed of the --limit sample (default 0)")
    p.add_argument("--timeout", type=seconds_up_to(MAX_SECONDS), metavar="S",
                   help="seconds per mutant and check (default: 10 x the unmutated run + 30)")
    p.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=1, metavar="N", help="mutants run at once, each in its own process (default 1)")
    p.add_argument("--equivalents", type=Path, metavar="FILE",
                   help="TOML of equivalent mutants with reasons (default: the package's conformance/equivalent.toml)")
    p.add_argument("--list", action="store_true", help="list the selected mutants (ID, area, change) and run nothing")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress display")


def add_parser(sub: Any) -> None:
    from cardrules.oracle.mutation.checks import CHECKS

    p = sub.add_parser(
        "mutate", help="the mutation probe: which checks kill which mutants of the model, per area",
        description="Single-point mutants of model/ (comparison flips, and/or, not removed, constants +-1, "
        "return True/False flipped, swapped arguments) and named hand-written ones, each run in its own process "
        "against each check (verify, the z3 cross-check, the conformance suites). Reports per area and per check "
        "the mutants killed, and lists the survivors. A full run takes hours: sample with --limit.",
    )
    p.add_argument("--check", action="append", choices=CHECKS, metavar="CHECK",
                   help=f"a check to run (repeatable; {', '.join(CHECKS)}; default: all)")
    p.add_argument("--suite", action="append", type=Path, metavar="PATH",
                   help="conformance suite file or folder (repeatable; default ./conformance)")
    add_selection_options(p)
    p.set_defaults(handler=cmd_mutate)


def selected_mutants(args: argparse.Namespace) -> list[Any]:
    from cardrules.oracle.mutation.mutants import MutantError, all_mutants, select

    if args.limit is not None and args.limit < 0:
        raise InputError("--limit must be at least 0")
    if args.jobs < 1:
        raise InputError("--jobs must be at least 1")
    if args.timeout is not None and not args.timeout > 0:
        raise InputError("--timeout must be positive")
    try:
        return select(all_mutants(), ids=args.mutant or (), areas=args.area or (),
                      games=(args.game,) if args.game else (), limit=args.limit, seed=args.seed)
    except MutantError as problem:
        raise InputError(str(problem)) from None


def list_mutants(mutants: Sequence[Any], out: TextIO, as_json: bool) -> int:
    if as_json:
        out.write(json.dumps([{"id": m.id, "area": m.area, "game": m.game, "function": f"{m.module}.{m.function}",
                               "operator": m.operator, "description": m.description, "clauses": list(m.clauses)}
                              for m in mutants], indent=1) + "\n")
    else:
        for m in mutants:
            out.write(f"{m.id}  [{m.area}]  {m.description}\n")
        out.write(f"{len(mutants)} mutants\n")
    return EXIT_OK


def load_suites_for(paths: Sequence[Path] | None) -> list[dict[str, Any]]:
    from cardrules.oracle.conformance.suite_files import DEFAULT_DIR, suite_files
    from cardrules.oracle.conformance.schema import SuiteError, load_suite

    if not paths and not DEFAULT_DIR.exists():
        raise InputError(f"no suites in ./{DEFAULT_DIR}: run `cardrules conformance generate` first, or give --suite")
    try:
        return [load_suite(path) for path in suite_files(paths or [DEFAULT_DIR])]
    except SuiteError as problem:
        raise InputError(str(problem)) from None


def sample_note(args: argparse.Namespace, chosen: int, total: int) -> dict[str, Any]:
    return {"mutants_run": chosen, "mutants_in_model": total, "limit": args.limit, "seed": args.seed,
            "areas": args.area, "game": args.game}


def run_probe(args: argparse.Namespace, out: TextIO, checks: Sequence[str], suites: Sequence[dict[str, Any]],
              *, per_check: bool, every_check: bool, no_survivors: bool, record: bool = False) -> int:
    """Select, run, print; the exit code. ``record``: a run of every mutant of the model is recorded
    for the spec site (:func:`oracle.verify.results.score_summary`)."""
    from cardrules.oracle.mutation.mutants import all_mutants
    from cardrules.oracle.mutation.probe import (
        EQUIVALENT_PATH, ProbeInputError, load_equivalents, meets_goal, print_report, probe, results_json, survivors,
    )
    from cardrules.oracle.progress import RunProgress

    mutants = selected_mutants(args)
    if args.list:
        return list_mutants(mutants, out, args.json)
    if not mutants:
        raise InputError("no mutant selected")
    try:
        equivalents = load_equivalents(args.equivalents or EQUIVALENT_PATH)
        known = {m.id for m in all_mutants()}
        stale = sorted(set(equivalents) - known)
        with RunProgress("mutate", len(mutants), quiet=args.quiet) as progress:
            def on_result(result: Any) -> None:
                with progress.phase(result.mutant.id) as phase:
                    by = [c for c, o in result.outcomes.items() if o.kills]
                    phase.result = ("equivalent; " if result.equivalent else "") + (
                        f"killed by {', '.join(by)}" if by else "survived")

            results = probe(mutants, checks, suites, jobs=args.jobs, timeout=args.timeout, equivalents=equivalents,
                            every_check=every_check, on_result=on_result)
    except ProbeInputError as problem:
        raise InputError(str(problem)) from None
    total = len(all_mutants())
    note = sample_note(args, len(mutants), total)
    if args.json:
        out.write(json.dumps(results_json(results, checks, note), indent=1) + "\n")
    else:
        sampled = len(mutants) < total
        print_report(results, checks, out, per_check=per_check,
                     sample=f"({'a sample of ' if sampled else ''}{len(mutants)} of the model's {total} mutants"
                            + (f", --limit {args.limit} --seed {args.seed}" if args.limit is not None else "") + ")")
        for mutant_id in stale:
            out.write(f"note: equivalent.toml names {mutant_id}, which is no longer a mutant of the model\n")
    if record and len(mutants) == total:
        _record_score(results_json(results, checks, note), suites, quiet=args.quiet)
    passed = not survivors(results) if no_survivors else meets_goal(results, checks)
    return EXIT_OK if passed else EXIT_CHECK_FAILED


def _record_score(report: dict[str, Any], suites: Sequence[dict[str, Any]], *, quiet: bool) -> None:
    """Record a complete score for the spec site."""
    from cardrules.oracle.verify.results import SCORE_RESULT, record, score_summary

    record(SCORE_RESULT, score_summary(report, suites), "cardrules conformance score", quiet=quiet)


def cmd_mutate(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.mutation.checks import CHECKS

    checks = list(dict.fromkeys(args.check or CHECKS))
    suites = load_suites_for(args.suite) if "conformance" in checks and not args.list else []
    return run_probe(args, out, checks, suites, per_check=True, every_check=True, no_survivors=True)
