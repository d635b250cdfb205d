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
import subprocess
import sys
import time
from pathlib import Path


def run_one(per_player: int, turns: int, workers: int) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
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
    parser.add_argument("--one", nargs=3, type=int, metavar=("FORWARDS", "TURNS", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(*args.one)))
        return
    sizes = [(2, 1), (2, 2)] if args.quick else [(2, 2), (3, 1)]
    if args.size:
        sizes = [tuple(args.size)]
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    header = (f"{'size':>5} {'workers':>7} {'states':>10} {'wall s':>8} {'CPU s':>8} {'states/s':>9} {'speed-up':>8} "
              f"{'crit. s':>8} {'est. idle':>9}  workers' CPU s + coordinator's")
    print(header)
    print("-" * len(header))
    failed = False
    for forwards, turns in sizes:
        baseline: dict | None = None
        for workers in [1, *args.workers]:
            out = subprocess.run([sys.executable, __file__, "--one", str(forwards), str(turns), str(workers)],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{forwards}x{turns:<3} {workers:>7}  failed: {(out.stderr.strip().splitlines() or [out.returncode])[-1]}")
                failed = True
                continue
            r = json.loads(out.stdout)
            same = ""
            if baseline is None:
                baseline = r
            elif any(r[k] != baseline[k] for k in ("states", "transitions", "depth", "violations")):
                same, failed = "  DIFFERENT COUNTS", True
            split = " + ".join(f"{c:.2f}" for c in r["workers_cpu"])
            split = f"{split} + {r['coordinator_cpu']:.2f}" if split else ""
            print(f"{forwards}x{turns:<3} {workers:>7} {r['states']:>10,} {r['seconds']:>8.2f} {r['cpu']:>8.2f} "
                  f"{r['states'] / r['seconds']:>9,.0f} {baseline['seconds'] / r['seconds']:>7.2f}x "
                  f"{r['critical_cpu']:>8.2f} {baseline['cpu'] / r['critical_cpu']:>8.2f}x  {split}{same}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
