"""The ``cardrules`` command line.

Exit codes (the same for every subcommand):

* 0 - done, and every check asked for passed;
* 1 - a check failed (``trace --strict`` found gaps; later: a property was violated);
* 2 - the command line was wrong (unknown option, unknown subcommand);
* 3 - the input was wrong (unknown clause ID, a malformed catalogue file, tests that do not collect);
* 4 - a check could not decide (an SMT ``unknown`` or timeout): never a pass.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from cardrules.specs.catalogue import KINDS, Catalogue, CatalogueError, Clause, default_catalogue, load
from cardrules.oracle import smt_commands
from cardrules.oracle.argtypes import non_negative_int, positive_int
from cardrules.oracle.smt_commands import SmtInputError
from cardrules.specs.registry import LINK_KINDS, UnknownClauseError

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INPUT = 3


EXIT_UNDECIDED = 4


class InputError(Exception):
    """Bad input found by a subcommand; printed as one line, exit code 3."""


def _catalogue(args: argparse.Namespace) -> Catalogue:
    directory: Path | None = getattr(args, "catalogue", None)
    return load(directory) if directory else default_catalogue()


def _filter(catalogue: Catalogue, args: argparse.Namespace) -> tuple[Clause, ...]:
    game, area = getattr(args, "game", None), getattr(args, "area", None)
    if area is not None and area not in {a.id for a in catalogue.areas}:
        raise InputError(f"unknown area {area!r}; known: {', '.join(a.id for a in catalogue.areas)}")
    if game is not None and game not in {a.game for a in catalogue.areas}:
        raise InputError(f"unknown game {game!r}; known: {', '.join(sorted({a.game for a in catalogue.areas}))}")
    version = getattr(args, "version", None)
    versions = {v.id for a in catalogue.areas for v in a.versions if area is None or a.id == area}
    if version is not None and version not in versions:
        raise InputError(f"unknown version {version!r}; known: {', '.join(sorted(versions))}")
    return catalogue.select(
        game=game, area=area, kind=getattr(args, "kind", None), version=getattr(args, "version", None)
    )


# --- cardrules clauses ---------------------------------------------------------


def _show_clause(catalogue: Catalogue, clause: Clause, out: TextIO) -> None:
    print(f"{clause.id}: {clause.title}", file=out)
    print(f"  game: {clause.game}   area: {clause.area}   kind: {clause.kind}", file=out)
    print(f"  versions: {', '.join(clause.versions)}", file=out)
    print(f"  source: {clause.source.text(catalogue.sources)}", file=out)
    print(f"  statement: {clause.statement}", file=out)
    if clause.refs:
        print(f"  refers to: {', '.join(clause.refs)}", file=out)
    if clause.notes:
        print(f"  notes: {clause.notes}", file=out)
    for decision in clause.decisions:
        print(f"  decision {decision.id}: {decision.question}", file=out)
        for option in decision.options:
            mark = "*" if option.id == decision.chosen else " "
            print(f"    {mark} {option.id}: {option.reading}", file=out)
        print(f"    why: {decision.why}", file=out)


def cmd_clauses(args: argparse.Namespace, out: TextIO) -> int:
    catalogue = _catalogue(args)
    if args.id:
        try:
            clause = catalogue.clause(args.id)
        except KeyError:
            raise InputError(f"no clause {args.id!r} in the catalogue (try 'cardrules clauses' for the list)") from None
        if args.json:
            json.dump(_clause_json(catalogue, clause), out, indent=2)
            print(file=out)
        else:
            _show_clause(catalogue, clause, out)
        return EXIT_OK
    clauses = _filter(catalogue, args)
    if args.json:
        json.dump([_clause_json(catalogue, c) for c in clauses], out, indent=2)
        print(file=out)
        return EXIT_OK
    width = max((len(c.id) for c in clauses), default=2)
    for clause in clauses:
        print(f"{clause.id:<{width}}  {clause.kind:<17}  {','.join(clause.versions):<17}  {clause.title}", file=out)
    print(f"{len(clauses)} clause(s)", file=out)
    return EXIT_OK


def _clause_json(catalogue: Catalogue, clause: Clause) -> dict[str, object]:
    return {
        "id": clause.id,
        "title": clause.title,
        "game": clause.game,
        "area": clause.area,
        "kind": clause.kind,
        "versions": list(clause.versions),
        "statement": clause.statement,
        "source": clause.source.text(catalogue.sources),
        "refs": list(clause.refs),
        "notes": clause.notes,
        "decisions": [
            {
                "id": d.id,
                "question": d.question,
                "chosen": d.chosen,
                "why": d.why,
                "options": [{"id": o.id, "reading": o.reading} for o in d.options],
            }
            for d in clause.decisions
        ],
    }


# --- cardrules trace -----------------------------------------------------------


def cmd_trace(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.pytest_plugin import CollectionFailed, collect_test_links
    from cardrules.oracle.trace import TraceError, build_matrix, default_tests_dir

    catalogue = _catalogue(args)
    clauses = set(c.id for c in _filter(catalogue, args))
    test_links: dict[str, tuple[str, ...]] = {}
    warning = ""
    if not args.no_tests:
        tests_dir = args.tests or default_tests_dir()
        if tests_dir is None:
            warning = "tests not found (installed without a checkout?): pass --tests DIR; test links are empty"
        elif not tests_dir.is_dir():
            raise InputError(f"--tests {tests_dir}: not a directory")
        else:
            try:
                test_links = collect_test_links(tests_dir)
            except CollectionFailed as error:
                raise InputError(f"the tests in {tests_dir} do not collect:\n{error}") from None
    try:
        rows = [row for row in build_matrix(catalogue, test_links) if row.clause.id in clauses]
    except TraceError as error:
        raise InputError(str(error)) from None
    if args.gaps:
        rows = [row for row in rows if row.gaps]
    if warning:
        print(f"cardrules trace: warning: {warning}", file=sys.stderr)
    if args.json:
        json.dump([row.to_json(row.clause.source.text(catalogue.sources)) for row in rows], out, indent=2)
        print(file=out)
    else:
        _print_matrix(rows, out, verbose=args.verbose)
    if args.strict and any(row.gaps for row in rows):
        return EXIT_CHECK_FAILED
    return EXIT_OK


def _print_matrix(rows: list, out: TextIO, *, verbose: bool) -> None:
    from cardrules.oracle.trace import expected_kinds

    width = max((len(r.clause.id) for r in rows), default=2)
    header = f"{'clause':<{width}}  {'versions':<17}  " + "  ".join(f"{k:>10}" for k in LINK_KINDS)
    print(header, file=out)
    print("-" * len(header), file=out)
    for row in rows:
        cells = []
        for kind in LINK_KINDS:
            count = len(row.links.get(kind, ()))
            if count:
                cells.append(f"{count:>10}")
            elif kind in expected_kinds(row.clause):
                cells.append(f"{'GAP':>10}")
            else:
                cells.append(f"{'-':>10}")
        print(f"{row.clause.id:<{width}}  {','.join(row.clause.versions):<17}  " + "  ".join(cells), file=out)
        if verbose:
            for kind in LINK_KINDS:
                for target in row.links.get(kind, ()):
                    print(f"{'':<{width}}    {kind}: {target}", file=out)
    complete = sum(1 for r in rows if not r.gaps)
    missing = {kind: sum(1 for r in rows if kind in r.gaps) for kind in LINK_KINDS}
    gap_text = ", ".join(f"{kind} {n}" for kind, n in missing.items() if n) or "none"
    print(f"\n{len(rows)} clause(s); {complete} fully linked; missing links: {gap_text}", file=out)
    print("GAP = a link the clause needs is missing; - = none, and none needed", file=out)


# --- cardrules verify ----------------------------------------------------------


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.verify import print_table, rows_to_json, verify
    from cardrules.properties.scenarios import load_scenarios

    try:
        scenarios = load_scenarios()
        if args.scenario:
            known = {s.name for s in scenarios}
            missing = [name for name in args.scenario if name not in known]
            if missing:
                raise InputError(f"unknown scenario {missing[0]!r}; known: {', '.join(sorted(known))}")
            scenarios = tuple(s for s in scenarios if s.name in args.scenario)
        decisions = smt_commands.parse_decisions(args.decision or [])
        rows = verify(
            scenarios,
            engines=args.engine or ("explore", "hypothesis", "smt"),
            quiet=args.quiet or args.json,
            examples=args.examples,
            include_mutants=not args.no_mutants,
            extra_decisions=decisions or None,
        )
    except ScenarioError as error:
        raise InputError(str(error)) from None
    except SmtInputError as error:
        raise InputError(str(error)) from None
    if args.json:
        print(rows_to_json(rows), file=out)
    else:
        print_table(rows, out, all_rows=not args.failures_only)
    if any(r.failed and r.verdict != "UNKNOWN" for r in rows):
        return EXIT_CHECK_FAILED
    return EXIT_UNDECIDED if any(r.verdict == "UNKNOWN" for r in rows) else EXIT_OK


def cmd_explore(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.verify import load_property_modules, make_game, version_map
    from cardrules.properties.core import properties_for
    from cardrules.properties.explore import Bounds, explore, narrative, write_dot, write_graphml
    from cardrules.properties.scenarios import load_scenarios
    from cardrules.properties.trace_json import trace_to_json

    load_property_modules()
    scenarios = {s.name: s for s in load_scenarios()}
    if args.scenario not in scenarios:
        raise InputError(f"unknown scenario {args.scenario!r}; known: {', '.join(sorted(scenarios))}")
    scenario = scenarios[args.scenario]
    rule_sets = {r.name: r for r in (*scenario.rule_sets, *scenario.mutants)}
    name = args.rule_set or scenario.rule_sets[0].name
    if name not in rule_sets:
        raise InputError(f"scenario {scenario.name} has no rule set {name!r}; known: {', '.join(rule_sets)}")
    rule_set = rule_sets[name]
    try:
        game = make_game(scenario.game, rule_set)
        root = game.state_from_json(scenario.state)
    except ScenarioError as error:
        raise InputError(str(error)) from None
    for path in (args.dot, args.graphml):
        if path is not None and not path.resolve().parent.is_dir():
            raise InputError(f"{path}: its folder does not exist")
    bounds = Bounds(
        max_depth=args.max_depth if args.max_depth is not None else scenario.max_depth,
        max_states=args.max_states if args.max_states is not None else scenario.max_states,
        max_turns=args.max_turns if args.max_turns is not None else scenario.max_turns,
    )
    result = explore(
        game, [root], properties_for(scenario.game, version_map(scenario, rule_set)), bounds,
        keep_edges=bool(args.dot or args.graphml), progress=False if args.quiet or args.json else None,
    )
    try:
        if args.dot:
            write_dot(result, str(args.dot), game)
        if args.graphml:
            write_graphml(result, str(args.graphml))
    except OSError as error:
        raise InputError(f"cannot write the graph: {error}") from None
    stats = result.stats
    summary = {
        "scenario": scenario.name, "rule_set": name, "states": stats.states, "transitions": stats.transitions,
        "depth": stats.depth, "seconds": round(stats.seconds, 3), "states_per_second": round(stats.states_per_second),
        "peak_rss_mib": round(stats.peak_rss_mib, 1), "complete": stats.complete,
        "turn_bounded": stats.turn_bounded,
        "terminal_states": len(result.terminals), "deadlocks": len(result.deadlocks),
        "violations": {p: trace_to_json(result, p, game, rule_set.to_json()) for p in sorted(result.violations)},
    }
    if args.json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        print(f"{scenario.name} / {name}: {stats.states:,} states, {stats.transitions:,} transitions, depth {stats.depth}, "
              f"{stats.seconds:.2f}s ({stats.states_per_second:,.0f} states/s), peak {stats.peak_rss_mib:.0f} MiB, "
              f"{_bound_text(stats, bounds)}", file=out)
        print(f"terminal states: {len(result.terminals)}; deadlocks (no action, not terminal): {len(result.deadlocks)}", file=out)
        for index in result.deadlocks[:3]:
            print(f"  deadlock: {game.summary(result.states[index])}", file=out)
        for prop in sorted(result.violations):
            print("\n" + narrative(result, prop, game), file=out)
        if not result.violations:
            print("every property holds", file=out)
    return EXIT_CHECK_FAILED if result.violations or result.deadlocks else EXIT_OK


def _bound_text(stats: Any, bounds: Any) -> str:
    if stats.complete:
        return "complete: every reachable state explored"
    if stats.truncated:
        return "stopped at the depth or state bound"
    return f"complete within {bounds.max_turns} turn(s): later turns not explored"


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import IllegalAction, ScenarioError
    from cardrules.oracle.verify import load_property_modules, make_game
    from cardrules.properties.core import PROPERTIES
    from cardrules.properties.scenarios import parse_rule_set
    from cardrules.properties.trace_json import replay

    try:
        trace = json.loads(args.trace.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{args.trace}: cannot read a JSON trace: {error}") from None
    if not isinstance(trace, dict):
        raise InputError(f"{args.trace}: expected a JSON object")
    try:
        rule_set = parse_rule_set(trace.get("rule_set") or {"name": "trace"}, "rule_set", mutant=False, lenient_name=True)
        game = make_game(trace.get("game"), rule_set)
        result = replay(trace, game)
    except ScenarioError as error:
        raise InputError(f"{args.trace}: {error}") from None
    except IllegalAction as error:
        print(f"{args.trace}: NOT reproduced: the model refuses a step: {error}", file=out)
        return EXIT_CHECK_FAILED
    if not result.ok:
        print(f"{args.trace}: NOT reproduced: {result.message}", file=out)
        return EXIT_CHECK_FAILED
    load_property_modules()
    prop = PROPERTIES.get(str(trace.get("property")))
    if prop is None or prop.game != game.name:
        print(f"{args.trace}: reproduced: {result.message} (no registered {game.name} property "
              f"{trace.get('property')!r} to check at the end)", file=out)
        return EXIT_OK
    broken = result.broken(prop, game)
    verdict = f"property {prop.name} is violated at the end, as recorded" if broken else f"but property {prop.name} holds"
    print(f"{args.trace}: reproduced: {result.message}; {verdict}", file=out)
    return EXIT_OK if broken else EXIT_CHECK_FAILED


# --- parser --------------------------------------------------------------------


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="only clauses of this game (redemption, fftcg)")
    parser.add_argument("--area", help="only clauses of this rule area (e.g. heal, party)")
    parser.add_argument("--version", help="only clauses of this rule version (e.g. revised, previous)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardrules",
        description="Formal rules verification and test oracle for trading-card-game rules.",
        epilog="Exit codes: 0 ok, 1 a check failed, 2 usage error, 3 bad input, 4 undecided (SMT unknown).",
    )
    parser.add_argument(
        "--catalogue", type=Path, metavar="DIR",
        help="for 'clauses' and 'trace': read the clause catalogue from DIR (default: the shipped one)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("clauses", help="list clauses, or show one whole", description="List clauses or show one.")
    p.add_argument("id", nargs="?", help="a clause ID to show whole")
    _add_filters(p)
    p.add_argument("--kind", choices=KINDS, help="only clauses of this kind")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_clauses)

    p = sub.add_parser(
        "trace",
        help="print the traceability matrix",
        description="Per clause: its versions and the model functions, SMT constraints, properties and tests "
        "that link to it, with gaps marked.",
    )
    _add_filters(p)
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per clause")
    p.add_argument("--gaps", action="store_true", help="only clauses with a missing link")
    p.add_argument("--verbose", "-v", action="store_true", help="list every linked function and test")
    p.add_argument("--strict", action="store_true", help="exit 1 when any clause has a gap")
    p.add_argument("--tests", type=Path, metavar="DIR", help="collect test links from DIR (default: the checkout's tests/)")
    p.add_argument("--no-tests", action="store_true", help="do not collect tests (test links stay empty)")
    p.set_defaults(handler=cmd_trace)

    smt_commands.add_parser(sub)

    p = sub.add_parser(
        "verify",
        help="run every property on every embedded scenario, rule set and engine (the main job)",
        description="Check every property on every embedded scenario and rule set with the explorer, the "
        "hypothesis machines and (FFTCG) the z3 transition system. Mutants (rules broken on purpose) must be caught. "
        "Exit 1 on any violation, missed mutant or SMT unknown.",
    )
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario (repeatable)")
    p.add_argument("--engine", action="append", choices=("explore", "hypothesis", "smt"),
                   help="only this engine (repeatable; smt is the FFTCG z3 transition system)")
    p.add_argument("--decision", action="append", metavar="ID=OPTION",
                   help="run each scenario's first rule set with this decision changed (repeatable); no mutants")
    p.add_argument("--no-mutants", action="store_true", help="skip the mutant rule sets")
    p.add_argument("--examples", type=positive_int, default=60, metavar="N", help="hypothesis examples per run (default 60)")
    p.add_argument("--failures-only", action="store_true", help="print only rows that are not 'holds'")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON rows (with counterexample traces)")
    p.set_defaults(handler=cmd_verify)

    p = sub.add_parser("explore", help="explore one scenario exhaustively: statistics, violations, graph export",
                       description="Breadth-first exploration of one embedded scenario under one of its rule sets, "
                       "checking every property; prints statistics and shortest counterexamples; exports the graph.")
    p.add_argument("scenario", help="a scenario name (see 'cardrules verify' or docs)")
    p.add_argument("--rule-set", metavar="NAME", help="one of the scenario's rule sets or mutants (default: the first)")
    p.add_argument("--max-states", type=positive_int, metavar="N", help="override the scenario's state bound")
    p.add_argument("--max-turns", type=non_negative_int, metavar="T", help="override the scenario's turn bound")
    p.add_argument("--max-depth", type=non_negative_int, metavar="D", help="override the scenario's depth bound")
    p.add_argument("--dot", type=Path, metavar="FILE", help="write the explored graph as Graphviz DOT")
    p.add_argument("--graphml", type=Path, metavar="FILE", help="write the explored graph as GraphML")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON (statistics and counterexample traces)")
    p.set_defaults(handler=cmd_explore)

    p = sub.add_parser("replay", help="replay a JSON counterexample trace on the model",
                       description="Replay a cardrules-trace/1 file; exit 1 if the model does not reproduce it.")
    p.add_argument("trace", type=Path, help="the trace file")
    p.set_defaults(handler=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.catalogue is not None and args.command not in ("clauses", "trace"):
        parser.error("--catalogue applies to 'clauses' and 'trace' only (the other commands use the shipped catalogue)")
    handler: Callable[[argparse.Namespace, TextIO], int] = args.handler
    stream = out if out is not None else sys.stdout
    try:
        return handler(args, stream)
    except CatalogueError as error:
        print(f"cardrules: catalogue error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except (InputError, UnknownClauseError, SmtInputError) as error:
        print(f"cardrules: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # `cardrules trace | head`
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
