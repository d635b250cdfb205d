"""``cardrules verify`` speed: wall and CPU seconds of the whole job, per engine, and the slowest runs.

Runs ``verify`` as the command does (every embedded scenario, rule set, mutant and engine, 60
hypothesis examples by default) and prints:

- the whole job's wall seconds and CPU seconds (user + system, this process and its worker
  processes), and the startup before the first run (imports, property registry, scenarios);
- per engine: runs, their summed wall seconds and summed CPU seconds (each run timed where it
  ran, a worker process with ``--jobs``), and its share of all runs' CPU;
- the slowest runs, by CPU seconds.

    python3 benchmarks/verify.py                     # --jobs: the CPUs this process may use
    python3 benchmarks/verify.py --jobs 1            # one run after the other, in this process
    python3 benchmarks/verify.py --scenario fftcg-party-basics --engine smt --top 5
    cardrules verify --json --no-record > before.json        # on the code before a change, then:
    python3 benchmarks/verify.py --jobs 1 --compare before.json   # the same rows and verdicts?
    python3 benchmarks/verify.py --record --conditions "..."     # write docs/results/verify_time.toml

``--compare FILE`` checks that every row (property, scenario, rule set, engine, verdict, size,
clauses, counterexample, trace, note) equals the one at its place in ``FILE``, a ``cardrules verify
--json`` output of the same selection; only the seconds may differ. It prints the rows that differ,
and the job fails if any does. A speed-up must leave this at 0.

On a machine other jobs share, wall seconds also count the waiting (and CPU seconds vary a
little with cache contention): compare CPU seconds between versions, and wall seconds only
on a quiet machine. The goal is the whole job in at most 20 s of wall time on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULT = REPO / "docs" / "results" / "verify_time.toml"
GOAL_WALL = 20.0


def _cpu_seconds() -> float:
    """User + system seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    wall0, cpu0 = time.perf_counter(), _cpu_seconds()
    from cardrules.oracle.jobs import available_cpus
    from cardrules.oracle.verify.runner import ENGINES, RunDone, verify
    from cardrules.properties.scenarios import load_scenarios

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=available_cpus(), help="worker processes (default: the CPUs available)")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--engine", action="append", choices=ENGINES, help="only this engine (repeatable)")
    parser.add_argument("--examples", type=int, default=60, help="hypothesis examples per run (default 60, as verify)")
    parser.add_argument("--no-mutants", action="store_true", help="skip the mutant rule sets")
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest runs to list (default 10)")
    parser.add_argument("--compare", metavar="FILE", help="a `cardrules verify --json` output: fail on any row "
                        "that differs from it (seconds aside)")
    parser.add_argument("--record", action="store_true", help=f"write {RESULT.relative_to(REPO)}")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]

    scenarios = load_scenarios()
    if args.scenario:
        unknown = set(args.scenario) - {s.name for s in scenarios}
        if unknown:
            parser.error(f"unknown scenario(s): {', '.join(sorted(unknown))}")
        scenarios = [s for s in scenarios if s.name in args.scenario]
    startup = time.perf_counter() - wall0
    done: list[RunDone] = []
    rows = verify(scenarios, engines=args.engine or ENGINES, examples=args.examples, include_mutants=not args.no_mutants,
                  jobs=args.jobs, on_run=done.append, quiet=True)
    wall, cpu = time.perf_counter() - wall0, _cpu_seconds() - cpu0

    failed = sum(1 for r in rows if r.failed)
    print(f"cardrules verify: {len(rows):,} checks in {len(done)} runs, {failed} failed; --jobs {args.jobs} "
          f"on {available_cpus()} CPU(s)")
    print(f"whole job: {wall:6.1f} s wall, {cpu:6.1f} s CPU (user+sys, workers included); "
          f"startup {startup:.1f} s")
    per_engine: dict[str, list[RunDone]] = defaultdict(list)
    for result in done:
        per_engine[result.run.engine].append(result)
    runs_cpu = sum(r.cpu_seconds for r in done) or 1.0
    print(f"\n{'engine':<11} {'runs':>5} {'wall s':>8} {'CPU s':>8} {'CPU share':>9}")
    for engine in ENGINES:
        results = per_engine.get(engine, [])
        if results:
            engine_cpu = sum(r.cpu_seconds for r in results)
            print(f"{engine:<11} {len(results):>5} {sum(r.seconds for r in results):>8.1f} {engine_cpu:>8.1f} "
                  f"{engine_cpu / runs_cpu:>9.0%}")
    print(f"{'all runs':<11} {len(done):>5} {sum(r.seconds for r in done):>8.1f} {runs_cpu:>8.1f}")
    print("\nslowest runs (CPU s):")
    for result in sorted(done, key=lambda r: -r.cpu_seconds)[: args.top]:
        print(f"  {result.cpu_seconds:6.2f}  {result.run.label}")
    print(f"\ngoal: at most {GOAL_WALL:.0f} s wall on 2 idle cores: {wall:.1f} s is {wall / GOAL_WALL:.2f} x the goal")
    differing = compare(rows, args.compare) if args.compare else 0
    if args.record:
        record(len(rows), len(done), failed, wall, cpu, per_engine, runs_cpu, args.jobs,
               max(load, os.getloadavg()[0]), args.conditions)
    return 1 if failed or differing else 0


