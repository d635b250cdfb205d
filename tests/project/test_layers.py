"""The models' import structure: no cycles, layers that only point down (issue 18).

Every module under ``model/`` is parsed with :mod:`ast`; module-level and
function-level imports, absolute and relative (``from . import x``), all count.
This checks structure, not a rule clause, so it carries no clause marker.

Redemption layers (``LAYER`` below; a module may import only lower numbers):

- 1.x  state and pure edits (ordered inside the layer: 1.0 before 1.1 ...);
- 2    who may act next (:mod:`initiative`) and the hand-off vocabulary
       between areas and the dispatcher (:mod:`handoff`);
- 3    one module per rule area; an area never imports another area;
- 4    the dispatcher, :mod:`engine`;
- 5    the package itself (its ``__init__`` may re-export the interface).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the import layers of the packages")

MODEL_DIR = REPO / "model"
PACKAGE = "cardrules.model"
RED = "cardrules.model.redemption"
FF = "cardrules.model.fftcg"

LAYER: dict[str, float] = {
    # 1: state and pure edits
    f"{RED}.jsonform": 1.0,
    f"{RED}.actions": 1.0,
    f"{RED}.config": 1.0,
    f"{RED}.state": 1.1,
    f"{RED}.wording": 1.1,
    f"{RED}.ops": 1.2,
    f"{RED}.validate": 1.2,
    f"{RED}.numbers": 1.2,
    f"{RED}.scenario": 1.2,
    f"{RED}.standing": 1.3,
    f"{RED}.healable": 1.3,
    # 2: who may act next; what an area hands back to the dispatcher
    f"{RED}.initiative": 2,
    f"{RED}.handoff": 2,
    # 3: rule areas
    f"{RED}.abilities": 3,
    f"{RED}.battle": 3,
    f"{RED}.heal": 3,
    f"{RED}.redirect": 3,
    f"{RED}.resolution": 3,
    f"{RED}.side_battle": 3,
    f"{RED}.turn": 3,
    # 4: the dispatcher
    f"{RED}.engine": 4,
    # 5: the package
    RED: 5,
}
"""Layer of every module of the Redemption model; a module imports only lower layers."""

SHARED_LAYER = 0.0
"""``cardrules.model``, ``.errors`` and ``.extension`` (extension points): shared by both games, below everything."""

FORBIDDEN = ("cardrules.properties", "cardrules.oracle", "cardrules.specs.smt")
"""Packages no model module may import: the models come first, checks and encodings after."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(MODEL_DIR).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def model_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(MODEL_DIR.rglob("*.py")) if ".venv" not in p.parts}


def imported_names(module: str, path: Path, known: set[str]) -> set[str]:
    """Every module ``module`` imports, wherever the import statement is."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module.
                found.add(candidate if candidate in known else base)
    return found


def import_graph() -> nx.DiGraph:
    modules = model_modules()
    known = set(modules)
    graph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module)
        for target in imported_names(module, path, known):
            if target.startswith("cardrules."):
                graph.add_edge(module, target)
    return graph


def inside_model(graph: nx.DiGraph) -> nx.DiGraph:
    return graph.subgraph(n for n in graph if n == PACKAGE or n.startswith(f"{PACKAGE}."))


def layer_of(module: str) -> float | None:
    if module in (PACKAGE, f"{PACKAGE}.errors", f"{PACKAGE}.extension"):
        return SHARED_LAYER
    return LAYER.get(module)


def test_the_walk_sees_both_models() -> None:
    graph = import_graph()
    assert f"{RED}.engine" in graph and f"{FF}.engine" in graph
    assert (f"{RED}.engine", f"{RED}.state") in graph.edges


def _rotated(cycle: list[str]) -> list[str]:
    """The same cycle, starting at its smallest name (a stable way to print it)."""
    start = cycle.index(min(cycle))
    return cycle[start:] + cycle[:start]


def test_no_import_cycles_in_model() -> None:
    cycles = sorted(_rotated(c) for c in nx.simple_cycles(inside_model(import_graph())))
    described = ["  " + " -> ".join([*c, c[0]]) for c in cycles]
    assert not cycles, "import cycles under model/:\n" + "\n".join(described)


def test_every_redemption_module_has_a_declared_layer() -> None:
    undeclared = sorted(m for m in model_modules() if (m == RED or m.startswith(f"{RED}.")) and m not in LAYER)
    assert not undeclared, f"declare a layer in LAYER for: {', '.join(undeclared)}"
    vanished = sorted(set(LAYER) - set(model_modules()))
    assert not vanished, f"LAYER names modules that no longer exist: {', '.join(vanished)}"


def test_redemption_imports_point_down() -> None:
    graph = import_graph()
    wrong: list[str] = []
    for module, target in sorted(graph.edges):
        if not (module == RED or module.startswith(f"{RED}.")):
            continue
        if not (target == PACKAGE or target.startswith(f"{PACKAGE}.")):
            continue
        mine, theirs = LAYER.get(module), layer_of(target)
        if mine is None or theirs is None:
            continue  # reported by the declared-layer test, or another game (next test)
        if theirs >= mine:
            kind = "sideways" if theirs == mine else "upward"
            wrong.append(f"  {module} (layer {mine}) imports {target} (layer {theirs}): {kind}")
    assert not wrong, "imports that do not point down:\n" + "\n".join(wrong)


@pytest.mark.parametrize("game, other", [(RED, FF), (FF, RED)])
def test_a_game_model_does_not_import_the_other(game: str, other: str) -> None:
    graph = import_graph()
    wrong = [
        f"  {m} imports {t}"
        for m, t in sorted(graph.edges)
        if (m == game or m.startswith(f"{game}.")) and (t == other or t.startswith(f"{other}."))
    ]
    assert not wrong, f"{game} imports the other game's model:\n" + "\n".join(wrong)


def test_model_imports_no_checks_or_encodings() -> None:
    graph = import_graph()
    wrong = [
        f"  {m} imports {t}"
        for m, t in sorted(graph.edges)
        if any(t == f or t.startswith(f"{f}.") for f in FORBIDDEN)
    ]
    assert not wrong, "model/ imports properties, oracle or the SMT encoding:\n" + "\n".join(wrong)


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from . import a\n")
    (package / "a.py").write_text("def f():\n    from .b import g\n    from .. import top\n")
    known = {"x.pkg", "x.pkg.a", "x.pkg.b", "x.top"}
    assert imported_names("x.pkg", package / "__init__.py", known) == {"x.pkg.a"}
    assert imported_names("x.pkg.a", package / "a.py", known) == {"x.pkg.b", "x.top"}
