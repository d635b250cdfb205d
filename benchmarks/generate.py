"""``cardrules conformance generate`` speed: wall and CPU seconds of generating every suite.

Runs the command as a user does (``cardrules conformance generate --out DIR --quiet``, default
``--options all`` and ``--jobs 2``) in a process of its own, into a temporary folder (or ``--out``,
kept), and prints:

- the whole run's wall seconds and CPU seconds (user + system of the command and its worker
  processes);
- the suites planned, written and skipped, and the vectors written (from the folder's
  ``manifest.json``);
- the goal: every suite in at most 2 minutes of wall time on 2 cores.

The model is traced by the compiled tracer where it was built (``oracle/trace/ctracer.c``), else in pure
Python; ``--tracer python`` measures the pure-Python one, the reference. ``--record`` measures both, and
judges the goal on the one a user gets by default.

    python3 benchmarks/generate.py                          # every suite, --jobs 2
    python3 benchmarks/generate.py --game fftcg --rule-set default --jobs 1
    python3 benchmarks/generate.py --out /tmp/suites        # keep the suites, to diff them (diff -r)
    python3 benchmarks/generate.py --tracer python          # the pure-Python tracer
    python3 benchmarks/generate.py --record --conditions "..."   # write docs/results/conformance_generate_time.toml

A speed-up must leave the suites byte for byte what they were: generate into a folder with the code
before the change (``--out``), then with the code after, and compare the two folders with ``diff -r``.

On a machine other jobs share, wall seconds also count the waiting: compare CPU seconds between
versions, and wall seconds only on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from results_file import children_cpu, minutes  # noqa: E402

from cardrules.oracle.trace.coverage import TRACER_VARIABLE, TRACERS, compiled_tracer_missing  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
RESULT = REPO / "docs" / "results" / "conformance_generate_time.toml"
GOAL_WALL = 120.0
GOAL = "at most 2 minutes on 2 cores"


def _cardrules() -> list[str]:
    """The command line that starts ``cardrules`` with this interpreter."""
    return [sys.executable, "-m", "cardrules.oracle.cli"]


def run(out: Path, jobs: int, game: str | None, rule_sets: list[str], options: str, tracer: str
        ) -> tuple[float, float, int, str]:
    """Run the command into ``out``, the model traced by ``tracer``: wall seconds, CPU seconds, exit code, its
    standard error."""
    argv = [*_cardrules(), "conformance", "generate", "--out", str(out), "--quiet", "--jobs", str(jobs),
            "--options", options]
    if game:
        argv += ["--game", game]
    for rule_set in rule_sets:
        argv += ["--rule-set", rule_set]
    cpu0, wall0 = children_cpu(), time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
                          env={**os.environ, TRACER_VARIABLE: tracer})
    return time.perf_counter() - wall0, children_cpu() - cpu0, done.returncode, done.stderr


def counts(out: Path) -> tuple[int, int, int]:
    """Suites written, suites skipped and vectors written, from the folder's manifest (a skipped suite's
    entry says why, and has no file)."""
    manifest: dict[str, Any] = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    entries = [e for e in manifest["suites"] if isinstance(e, dict)]
    written = [e for e in entries if "file" in e]
    return len(written), len(entries) - len(written), sum(int(e["vectors"]) for e in written)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="suites generated in parallel (default 2, as the command)")
    parser.add_argument("--game", help="only this game's suites")
    parser.add_argument("--rule-set", action="append", default=[], metavar="R", help="only this rule set (repeatable)")
    parser.add_argument("--options", default="all", help="all (the default) or used")
    parser.add_argument("--out", type=Path, help="write the suites here and keep them (default: a temporary folder)")
    parser.add_argument("--record", action="store_true", help=f"write {RESULT.relative_to(REPO)}")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    parser.add_argument("--tracer", choices=TRACERS,
                        help="trace with this one (default: the compiled tracer where it was built)")
    args = parser.parse_args(argv)
    if args.record and (args.game or args.rule_set or args.options != "all" or args.tracer):
        parser.error("--record measures every suite with each tracer: no --game, --rule-set, --options or --tracer")
    missing = compiled_tracer_missing()
    default = "python" if missing else "compiled"
    tracers = [default, *(["python"] if default == "compiled" else [])] if args.record else [args.tracer or default]
    rows: list[tuple[str, int, int, int, float, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="cardrules-generate-") as scratch:
        outs: list[Path] = []
        for tracer in tracers:
            load = os.getloadavg()[0]
            out = args.out if args.out is not None and not outs else Path(scratch) / f"suites-{tracer}"
            wall, cpu, code, err = run(out, args.jobs, args.game, args.rule_set, args.options, tracer)
            if code not in (0, 1) or not (out / "manifest.json").is_file():
                print(f"cardrules conformance generate failed (exit {code}):\n{err[-2000:]}", file=sys.stderr)
                return 1
            outs.append(out)
            written, skipped, vectors = counts(out)
            rows.append((tracer, written, skipped, vectors, wall, cpu, load))
            print(f"cardrules conformance generate --jobs {args.jobs}, {tracer} tracer: {written} suite(s) written "
                  f"({vectors:,} vectors), {skipped} skipped; exit {code}")
            print(f"whole run: {wall:6.1f} s wall ({minutes(wall)}), {cpu:6.1f} s CPU (user+sys, workers included); "
                  f"load average {load:.1f} at the start")
            print(f"goal: {GOAL} (every suite): {wall:.1f} s is {wall / GOAL_WALL:.2f} x the goal")
        if len(outs) > 1:
            differing = [name for name in _files(outs[0]) | _files(outs[1])
                         if not _same_file(outs[0] / name, outs[1] / name)]
            if differing:
                print(f"the {tracers[0]} and the {tracers[1]} tracers wrote different suites: "
                      f"{', '.join(sorted(differing))}", file=sys.stderr)
                return 1
            print(f"the {tracers[0]} and the {tracers[1]} tracers wrote the same files, byte for byte")
    if args.record:
        record(rows, args.jobs, args.conditions, missing)
    return 0


def _files(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir() if path.is_file()}


def _same_file(one: Path, other: Path) -> bool:
    return one.is_file() and other.is_file() and one.read_bytes() == other.read_bytes()


def record(rows: list[tuple[str, int, int, int, float, float, float]], jobs: int, conditions: str,
           missing: str | None) -> None:
    """Write docs/results/conformance_generate_time.toml: a row per tracer (the default one first), and the goal
    judged on the default one."""
    from cardrules.specs.fileio import write_text

    tracer, written, skipped, vectors, wall, cpu, load = rows[0]
    lines = [
        "# How long generating every suite takes (`cardrules conformance generate`, default --options all),",
        "# measured by benchmarks/generate.py --record (CPU seconds are user + system, worker processes included).",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f'command = "cardrules conformance generate --out DIR --jobs {jobs}"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        f'conditions = "2 cores, load average {load:.1f} at the start of the first run (at its end it counts the '
        f'run\'s own workers, and so at the start of the next){"; " + conditions if conditions else ""}"',
        f'note = "{written + skipped} suites planned, {written} written ({vectors:,} vectors), {skipped} skipped. '
        + ('The model traced by the compiled tracer (built by the install on Python 3.11 where a C compiler and '
           'Python\'s headers are found), and by the pure-Python one, the reference: the same files, byte for byte."'
           if len(rows) > 1 else f'The model traced by the pure-Python tracer only: the compiled one cannot be used ({missing})."'),
        'columns = ["tracer", "suites written", "wall time", "CPU"]',
        "rows = [",
        *(f'  ["{r[0]}{" (default)" if r is rows[0] else ""}", {r[1]}, "{minutes(r[4])}", "{r[5]:.0f} s"],'
          for r in rows),
        "]",
        "",
        "[[goal]]",
        f'goal = "``cardrules conformance generate`` (every suite) {GOAL}"',
        f'figure = "{wall:.0f} s wall, {cpu:.0f} s CPU ({tracer} tracer)"',
        f"met = {'true' if wall <= GOAL_WALL else 'false'}",
    ]
    write_text(RESULT, "\n".join(lines) + "\n")
    print(f"recorded in {RESULT.relative_to(REPO)}")


if __name__ == "__main__":
    sys.exit(main())
