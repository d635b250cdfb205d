"""``cardrules diff A B``: what a proposed rule change changes in play, printed or as Markdown."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from cardrules.model.games import GAME_NAMES
from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_INPUT, EXIT_OK, EXIT_UNDECIDED, InputError
from cardrules.oracle.rulechange.minutes import markdown, report_json
from cardrules.oracle.rulechange.report import DiffReport, run_diff
from cardrules.oracle.rulechange.textreport import print_report
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
        for scenario, traces in [*report.traces.items(),
                                 *((f"{name}.follow-on", found) for name, found in report.follow_on_traces.items())]:
            count: dict[str, int] = {}
            for trace in traces:  # the first of a kind is SCENARIO.KIND.json, the next SCENARIO.KIND-2.json...
                count[trace["kind"]] = count.get(trace["kind"], 0) + 1
                suffix = "" if count[trace["kind"]] == 1 else f"-{count[trace['kind']]}"
                writes.append((args.traces / f"{scenario}.{trace['kind']}{suffix}.json", json.dumps(trace, indent=2) + "\n"))
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
    explicit = bool(args.scenario or args.scenario_file)  # named scenarios alone: no default scope
    scopes = _scopes(args.scope if args.scope or not explicit else ["none"], game)
    scenarios = [s for s in select_scenarios(args.scenario, args.scenario_file) if s.game == game]
    if not scenarios and not scopes:
        raise InputError(f"no {game} scenario selected")
    try:
        report = run_diff(game, a, b, scenarios, args.max_states, with_smt=not args.no_smt, quiet=args.quiet,
                          scopes=scopes)
    except ScenarioError as error:
        raise InputError(str(error)) from None
    if args.json:
        print(json.dumps(report_json(report), indent=2), file=out)
    else:
        print_report(report, out)
    if not _write_outputs(args, report):
        return EXIT_INPUT
    return exit_status(report)


def _scopes(names: list[str] | None, game: str) -> tuple[Any, ...]:
    """The scopes to explore: ``--scope`` (a name or a scope file, repeatable; ``none``: embedded scenarios
    only), by default the game's ``small`` scope."""
    try:
        from cardrules.properties.scopes import SCOPE_NAMES, ScopeError, load_scope
    except ImportError:  # no scope module in this installation
        if names and names != ["none"]:
            raise InputError("--scope: scopes are not available in this installation") from None
        return ()
    if names is None:
        names = ["small"] if "small" in SCOPE_NAMES.get(game, ()) else []
    if "none" in names:
        if len(names) > 1:
            raise InputError("--scope none: embedded scenarios only; name no other scope with it")
        return ()
    try:
        return tuple(load_scope(name, game) for name in names)
    except ScopeError as error:
        raise InputError(str(error)) from None


def exit_status(report: DiffReport) -> int:
    """See :data:`EPILOG`."""
    if report.not_executable:
        return EXIT_UNDECIDED
    if report.differs or any(p.broken_under == "B" for p in report.properties) \
            or report.search_verdicts & {"difference", "encoding-disagreement"}:
        return EXIT_CHECK_FAILED
    return EXIT_UNDECIDED if report.undecided else EXIT_OK


EPILOG = (
    "Exit status: 0 no difference found, and every scenario and scope position explored completely or "
    "completely within its turn or depth bound (the bounds are named); 1 differences found in play (truncated "
    "or not), a property newly broken under B, or the z3 search found a difference or a disagreement of the "
    "two encodings; 3 bad input (an unknown or malformed rule set, proposal or scope, an option the model "
    "cannot select, an output that cannot be written); 4 undecided, never a pass: a proposal that changes "
    "clause text only (nothing in play compared), an exploration truncated by the state bound with no "
    "difference found in what was explored, or z3 answered unknown (contradiction check or difference search)."
)


def add_parser(sub: Any) -> None:
    """The ``diff`` subcommand."""
    from cardrules.oracle.cli.argtypes import MAX_STATES, int_at_least

    p = sub.add_parser(
        "diff", help="what changes in play between two rule sets (a proposed rule change)",
        description="Explore both rule sets in lockstep from every scenario of their game and report where they "
        "differ, going on past each difference: tightened (B refuses an action A allows), relaxed (B allows more), "
        "changed (same action, another visible result), grouped into classes (kind, decisive clause, action, "
        "differing field), each with its count and shortest scenario; properties broken under one only; z3 "
        "contradictions and, where the encoding covers the change, differences searched with z3. "
        "By default the embedded scenarios and every start position of the game's 'small' scope are explored. "
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
    p.add_argument("--scope", action="append", metavar="S",
                   help="also explore every start position of this scope: a name ('small', 'medium') or a scope "
                   "file (repeatable; default: small, unless --scenario or --scenario-file names what to explore; "
                   "'none': the embedded scenarios only)")
    p.add_argument("--max-states", type=int_at_least(1, MAX_STATES), metavar="N",
                   help="override each scenario's and scope position's state bound")
    p.add_argument("--no-smt", action="store_true", help="skip the z3 contradiction check and the z3 difference search")
    p.add_argument("--traces", type=Path, metavar="DIR", help="write each class's shortest scenario as a cardrules-diff/1 trace")
    p.add_argument("--markdown", type=Path, metavar="FILE", help="write the report as Markdown")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_diff)
