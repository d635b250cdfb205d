"""``cardrules verify``, ``explore``, ``replay`` and ``list``: runs over scenarios and traces, and listings."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence, TextIO

from cardrules.oracle.cli import smt as smt_commands
from cardrules.oracle.cli.common import (
    EXIT_CHECK_FAILED,
    EXIT_OK,
    EXIT_UNDECIDED,
    InputError,
    select_scenarios,
)
from cardrules.oracle.cli.smt import SmtInputError


# --- cardrules verify ----------------------------------------------------------


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.verify.jobs import available_cpus
    from cardrules.oracle.verify.runner import print_table, rows_to_json, verify

    scenarios = select_scenarios(args.scenario, args.scenario_file)
    try:
        decisions = smt_commands.parse_decisions(args.decision or [])
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
    except SmtInputError as error:
        raise InputError(str(error)) from None
    if not rows:
        raise InputError(
            "nothing was checked: no selected scenario matches these engines and decisions "
            "(the smt engine is FFTCG only; a --decision selects the scenarios of its own game)"
        )
    if args.itf:
        traces = [r.trace for r in rows if r.trace is not None]
        if not traces:
            print("cardrules verify: no counterexample to write as ITF", file=sys.stderr)
        else:
            _write_itf(traces, args.itf)
    if args.json:
        print(rows_to_json(rows), file=out)
    else:
        print_table(rows, out, all_rows=args.all, failures_only=args.failures_only)
    if not args.no_record and _complete_selection(args):
        _record_verify(rows, quiet=args.quiet)
    if any(r.failed and r.verdict != "UNKNOWN" for r in rows):
        return EXIT_CHECK_FAILED
    return EXIT_UNDECIDED if any(r.verdict == "UNKNOWN" for r in rows) else EXIT_OK


def _complete_selection(args: argparse.Namespace) -> bool:
    """Whether a verify run checked everything: every embedded scenario, engine and mutant, no changed decision."""
    from cardrules.oracle.verify.runner import ENGINES

    every_engine = not args.engine or set(args.engine) == set(ENGINES)
    return not (args.scenario or args.scenario_file or args.decision or args.no_mutants) and every_engine


def _record_verify(rows: Sequence[Any], *, quiet: bool) -> None:
    """Record a complete run's summary for the spec site."""
    from cardrules.oracle.verify.results import VERIFY_RESULT, record, verify_summary

    record(VERIFY_RESULT, verify_summary(rows), "cardrules verify", quiet=quiet)


