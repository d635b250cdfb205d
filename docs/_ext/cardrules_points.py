"""Sphinx extension: ``.. cardrules-points::`` renders every extension point from the model's registry.

Each point (:data:`cardrules.model.extension.EXTENSION_POINTS`) gets a section: the question it
answers, the exact signature the model calls a proposal's function with (the declared parameters,
which a test holds to the model's call site), the contract its answer is checked against, the
clauses it stands for (linked to their pages) and the default function that gives the catalogue's
reading. Nothing on the page is written by hand, so it cannot drift from the code.
"""

from __future__ import annotations

from typing import Any

from cardrules_rst import RstDirective, escape, label
from docutils import nodes
from sphinx.application import Sphinx

GAME_TITLES = {"fftcg": "Final Fantasy TCG", "redemption": "Redemption CCG"}


def declared_points() -> list[Any]:
    """Every extension point, sorted by game and name (importing the engines declares them)."""
    import cardrules.model.fftcg.engine  # noqa: F401  (declares the FFTCG points)
    import cardrules.model.redemption.engine  # noqa: F401  (declares the Redemption points)
    from cardrules.model.extension import EXTENSION_POINTS

    return sorted(EXTENSION_POINTS.values(), key=lambda p: (p.game, p.name))


def point_lines(point: Any) -> list[str]:
    """The reST of one point: a heading, then its question, signature, contract, clauses and default."""
    title = f"{point.game} / {point.name}"
    clauses = ", ".join(f":ref:`{c} <{label(c)}>`" for c in point.clause_ids)
    return [
        f".. _point-{point.game}-{point.name}:", "",
        title, "~" * len(title), "",
        escape(point.question), "",
        ".. code-block:: python", "",
        f"   @override({point.game!r}, {point.name!r})",
        f"   def f({', '.join(point.parameters)}): ...", "",
        f":Returns: {escape(point.returns.text)}",
        f":Clauses: {clauses}",
        f":Default: ``{point.default.__module__}.{point.default.__qualname__}``", "",
    ]


def page_lines(points: list[Any]) -> list[str]:
    """Every point, grouped by game (a subheading per game)."""
    lines: list[str] = []
    for game in sorted({p.game for p in points}):
        heading = GAME_TITLES.get(game, game)
        lines += [heading, "-" * len(heading), ""]
        for point in (p for p in points if p.game == game):
            lines += point_lines(point)
    return lines


class PointsDirective(RstDirective):
    """``.. cardrules-points::``: every extension point, from the registry."""

    def run(self) -> list[nodes.Node]:
        return self.render(page_lines(declared_points()))


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cardrules-points", PointsDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
