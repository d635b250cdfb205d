"""``cardrules replay``: a counterexample or a diff trace replayed on the model."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_OK, InputError


def add_parser(sub: Any) -> None:
    """The ``replay`` subcommand."""
    p = sub.add_parser("replay", help="replay a counterexample or a diff trace on the model",
                       description="Replay a cardrules-trace/1 counterexample (the property must be broken at the "
                       "end) or a cardrules-diff/1 trace (under both rule sets, the difference must show); "
                       "exit 1 if the model does not reproduce it.")
    p.add_argument("trace", type=Path, help="the trace file")
    p.add_argument("--allow-code", action="store_true",
                   help="for a diff trace of a proposal with code: let that code run (read it first)")
    p.set_defaults(handler=cmd_replay)


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import IllegalAction, ScenarioError
    from cardrules.properties.games import make_game
    from cardrules.properties.games import ALL_PROPERTIES as PROPERTIES, property_named
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
    prop = property_named(str(trace.get("property")))
    if prop is None or prop.game != game.name:
        known = sorted(p.name for p in PROPERTIES if p.game == game.name)
        raise InputError(f"{args.trace}: property: {trace.get('property')!r} is not a {game.name} property; "
                         f"known: {', '.join(known)}")
    broken = result.broken(prop, game)
    verdict = f"property {prop.name} is violated at the end, as recorded" if broken else f"but property {prop.name} holds"
    print(f"{args.trace}: reproduced: {result.message}; {verdict}", file=out)
    return EXIT_OK if broken else EXIT_CHECK_FAILED


def _proposal_hooks(proposal_path: Any, allow_code: bool) -> tuple[Any, ...]:
    """The extension point overrides of the proposal a diff trace names (its code runs only when allowed)."""
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
    from cardrules.properties.games import make_game
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
