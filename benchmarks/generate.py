"""``cardrules conformance generate`` speed: wall and CPU seconds of generating every suite.

Runs the command as a user does (``cardrules conformance generate --out DIR --quiet``, default
``--options all`` and ``--jobs 2``) in a process of its own, into a temporary folder (or ``--out``,
kept), and prints:

- the whole run's wall seconds and CPU seconds (user + system of the command and its worker
  processes);
- the suites planned, written and skipped, and the vectors written (from the folder's
  ``manifest.json``);
- the goal: every suite in at most 2 minutes of wall time on 2 cores.

    python3 benchmarks/generate.py                          # every suite, --jobs 2
    python3 benchmarks/generate.py --game fftcg --rule-set default --jobs 1
    python3 benchmarks/generate.py --out /tmp/suites        # keep the suites, to diff them (diff -r)
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

REPO = Path(__file__).resolve().parents[1]
RESULT = REPO / "docs" / "results" / "conformance_generate_time.toml"
GOAL_WALL = 120.0
GOAL = "at most 2 minutes on 2 cores"


def _cardrules() -> list[str]:
    """The command line that starts ``cardrules`` with this interpreter."""
    return [sys.executable, "-m", "cardrules.oracle.cli"]


def run(out: Path, jobs: int, game: str | None, rule_sets: list[str], options: str) -> tuple[float, float, int, str]:
    """Run the command into ``out``: wall seconds, CPU seconds, exit code, its standard error."""
    argv = [*_cardrules(), "conformance", "generate", "--out", str(out), "--quiet", "--jobs", str(jobs),
            "--options", options]
    if game:
        argv += ["--game", game]
    for rule_set in rule_sets:
        argv += ["--rule-set", rule_set]
    cpu0, wall0 = children_cpu(), time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
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
    args = parser.parse_args(argv)
    if args.record and (args.game or args.rule_set or args.options != "all"):
        parser.error("--record measures every suite: no --game, --rule-set or --options")
    load = os.getloadavg()[0]

    with tempfile.TemporaryDirectory(prefix="cardrules-generate-") as scratch:
        out = args.out if args.out is not None else Path(scratch) / "suites"
        wall, cpu, code, err = run(out, args.jobs, args.game, args.rule_set, args.options)
        if code not in (0, 1) or not (out / "manifest.json").is_file():
            print(f"cardrules conformance generate failed (exit {code}):\n{err[-2000:]}", file=sys.stderr)
            return 1
        written, skipped, vectors = counts(out)

    print(f"cardrules conformance generate --jobs {args.jobs}: {written} suite(s) written ({vectors:,} vectors), "
          f"{skipped} skipped; exit {code}")
    print(f"whole run: {wall:6.1f} s wall ({minutes(wall)}), {cpu:6.1f} s CPU (user+sys, workers included); "
          f"load average {load:.1f} at the start")
    print(f"goal: {GOAL} (every suite): {wall:.1f} s is {wall / GOAL_WALL:.2f} x the goal")
    if args.record:
        record(written, skipped, vectors, wall, cpu, args.jobs, load, args.conditions)
    return 0


def record(written: int, skipped: int, vectors: int, wall: float, cpu: float, jobs: int, load: float,
           conditions: str) -> None:
    """Write docs/results/conformance_generate_time.toml: the whole run and the goal."""
    from cardrules.specs.fileio import write_text

    lines = [
        "# How long generating every suite takes (`cardrules conformance generate`, default --options all),",
        "# measured by benchmarks/generate.py --record (CPU seconds are user + system, worker processes included).",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f'command = "cardrules conformance generate --out DIR --jobs {jobs}"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        f'conditions = "2 cores, load average {load:.1f} at the start of the run (at its end it counts the run\'s own workers)'
        f'{"; " + conditions if conditions else ""}"',
        f'note = "{written + skipped} suites planned, {written} written ({vectors:,} vectors), {skipped} skipped; '
        f'{cpu:.0f} s of CPU."',
        'columns = ["suites written", "wall time"]',
        "rows = [",
        f'  [{written}, "{minutes(wall)}"],',
        "]",
        "",
        "[[goal]]",
        f'goal = "``cardrules conformance generate`` (every suite) {GOAL}"',
        f'figure = "{wall:.0f} s wall, {cpu:.0f} s CPU"',
        f"met = {'true' if wall <= GOAL_WALL else 'false'}",
    ]
    write_text(RESULT, "\n".join(lines) + "\n")
    print(f"recorded in {RESULT.relative_to(REPO)}")


if __name__ == "__main__":
    sys.exit(main())
