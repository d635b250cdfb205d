"""``cardrules smt crosscheck --game all --states all`` speed: the whole cross-check of every state.

Runs the command as a user does (every embedded scenario and rule set of both games, whole
explorations, ``--jobs`` as given or the command's default), in a process of its own, with ``--json``,
and prints:

- the wall seconds and CPU seconds (user + system of the command and its worker processes);
- the runs, the states per game, the (state, action) pairs compared, the disagreements, the states
  left out of scope and the comparisons z3 could not decide;
- whether the comparisons per clause are those recorded in ``oracle/crosscheck/counts.json`` (the
  counts ``cardrules trace`` reads): a speed-up must leave them as they are;
- the goal: under 3 minutes of wall time on 2 cores.

    python3 benchmarks/crosscheck_all.py                    # the command's default --jobs
    python3 benchmarks/crosscheck_all.py --jobs 1           # one run after the other
    python3 benchmarks/crosscheck_all.py --record --conditions "..."   # write docs/results/crosscheck_all.toml

On a machine other jobs share, wall seconds also count the waiting: compare CPU seconds between
versions, and wall seconds only on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from results_file import Goal, children_cpu, load_now, minutes, result_text, write_result  # noqa: E402

GOAL_WALL = 180.0
GOAL = "under 3 minutes on 2 cores"
COMMAND = ["smt", "crosscheck", "--game", "all", "--states", "all", "--quiet", "--json"]


def summary(printed: list[dict[str, Any]], game_of: dict[str, str]) -> dict[str, Any]:
    """The figures of a ``smt crosscheck --json`` output: runs, states per game, pairs, disagreements,
    states out of scope, undecided comparisons, failures and the comparisons per clause."""
    runs = [entry for entry in printed if "run" in entry]
    states = {"fftcg": 0, "redemption": 0}
    for run in runs:
        states[game_of[run["run"].split(" / ", 1)[0]]] += run["states"]
    clauses = next((entry["clauses"] for entry in printed if "clauses" in entry and "run" not in entry), {})
    return {
        "runs": len(runs),
        "states": states,
        "pairs": sum(run["pairs"] for run in runs),
        "disagreements": sum(len(run["disagreements"]) for run in runs),
        "out_of_scope": sum(len(run["out_of_scope"]) for run in runs),
        "unknown": sum(1 for entry in printed if "unknown" in entry),
        "failures": sum(1 for entry in printed if "failure" in entry),
        "clauses": clauses,
    }


def main(argv: list[str] | None = None) -> int:
    from cardrules.oracle.crosscheck.counts import load_counts
    from cardrules.properties.scenarios import load_scenarios

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, help="worker processes (default: the command's own default)")
    parser.add_argument("--record", action="store_true", help="write docs/results/crosscheck_all.toml")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    args = parser.parse_args(argv)
    command = COMMAND + (["--jobs", str(args.jobs)] if args.jobs else [])
    load = load_now()
    wall0, cpu0 = time.perf_counter(), children_cpu()
    done = subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", *command], capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall0, children_cpu() - cpu0
    if done.returncode not in (0, 1, 4):
        print(done.stderr, file=sys.stderr)
        print(f"cardrules {' '.join(command)} failed (exit {done.returncode})", file=sys.stderr)
        return 2
    figures = summary(json.loads(done.stdout), {s.name: s.game for s in load_scenarios()})
    recorded = load_counts()
    same_counts = figures["clauses"] == recorded
    print(f"cardrules {' '.join(command)}: exit {done.returncode}")
    print(f"  {wall:6.1f} s wall, {cpu:6.1f} s CPU (user+sys, workers included); load {load:.1f} at the start")
    print(f"  {figures['runs']} runs; states: FFTCG {figures['states']['fftcg']:,}, Redemption "
          f"{figures['states']['redemption']:,}; {figures['pairs']:,} (state, action) pairs compared")
    print(f"  {figures['disagreements']} disagreement(s), {figures['out_of_scope']} state(s) out of scope, "
          f"{figures['unknown']} undecided, {figures['failures']} failure(s)")
    print(f"  comparisons per clause {'as' if same_counts else 'NOT as'} recorded in oracle/crosscheck/counts.json")
    print(f"goal: {GOAL}: {wall:.0f} s is {wall / GOAL_WALL:.2f} x the goal")
    if args.record:
        states = figures["states"]
        text = result_text(
            about=["The cross-check of every state of every embedded scenario and rule set, with the counts",
                   "recorded in oracle/crosscheck/counts.json (benchmarks/crosscheck_all.py --record; CPU seconds",
                   "are user + system, worker processes included)."],
            command=f"cardrules {' '.join(c for c in command if c not in ('--quiet', '--json'))}",
            load=load, conditions=args.conditions,
            note=(f"{cpu:.0f} s of CPU; the comparisons per clause "
                  f"{'are' if same_counts else 'are not'} those recorded in ``oracle/crosscheck/counts.json``."),
            columns=["runs", "states", "FFTCG states", "Redemption states", "(state, action) pairs",
                     "disagreements", "out of scope", "wall time"],
            rows=[[figures["runs"], states["fftcg"] + states["redemption"], states["fftcg"], states["redemption"],
                   figures["pairs"], figures["disagreements"], figures["out_of_scope"], minutes(wall)]],
            goals=[Goal(f"``cardrules smt crosscheck --game all --states all`` {GOAL}",
                        f"{wall:.0f} s wall, {cpu:.0f} s CPU", wall < GOAL_WALL)],
        )
        write_result("crosscheck_all", text)
    return 0 if done.returncode == 0 and same_counts else 1


if __name__ == "__main__":
    sys.exit(main())
