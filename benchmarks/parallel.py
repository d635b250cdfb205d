"""Speed-up of ``--workers N`` (hash-partitioned parallel exploration) on the FFTCG benchmark.

For each size of ``benchmarks/explore.py``'s party scenario, explores once
sequentially and once per worker count, checks that every run finds the same
distinct states, transitions, depth and violations, and prints wall seconds,
CPU seconds (the coordinator and its worker processes), states per second and
the speed-up over the sequential run. Each run is its own process, so that
the worker processes' CPU time is that run's alone.

    python3 benchmarks/parallel.py                 # 2x2 and 3x1 (1.36 M states), 1 and 2 workers
    python3 benchmarks/parallel.py --quick         # 2x1 and 2x2
    python3 benchmarks/parallel.py --workers 2 4   # other worker counts
    python3 benchmarks/parallel.py --size 3 1 --repeat 3 --record --conditions "..."
                                                   # docs/results/parallel.toml: 3 interleaved rounds, medians

With ``--repeat N`` the runs of a size go round N times, interleaved (1 worker, 2 workers, 1 worker, ...),
so that a slower stretch of the machine falls on both; the speed-up is the median sequential wall time over
each worker count's median. ``--record`` (one size, idle cores) writes the rounds, the medians and the goal
(``--workers 2`` at least 1.8x the sequential search).

Wall-clock speed-ups need idle cores: on a loaded machine read the CPU column
(what the partitioning costs in total) beside the wall one, and the estimate:
``crit. s`` is the parallel run's critical path in CPU seconds (per level, the
slowest worker's expansion plus the slowest worker's receiving, summed, plus
the coordinator's CPU), ``est. idle`` the sequential run's CPU seconds over
it: the speed-up on idle cores if no process waited for anything else. The
last column splits the CPU seconds by worker and coordinator.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from results_file import Goal, load_now, result_text, write_result  # noqa: E402

GOAL_SPEED_UP = 1.8


def run_one(per_player: int, turns: int, workers: int) -> dict:
    from explore import position

    from cardrules.model.fftcg.validate import load_state
    from cardrules.properties.games import properties_for
    from cardrules.properties.engines.explore import Bounds, explore
    from cardrules.properties.fftcg.game import FftcgGame
    from cardrules.properties.engines.parallel import explore_parallel
    import cardrules.properties.fftcg.invariants  # noqa: F401  (registers the properties)

    root = load_state(position(per_player))
    bounds = Bounds(max_turns=turns, max_states=2_000_000)
    before = os.times()
    started = time.perf_counter()
    if workers == 1:
        result = explore(FftcgGame(), [root], properties_for("fftcg"), bounds, progress=False)
    else:
        result = explore_parallel(FftcgGame(), [root], properties_for("fftcg"), bounds, workers=workers)
    seconds = time.perf_counter() - started
    after = os.times()
    cpu = (after.user - before.user + after.system - before.system
           + after.children_user - before.children_user + after.children_system - before.children_system)
    stats = result.stats
    return {"states": stats.states, "transitions": stats.transitions, "depth": stats.depth,
            "violations": sorted(result.violations), "seconds": seconds, "cpu": cpu,
            "workers_cpu": list(stats.worker_cpu_seconds), "coordinator_cpu": stats.coordinator_cpu_seconds,
            "critical_cpu": stats.critical_cpu_seconds if workers > 1 else cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only the sizes 2x1 and 2x2")
    parser.add_argument("--size", nargs=2, type=int, metavar=("FORWARDS", "TURNS"), help="only this size")
    parser.add_argument("--workers", type=int, nargs="+", default=[2], help="worker counts beside 1 (default 2)")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved rounds per size (default 1)")
    parser.add_argument("--record", action="store_true", help="write docs/results/parallel.toml (needs --size)")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    parser.add_argument("--one", nargs=3, type=int, metavar=("FORWARDS", "TURNS", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(*args.one)))
        return
    if args.record and not args.size:
        parser.error("--record measures one size: give --size")
    if args.repeat < 1:
        parser.error("--repeat takes a count of 1 or more")
    if any(w < 2 for w in args.workers) or len(set(args.workers)) != len(args.workers):
        parser.error("--workers takes distinct counts of 2 or more (the sequential search always runs)")
    sizes = [(2, 2), (3, 1)]
    if args.quick:
        sizes = [(2, 1), (2, 2)]
    if args.size:
        sizes = [tuple(args.size)]
    load = load_now()
    print(f"load average at start: {load:.1f} on {os.cpu_count()} CPUs")
    header = (f"{'size':>5} {'round':>5} {'workers':>7} {'states':>10} {'wall s':>8} {'CPU s':>8} {'states/s':>9} "
              f"{'speed-up':>8} {'crit. s':>8} {'est. idle':>9}  workers' CPU s + coordinator's")
    print(header)
    print("-" * len(header))
    failed = False
    runs: dict[int, list[dict]] = {}
    for forwards, turns in sizes:
        baseline: dict | None = None
        runs = {}
        for round_number in range(1, args.repeat + 1):
            for workers in [1, *args.workers]:
                out = subprocess.run([sys.executable, __file__, "--one", str(forwards), str(turns), str(workers)],
                                     capture_output=True, text=True)
                if out.returncode != 0:
                    print(f"{forwards}x{turns:<3} {round_number:>5} {workers:>7}  failed: "
                          f"{(out.stderr.strip().splitlines() or [out.returncode])[-1]}")
                    failed = True
                    continue
                r = json.loads(out.stdout)
                same = ""
                if baseline is None:
                    baseline = r
                elif any(r[k] != baseline[k] for k in ("states", "transitions", "depth", "violations")):
                    same, failed = "  DIFFERENT COUNTS", True
                runs.setdefault(workers, []).append(r)
                sequential = runs[1][-1] if 1 in runs else baseline
                print(f"{forwards}x{turns:<3} {round_number:>5} {workers:>7} {r['states']:>10,} {r['seconds']:>8.2f} "
                      f"{r['cpu']:>8.2f} {r['states'] / r['seconds']:>9,.0f} {sequential['seconds'] / r['seconds']:>7.2f}x "
                      f"{r['critical_cpu']:>8.2f} {sequential['cpu'] / r['critical_cpu']:>8.2f}x  {_split(r)}{same}",
                      flush=True)
        if args.repeat > 1 and 1 in runs:
            middle = statistics.median(r["seconds"] for r in runs[1])
            for workers in args.workers:
                if workers in runs:
                    print(f"{forwards}x{turns:<3} median {workers} workers: "
                          f"{middle / statistics.median(r['seconds'] for r in runs[workers]):.2f}x")
    if args.record and not failed:
        record((sizes[0][0], sizes[0][1]), runs, load, args.conditions, args.repeat)
    sys.exit(1 if failed else 0)


def _split(run: dict) -> str:
    split = " + ".join(f"{c:.2f}" for c in run["workers_cpu"])
    return f"{split} + {run['coordinator_cpu']:.2f}" if split else "-"


def record(size: tuple[int, int], runs: dict[int, list[dict]], load: float, conditions: str, repeat: int) -> None:
    """Write docs/results/parallel.toml: every round, each worker count's median, and the goal (2 workers)."""
    label = f"{size[0]}x{size[1]}"
    sequential = statistics.median(r["seconds"] for r in runs[1])
    rows: list[list[str | int | float]] = []
    for workers in sorted(runs):
        for number, r in enumerate(runs[workers], 1):
            own = runs[1][number - 1]["seconds"]  # this round's sequential run
            rows.append([label, workers, f"round {number}", r["states"], round(r["seconds"], 2), round(r["cpu"], 2),
                         f"{own / r['seconds']:.2f}x", _split(r)])
        middle = statistics.median(r["seconds"] for r in runs[workers])
        rows.append([label, workers, "median", runs[workers][0]["states"], round(middle, 2),
                     round(statistics.median(r["cpu"] for r in runs[workers]), 2), f"{sequential / middle:.2f}x", "-"])
    goals = []
    if 2 in runs:
        speed_up = sequential / statistics.median(r["seconds"] for r in runs[2])
        goals.append(Goal(f"``--workers 2`` at least {GOAL_SPEED_UP}x the sequential search",
                          f"{speed_up:.2f}x (medians of {repeat} interleaved rounds)", speed_up >= GOAL_SPEED_UP))
    command = f"python3 benchmarks/parallel.py --size {size[0]} {size[1]} --workers " + " ".join(
        str(w) for w in sorted(runs) if w != 1) + f" --repeat {repeat}"
    write_result("parallel", result_text(
        about=["--workers N against the sequential search on the largest benchmark size, every FFTCG property",
               "checked (benchmarks/parallel.py --record)."],
        command=command, load=load, conditions=conditions,
        note="The same distinct states in every run. Each round runs the sequential search, then each worker count, "
             "each in its own process; the speed-up of a round is over that round's sequential run, the medians' over "
             "the median sequential run.",
        columns=["size", "workers", "run", "states", "wall s", "CPU s", "speed-up",
                 "CPU s: each worker + coordinator"],
        rows=rows, goals=goals))


if __name__ == "__main__":
    main()
