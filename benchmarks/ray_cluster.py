"""The explorer on a Ray cluster of two nodes on this machine, against the sequential search.

Starts a local Ray cluster (:class:`cardrules.properties.engines.ray_local_cluster.LocalCluster`: two
``ray start`` processes on 127.0.0.1, the head and a second node, one CPU each) and runs, each as the
command a user types, in a process of its own (the driver):

- ``cardrules explore --scope SCOPE`` sequentially, with ``--workers 2`` (forked processes), and with
  ``--backend ray --address ADDR`` on a cluster of one node, then of two nodes: every position of the
  scope is one task, so the cluster splits the scope by start position;
- ``cardrules explore SCENARIO --backend ray --workers 2 --address ADDR``: one scenario's search split
  by hash partition over two Ray actors, against the sequential search of the same scenario.

It checks every run finds what the sequential run finds (the same positions, states, transitions,
violations and counterexamples: the JSON output less its seconds and worker table), and prints the wall
seconds (the driver's start and its connection to Ray included), the speed-up over the sequential run
and per worker, and the peak resident memory of each worker process. Exit 1 when a count differs.

    python3 benchmarks/ray_cluster.py                       # the small scopes of both games
    python3 benchmarks/ray_cluster.py --scope redemption-small
    python3 benchmarks/ray_cluster.py --record --conditions "..."   # write docs/results/ray_cluster.toml

Needs Ray (``pip install -e ".[distributed]"``). The two nodes share this machine's cores: this measures
what a cluster adds (tasks and objects crossing raylets) and the split, not a network.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULT = REPO / "docs" / "results" / "ray_cluster.toml"
MEMORY = REPO / "docs" / "results" / "ray_cluster_memory.toml"
CARDRULES = str(Path(sys.executable).with_name("cardrules"))


def run(arguments: list[str], env: dict[str, str]) -> tuple[float, float, dict[str, Any]]:
    """``cardrules ARGUMENTS --json --quiet``: wall seconds, the driver's own peak memory (MiB) and its JSON."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([CARDRULES, *arguments, "--json", "--quiet"], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise SystemExit(f"cardrules {' '.join(arguments)} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return wall, peak, json.loads(done.stdout)


def bare(found: dict[str, Any]) -> Any:
    """The result less what may differ between runs (seconds, the workers who ran it)."""
    drop = {"seconds", "workers", "states_per_second", "peak_rss_mib"}
    if isinstance(found, dict):
        return {k: bare(v) for k, v in found.items() if k not in drop}
    if isinstance(found, list):
        return [bare(v) for v in found]
    return found


def workers_of(found: dict[str, Any]) -> list[dict[str, Any]]:
    """Each worker's name, positions and peak MiB, over the scopes of a ``--scope`` run."""
    table: dict[str, dict[str, Any]] = {}
    for scope in found.get("scopes", []):
        for w in scope.get("workers", []):
            row = table.setdefault(w["worker"], {"worker": w["worker"], "positions": 0, "peak_mib": 0.0})
            row["positions"] += w["positions"]
            row["peak_mib"] = max(row["peak_mib"], w["peak_mib"])
    return list(table.values())


