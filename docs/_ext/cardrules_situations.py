"""Sphinx extension: ``.. cardrules-situations::`` renders the z3 situation variables from the code.

Each area with a consistency situation gets a section listing its variables as
:func:`cardrules.specs.smt.situation_docs.variable_rows` gives them (the same rows
``cardrules proposal situations`` prints): name, z3 sort, input or output, meaning. Nothing on
the page is written by hand, so it cannot drift from the encoding.
"""

from __future__ import annotations

from typing import Any

from cardrules_rst import RstDirective, escape
from docutils import nodes
from sphinx.application import Sphinx


def meaning_text(meaning: str) -> str:
    """A variable's meaning as reST: its ````literal```` words (the docstrings' markup) kept as literals, the
    rest escaped, so the page shows neither raw backticks nor stray markup."""
    parts = meaning.split("``")
    if len(parts) % 2 == 0:
        return escape(meaning)
    return "".join(f"``{part}``" if index % 2 else escape(part) for index, part in enumerate(parts))


def area_lines(area: str, rows: list[Any]) -> list[str]:
    """One area: a heading and a table of its variables."""
    lines = [f".. _situation-{area}:", "", f"Area ``{area}``", "~" * (len(area) + 9), "",
             ".. list-table::", "   :header-rows: 1", "   :widths: 30 8 8 54", "",
             "   * - variable", "     - sort", "     - role", "     - meaning"]
    for row in rows:
        lines += [f"   * - ``{row.name}``", f"     - {row.sort}", f"     - {row.role}",
                  f"     - {meaning_text(row.meaning)}"]
    return [*lines, ""]


class SituationsDirective(RstDirective):
    """``.. cardrules-situations::``: every area's situation variables."""

    def run(self) -> list[nodes.Node]:
        from cardrules.specs.smt.situation_docs import areas, variable_rows

        lines: list[str] = []
        for area in areas():
            lines += area_lines(area, variable_rows(area))
        return self.render(lines)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cardrules-situations", SituationsDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
