"""Spec site build speed: wall and CPU seconds of a whole Sphinx build, the pages and the bytes it writes.

Builds the site as the tests do (``tests/docs/conftest.py``: the HTML builder, warnings as errors,
``--keep-going``, quiet, and the same ``-j``) from this checkout's ``docs/`` into a new temporary
folder, so nothing is reused from an earlier build (no doctrees, no environment, no playground
wheel), and prints:

- the build's wall seconds and CPU seconds (user + system of Sphinx and every process it starts:
  parallel readers and writers, the playground wheel's ``python -m build``);
- the HTML pages written and the size of the whole output folder.

    python3 benchmarks/docs_build.py                     # -j as the tests use it
    python3 benchmarks/docs_build.py --jobs 1            # one process
    python3 benchmarks/docs_build.py --keep DIR          # build into DIR (kept) instead of a temporary folder
    python3 benchmarks/docs_build.py --record --conditions "..."   # write docs/results/docs_build.toml

The generated sources the extensions write into ``docs/`` at ``builder-inited`` (``areas/``,
``rules/``, ``source/``, ``_generated/``, ignored by git) are rewritten only when they change, so a
first build in a clean checkout does the same work as this one. On a machine other jobs share, wall
seconds also count the waiting: the load average before the build (other jobs) and after it (the build's
own processes included) is printed and recorded with the figures. The goal
is a build in under 2 minutes of wall time on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
RESULT = DOCS / "results" / "docs_build.toml"
GOAL_WALL = 120.0
JOBS = "auto"
"""The ``-j`` of ``tests/docs/conftest.py``'s build (as Sphinx takes it: ``auto`` is every CPU)."""


def sphinx_command(out: Path, jobs: str) -> list[str]:
    """The build command of ``tests/docs/conftest.py``, into ``out``."""
    return [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-j", jobs,
            str(DOCS), str(out)]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _pages_and_bytes(out: Path) -> tuple[int, int]:
    """HTML pages written (the search and index pages included) and the bytes of every file written."""
    files = [p for p in out.rglob("*") if p.is_file()]
    pages = sum(1 for p in files if p.suffix == ".html" and "_static" not in p.relative_to(out).parts)
    return pages, sum(p.stat().st_size for p in files)


def build(out: Path, jobs: str) -> tuple[float, float, int, int]:
    """Build the site into ``out``: wall seconds, CPU seconds, pages, bytes; exits 1 when the build fails."""
    wall0, cpu0 = time.perf_counter(), _children_cpu()
    result = subprocess.run(sphinx_command(out, jobs), capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall0, _children_cpu() - cpu0
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        print(f"the build failed (exit {result.returncode}) after {wall:.1f} s", file=sys.stderr)
        sys.exit(1)
    return (wall, cpu, *_pages_and_bytes(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", default=JOBS, help=f"Sphinx's -j: a number or 'auto' (default {JOBS}, as the tests)")
    parser.add_argument("--keep", metavar="DIR", help="build into DIR (which must not exist) and keep it")
    parser.add_argument("--record", action="store_true", help=f"write {RESULT.relative_to(REPO)}")
    parser.add_argument("--conditions", default="", help="what else ran on the machine (for --record)")
    args = parser.parse_args(argv)
    if not (args.jobs == "auto" or (args.jobs.isdigit() and int(args.jobs) > 0)):
        parser.error(f"--jobs: {args.jobs!r} is neither a positive number nor 'auto'")
    if args.keep and Path(args.keep).exists():
        parser.error(f"--keep: {args.keep} exists already (the build must start from nothing)")
    load = os.getloadavg()[0]
    if args.keep:
        wall, cpu, pages, size = build(Path(args.keep) / "html", args.jobs)
    else:
        with tempfile.TemporaryDirectory(prefix="cardrules-docs-build-") as tmp:
            wall, cpu, pages, size = build(Path(tmp) / "html", args.jobs)
    loads = (load, os.getloadavg()[0])
    print(f"spec site: {pages} pages, {size / 1e6:.1f} MB, built with -j {args.jobs} on {os.cpu_count()} CPU(s)")
    print(f"whole build: {wall:6.1f} s wall, {cpu:6.1f} s CPU (user+sys, every process); load average "
          f"{loads[0]:.1f} before the build, {loads[1]:.1f} after it (its own processes included)")
    print(f"goal: under {GOAL_WALL:.0f} s wall on 2 cores: {wall:.1f} s is {wall / GOAL_WALL:.2f} x the goal")
    if args.record:
        record(wall, cpu, pages, size, args.jobs, loads, args.conditions)
    return 0


def _toml(cell: str | float | int) -> str:
    if isinstance(cell, str):
        return '"' + cell.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(cell)


def record(wall: float, cpu: float, pages: int, size: int, jobs: str, loads: tuple[float, float],
           conditions: str) -> None:
    """Write docs/results/docs_build.toml: the whole build and the goal."""
    from cardrules.specs.fileio import write_text

    row: list[str | float | int] = [f"the whole site from nothing, -j {jobs}", round(wall, 1), round(cpu, 1), pages,
                                   round(size / 1e6, 1)]
    lines = [
        "# The spec site's build: wall and CPU seconds, pages and bytes written",
        "# (benchmarks/docs_build.py --record; CPU seconds are user + system of every process of the build).",
        f"measured = {datetime.now().replace(microsecond=0).isoformat()}",
        f"command = {_toml(f'python3 benchmarks/docs_build.py --jobs {jobs} --record')}",
        f'machine = "{"idle" if loads[0] < 1.0 else "loaded"}"',
        "conditions = " + _toml(f"{os.cpu_count()} cores, load average {loads[0]:.1f} before the build (other jobs) "
                                f"and {loads[1]:.1f} after it (the build's own processes included)"
                                f"{'; ' + conditions if conditions else ''}"),
        'columns = ["build", "wall s", "CPU s", "pages", "MB written"]',
        f"rows = [[{', '.join(_toml(c) for c in row)}]]",
        "",
        "[[goal]]",
        f'goal = "the spec site builds in under {GOAL_WALL / 60:.0f} minutes on 2 cores"',
        f'figure = "{wall:.1f} s wall, {cpu:.1f} s CPU"',
        f"met = {'true' if wall < GOAL_WALL else 'false'}",
    ]
    write_text(RESULT, "\n".join(lines) + "\n")
    print(f"recorded in {RESULT.relative_to(REPO)}")


if __name__ == "__main__":
    sys.exit(main())
