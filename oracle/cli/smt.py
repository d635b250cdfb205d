"""``cardrules smt``: the SMT checks (consistency and vacuity of clause sets).

Exit codes follow :mod:`cardrules.oracle.cli`: 0 every check holds, 1 a check found a
contradiction, a vacuous clause, a disagreement or a counterexample, 4 z3 could not decide
(``unknown``: the budget spent), which is never reported as a pass. A definite failure
outranks another query's unknown: exit 1, not 4.

Every command takes ``--rlimit N`` (z3's deterministic resource budget per check, default
:data:`~specs.smt.budget.DEFAULT_RLIMIT`, at most :data:`~specs.smt.budget.MAX_RLIMIT`) and
``--timeout MS`` (a wall-clock limit per check, off unless asked for: with it a verdict may
depend on the machine's load).
"""

from __future__ import annotations

import argparse
from pathlib import Path
import json
from typing import Any, Callable, Sequence, TextIO

from cardrules.specs.fileio import check_output_file
from cardrules.oracle.cli.argtypes import MAX_JOBS, bounded, int_at_least, parse_decisions
from cardrules.model.games import GAME_NAMES
from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_OK, EXIT_UNDECIDED, InputError
from cardrules.oracle.selection import select_scenarios
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, RuleSetError, clauses_in_force
from cardrules.specs.smt.budget import DEFAULT_RLIMIT, MAX_RLIMIT, Budget, using
from cardrules.specs.smt.situations import SITUATIONS
from cardrules.specs.smt.consistency import ConsistencyReport, Situation, Verdict, check_vacuity, find_contradictions

MAX_CROSSCHECK_STATES = 1_000_000
"""``smt crosscheck --states``."""
MAX_BMC_DEPTH = 60
"""``smt bmc --depth``: unrolled steps (each adds a copy of the transition relation)."""


@bounded(1, MAX_CROSSCHECK_STATES)
def states_arg(text: str) -> int | None:
    """An argparse type: ``smt crosscheck --states``, a number of states or ``all`` (``None``: the
    whole exploration)."""
    if text == "all":
        return None
    return int_at_least(1, MAX_CROSSCHECK_STATES)(text)


rlimit_int = int_at_least(1, MAX_RLIMIT)
"""An argparse type: an rlimit in ``1..MAX_RLIMIT``."""
MAX_TIMEOUT_MS = 86_400_000
"""``--timeout``: z3's wall-clock bound, at most a day (verdicts in tests use ``--rlimit``)."""


def budget_of(args: argparse.Namespace) -> Budget:
    """The z3 budget the command line asks for (``--rlimit``, ``--timeout``)."""
    return Budget(rlimit=args.rlimit, timeout_ms=args.timeout)


def _verdict_exit(failed: bool, unknown: bool) -> int:
    """A definite failure outranks an unknown (1, not 4); an unknown is never a pass (4)."""
    if failed:
        return EXIT_CHECK_FAILED
    return EXIT_UNDECIDED if unknown else EXIT_OK


def _version_sets(area_id: str, asked: list[str] | None) -> list[frozenset[str]]:
    """The version sets to check: as asked (read together), or each alone and then all together."""
    area = default_catalogue().area(area_id)
    if asked:
        return [frozenset(asked)]
    alone = [frozenset({v.id}) for v in area.versions]
    return alone + ([frozenset(v.id for v in area.versions)] if len(alone) > 1 else [])


def _prepare(args: argparse.Namespace) -> tuple[Callable[[RuleSet], Situation], list[RuleSet]]:
    builders = SITUATIONS
    if args.area not in builders:
        raise InputError(f"no SMT situation for area {args.area!r} yet; available: {', '.join(sorted(builders))}")
    decisions = parse_decisions(args.decision or [])
    rule_sets = [RuleSet(versions={args.area: versions}, decisions=decisions) for versions in _version_sets(args.area, args.version)]
    try:
        for rule_set in rule_sets:
            rule_set.validate()
    except RuleSetError as error:
        raise InputError(str(error)) from None
    return builders[args.area], rule_sets


