"""Writing counterexamples as ITF for ``verify --itf`` and ``explore --itf``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardrules.oracle.errors import InputError
from cardrules.specs.fileio import FileProblem


def write_itf_or_fail(traces: list[Any], path: Path) -> None:
    """Write ``traces`` to ``path`` in the Informal Trace Format; a file that cannot be written is bad input."""
    from cardrules.oracle.verify.itf import write_itf

    try:
        write_itf(traces, path)
    except FileProblem as problem:
        raise InputError(f"cannot write the ITF trace: {problem}") from None
