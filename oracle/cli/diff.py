"""``cardrules diff A B``: what a proposed rule change changes in play, printed or as Markdown."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from cardrules.model.games import GAME_NAMES
from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_INPUT, EXIT_OK, EXIT_UNDECIDED, InputError
from cardrules.oracle.rulechange.report import DiffReport, markdown, print_report, run_diff
from cardrules.oracle.selection import select_scenarios
from cardrules.properties.scenarios.rulesets import (NamedRuleSet, RuleSetError, check_selectable,
                                                     parse_rule_set_expression)
from cardrules.specs.fileio import FileProblem, check_output_dir, check_output_file, write_text


def named_rule_set(text: str, allow_code: bool) -> NamedRuleSet:
    """A rule-set expression, or a proposal file (``*.toml``)."""
    from cardrules.oracle.rulechange.proposals import ProposalError, load_proposal

    if text.endswith(".toml"):
        try:
            proposal = load_proposal(Path(text), allow_code=allow_code)
        except ProposalError as error:
            raise InputError(str(error)) from None
        return NamedRuleSet(f"{proposal.id} ({text})", proposal.game, proposal.spec, proposal.hooks, proposal)
    try:
        named = parse_rule_set_expression(text)
    except RuleSetError as error:
        raise InputError(str(error)) from None
    try:
        if named.game is not None:  # the one check a proposal's options pass too (proposal check)
            check_selectable(named.game, named.spec)
    except RuleSetError as error:
        raise InputError(f"rule set {text!r}: {error}") from None
    return named


def _rule_sets(args: argparse.Namespace) -> tuple[str, NamedRuleSet, NamedRuleSet]:
    a, b = named_rule_set(args.a, args.allow_code), named_rule_set(args.b, args.allow_code)
    games = {g for g in (a.game, b.game, args.game) if g is not None}
    if len(games) > 1:
        raise InputError(f"the rule sets and --game name different games: {', '.join(sorted(games))}")
    if not games:
        raise InputError("both rule sets are 'default': say which game with --game fftcg|redemption")
    return games.pop(), a, b


def _write_outputs(args: argparse.Namespace, report: DiffReport) -> bool:
    """Write ``--traces`` and ``--markdown`` after the report is printed; each failed write is named on
    stderr and the others still made. Whether every write succeeded."""
    writes: list[tuple[Path, str]] = []
    if args.traces:
        for scenario, traces in report.traces.items():
            writes += [(args.traces / f"{scenario}.{trace['kind']}.json", json.dumps(trace, indent=2) + "\n")
                       for trace in traces]
    if args.markdown:
        writes.append((args.markdown, markdown(report)))
    failed = 0
    for path, text in writes:
        try:
            write_text(path, text)
        except FileProblem as problem:
            print(f"cardrules: error: {problem}", file=sys.stderr)
            failed += 1
    return failed == 0


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError

    game, a, b = _rule_sets(args)
    if args.traces:  # output paths first: a typo costs no minutes of exploration
        check_output_dir(args.traces)
    if args.markdown:
        check_output_file(args.markdown)
    scenarios = [s for s in select_scenarios(args.scenario, args.scenario_file) if s.game == game]
    if not scenarios:
        raise InputError(f"no {game} scenario selected")
    try:
        report = run_diff(game, a, b, scenarios, args.max_states, with_smt=not args.no_smt, quiet=args.quiet)
    except ScenarioError as error:
        raise InputError(str(error)) from None
    if args.json:
        print(json.dumps(report.to_json(), indent=2), file=out)
    else:
        print_report(report, out)
    if not _write_outputs(args, report):
        return EXIT_INPUT
    return exit_status(report)


def exit_status(report: DiffReport) -> int:
    """0 no difference in a complete exploration (within the turn/depth bounds), 1 differences (or a property
    newly broken under B), 4 undecided: not executable, truncated by the state bound with no difference, or a
    z3 ``unknown``."""
    if report.not_executable:
        return EXIT_UNDECIDED
    if report.differs or any(p.broken_under == "B" for p in report.properties):
        return EXIT_CHECK_FAILED
    return EXIT_UNDECIDED if report.undecided else EXIT_OK


EPILOG = (
    "Exit status: 0 no difference found, every scenario explored completely (or completely within its turn "
    "or depth bound, named with the bounds used); 1 differences found in play, or a property newly broken "
    "under B; 3 bad input (an unknown or malformed rule set or proposal, an option the model cannot select); "
    "4 undecided, never a pass: a proposal that changes clause text only (nothing in play compared), a "
    "scenario truncated by the state bound with no difference found in what was explored, or z3 answered "
    "unknown."
)


def add_parser(sub: Any) -> None:
    """The ``diff`` subcommand."""
    from cardrules.oracle.cli.argtypes import MAX_STATES, int_at_least

    p = sub.add_parser(
        "diff", help="what changes in play between two rule sets (a proposed rule change)",
        description="Explore both rule sets in lockstep from every scenario of their game and report where they "
        "differ: tightened (B refuses an action A allows), relaxed (B allows more), changed (same action, another "
        "result), each with its shortest scenario; properties broken under one only; z3 contradictions. "
        "A rule set is 'default', items AREA=VERSION / DECISION=OPTION (comma-separated), or a proposal file "
        "(a .toml file, cardrules-proposal/1). "
        "Each scenario states its bounds (max states, depth, turns) and whether its exploration was complete, "
        "complete within its turn or depth bound, or truncated by the state bound.",
        epilog=EPILOG,
    )
    p.add_argument("a", help="the rule set now (e.g. heal=previous, or default)")
    p.add_argument("b", help="the proposed rule set (e.g. heal=revised, sb-restriction-scope=card-unplayable, "
                   "or a proposal .toml)")
    p.add_argument("--allow-code", action="store_true",
                   help="let a proposal's model and z3 code run (read it first; refused without this flag)")
    p.add_argument("--game", choices=GAME_NAMES, help="the game, when both rule sets are 'default'")
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario (repeatable)")
    p.add_argument("--scenario-file", action="append", type=Path, metavar="PATH",
                   help="also diff on this scenario file of yours (repeatable; alone: only these files)")
    p.add_argument("--max-states", type=int_at_least(1, MAX_STATES), metavar="N",
                   help="override each scenario's state bound")
    p.add_argument("--no-smt", action="store_true", help="skip the z3 contradiction check")
    p.add_argument("--traces", type=Path, metavar="DIR", help="write each shortest scenario as a cardrules-diff/1 trace")
    p.add_argument("--markdown", type=Path, metavar="FILE", help="write the report as Markdown")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_diff)
