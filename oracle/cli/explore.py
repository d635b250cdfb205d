"""``cardrules explore``: one scenario explored exhaustively: statistics, violations, graph export."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from cardrules.oracle.cli.argtypes import MAX_DEPTH, MAX_STATES, MAX_TURNS, int_at_least
from cardrules.oracle.cli.itf import write_itf_or_fail
from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_OK, InputError
from cardrules.oracle.selection import select_scenarios
from cardrules.specs.fileio import FileProblem, check_output_file


def add_parser(sub: Any) -> None:
    """The ``explore`` subcommand."""
    p = sub.add_parser("explore", help="explore one scenario exhaustively: statistics, violations, graph export",
                       description="Breadth-first exploration of one embedded scenario under one of its rule sets, "
                       "checking every property; prints statistics and shortest counterexamples; exports the graph.")
    p.add_argument("scenario", nargs="?", help="a scenario name (see 'cardrules list scenarios')")
    p.add_argument("--scenario-file", type=Path, metavar="PATH", help="explore this scenario file of yours instead")
    p.add_argument("--scope", metavar="SCOPE",
                   help="explore every start position of a scope instead: a named scope (small, medium: each game's; "
                   "GAME-NAME: one game's) or a cardrules-scope/1 file; with a position (SCOPE#N) as the scenario, "
                   "that position alone")
    p.add_argument("--rule-set", metavar="NAME", help="one of the scenario's rule sets or mutants (default: the first); "
                   "with --scope, a rule set expression such as heal=previous (default: default)")
    p.add_argument("--max-states", type=int_at_least(1, MAX_STATES), metavar="N",
                   help=f"override the scenario's state bound (at most {MAX_STATES:,})")
    p.add_argument("--max-turns", type=int_at_least(0, MAX_TURNS), metavar="T",
                   help=f"override the scenario's turn bound (at most {MAX_TURNS})")
    p.add_argument("--max-depth", type=int_at_least(0, MAX_DEPTH), metavar="D",
                   help=f"override the scenario's depth bound (at most {MAX_DEPTH:,})")
    p.add_argument("--dot", type=Path, metavar="FILE", help="write the explored graph as Graphviz DOT")
    p.add_argument("--graphml", type=Path, metavar="FILE", help="write the explored graph as GraphML")
    p.add_argument("--workers", type=int_at_least(1, 64), metavar="N", default=1,
                   help="explore on N partitions, hash-partitioned (same counts and counterexamples; default 1); "
                   "with --scope, N workers each exploring whole positions")
    p.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="where the partitions (with --scope: the positions) run: forked processes (default) or Ray "
                   "(cardrules[distributed])")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: an existing Ray cluster (default: a local one)")
    p.add_argument("--no-reuse", action="store_true",
                   help="expand every state itself: do not share one expansion among states that differ only in a "
                   "log the rules only write (FFTCG's event log); the same states and verdicts, slower")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON (statistics and counterexample traces)")
    p.add_argument("--itf", type=Path, metavar="FILE",
                   help="write the counterexamples in the Informal Trace Format (Apalache, Quint)")
    p.set_defaults(handler=cmd_explore)


def cmd_explore(args: argparse.Namespace, out: TextIO) -> int:
    """Explore one scenario under one rule set; exit 1 on a violation or a deadlock."""
    from cardrules.oracle.progress import RunProgress
    from cardrules.properties.games import properties_for, version_map

    if args.scope and not (args.scenario and "#" in args.scenario):
        return _explore_scopes(args, out)
    scenario, name, rule_set, game, root = _scope_position(args) if args.scope else _chosen(args)
    _check_outputs(args)
    bounds = _bounds(args, scenario)
    with RunProgress("explore", 1, quiet=args.quiet) as progress, \
            progress.phase(f"{scenario.name} / {name}") as phase:
        props = properties_for(scenario.game, version_map(scenario, rule_set))
        result = _search(args, game, root, props, bounds, phase)
        phase.result = f"{result.stats.states:,} states, {len(result.violations)} violation(s)"
    _write_graph(args, result, game)
    summary = _summary(scenario.name, name, result, game, rule_set)
    if args.itf:
        if summary["violations"]:
            write_itf_or_fail(list(summary["violations"].values()), args.itf)
        else:
            print("cardrules explore: no counterexample to write as ITF", file=sys.stderr)
    if args.json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        _print_summary(f"{scenario.name} / {name}", result, game, bounds, out)
    return EXIT_CHECK_FAILED if result.violations or result.deadlocks else EXIT_OK


def _chosen(args: argparse.Namespace) -> tuple[Any, str, Any, Any, Any]:
    """The scenario, the rule set's name and itself, the game under it and the start position."""
    from cardrules.model.errors import ScenarioError
    from cardrules.properties.games import make_game

    if (args.scenario is None) == (args.scenario_file is None):
        raise InputError("give a scenario name or --scenario-file PATH (one of them)")
    (scenario,) = select_scenarios([args.scenario] if args.scenario else None,
                                   [args.scenario_file] if args.scenario_file else None)
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
    return scenario, name, rule_set, game, root


