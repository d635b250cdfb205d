"""The fuzz profile over every input surface: generated inputs per surface, their outcomes, and the time.

Runs ``tests/robustness`` under ``HYPOTHESIS_PROFILE=fuzz`` (1,000 examples per
test) with ``CARDRULES_FUZZ_TALLY`` set, so every fuzz test counts each input it
checked (:mod:`tests.robustness.tally`), and prints per surface the inputs and
their outcomes. A traceback, a hang (hypothesis's per-example deadline, or an
adapter run that does not end) or a wrong success (a corrupted expectation
that still passes, an out-of-bounds option value accepted) fails its test: the
last line gives the tests passed and failed, so "0 failed" is "0 tracebacks,
0 hangs, 0 wrong successes".

    python3 benchmarks/fuzz.py                 # print the figures
    python3 benchmarks/fuzz.py --record        # and write docs/results/fuzz.toml for the docs
    python3 benchmarks/fuzz.py --profile ci    # the quick profile the test suite runs

Run it from the checkout with the project's virtualenv (``.venv/bin/python``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULT = REPO / "docs" / "results" / "fuzz.toml"
GOAL_INPUTS = 1000


def _run(profile: str, tally: Path, junit: Path, jobs: str) -> float:
    env = dict(os.environ, HYPOTHESIS_PROFILE=profile, CARDRULES_FUZZ_TALLY=str(tally))
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "pytest", "tests/robustness", "-q", "-p", "no:cacheprovider", "-n", jobs,
                    f"--junitxml={junit}"], cwd=REPO, env=env, check=False)
    return time.monotonic() - started


def _tally(path: Path) -> dict[str, Counter[str]]:
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    if path.exists():
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            surfaces[entry["surface"]][entry["outcome"]] += entry["inputs"]
    return dict(sorted(surfaces.items()))


def _tests(junit: Path) -> tuple[int, int]:
    suite = ET.parse(junit).getroot()
    suite = suite if suite.tag == "testsuite" else suite[0]
    total, failed = int(suite.get("tests", 0)), int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    return total - failed - int(suite.get("skipped", 0)), failed


def _record(surfaces: dict[str, Counter[str]], passed: int, failed: int, seconds: float, profile: str,
            load: float) -> None:
    def outcomes(counter: Counter[str]) -> str:
        return ", ".join(f"{n:,} {what}" for what, n in counter.most_common())

    rows = [[name, sum(c.values()), outcomes(c)] for name, c in surfaces.items()]
    fewest = min(sum(c.values()) for c in surfaces.values())
    lines = [
        "# Generated inputs per surface under the fuzz profile, and their outcomes (benchmarks/fuzz.py --record).",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f'command = "python3 benchmarks/fuzz.py --record --profile {profile}"',
        f'machine = "{"idle" if load < 0.5 else "loaded"}"',
        f'conditions = "{os.cpu_count()} cores, load average {load:.1f} before the run; {passed} tests passed, '
        f'{failed} failed, in {seconds:.0f} s wall"',
        'columns = ["surface", "inputs", "outcomes"]',
        "rows = [",
        *(f"  {json.dumps(row, ensure_ascii=False)}," for row in rows),
        "]",
        "",
        "[[goal]]",
        f'goal = "at least {GOAL_INPUTS:,} generated inputs on every surface"',
        f'figure = "{fewest:,} on the surface with fewest"',
        f"met = {'true' if fewest >= GOAL_INPUTS else 'false'}",
        "",
        "[[goal]]",
        'goal = "0 tracebacks, 0 hangs and 0 wrong successes"',
        f'figure = "{failed} fuzz test(s) failed of {passed + failed}"',
        f"met = {'true' if failed == 0 else 'false'}",
    ]
    RESULT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"recorded in {RESULT.relative_to(REPO)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="fuzz", help="the hypothesis profile (default: fuzz)")
    parser.add_argument("--jobs", default="2", help="pytest-xdist workers (default 2)")
    parser.add_argument("--record", action="store_true", help="write docs/results/fuzz.toml")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as work:
        tally, junit = Path(work) / "tally.jsonl", Path(work) / "junit.xml"
        seconds = _run(args.profile, tally, junit, args.jobs)
        surfaces = _tally(tally)
        passed, failed = _tests(junit)
    print(f"\n{'surface':<24} {'inputs':>8}  outcomes")
    for name, counter in surfaces.items():
        print(f"{name:<24} {sum(counter.values()):>8,}  " + ", ".join(f"{n:,} {w}" for w, n in counter.most_common()))
    print(f"\n{passed} tests passed, {failed} failed, in {seconds:.0f} s wall (profile {args.profile})")
    if args.record:
        _record(surfaces, passed, failed, seconds, args.profile, load)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
