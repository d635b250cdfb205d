"""Counting fuzz inputs per surface, for ``benchmarks/fuzz.py`` to record (nothing is counted otherwise).

When ``CARDRULES_FUZZ_TALLY`` names a file, every :func:`count` appends one
JSON line ``{"surface": ..., "outcome": ...}`` to it (one short ``O_APPEND``
write, so pytest-xdist workers can share the file). A test counts an input
only after checking it: an input whose check failed makes the test fail and
is reported by pytest, not counted.
"""

from __future__ import annotations

import json
import os

ENV = "CARDRULES_FUZZ_TALLY"


def count(surface: str, outcome: str, inputs: int = 1) -> None:
    """Record ``inputs`` checked inputs of ``surface`` that ended in ``outcome`` (e.g. ``ok``, ``bad input``)."""
    path = os.environ.get(ENV)
    if not path:
        return
    line = json.dumps({"surface": surface, "outcome": outcome, "inputs": inputs}) + "\n"
    handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(handle, line.encode())
    finally:
        os.close(handle)