def _built(area: str, build: Callable[[RuleSet], Situation], rule_set: RuleSet) -> tuple[Situation, list[str]]:
    """The area's situation and clauses in force; a decision of another game, or an option the encoding
    never reads, is refused by name (it would otherwise be ignored silently)."""
    from cardrules.specs.catalogue.rulesets import decisions_read, unread_options

    catalogue = default_catalogue()
    game = catalogue.area(area).game
    for decision_id in rule_set.decisions:
        clause = catalogue.decisions[decision_id][0]
        if clause.game != game:
            raise InputError(f"--decision {decision_id}: a {clause.game} decision; area {area} is {game}")
    with decisions_read() as read:
        ids = list(clauses_in_force(area, rule_set))
        situation = build(rule_set)
    unread = unread_options(rule_set, read)
    if unread:
        raise InputError(f"the z3 encoding of area {area} does not implement {', '.join(unread)}: "
                            "it would give the default reading's answer (see 'cardrules list decisions')")
    return situation, ids


def _label(versions: frozenset[str]) -> str:
    joined = "+".join(sorted(versions))
    return f"{joined} (read as one text)" if len(versions) > 1 else joined


def cmd_consistency(args: argparse.Namespace, out: TextIO) -> int:
    build, rule_sets = _prepare(args)
    catalogue = default_catalogue()
    reports: list[tuple[frozenset[str], ConsistencyReport]] = []
    for rule_set in rule_sets:
        situation, ids = _built(args.area, build, rule_set)
        reports.append((rule_set.versions[args.area], find_contradictions(situation, ids, budget_of(args))))
    if args.json:
        json.dump(
            [
                {
                    "area": args.area,
                    "versions": sorted(versions),
                    "verdict": report.verdict.value,
                    "clauses": list(report.clause_ids),
                    "reason": report.reason,
                    "contradictions": [
                        {"clauses": list(c.clause_ids), "situation": c.situation} for c in report.contradictions
                    ],
                }
                for versions, report in reports
            ],
            out,
            indent=2,
        )
        print(file=out)
    else:
        for versions, report in reports:
            head = f"{args.area}, {_label(versions)}: {len(report.clause_ids)} clauses: "
            if report.verdict is Verdict.UNKNOWN:
                print(head + f"UNKNOWN ({report.reason})", file=out)
            elif report.verdict is Verdict.CONSISTENT:
                print(head + "consistent", file=out)
            else:
                print(head + f"{len(report.contradictions)} contradiction(s)", file=out)
            for number, contradiction in enumerate(report.contradictions, 1):
                print(f"  {number}. these clauses cannot all hold:", file=out)
                for clause_id in contradiction.clause_ids:
                    print(f"       {clause_id}: {catalogue.clause(clause_id).title}", file=out)
                when = "; ".join(f"{k}: {v}" for k, v in contradiction.situation.items())
                print(f"     when: {when}", file=out)
    failed = any(report.contradictions for _, report in reports)
    return _verdict_exit(failed, any(report.verdict is Verdict.UNKNOWN for _, report in reports))


def cmd_vacuity(args: argparse.Namespace, out: TextIO) -> int:
    build, rule_sets = _prepare(args)
    rows = []
    for rule_set in rule_sets:
        situation, ids = _built(args.area, build, rule_set)
        for result in check_vacuity(situation, ids, budget_of(args)):
            rows.append((rule_set.versions[args.area], result))
    if args.json:
        json.dump(
            [
                {
                    "area": args.area,
                    "versions": sorted(versions),
                    "clause": r.clause_id,
                    "verdict": {"consistent": "applies", "contradiction": "vacuous", "unknown": "unknown"}[r.verdict.value],
                    "witness": r.witness,
                    "reason": r.reason,
                }
                for versions, r in rows
            ],
            out,
            indent=2,
        )
        print(file=out)
    else:
        for versions, result in rows:
            if result.verdict is not Verdict.CONSISTENT:
                word = "VACUOUS (can never apply)" if result.verdict is Verdict.CONTRADICTION else f"UNKNOWN ({result.reason})"
                print(f"{args.area}, {_label(versions)}: {result.clause_id}: {word}", file=out)
        applies = sum(1 for _, r in rows if r.verdict is Verdict.CONSISTENT)
        print(f"{applies} of {len(rows)} clause checks have a situation where the clause applies", file=out)
    verdicts = {r.verdict for _, r in rows}
    return _verdict_exit(Verdict.CONTRADICTION in verdicts, Verdict.UNKNOWN in verdicts)


