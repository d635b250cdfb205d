"""``cardrules conformance run --live``: the reference model as a live oracle (see
:mod:`cardrules.oracle.conformance.live`), and with ``--random N`` seeded random games shrunk to the shortest
divergence (:mod:`cardrules.oracle.conformance.random_play`). Reports and exit statuses are those of
``conformance run`` with suite files."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, TextIO

from cardrules.model.games import GAME_NAMES
from cardrules.oracle.cli.common import EXIT_CHECK_FAILED, EXIT_OK, InputError

MAX_STEPS = 30
"""Actions per random game at most (a game over earlier ends it)."""


def _declaration(argv: list[str], timeout: float) -> Any:
    """The adapter's hello (a legacy adapter: :data:`LEGACY`); the process is closed again."""
    from cardrules.oracle.conformance.process import AdapterFault
    from cardrules.oracle.conformance.runner import hello

    try:
        declaration, process = hello(argv, timeout, False)
    except AdapterFault as fault:
        raise InputError(f"--adapter: the adapter failed at its hello ({fault.verdict}: {fault.message})") from None
    if process is not None:
        process.close()
    return declaration


def _games(args: argparse.Namespace, declaration: Any) -> list[str]:
    """``--game`` if given, else the games the engine declared, else every game."""
    game = getattr(args, "game", None)
    if game:
        return [game]
    if declaration.features is not None:
        return [g for g in GAME_NAMES if g in declaration.features] or list(GAME_NAMES)
    return list(GAME_NAMES)


def _run_live(argv: list[str], suites: list[dict[str, Any]], args: argparse.Namespace) -> Any:
    """Run the live suites with a progress display (as ``conformance run`` does for files)."""
    from cardrules.oracle.conformance.runner import run_with_progress

    return run_with_progress(argv, suites, args.timeout, keep_going=not args.first_only, quiet=args.quiet,
                             title="conformance run --live")


def run_live(args: argparse.Namespace, out: TextIO) -> int:
    """Hello, live suites under the declared readings, the run, random games; report as ``conformance run``."""
    from cardrules.oracle.conformance.declaration import HelloError
    from cardrules.oracle.conformance.grouping import step_actions
    from cardrules.oracle.conformance.known import classify, load_known
    from cardrules.oracle.conformance.live import LiveError, live_suites
    from cardrules.oracle.conformance.process import AdapterCommandError, split_command
    from cardrules.oracle.conformance.random_play import random_divergences
    from cardrules.oracle.conformance.report import print_report, results_json, run_passed, write_junit
    from cardrules.specs.fileio import check_output_file

    if args.suite:
        raise InputError("--suite and --live: the live oracle computes its suites, give one or the other")
    if args.junit is not None:
        check_output_file(args.junit)
    known = load_known(args.known) if args.known is not None else None
    try:
        argv = split_command(args.adapter)
        declaration = _declaration(argv, args.timeout)
        games = _games(args, declaration)
        suites = live_suites(declaration, games, args.seed)
        run = _run_live(argv, suites, args)
        results = list(run.results)
        for game in games:
            started = time.monotonic()
            found = random_divergences(argv, declaration, game, args.seed, args.random, MAX_STEPS, args.timeout)
            for divergent in found:
                divergent.result.seconds = time.monotonic() - started
                results.append(divergent.result)
                suites.append(divergent.suite)
    except (AdapterCommandError, HelloError, LiveError) as problem:
        raise InputError(str(problem)) from None
    names = [s["suite"] for s in suites]
    actions = step_actions(suites)
    if args.json:
        report = results_json(results, args.adapter, names, declaration=run.declaration, known=known, games=games,
                              actions=actions)
        out.write(json.dumps(report, indent=1) + "\n")
    else:
        print_report(results, out, declaration=run.declaration, known=known, games=games, actions=actions)
    if args.junit is not None:
        write_junit(results, str(args.junit), known=known, actions=actions)
    if known is not None:
        results = classify(results, known, actions).results
    return EXIT_OK if run_passed(results) else EXIT_CHECK_FAILED