def _scope_rule_set(args: argparse.Namespace, scopes: list[Any]) -> tuple[Any, list[Any]]:
    """``--rule-set`` read as a rule set expression, and the scopes of its game."""
    from cardrules.properties.scenarios.rulesets import RuleSetError, check_selectable, parse_rule_set_expression

    try:
        named = parse_rule_set_expression(args.rule_set or "default")
        mine = [s for s in scopes if named.game in (None, s.game)]
        for scope in mine:
            check_selectable(scope.game, named.spec)
    except RuleSetError as error:
        raise InputError(str(error)) from None
    if not mine:
        raise InputError(f"rule set {named.text!r} is about {named.game}; scope {args.scope!r} has no {named.game} scope")
    return named.spec, mine


def _scope_position(args: argparse.Namespace) -> tuple[Any, str, Any, Any, Any]:
    """``explore --scope S S#N``: that one position, as :func:`_chosen` gives a scenario."""
    from cardrules.oracle.verify.scopes import positions_of, scopes_named
    from cardrules.properties.games import make_game
    from cardrules.properties.scopes import ScopeError, position

    rule_set, scopes = _scope_rule_set(args, scopes_named([args.scope]))
    if len(scopes) > 1:
        raise InputError(f"scope {args.scope!r} names {' and '.join(s.game for s in scopes)} scopes: give "
                         f"{' or '.join(f'{s.game}-{s.name}' for s in scopes)}")
    positions_of(scopes[0])  # bad domains are told as such, before the position number
    try:
        scenario = position(scopes[0], args.scenario)
    except ScopeError as error:
        raise InputError(str(error)) from None
    game = make_game(scenario.game, rule_set)
    return scenario, rule_set.name, rule_set, game, game.state_from_json(scenario.state)


def _explore_scopes(args: argparse.Namespace, out: TextIO) -> int:
    """``explore --scope S``: every position of each scope the name gives; exit 1 on a violation or deadlock."""
    from cardrules.oracle.progress import RunProgress
    from cardrules.oracle.verify.scopes import label, positions_of, scopes_named

    if args.scenario or args.scenario_file:
        raise InputError("with --scope, give no scenario, or a position of the scope (SCOPE#N)")
    if args.dot or args.graphml:
        raise InputError("--scope explores many positions: --dot and --graphml take one (give a position SCOPE#N)")
    if args.address and args.backend != "ray":
        raise InputError("--address names a Ray cluster: give it with --backend ray")
    if args.itf:
        check_output_file(args.itf)
    rule_set, scopes = _scope_rule_set(args, scopes_named([args.scope]))
    results = []
    with RunProgress("explore", len(scopes), quiet=args.quiet) as progress:
        for scope in scopes:
            positions = [_with_bounds(args, p) for p in positions_of(scope)]
            with progress.phase(label(scope)) as phase:
                found = _scope_search(args, scope, rule_set, positions,
                                      lambda r: phase.count(r.states, f"states, {r.positions} positions"))
                phase.result = f"{found.positions:,} positions, {found.states:,} states"
            results.append(found)
    traces = [v["trace"] for r in results for v in r.violations.values()]
    if args.itf and traces:
        write_itf_or_fail(traces, args.itf)
    if args.json:
        print(json.dumps({"scopes": [r.to_json() for r in results]}, indent=2), file=out)
    else:
        for found in results:
            _print_scope(found, out)
    return EXIT_CHECK_FAILED if any(r.violations or r.deadlocks for r in results) else EXIT_OK


def _scope_search(args: argparse.Namespace, scope: Any, rule_set: Any, positions: list[Any], on_position: Any) -> Any:
    """Every position of the scope explored; with ``--workers``/``--backend ray`` whole positions go to the
    workers (forked processes, a local Ray instance or the cluster at ``--address``)."""
    from cardrules.oracle.verify.scopes import explore_scope
    from cardrules.properties.engines.ray_backend import RayUnavailable

    try:
        return explore_scope(scope, rule_set, positions, on_position,
                             workers=args.workers, backend=args.backend, address=args.address, reuse=not args.no_reuse)
    except RayUnavailable as error:
        raise InputError(str(error)) from None


def _with_bounds(args: argparse.Namespace, position: Any) -> Any:
    """The position with the bounds given on the command line instead of the scope's."""
    from dataclasses import replace

    bounds = _bounds(args, position)
    return replace(position, max_states=bounds.max_states, max_turns=bounds.max_turns, max_depth=bounds.max_depth)


def _print_scope(found: Any, out: TextIO) -> None:
    from cardrules.oracle.verify.scopes import handle, label

    bound = "complete within the scope's bounds" if not found.truncated else \
        f"{len(found.truncated)} position(s) cut by the state bound (first: {found.truncated[0]})"
    print(f"scope {label(found.scope)} / {found.rule_set.name}: {found.positions:,} positions, {found.states:,} states, "
          f"{found.transitions:,} transitions, {found.seconds:.2f}s; {bound}", file=out)
    for prop, violation in sorted(found.violations.items()):
        print(f"\n{prop}: violated from position {violation['position']} ({violation['description']}); explore it "
              f"alone: cardrules explore --scope {handle(found.scope)} {violation['position']}", file=out)
        for line in violation["narrative"]:
            print(f"  {line}", file=out)
    for deadlock in found.deadlocks[:3]:
        print(f"  deadlock from {deadlock['position']}: {deadlock['deadlock']}", file=out)
    if not found.violations:
        print("every property holds from every position", file=out)
    for name, tasks, kib in found.workers:
        print(f"  worker {name}: {tasks} positions, peak memory {kib / 1024:.1f} MiB", file=out)