def _scenarios_of(game: str, names: list[str] | None, files: list[Any] | None) -> list[Any]:
    """The selected scenarios of one game (embedded by name, and users' files); bad input is InputError."""
    chosen = select_scenarios(names, files)
    if names or files:
        other = [s.name for s in chosen if s.game != game]
        if other:
            raise InputError(f"not {game} scenarios: {', '.join(other)}")
    return [s for s in chosen if s.game == game]


def _fftcg_scenario_roots(names: list[str] | None, files: list[Any] | None = None) -> list[tuple[str, Any]]:
    from cardrules.model.fftcg.validate import load_state

    return [(s.name, load_state(s.state)) for s in _scenarios_of("fftcg", names, files)]


def _fftcg_config(decisions: dict[str, str]) -> Any:
    from cardrules.model.errors import ScenarioError
    from cardrules.model.fftcg.config import RuleConfig

    try:
        return RuleConfig.of(decisions)
    except ScenarioError as error:
        raise InputError(str(error)) from None


def cmd_crosscheck(args: argparse.Namespace, out: TextIO) -> int:
    """The model and the z3 encoding on every state of each scenario's exploration (whole, or the
    first ``--states``), with the comparisons per clause."""
    from cardrules.oracle.crosscheck.run import crosscheck_scenarios, total_counts, write_counts
    from cardrules.oracle.progress import RunProgress
    from cardrules.oracle.jobs import available_cpus

    games = GAME_NAMES if args.game == "all" else (args.game,)
    if args.write_counts:
        check_output_file(args.write_counts)  # before the run: a bad path costs no minutes of work
    if args.game == "all" and (args.scenario or args.scenario_file):
        raise InputError("--game all checks every embedded scenario; name one game to select scenarios")
    scenarios = [s for game in games for s in _scenarios_of(game, args.scenario, args.scenario_file)]
    decisions = parse_decisions(args.decision or [])
    progress = RunProgress("crosscheck", None, quiet=args.quiet)  # entered by crosscheck_scenarios
    with using(budget_of(args)):
        result = crosscheck_scenarios(scenarios, decisions, args.states, progress,
                                      args.jobs if args.jobs is not None else available_cpus())
    failures = result.failures + _out_of_scope_lines(result.runs, full=args.json)
    total = total_counts(result.runs)
    if args.write_counts:
        command = (f"cardrules smt crosscheck --game {args.game} --states {args.states or 'all'} "
                   f"--write-counts {args.write_counts}")
        write_counts(args.write_counts, result.runs, command)
    if args.json:
        _print_crosscheck_json(result, failures, total, out)
    else:
        _print_crosscheck(result, failures, total, out)
    return _verdict_exit(result.disagreed or bool(failures), bool(result.unknown))


def _out_of_scope_lines(runs: Sequence[Any], *, full: bool) -> list[str]:
    """The states each run's encoding left out, as failure lines: all of them (``full``), or a few, shortened."""
    lines: list[str] = []
    for run in runs:
        shown = [f"{run.label}: {run.what}: OUT OF SCOPE: {line}" for line in run.report.out_of_scope]
        if full:
            lines += shown
        else:  # a few, shortened: the JSON has them all
            lines += [line[:400] + ("..." if len(line) > 400 else "") for line in shown[:3]]
            if len(shown) > 3:
                lines.append(f"{run.label}: {run.what}: OUT OF SCOPE: and {len(shown) - 3:,} more states "
                             "(--json lists them)")
    return lines


