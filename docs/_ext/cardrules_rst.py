"""Shared pieces of the cardrules Sphinx extensions: escaping catalogue text, clause anchors, the
traceability matrix computed once per build, and a directive that renders generated reST."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardrules.oracle.trace.matrix import TraceRow, build_matrix, default_tests_dir
from cardrules.oracle.trace.pytest_plugin import collect_test_links
from cardrules.specs.catalogue import Catalogue, default_catalogue
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

_state: dict[str, Any] = {}


def escape(text: str) -> str:
    """Escape reST inline markup so catalogue text renders literally."""
    out = text.replace("\\", "\\\\")
    for char in "*`|_[]":
        out = out.replace(char, "\\" + char)
    return out


def label(clause_id: str) -> str:
    return f"clause-{clause_id.lower()}"


def matrix() -> tuple[Catalogue, list[TraceRow]]:
    if "rows" not in _state:
        catalogue = default_catalogue()
        tests_dir = default_tests_dir()
        test_links = collect_test_links(tests_dir) if tests_dir else {}
        _state["catalogue"] = catalogue
        _state["rows"] = build_matrix(catalogue, test_links)
    return _state["catalogue"], _state["rows"]


def note_generated_from(env: Any) -> None:
    """Generated pages depend on the catalogue, the scenarios and the code they show: editing any rebuilds them."""
    from cardrules.properties.scenarios import SCENARIO_DIR
    from cardrules.specs.catalogue import CATALOGUE_DIR

    root = Path(__file__).resolve().parents[2]
    files = [*CATALOGUE_DIR.glob("*.toml"), *SCENARIO_DIR.glob("*.json"), *Path(__file__).parent.glob("*.py")]
    files += [f for folder in ("model", "specs", "properties", "oracle") for f in (root / folder).rglob("*.py")]
    for file in files:
        env.note_dependency(str(file))


def write_pages(folder: Path, pages: dict[str, str]) -> None:
    """Write generated pages into ``folder`` (only those that changed, keeping mtimes for incremental
    builds) and remove the ``.rst`` files there that are no longer generated."""
    folder.mkdir(exist_ok=True)
    for name, text in pages.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    for stale in folder.glob("*.rst"):
        if stale.name not in pages:
            stale.unlink()


class RstDirective(SphinxDirective):
    """A directive that renders generated reST lines."""

    def render(self, lines: list[str]) -> list[nodes.Node]:
        note_generated_from(self.env)
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=self.get_source_info()[0]), container)
        return container.children


