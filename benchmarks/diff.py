"""``cardrules diff`` speed: wall and CPU seconds of the default diff of each built-in pair.

Runs ``cardrules diff A B`` as the command does by default (every embedded scenario of the game and
every start position of its ``small`` scope, the properties, z3), for the heal revision and for each
proposal of ``docs/proposals`` (their code runs: they are the project's own), and prints per pair:
wall and CPU seconds (this process), the lockstep exploration's states and seconds, the separate
property explorations' states and seconds, the number of classes, and the exit status.

    python3 benchmarks/diff.py                          # every pair
    python3 benchmarks/diff.py --pair heal              # pairs whose name contains 'heal'
    python3 benchmarks/diff.py --scope none             # the embedded scenarios only

On a machine other jobs share, wall seconds also count the waiting: compare CPU seconds between
versions, and wall seconds only on a quiet machine. The goal is each pair in about 2 minutes of wall
time on 2 cores.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import resource
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAIRS: list[tuple[str, tuple[str, ...]]] = [
    ("heal=previous heal=revised", ("heal=previous", "heal=revised")),
    *((f"default {path.name}", ("default", str(path), "--allow-code"))
      for path in sorted((REPO / "docs" / "proposals").glob("*.toml"))),
]


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def main(argv: list[str] | None = None) -> int:
    from cardrules.oracle.cli import main as cardrules

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", help="only the pairs whose name contains this")
    parser.add_argument("--scope", help="pass --scope to every diff (default: the command's default)")
    args = parser.parse_args(argv)
    print(f"{'pair':<45} {'wall s':>7} {'cpu s':>7} {'lockstep states':>15} {'s':>6} {'apart states':>12} "
          f"{'s':>6} {'classes':>7} exit")
    for name, pair in PAIRS:
        if args.pair and args.pair not in name:
            continue
        extra = ("--scope", args.scope) if args.scope else ()
        out = io.StringIO()
        wall0, cpu0 = time.perf_counter(), _cpu_seconds()
        with contextlib.redirect_stderr(io.StringIO()):
            code = cardrules(["diff", *pair, *extra, "--json", "--quiet"], out=out)
        wall, cpu = time.perf_counter() - wall0, _cpu_seconds() - cpu0
        report = json.loads(out.getvalue()) if out.getvalue().strip() else {}
        speed = report.get("speed", {})
        print(f"{name:<45} {wall:7.1f} {cpu:7.1f} {speed.get('product_states', 0):15,} "
              f"{speed.get('product_seconds', 0):6.1f} {speed.get('separate_states', 0):12,} "
              f"{speed.get('separate_seconds', 0):6.1f} {len(report.get('classes', [])):7} {code}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