def _bare(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key != "seconds"}


def _key(row: dict[str, Any]) -> tuple[str, str, str, str]:
    return row["scenario"], row["rule_set"], row["engine"], row["property"]


def compare(rows: list[Any], path: str, shown: int = 20) -> int:
    """How many rows differ from the ``cardrules verify --json`` output at ``path`` (seconds aside), a row
    matched by its scenario, rule set, engine and property, and a row on one side only counted as
    differing; the first ``shown`` differences are printed."""
    from cardrules.specs.fileio import load_json

    before = {_key(r): _bare(r) for r in load_json(path)}
    now = {_key(r): _bare(r) for r in (row.to_json() for row in rows)}
    problems = [f"only in {path}: {' / '.join(k)}" for k in before if k not in now]
    problems += [f"only now: {' / '.join(k)}" for k in now if k not in before]
    for key, row in now.items():
        old = before.get(key)
        if old is not None and old != row:
            problems.append(f"differs: {' / '.join(key)}: {', '.join(f for f in row if row[f] != old.get(f))}")
    for line in problems[:shown]:
        print(f"  {line}")
    if len(problems) > shown:
        print(f"  ... and {len(problems) - shown:,} more")
    print(f"compared with {path}: {len(now):,} rows now, {len(before):,} there, {len(problems)} differ")
    return len(problems)


def _toml(cell: Any) -> str:
    return f'"{cell}"' if isinstance(cell, str) else str(cell)


def record(checks: int, runs: int, failed: int, wall: float, cpu: float, per_engine: dict[str, list[Any]],
           runs_cpu: float, jobs: int, load: float, conditions: str) -> None:
    """Write docs/results/verify_time.toml: the whole job, the CPU per engine, the goal."""
    from cardrules.oracle.verify.runner import ENGINES
    from cardrules.specs.fileio import write_text

    rows = [[f"the whole job: {runs} runs, {checks:,} checks, {failed} failed", round(wall, 1), round(cpu, 1), "100%"]]
    names = {"explore": "explorer engine", "hypothesis": "hypothesis engine (random play)", "smt": "smt engine (z3)"}
    for engine in ENGINES:
        engine_cpu = sum(r.cpu_seconds for r in per_engine.get(engine, []))
        rows.append([names[engine], "-", round(engine_cpu, 1), f"{engine_cpu / (runs_cpu or 1.0):.0%}"])
    lines = [
        "# The whole `cardrules verify` job: wall and CPU seconds, and the CPU per engine",
        "# (benchmarks/verify.py --record; CPU seconds are user + system, worker processes included).",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f'command = "python3 benchmarks/verify.py --jobs {jobs} --record"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        f'conditions = "2 cores, load average {load:.1f} at the start or the end of the run'
        f'{"; " + conditions if conditions else ""}"',
        'columns = ["part", "wall s", "CPU s", "share of the CPU"]',
        "rows = [",
        *(f"  [{', '.join(_toml(c) for c in row)}]," for row in rows),
        "]",
        "",
        "[[goal]]",
        f'goal = "``cardrules verify`` at most {GOAL_WALL:.0f} s on 2 cores"',
        f'figure = "{wall:.1f} s wall, {cpu:.1f} s CPU"',
        f"met = {'true' if wall <= GOAL_WALL else 'false'}",
    ]
    write_text(RESULT, "\n".join(lines) + "\n")
    print(f"recorded in {RESULT.relative_to(REPO)}")


if __name__ == "__main__":
    sys.exit(main())
