"""Model-vs-z3 cross-check speed: states and (state, action) pairs compared per second.

Prints one row per scenario, rule set and kind of comparison: states, pairs (FFTCG and the
Redemption battle fragment: actions compared, legal on both sides; Redemption rule decisions:
(state, action) transitions whose decisions were compared), the seconds the exploration took,
then the comparison's CPU seconds and wall seconds, and pairs per CPU second and per wall second.
CPU seconds are this process's own: on a machine other jobs share, wall seconds also count the
waiting, and both vary from run to run. The exploration is not part of the pairs per second.

    python3 benchmarks/crosscheck.py                          # the first 200 states of four scenarios
    python3 benchmarks/crosscheck.py --states all --all       # whole explorations, every scenario and rule set
    python3 benchmarks/crosscheck.py --way both               # before (the plain way) and after (the fast way)
    python3 benchmarks/crosscheck.py --scenario fftcg-party-basics --states 1000
    python3 benchmarks/crosscheck.py --record --conditions "..."   # write docs/results/crosscheck_rate.toml

``--way plain`` asks z3 the way the cross-check did before its fast way (:func:`oracle.crosscheck.fast.plain_way`:
every transition question on the large solvers, each clause's part in a rule decision checked one
by one); ``fast`` is the default way; ``both`` runs plain, then fast, each from empty caches, and
checks that both found the same disagreements and the same comparisons per clause.

The goal is 1,000 (state, action) pairs per second or more.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

RESULT = Path(__file__).resolve().parents[1] / "docs" / "results" / "crosscheck_rate.toml"
GOAL_RATE = 1000

DEFAULT_SCENARIOS = ("fftcg-party-basics", "fftcg-preemptive-blocker-survives", "redemption-plain-battle",
                     "redemption-side-battles-3p")


def _states(scenario: Any, rule_set: Any, limit: int | None) -> tuple[Any, list[Any], float]:
    """The game, the states of the exploration (the first ``limit``, or the whole exploration
    within the scenario's bounds), and the seconds the exploration took."""
    from cardrules.oracle.crosscheck.run import explored_states
    from cardrules.properties.games import make_game

    game = make_game(scenario.game, rule_set)
    started = time.perf_counter()
    states, _ = explored_states(game, game.state_from_json(scenario.state), scenario, limit)
    return game, states, time.perf_counter() - started


def _checks(scenario: Any, game: Any, states: list[Any]) -> list[tuple[str, Callable[[], Any]]]:
    """Each comparison the cross-check makes for the scenario's game, on the states it takes."""
    from cardrules.oracle.crosscheck.run import COMPARISONS

    config = game.config
    out: list[tuple[str, Callable[[], Any]]] = []
    for comparison in COMPARISONS[scenario.game]():
        chosen = [s for s in states if comparison.in_scope(s)]
        if chosen:
            out.append((comparison.what, lambda run=comparison.run, chosen=chosen: run(chosen, config)))
    return out


def _clear_caches() -> None:
    """Forget every solver and cached answer, so that a run starts as a fresh process would."""
    from cardrules.oracle.crosscheck import fftcg as smt_fftcg
    from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
    from cardrules.oracle.crosscheck.redemption import battle as smt_redemption_battle

    smt_fftcg._checker.cache_clear()
    smt_redemption_battle._checker.cache_clear()
    smt_redemption.clear_caches()


def _timed(check: Callable[[], Any], plain: bool) -> tuple[Any, float, float]:
    from cardrules.oracle.crosscheck.fast import plain_way

    _clear_caches()
    cpu, wall = time.process_time(), time.perf_counter()
    with plain_way() if plain else nullcontext():
        report = check()
    return report, time.process_time() - cpu, time.perf_counter() - wall


def _pairs(report: Any) -> int:
    return report.actions if hasattr(report, "actions") else report.transitions


def _same(a: Any, b: Any) -> bool:
    """Both ways found the same disagreements, out-of-scope states and comparisons per clause."""
    return ([str(d) for d in a.disagreements] == [str(d) for d in b.disagreements] and a.clauses == b.clauses
            and a.out_of_scope == b.out_of_scope and _pairs(a) == _pairs(b) and a.states == b.states)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", default="200", help="states per exploration, or 'all' (default 200)")
    parser.add_argument("--scenario", action="append", help="a scenario name (repeatable; default: four of them)")
    parser.add_argument("--all", action="store_true", help="every embedded scenario (of --game)")
    parser.add_argument("--game", choices=("fftcg", "redemption", "all"), default="all", help="with --all: which game")
    parser.add_argument("--rule-sets", choices=("first", "all"), default="first",
                        help="each scenario's first rule set (default) or all of them")
    parser.add_argument("--way", choices=("fast", "plain", "both"), default="fast",
                        help="how z3 is asked (default fast; both: plain, then fast, and the results compared)")
    parser.add_argument("--record", action="store_true", help=f"write {RESULT.name} (the default selection only)")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    args = parser.parse_args()
    if args.record and (args.states != "200" or args.scenario or args.all or args.way != "fast"
                        or args.rule_sets != "first"):
        parser.error("--record measures the default selection: no --states, --scenario, --all, --way or --rule-sets")
    load = os.getloadavg()[0]
    limit = None if args.states == "all" else int(args.states)
    from cardrules.properties.scenarios import load_scenarios

    scenarios = load_scenarios()
    by_name = {s.name: s for s in scenarios}
    if args.all:
        chosen = [s for s in scenarios if args.game in ("all", s.game)]
    else:
        chosen = [by_name[name] for name in args.scenario or DEFAULT_SCENARIOS]
    ways = {"fast": (False,), "plain": (True,), "both": (True, False)}[args.way]
    print(f"{'scenario / rule set':<58} {'compared':<16} {'way':<5} {'states':>7} {'pairs':>8} {'explore s':>9} "
          f"{'CPU s':>8} {'wall s':>8} {'pairs/CPU s':>11} {'pairs/wall s':>12}", flush=True)
    totals: dict[tuple[str, bool], list[float]] = {}
    rows: list[tuple[str, str, int]] = []
    mismatches = 0
    for scenario in chosen:
        for rule_set in scenario.rule_sets[:None if args.rule_sets == "all" else 1]:
            game, states, explore_seconds = _states(scenario, rule_set, limit)
            for what, check in _checks(scenario, game, states):
                reports = []
                for plain in ways:
                    report, cpu, wall = _timed(check, plain)
                    reports.append(report)
                    pairs = _pairs(report)
                    total = totals.setdefault((scenario.game, plain), [0, 0.0, 0.0])
                    total[0] += pairs
                    total[1] += cpu
                    total[2] += wall
                    label = f"{scenario.name} / {rule_set.name}"
                    rows.append((scenario.name, what, round(pairs / max(cpu, 1e-9))))
                    print(f"{label:<58} {what:<16} {'plain' if plain else 'fast':<5} {report.states:>7} {pairs:>8} "
                          f"{explore_seconds:>9.1f} {cpu:>8.1f} {wall:>8.1f} {pairs / max(cpu, 1e-9):>11.0f} "
                          f"{pairs / max(wall, 1e-9):>12.0f}", flush=True)
                if len(reports) == 2 and not _same(*reports):
                    mismatches += 1
                    print(f"  MISMATCH: the plain and fast ways disagree on {label}: {what}", flush=True)
    print()
    for (game_name, plain), (pairs, cpu, wall) in sorted(totals.items()):
        print(f"{game_name} ({'plain' if plain else 'fast'} way): {int(pairs):,} pairs, {cpu:.1f} CPU s "
              f"({pairs / max(cpu, 1e-9):,.0f}/s), {wall:.1f} wall s ({pairs / max(wall, 1e-9):,.0f}/s)")
    print("goal: 1,000 pairs per second or more")
    if args.record:
        record(rows, {game: pairs / max(cpu, 1e-9) for (game, _), (pairs, cpu, _) in totals.items()}, load,
               args.conditions)
    return 1 if mismatches else 0


def record(rows: list[tuple[str, str, int]], rates: dict[str, float], load: float, conditions: str) -> None:
    """Write docs/results/crosscheck_rate.toml: pairs per CPU second per comparison, per game, and the goal."""
    from cardrules.specs.fileio import write_text

    names = {"fftcg": "FFTCG", "redemption": "Redemption"}
    lines = [
        "# Model-vs-z3 cross-check speed on the first 200 states of four scenarios (benchmarks/crosscheck.py --record).",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        'command = "python3 benchmarks/crosscheck.py"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        f'conditions = "load average {load:.1f} at the start{"; " + conditions if conditions else ""}"',
        'note = "The first 200 states of a scenario hold its widest positions; the CPU seconds include building '
        'the solvers (each comparison starts from empty caches)."',
        'columns = ["scenario", "comparison", "(state, action) pairs per CPU second"]',
        "rows = [",
        *(f'  ["{scenario}", "{what}", {rate}],' for scenario, what, rate in rows),
        *(f'  ["{names.get(game, game)}, every scenario above", "", {round(rate)}],' for game, rate in sorted(rates.items())),
        "]",
        "",
        "[[goal]]",
        f'goal = "the cross-check at {GOAL_RATE:,} (state, action) pairs per second"',
        f'figure = "{", ".join(f"{names.get(g, g)} {round(r):,}" for g, r in sorted(rates.items()))} pairs per CPU second"',
        f"met = {'true' if rates and all(r >= GOAL_RATE for r in rates.values()) else 'false'}",
    ]
    write_text(RESULT, "\n".join(lines) + "\n")
    print(f"recorded in {RESULT.relative_to(RESULT.parents[2])}")


if __name__ == "__main__":
    sys.exit(main())