def _print_crosscheck_json(result: Any, failures: list[str], total: dict[str, int], out: TextIO) -> None:
    from cardrules.oracle.crosscheck.run import run_json

    json.dump([run_json(run) for run in result.runs] + [{"unknown": line} for line in result.unknown]
              + [{"failure": line} for line in failures] + [{"clauses": total}], out, indent=2)
    print(file=out)


def _print_crosscheck(result: Any, failures: list[str], total: dict[str, int], out: TextIO) -> None:
    from cardrules.oracle.crosscheck.run import pairs

    for run in result.runs:
        r = run.report
        rate = pairs(r) / r.seconds if r.seconds else 0.0
        print(f"{run.label}: {run.what}: {r.states:,} states, {pairs(r):,} compared ({rate:,.0f}/s), "
              f"{len(r.clauses)} clauses, {len(r.disagreements)} disagreement(s), {r.seconds:.1f}s", file=out)
        for d in r.disagreements[:5]:
            print("  " + str(d).replace("\n", "\n  "), file=out)
    for line in result.unknown + failures:
        print(line, file=out)
    print(f"\ncomparisons per clause ({len(total)} clauses compared at least once):", file=out)
    width = max((len(c) for c in total), default=6)
    for clause_id, count in total.items():
        print(f"  {clause_id:<{width}}  {count:>9,}", file=out)


def cmd_bmc(args: argparse.Namespace, out: TextIO) -> int:
    """A z3 bounded check (or k-induction) of an FFTCG property from a scenario's position."""
    from cardrules.oracle.crosscheck.fftcg import bmc_from_state, smt_properties
    from cardrules.specs.smt.fftcg.bmc import Verdict as BmcVerdict

    known = smt_properties()
    if args.property not in known:
        raise InputError(f"no registered property {args.property!r} with a z3 form; known: {', '.join(sorted(known))}")
    if args.induction and args.depth < 1:
        raise InputError("--induction needs --depth 1 or more (the largest k to try)")
    config = _fftcg_config(parse_decisions(args.decision or []))
    failed = unknown = False
    records = []
    for name, root in _fftcg_scenario_roots(args.scenario, args.scenario_file):
        result = bmc_from_state(root, args.property, args.depth, config, induction=args.induction, budget=budget_of(args))
        unknown |= result.verdict is BmcVerdict.UNKNOWN
        failed |= result.verdict is BmcVerdict.VIOLATED or bool(result.replay_problems)
        records.append((name, result))
    if args.json:
        json.dump(
            [
                {"scenario": name, "property": r.property, "verdict": r.verdict.value, "depth": r.depth,
                 "reason": r.reason, "trace": [str(a) for a, _ in r.trace[1:]], "replay_problems": list(r.replay_problems)}
                for name, r in records
            ],
            out,
            indent=2,
        )
        print(file=out)
    else:
        for name, r in records:
            extra = f" ({r.reason})" if r.reason else ""
            print(f"{name}: {r.property}: {r.verdict.value} (depth {r.depth}){extra}", file=out)
            for number, (action, _) in enumerate(r.trace[1:], 1):
                print(f"  {number}. {action}", file=out)
            if r.trace:
                print(f"  replay on the model: {'; '.join(r.replay_problems) or 'reproduced'}", file=out)
    return _verdict_exit(failed, unknown)


