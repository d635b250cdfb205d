"""The ``cardrules-layers`` directive: the package's layer map, drawn from the layer test's own table.

``tests/project/test_layers.py`` declares :data:`LAYERS` (bottom first) and fails the build of any
import that points up or sideways; this directive reads that very table, so the page and the check
can never disagree.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

LAYER_TEST = Path(__file__).resolve().parents[2] / "tests" / "project" / "test_layers.py"


def _layer_test() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cardrules_layer_test", LAYER_TEST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def layer_rows() -> list[str]:
    """The layer map as reStructuredText list-table rows, top layer first."""
    layers = _layer_test().LAYERS
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
