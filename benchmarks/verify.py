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

On a machine other jobs share, wall seconds also count the waiting (and CPU seconds vary a
little with cache contention): compare CPU seconds between versions, and wall seconds only
on a quiet machine. The goal is the whole job in at most 20 s of wall time on 2 cores.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import defaultdict


def _cpu_seconds() -> float:
    """User + system seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    wall0, cpu0 = time.perf_counter(), _cpu_seconds()
    from cardrules.oracle.verify.jobs import available_cpus
    from cardrules.oracle.verify.runner import ENGINES, RunDone, verify
    from cardrules.properties.scenarios import load_scenarios

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=available_cpus(), help="worker processes (default: the CPUs available)")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--engine", action="append", choices=ENGINES, help="only this engine (repeatable)")
    parser.add_argument("--examples", type=int, default=60, help="hypothesis examples per run (default 60, as verify)")
    parser.add_argument("--no-mutants", action="store_true", help="skip the mutant rule sets")
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest runs to list (default 10)")
    args = parser.parse_args(argv)

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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