def add_parser(sub: argparse._SubParsersAction) -> None:
    smt = sub.add_parser(
        "smt",
        help="SMT checks: consistency, vacuity, cross-check with the model, bounded model checking",
        description="SMT checks with z3. Exit codes: 0 holds, 1 violated (contradiction, vacuous clause, "
        "disagreement, counterexample), 3 bad input, 4 unknown.",
    )
    checks = smt.add_subparsers(dest="smt_command", metavar="CHECK", required=True)
    for name, handler, text in (
        ("consistency", cmd_consistency, "find minimal sets of clauses that contradict each other, with a situation"),
        ("vacuity", cmd_vacuity, "find clauses that can never apply"),
    ):
        p = checks.add_parser(name, help=text, description=text.capitalize() + ".")
        p.add_argument("--area", default="heal", help="rule area (default: heal)")
        p.add_argument(
            "--version",
            action="append",
            metavar="V",
            help="a version to check; repeat to read several as one text (default: each alone, then all together)",
        )
        p.add_argument(
            "--decision", action="append", metavar="ID=OPTION", help="read a decision another way (repeatable)"
        )
        _add_budget_options(p)
        p.add_argument("--json", action="store_true", help="print JSON")
        p.set_defaults(handler=handler)

    p = checks.add_parser("crosscheck", help="the model and z3 agree, on every state of each scenario",
                          description="For every state of a bounded exploration of each scenario and rule set: FFTCG, "
                          "the exact set of legal actions and the unique successor of each, model against z3; "
                          "Redemption, every rule decision (side battle control, resolution, redirect), and legal "
                          "actions and successors for states inside the battle fragment.")
    p.add_argument("--game", choices=(*GAME_NAMES, "all"), default="fftcg",
                   help="which game (default fftcg; all: every embedded scenario of both)")
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario (repeatable)")
    p.add_argument("--scenario-file", action="append", type=Path, metavar="PATH",
                   help="also check this scenario file of yours (repeatable; alone: only these files)")
    p.add_argument("--states", type=states_arg, default=None, metavar="N|all",
                   help="only the first N states of each exploration (default, or 'all': the whole exploration, "
                   f"within the scenario's bounds; N at most {MAX_CROSSCHECK_STATES:,})")
    p.add_argument("--write-counts", type=Path, metavar="FILE",
                   help="write the comparisons per clause to FILE (JSON; 'cardrules trace' reads "
                   "oracle/crosscheck/counts.json)")
    p.add_argument("--decision", action="append", metavar="ID=OPTION", help="a rule variant (repeatable)")
    _add_budget_options(p)
    p.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=None, metavar="N",
                   help="scenarios and rule sets at once, each in a worker process (default: the CPUs this process "
                   "may use); the same runs in the same order whatever N is")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_crosscheck)

    p = checks.add_parser("bmc", help="FFTCG: bounded model check or k-induction of a property",
                          description="Check a z3-encoded FFTCG property from each scenario's position: to a depth, "
                          "or by k-induction. A counterexample is replayed on the model. Exit 0 holds/proved, "
                          "1 violated, 4 unknown.")
    p.add_argument("--property", required=True, help="a registered property with a z3 form (party-min-two, damage-in-thousands, ...)")
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario (repeatable)")
    p.add_argument("--scenario-file", action="append", type=Path, metavar="PATH",
                   help="also check this scenario file of yours (repeatable; alone: only these files)")
    p.add_argument("--depth", type=int_at_least(0, MAX_BMC_DEPTH), default=6, metavar="K",
                   help="depth, or the largest k for --induction (at least 1 there; default 6)")
    p.add_argument("--induction", action="store_true", help="try to prove it at every depth by k-induction")
    p.add_argument("--decision", action="append", metavar="ID=OPTION", help="a rule variant (repeatable)")
    _add_budget_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_bmc)


def _add_budget_options(p: argparse.ArgumentParser) -> None:
    """``--rlimit`` (deterministic, on by default) and ``--timeout`` (wall clock, off by default)."""
    p.add_argument("--rlimit", type=rlimit_int, default=DEFAULT_RLIMIT, metavar="N",
                   help=f"z3 resource limit per check, the same on any machine (default {DEFAULT_RLIMIT}, "
                   f"at most {MAX_RLIMIT}); a check that needs more is unknown (exit 4)")
    p.add_argument("--timeout", type=int_at_least(1, MAX_TIMEOUT_MS), default=None, metavar="MS",
                   help="also a wall-clock limit per check (default: none; with one, a verdict may depend on "
                   "the machine's load)")