def _parallel(args: argparse.Namespace) -> bool:
    return bool(args.workers > 1 or args.backend == "ray")


def _check_outputs(args: argparse.Namespace) -> None:
    """Options that cannot go together, and output files whose folder is missing, are bad input."""
    if _parallel(args) and (args.dot or args.graphml):
        raise InputError("--workers and --backend ray cannot be combined with --dot or --graphml "
                         "(only the sequential search keeps edges)")
    if args.address and args.backend != "ray":
        raise InputError("--address names a Ray cluster: give it with --backend ray")
    for path in (args.dot, args.graphml, args.itf):
        if path is not None:
            check_output_file(path)


def _bounds(args: argparse.Namespace, scenario: Any) -> Any:
    """The scenario's bounds, with those given on the command line instead."""
    from cardrules.properties.engines.explore import Bounds

    return Bounds(
        max_depth=args.max_depth if args.max_depth is not None else scenario.max_depth,
        max_states=args.max_states if args.max_states is not None else scenario.max_states,
        max_turns=args.max_turns if args.max_turns is not None else scenario.max_turns,
    )


def _search(args: argparse.Namespace, game: Any, root: Any, props: Any, bounds: Any, phase: Any) -> Any:
    """The sequential search, or the partitioned one on forked processes or Ray actors."""
    from cardrules.properties.engines.explore import explore

    if not _parallel(args):
        return explore(game, [root], props, bounds, keep_edges=bool(args.dot or args.graphml), progress=False,
                       on_progress=lambda states: phase.count(states, "states"), reuse=not args.no_reuse)
    from cardrules.properties.engines.parallel import explore_parallel

    pool = None
    if args.backend == "ray":
        from cardrules.properties.engines.ray_backend import RayPool, RayUnavailable

        try:
            pool = RayPool(args.workers, game, props, bounds, address=args.address, reuse=not args.no_reuse)
        except RayUnavailable as error:
            raise InputError(str(error)) from None
    return explore_parallel(game, [root], props, bounds, workers=args.workers, pool=pool, reuse=not args.no_reuse)


def _write_graph(args: argparse.Namespace, result: Any, game: Any) -> None:
    from cardrules.properties.engines.explore import write_dot, write_graphml

    try:
        if args.dot:
            write_dot(result, str(args.dot), game)
        if args.graphml:
            write_graphml(result, str(args.graphml))
    except FileProblem as problem:
        raise InputError(f"cannot write the graph: {problem}") from None


def _summary(scenario: str, rule_set_name: str, result: Any, game: Any, rule_set: Any) -> dict[str, Any]:
    """The run as ``--json`` prints it: statistics, and a trace per violated property."""
    from cardrules.properties.engines.trace_json import trace_to_json

    stats = result.stats
    return {
        "scenario": scenario, "rule_set": rule_set_name, "states": stats.states, "transitions": stats.transitions,
        "depth": stats.depth, "seconds": round(stats.seconds, 3), "states_per_second": round(stats.states_per_second),
        "peak_rss_mib": round(stats.peak_rss_mib, 1), "complete": stats.complete,
        "turn_bounded": stats.turn_bounded, "expansions_reused": stats.expansions_reused,
        "terminal_states": len(result.terminals), "deadlocks": len(result.deadlocks),
        "violations": {p: trace_to_json(result, p, game, rule_set.to_json()) for p in sorted(result.violations)},
    }


def _print_summary(label: str, result: Any, game: Any, bounds: Any, out: TextIO) -> None:
    from cardrules.properties.engines.explore import narrative

    stats = result.stats
    print(f"{label}: {stats.states:,} states, {stats.transitions:,} transitions, depth {stats.depth}, "
          f"{stats.seconds:.2f}s ({stats.states_per_second:,.0f} states/s), peak {stats.peak_rss_mib:.0f} MiB, "
          f"{_bound_text(stats, bounds)}", file=out)
    print(f"terminal states: {len(result.terminals)}; deadlocks (no action, not terminal): {len(result.deadlocks)}", file=out)
    for index in result.deadlocks[:3]:
        print(f"  deadlock: {game.summary(result.states[index])}", file=out)
    for prop in sorted(result.violations):
        print("\n" + narrative(result, prop, game), file=out)
    if not result.violations:
        print("every property holds", file=out)


def _bound_text(stats: Any, bounds: Any) -> str:
    if stats.complete:
        return "complete: every reachable state explored"
    if stats.truncated:
        return "stopped at the depth or state bound"
    return f"complete within {bounds.max_turns} turn(s): later turns not explored"