def totals(found: dict[str, Any]) -> tuple[int, int]:
    """Positions and states over the scopes (or the one scenario's states)."""
    if "scopes" in found:
        return sum(s["positions"] for s in found["scopes"]), sum(s["states"] for s in found["scopes"])
    return 1, found["states"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scope", default="small", help="the scope explored (default: small, both games')")
    parser.add_argument("--scenario", default="fftcg-identical-forwards",
                        help="the scenario of the hash-partitioned search (default: fftcg-identical-forwards)")
    parser.add_argument("--record", action="store_true",
                        help=f"write {RESULT.relative_to(REPO)} and {MEMORY.relative_to(REPO)}")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    args = parser.parse_args()
    from cardrules.properties.engines.ray_local_cluster import LocalCluster

    load = os.getloadavg()[0]
    print(f"load average at start: {load:.1f} on {os.cpu_count()} CPUs")
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    scope = ["explore", "--scope", args.scope]
    rows: list[list[Any]] = []
    memory: list[list[Any]] = []
    failed = False
    wall0, peak0, sequential = run(scope, env)
    positions, states = totals(sequential)

    def row(label: str, workers: int, wall: float, found: dict[str, Any]) -> None:
        nonlocal failed
        same = bare(found) == bare(sequential)
        failed |= not same
        speed = wall0 / wall
        rows.append([label, workers, positions, states, round(wall, 1), f"{speed:.2f}x", f"{speed / workers:.2f}x",
                     "same" if same else "DIFFERENT"])
        for w in workers_of(found):
            memory.append([label, w["worker"], w["positions"], w["peak_mib"]])

    row("sequential", 1, wall0, sequential)
    memory.append(["sequential", "the driver", positions, round(peak0, 1)])
    wall, _, found = run([*scope, "--workers", "2"], env)
    row("forked processes", 2, wall, found)
    cluster_counts_same = True
    for nodes in (1, 2):
        with LocalCluster(nodes) as cluster:
            wall, _, found = run([*scope, "--backend", "ray", "--address", cluster.address], cluster.env)
            row(f"Ray, {nodes} node{'s' if nodes > 1 else ''} on 127.0.0.1", nodes, wall, found)
            if nodes == 2:
                cluster_counts_same &= rows[-1][-1] == "same"
                s_wall, _, s_seq = run(["explore", args.scenario], env)
                p_wall, _, s_par = run(["explore", args.scenario, "--backend", "ray", "--workers", "2",
                                        "--address", cluster.address], cluster.env)
                same = bare(s_par) == bare(s_seq)
                failed |= not same
                cluster_counts_same &= same
                n = s_seq["states"]
                rows.append([f"{args.scenario}: sequential", 1, 1, n, round(s_wall, 1), "1.00x", "1.00x", "same"])
                rows.append([f"{args.scenario}: Ray actors, hash partitions, 2 nodes", 2, 1, n, round(p_wall, 1),
                             f"{s_wall / p_wall:.2f}x", f"{s_wall / p_wall / 2:.2f}x", "same" if same else "DIFFERENT"])
    header = f"{'run':<58} {'workers':>7} {'positions':>9} {'states':>9} {'wall s':>7} {'speed-up':>8} {'per worker':>10}  counts"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r[0]:<58} {r[1]:>7} {r[2]:>9,} {r[3]:>9,} {r[4]:>7.1f} {r[5]:>8} {r[6]:>10}  {r[7]}")
    print("\npeak resident memory per worker (MiB):")
    for m in memory:
        print(f"  {m[0]:<32} {m[1]:<34} {m[2]:>5} positions {m[3]:>7.1f}")
    print(f"\ngoal: the same counts as sequential on a local cluster of 2 nodes: "
          f"{'met' if cluster_counts_same else 'NOT met'}")
    if args.record:
        record(rows, memory, cluster_counts_same, args, max(load, os.getloadavg()[0]))
    return 1 if failed else 0


def _toml(cell: Any) -> str:
    return json.dumps(cell) if isinstance(cell, str) else str(cell)


def record(rows: list[list[Any]], memory: list[list[Any]], same: bool, args: argparse.Namespace, load: float) -> None:
    """Write docs/results/ray_cluster.toml (the runs, the goal) and ray_cluster_memory.toml (memory per worker)."""
    from cardrules.specs.fileio import write_text

    head = [
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f'command = "python3 benchmarks/ray_cluster.py --scope {args.scope} --scenario {args.scenario} --record"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        "conditions = " + _toml(f"2 cores, load average {load:.1f} at the start or the end of the run"
                                + ("; " + args.conditions if args.conditions else "")),
    ]
    runs = [
        "# The explorer on a local Ray cluster of two nodes against the sequential search",
        "# (benchmarks/ray_cluster.py --record; wall seconds include the driver's start and its connection to Ray).",
        *head,
        "note = " + _toml("Each node offers one CPU and both share this machine's two cores: the speed-ups show what "
                          "the split and the cluster give or cost here, not a network."),
        'columns = ["run", "workers", "positions", "states", "wall s", "speed-up", "speed-up per worker", "counts"]',
        "rows = [", *(f"  [{', '.join(_toml(c) for c in r)}]," for r in rows), "]",
        "",
        "[[goal]]",
        'goal = "the same counts as sequential on a local cluster of 2 nodes (two ``ray start`` processes on 127.0.0.1)"',
        f'figure = "{"the same" if same else "different"} positions, states, transitions, violations and counterexamples"',
        f"met = {'true' if same else 'false'}",
    ]
    per_worker = [
        "# Peak resident memory of each worker process of benchmarks/ray_cluster.py's runs",
        "# (a Ray worker's figure includes Ray's own libraries; the sequential row is the whole driver process).",
        *head,
        'columns = ["run", "worker", "positions", "peak MiB"]',
        "rows = [", *(f"  [{', '.join(_toml(c) for c in m)}]," for m in memory), "]",
    ]
    write_text(RESULT, "\n".join(runs) + "\n")
    write_text(MEMORY, "\n".join(per_worker) + "\n")
    print(f"recorded in {RESULT.relative_to(REPO)} and {MEMORY.relative_to(REPO)}")


if __name__ == "__main__":
    sys.exit(main())
