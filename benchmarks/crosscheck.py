"""Model-vs-z3 cross-check speed: states and (state, action) pairs compared per second.

Prints one row per scenario and kind of comparison: states, pairs (FFTCG and the Redemption
battle fragment: actions legal on one side or both; Redemption rule decisions: (state, action)
transitions whose decisions were compared), seconds, states per second, pairs per second, and
how many clauses took part. The exploration is not timed, only the comparison.

    python3 benchmarks/crosscheck.py                 # the first 200 states of each scenario below
    python3 benchmarks/crosscheck.py --states 1000   # more states
    python3 benchmarks/crosscheck.py --scenario fftcg-party-basics

The goal of issue 17 is 1,000 (state, action) pairs per second or more.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

DEFAULT_SCENARIOS = ("fftcg-party-basics", "fftcg-preemptive-blocker-survives", "redemption-plain-battle",
                     "redemption-side-battles-3p")


def _states(scenario: Any, limit: int) -> tuple[Any, list[Any]]:
    from cardrules.oracle.verify import make_game
    from cardrules.properties.explore import Bounds, explore

    game = make_game(scenario.game, scenario.rule_sets[0])
    bounds = Bounds(max_depth=scenario.max_depth, max_states=limit, max_turns=scenario.max_turns)
    return game, explore(game, [game.state_from_json(scenario.state)], [], bounds, progress=False).states


def _checks(scenario: Any, game: Any, states: list[Any]) -> list[tuple[str, Callable[[], Any]]]:
    config = game.config
    if scenario.game == "fftcg":
        from cardrules.oracle.smt_fftcg import crosscheck_many

        return [("transitions", lambda: crosscheck_many(states, config))]
    from cardrules.oracle import smt_redemption, smt_redemption_battle

    out: list[tuple[str, Callable[[], Any]]] = [("rule decisions", lambda: smt_redemption.crosscheck_many(states, config))]
    fragment = [s for s in states if smt_redemption_battle.in_scope(s)]
    if fragment:
        out.append(("battle fragment", lambda: smt_redemption_battle.crosscheck_many(fragment, config)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=200, help="states per scenario (default 200)")
    parser.add_argument("--scenario", action="append", help="a scenario name (repeatable; default: four of them)")
    args = parser.parse_args()
    from cardrules.properties.scenarios import load_scenarios

    by_name = {s.name: s for s in load_scenarios()}
    print(f"{'scenario':<36} {'compared':<16} {'states':>7} {'pairs':>7} {'seconds':>8} {'states/s':>9} "
          f"{'pairs/s':>8} {'clauses':>7}")
    total_pairs, total_seconds = 0, 0.0
    for name in args.scenario or DEFAULT_SCENARIOS:
        scenario = by_name[name]
        game, states = _states(scenario, args.states)
        for what, check in _checks(scenario, game, states):
            started = time.perf_counter()
            report = check()
            seconds = time.perf_counter() - started
            pairs = report.actions if hasattr(report, "actions") else report.transitions
            total_pairs += pairs
            total_seconds += seconds
            print(f"{name:<36} {what:<16} {report.states:>7} {pairs:>7} {seconds:>8.1f} {report.states / seconds:>9.1f} "
                  f"{pairs / seconds:>8.1f} {len(report.clauses):>7}", flush=True)
    print(f"\nall: {total_pairs} pairs in {total_seconds:.1f} s, {total_pairs / total_seconds:.1f} pairs per second "
          "(goal: 1,000)")


if __name__ == "__main__":
    main()