def cmd_explore(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.verify.runner import load_property_modules, make_game, version_map
    from cardrules.properties.core import properties_for
    from cardrules.properties.engines.explore import Bounds, explore, narrative, write_dot, write_graphml
    from cardrules.oracle.progress import RunProgress
    from cardrules.properties.engines.trace_json import trace_to_json

    load_property_modules()
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
    parallel = args.workers > 1 or args.backend == "ray"
    if parallel and (args.dot or args.graphml):
        raise InputError("--workers and --backend ray cannot be combined with --dot or --graphml "
                         "(only the sequential search keeps edges)")
    if args.address and args.backend != "ray":
        raise InputError("--address names a Ray cluster: give it with --backend ray")
    for path in (args.dot, args.graphml):
        if path is not None and not path.resolve().parent.is_dir():
            raise InputError(f"{path}: its folder does not exist")
    bounds = Bounds(
        max_depth=args.max_depth if args.max_depth is not None else scenario.max_depth,
        max_states=args.max_states if args.max_states is not None else scenario.max_states,
        max_turns=args.max_turns if args.max_turns is not None else scenario.max_turns,
    )
    with RunProgress("explore", 1, quiet=args.quiet) as progress, \
            progress.phase(f"{scenario.name} / {name}") as phase:
        props = properties_for(scenario.game, version_map(scenario, rule_set))
        if parallel:
            from cardrules.properties.engines.parallel import explore_parallel

            pool = None
            if args.backend == "ray":
                from cardrules.properties.engines.ray_backend import RayPool, RayUnavailable

                try:
                    pool = RayPool(args.workers, game, props, bounds, address=args.address)
                except RayUnavailable as error:
                    raise InputError(str(error)) from None
            result = explore_parallel(game, [root], props, bounds, workers=args.workers, pool=pool)
        else:
            result = explore(game, [root], props, bounds, keep_edges=bool(args.dot or args.graphml), progress=False,
                             on_progress=lambda states: phase.count(states, "states"))
        phase.result = f"{result.stats.states:,} states, {len(result.violations)} violation(s)"
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
    if args.itf:
        if summary["violations"]:
            _write_itf(list(summary["violations"].values()), args.itf)
        else:
            print("cardrules explore: no counterexample to write as ITF", file=sys.stderr)
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


def _write_itf(traces: list[Any], path: Any) -> None:
    from cardrules.oracle.verify.itf import write_itf

    try:
        write_itf(traces, path)
    except OSError as error:
        raise InputError(f"cannot write the ITF trace: {error}") from None


def _bound_text(stats: Any, bounds: Any) -> str:
    if stats.complete:
        return "complete: every reachable state explored"
    if stats.truncated:
        return "stopped at the depth or state bound"
    return f"complete within {bounds.max_turns} turn(s): later turns not explored"


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import IllegalAction, ScenarioError
    from cardrules.oracle.verify.runner import load_property_modules, make_game
    from cardrules.properties.core import PROPERTIES
    from cardrules.properties.scenarios import parse_rule_set
    from cardrules.properties.engines.trace_json import replay

    from cardrules.properties.engines.trace_json import read_trace

    try:
        trace = read_trace(args.trace)
    except ScenarioError as error:
        raise InputError(str(error)) from None
    if trace.get("format") == "cardrules-diff/1":
        return _replay_diff(args.trace, trace, out, args.allow_code)
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
        known = sorted(p.name for p in PROPERTIES.values() if p.game == game.name)
        raise InputError(f"{args.trace}: property: {trace.get('property')!r} is not a {game.name} property; "
                         f"known: {', '.join(known)}")
    broken = result.broken(prop, game)
    verdict = f"property {prop.name} is violated at the end, as recorded" if broken else f"but property {prop.name} holds"
    print(f"{args.trace}: reproduced: {result.message}; {verdict}", file=out)
    return EXIT_OK if broken else EXIT_CHECK_FAILED


def _proposal_hooks(proposal_path: Any, allow_code: bool) -> tuple[Any, ...]:
    """The extension point overrides of the proposal a diff trace names (its code runs only when allowed)."""
    from pathlib import Path

    from cardrules.oracle.rulechange.proposals import ProposalError, load_proposal

    if proposal_path is None:
        return ()
    if not isinstance(proposal_path, str):
        raise InputError("proposal: expected the path of a proposal file")
    try:
        return load_proposal(Path(proposal_path), allow_code=allow_code).hooks
    except ProposalError as error:
        raise InputError(str(error)) from None


def _replay_diff(path: Any, trace: dict[str, Any], out: TextIO, allow_code: bool = False) -> int:
    from cardrules.model.errors import IllegalAction, ScenarioError
    from cardrules.oracle.rulechange.lockstep import replay_diff
    from cardrules.oracle.verify.runner import make_game
    from cardrules.properties.scenarios import parse_rule_set

    try:
        for key in ("initial_state", "steps", "action", "kind", "a", "b", "rule_set_a", "rule_set_b"):
            if key not in trace:
                raise ScenarioError(key, "missing")
        if not isinstance(trace["steps"], list) or not all(isinstance(s, dict) for s in trace["steps"]):
            raise ScenarioError("steps", "expected a list of objects with 'action' and 'state'")
        for side in ("a", "b"):
            if not isinstance(trace[side], dict) or not isinstance(trace[side].get("legal"), bool):
                raise ScenarioError(side, "expected an object with a boolean 'legal'")
        hooks = {}
        for side in ("a", "b"):
            hooks[side] = _proposal_hooks(trace.get(f"proposal_{side}"), allow_code)
        spec_a = parse_rule_set(trace["rule_set_a"], "rule_set_a", mutant=False, lenient_name=True)
        spec_b = parse_rule_set(trace["rule_set_b"], "rule_set_b", mutant=False, lenient_name=True)
        game_a = make_game(trace.get("game"), spec_a, hooks["a"])
        game_b = make_game(trace.get("game"), spec_b, hooks["b"])
        ok, message = replay_diff(trace, game_a, game_b)
    except (ScenarioError, KeyError, TypeError) as error:
        raise InputError(f"{path}: {error}") from None
    except IllegalAction as error:
        print(f"{path}: NOT reproduced: a rule set refuses a step: {error}", file=out)
        return EXIT_CHECK_FAILED
    print(f"{path}: {'reproduced' if ok else 'NOT reproduced'}: {message}", file=out)
    return EXIT_OK if ok else EXIT_CHECK_FAILED


# --- cardrules list ------------------------------------------------------------


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError
    from cardrules.oracle.cli.listing import ListingError, listing, print_listing

    try:
        result = listing(args.what, game=args.game, scenario=args.scenario)
    except (ListingError, ScenarioError) as error:
        raise InputError(str(error)) from None
    print_listing(result, out, as_json=args.json)
    return EXIT_OK
