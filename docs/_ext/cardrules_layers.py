"""The ``cardrules-layers`` directive: the package's layer map, drawn from the layer test's own table.

``tests/project/test_layers.py`` declares :data:`LAYERS` (bottom first) and fails the build of any
import that points up or sideways; this directive reads that very table, so the page and the check
can never disagree.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, NamedTuple

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

LAYER_TEST = Path(__file__).resolve().parents[2] / "tests" / "project" / "test_layers.py"


class Feature(NamedTuple):
    """One ``Feature(name, prefixes, purpose)`` of the layer test's table."""

    name: str
    prefixes: tuple[str, ...]
    purpose: str


def read_layers(source: Path = LAYER_TEST) -> list[list[Feature]]:
    """The ``LAYERS`` table of the layer test, read from its syntax tree (the test is not imported:
    building the site needs neither pytest nor the test package)."""
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "LAYERS":
            assert isinstance(node.value, ast.Tuple), f"{source}: LAYERS is not a tuple literal"
            layers = [layer for layer in node.value.elts if isinstance(layer, ast.Tuple)]
            assert len(layers) == len(node.value.elts), f"{source}: a layer of LAYERS is not a tuple literal"
            return [[_feature(call, source) for call in layer.elts] for layer in layers]
    raise LookupError(f"{source} declares no LAYERS table")


def _feature(call: ast.expr, source: Path) -> Feature:
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Feature"):
        raise ValueError(f"{source}, line {call.lineno}: a layer holds something other than Feature(...)")
    name, prefixes, purpose = (ast.literal_eval(arg) for arg in call.args)
    return Feature(name, tuple(prefixes), purpose)


def layer_rows() -> list[str]:
    """The layer map as reStructuredText list-table rows, top layer first."""
    layers = read_layers()
    rows: list[str] = []
    for level in range(len(layers) - 1, -1, -1):
        for feature in layers[level]:
            packages = ", ".join(f"``{p}``" for p in feature.prefixes)
            rows += [f"   * - {level}", f"     - {feature.name}", f"     - {packages}", f"     - {feature.purpose}"]
    return rows


class LayersDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(LAYER_TEST))
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 6 14 40 40", "",
                 "   * - layer", "     - feature", "     - packages", "     - what it holds", *layer_rows()]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="cardrules-layers"), self.content_offset, container)
        return list(container.children)


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("cardrules-layers", LayersDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
