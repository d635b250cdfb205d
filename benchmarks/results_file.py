"""Writing a result file of ``docs/results/`` (the format ``docs/_ext/cardrules_results.py`` reads).

A benchmark's ``--record`` gives the figures; this writes them as TOML, every text quoted and escaped
(a JSON string is a TOML basic string), the machine named idle or loaded by the load average at the
start of the run, and the goals judged as ``[[goal]]`` tables.
"""

from __future__ import annotations

import json
import os
import resource
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "docs" / "results"

Cell = str | int | float


@dataclass(frozen=True)
class Goal:
    """One goal the figures are judged against: what it asks, the figure measured, met or not."""

    goal: str
    figure: str
    met: bool


def children_cpu() -> float:
    """User + system seconds of the child processes that have ended (and their waited-for children)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def minutes(seconds: float) -> str:
    """``13 min 40 s``, or ``58 s`` under a minute."""
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60} s" if whole >= 60 else f"{whole} s"


def load_now() -> float:
    """The one-minute load average now (read it at the start of a run: at its end it counts the run)."""
    return os.getloadavg()[0]


def _value(cell: Cell | bool) -> str:
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, str):
        return json.dumps(cell, ensure_ascii=False)
    return repr(cell)


def result_text(*, about: Sequence[str], command: str, load: float, conditions: str, columns: Sequence[str],
                rows: Sequence[Sequence[Cell]], note: str = "", goals: Sequence[Goal] = (),
                measured: datetime | None = None) -> str:
    """The text of a result file: ``about`` as comment lines, then the fields, the table and the goals."""
    when = (measured or datetime.now()).replace(microsecond=0).isoformat()
    lines = [f"# {line}" for line in about]
    lines += [
        f"measured = {when}",
        f"command = {_value(command)}",
        f"machine = {_value('idle' if load < 1.0 else 'loaded')}",
        f"conditions = {_value(f'{os.cpu_count()} cores, load average {load:.1f} at the start of the run' + (f'; {conditions}' if conditions else ''))}",
    ]
    if note:
        lines.append(f"note = {_value(note)}")
    lines.append(f"columns = [{', '.join(_value(c) for c in columns)}]")
    lines += ["rows = [", *(f"  [{', '.join(_value(c) for c in row)}]," for row in rows), "]"]
    for goal in goals:
        lines += ["", "[[goal]]", f"goal = {_value(goal.goal)}", f"figure = {_value(goal.figure)}",
                  f"met = {_value(goal.met)}"]
    return "\n".join(lines) + "\n"


def write_result(name: str, text: str) -> Path:
    """Write ``docs/results/NAME.toml`` (atomically, as the project writes files) and say so."""
    from cardrules.specs.fileio import write_text

    path = RESULTS / f"{name}.toml"
    write_text(path, text)
    print(f"recorded in {path.relative_to(REPO)}")
    return path
