"""The code behind a clause, as the spec site shows it: highlighted source, side by side.

For each linked object (a model function, an SMT constraint, a property) the
site shows its source, highlighted, with its file and line, cut to
:data:`MAX_LINES` lines and linked to a generated page with the whole
module (``source/<module>.rst``, written at ``builder-inited``).
"""

from __future__ import annotations

import inspect
import os
import textwrap
from dataclasses import dataclass
from pathlib import Path

from cardrules.oracle.trace.coverage import resolve_dotted

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 40


@dataclass(frozen=True)
class LinkedSource:
    """The source of one linked object."""

    target: str
    module: str
    path: str
    """Repository-relative file path (``model/redemption/heal.py``)."""
    first_line: int
    lines: list[str]
    cut: bool


def linked_source(target: str) -> LinkedSource | None:
    """The source of a linked dotted name, or None when it cannot be found."""
    obj = resolve_dotted(target)
    if obj is None:
        return None
    try:
        source_lines, first_line = inspect.getsourcelines(obj)
        source_file = Path(inspect.getsourcefile(obj) or "").resolve()
    except (OSError, TypeError):
        return None
    try:
        path = source_file.relative_to(ROOT).as_posix()
    except ValueError:
        path = source_file.name
    text = textwrap.dedent("".join(source_lines)).rstrip("\n").splitlines()
    cut = len(text) > MAX_LINES
    module = getattr(obj, "__module__", target.rsplit(".", 1)[0])
    return LinkedSource(target, module, path, first_line, text[:MAX_LINES], cut)


def source_page_name(module: str) -> str:
    return f"source/{module}"


def code_lines(source: LinkedSource, indent: str) -> list[str]:
    """reST for one linked object: a caption with its file and line, the code, and a link to the module."""
    short = source.target.removeprefix(source.module + ".")
    lines = [
        f"{indent}``{short}`` in ``{source.path}``, line {source.first_line} "
        f"(:doc:`whole module </{source_page_name(source.module)}>`)",
        "",
        f"{indent}.. code-block:: python",
        f"{indent}   :lineno-start: {source.first_line}",
        "",
    ]
    lines += [f"{indent}   {line}" if line.strip() else "" for line in source.lines]
    if source.cut:
        lines += [f"{indent}   # ... (cut at {MAX_LINES} lines; see the whole module)"]
    lines.append("")
    return lines


def module_page(module: str) -> str:
    """A page with a module's whole source."""
    obj = resolve_dotted(module)
    file = Path(inspect.getsourcefile(obj) or "") if obj is not None else None
    title = f"Source: {module}"
    lines = [":orphan:", "", title, "=" * len(title), ""]
    if file is None or not file.exists():
        return "\n".join(lines + ["(source not found)", ""])
    try:
        shown = file.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        shown = file.name
    relative = os.path.relpath(file.resolve(), ROOT / "docs" / "source")
    lines += [f"``{shown}``", "", f".. literalinclude:: {relative}", "   :language: python", "   :linenos:", ""]
    return "\n".join(lines)
