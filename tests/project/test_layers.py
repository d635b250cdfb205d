"""The package's import structure: declared layers that only point down, no cycles, no private imports.

Every module of the installed package is parsed with :mod:`ast`; module-level
and function-level imports, absolute and relative, all count (an import inside
``if TYPE_CHECKING:`` too: a type-only cycle is still a cycle of ideas).

:data:`LAYERS` is the layer map, bottom first; the developers' page of the docs
draws it from this table. A module may import its own feature and any feature
of a lower layer; features that share a layer never import each other.
:data:`MODEL_LAYERS` orders the Redemption model's own modules the same way.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the import layers of the package")

PACKAGE = "cardrules"
TOP_FOLDERS = ("model", "specs", "properties", "oracle")


@dataclass(frozen=True)
class Feature:
    """A group of modules: the package prefixes it owns, and what it is for."""

    name: str
    prefixes: tuple[str, ...]
    purpose: str


LAYERS: tuple[tuple[Feature, ...], ...] = (
    (Feature("fileio", ("cardrules.specs.fileio",),
             "reading and writing the files users name: bounded, checked, errors naming the file"),),
    (Feature("catalogue", ("cardrules.specs.catalogue", "cardrules.specs"),
             "the clause catalogue, @implements, rule sets, broken variants"),),
    (Feature("model", ("cardrules.model",), "the executable reference model of each game"),
     Feature("smt", ("cardrules.specs.smt",), "the z3 encoding, written from the catalogue, never from the model")),
    (Feature("properties", ("cardrules.properties",),
             "every property once, the explorer and the other engines, the embedded scenarios, the scopes"),),
    (Feature("oracle-base", ("cardrules.oracle", "cardrules.oracle.errors", "cardrules.oracle.progress",
                             "cardrules.oracle.selection", "cardrules.oracle.jsondiff", "cardrules.oracle.jobs",
                             "cardrules.oracle.interrupts"),
             "exit codes and the input error, progress display, scenario selection, JSON differences, worker processes, "
             "Ctrl-C never lost"),),
    (Feature("trace", ("cardrules.oracle.trace",),
             "the traceability matrix, the clauses code exercised, the pytest clause marker"),),
    (Feature("playground", ("cardrules.oracle.playground",),
             "a position, its legal actions and what each does, for the site's playground (runs in the browser)"),),
    (Feature("crosscheck", ("cardrules.oracle.crosscheck",), "the bridges: the model against z3, per game"),
     Feature("examples", ("cardrules.oracle.examples",),
             "examples in the players' words, picked from model runs, narrated, replayable; never the z3 encoding")),
    (Feature("verify", ("cardrules.oracle.verify",), "the main job: every property, scenario and engine"),),
    (Feature("conformance", ("cardrules.oracle.conformance",), "suites for other engines, the runner, the adapter"),
     Feature("rulechange", ("cardrules.oracle.rulechange",), "what a rule change changes: diff and proposals")),
    (Feature("mutation", ("cardrules.oracle.mutation",), "mutants of the model against every check"),),
    (Feature("cli", ("cardrules.oracle.cli",), "argparse and the command handlers; nothing imports it"),),
)
"""The layer map, bottom first: each tuple is one layer, its features side by side."""

PROPERTIES_LAYERS: dict[str, int] = {
    "cardrules.properties.core": 0,
    "cardrules.properties.scenarios": 0,
    "cardrules.properties.engines": 1,
    "cardrules.properties.fftcg": 2,
    "cardrules.properties.redemption": 2,
    "cardrules.properties.games": 3,
    "cardrules.properties.scopes": 4,
}
"""Inside ``properties``: what a property is and the scenarios, then the engines, then each game's
properties (never importing each other), then the registry of games, then the scopes (whose positions
are told apart by each game's symmetry) above them."""

RED = "cardrules.model.redemption"
FF = "cardrules.model.fftcg"

MODEL_LAYERS: dict[str, float] = {
    # 1: state and pure edits
    f"{RED}.jsonform": 1.0,
    f"{RED}.actions": 1.0,
    f"{RED}.config": 1.0,
    f"{RED}.pieces": 1.0,
    f"{RED}.records": 1.05,
    f"{RED}.state": 1.1,
    f"{RED}.wording": 1.1,
    f"{RED}.validate": 1.2,
    f"{RED}.ops": 1.2,
    f"{RED}.numbers": 1.2,
    f"{RED}.scenario": 1.2,
    f"{RED}.standing": 1.3,
    f"{RED}.healable": 1.3,
    f"{RED}.battle_ids": 1.3,
    f"{RED}.observable": 1.2,
    # 2: who may act next; what an area hands back to the dispatcher
    f"{RED}.initiative": 2,
    f"{RED}.handoff": 2,
    f"{RED}.side_battle_undo": 2.5,
    # 3: rule areas
    f"{RED}.abilities": 3,
    f"{RED}.battle": 3,
    f"{RED}.heal": 3,
    f"{RED}.placement": 3,
    f"{RED}.redirect": 3,
    f"{RED}.resolution": 3,
    f"{RED}.side_battle": 3,
    f"{RED}.side_battle_outside": 3.5,
    f"{RED}.turn": 3,
    # 4: the dispatcher
    f"{RED}.engine": 4,
    # 5: the package
    RED: 5,
    # FFTCG: state, its JSON reader, the rule areas, the dispatcher, the load's checks
    f"{FF}.state": 1.0,
    f"{FF}.actions": 1.1,
    f"{FF}.config": 1.0,
    f"{FF}.contracts": 1.1,
    f"{FF}.jsonform": 1.1,
    f"{FF}.observable": 1.1,
    f"{FF}.party": 3,
    f"{FF}.combat": 3,
    f"{FF}.damage": 3.1,
    f"{FF}.turn": 3.2,
    f"{FF}.memo": 3.5,
    f"{FF}.engine": 4,
    f"{FF}.validate": 4,
    f"{FF}.trace": 4.1,
    FF: 5,
}
"""Layer of every module of each game's model; a module imports only lower layers. Redemption's rule
areas (3) never import each other; FFTCG's steps build on each other (3.x: party and combat, then
damage, then turn)."""

MODEL_SHARED = ("cardrules.model", "cardrules.model.errors", "cardrules.model.extension")
"""Shared by both games, below everything in the model."""


# --- the import graph -------------------------------------------------------------


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def package_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in TOP_FOLDERS:
        for path in sorted((REPO / top).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[module_name(path)] = path
    return found


def imports_of(module: str, path: Path, known: set[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Every (module imported, names taken from it) of ``module``, wherever the statement is."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                # ``from pkg import sub`` imports the submodule; ``from mod import name`` takes a name
                found.append((candidate, ()) if candidate in known else (base, (alias.name,)))
    return found


def import_graph() -> nx.DiGraph:
    modules = package_modules()
    graph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module)
        for target, names in imports_of(module, path, set(modules)):
            if target.startswith(f"{PACKAGE}.") and target in modules:
                taken = graph.edges[module, target]["names"] if graph.has_edge(module, target) else ()
                graph.add_edge(module, target, names=taken + names)
    return graph


def _owns(prefix: str, module: str) -> bool:
    # ``cardrules.specs`` alone is the package itself, not everything under it
    if prefix in ("cardrules.specs", "cardrules.oracle"):
        return module == prefix
    return module == prefix or module.startswith(f"{prefix}.")


def feature_of(module: str) -> tuple[int, Feature] | None:
    """The layer and feature owning ``module``: the one with the longest matching prefix."""
    best: tuple[int, int, Feature] | None = None
    for level, features in enumerate(LAYERS):
        for feature in features:
            for prefix in feature.prefixes:
                if _owns(prefix, module) and (best is None or len(prefix) > best[0]):
                    best = (len(prefix), level, feature)
    return None if best is None else (best[1], best[2])


def _rotated(cycle: list[str]) -> list[str]:
    start = cycle.index(min(cycle))
    return cycle[start:] + cycle[:start]


# --- the tests ----------------------------------------------------------------------


def test_the_walk_sees_every_top_folder() -> None:
    graph = import_graph()
    for module in ("cardrules.model.redemption.engine", "cardrules.specs.smt.consistency",
                   "cardrules.properties.engines.explore", "cardrules.oracle.cli.parser"):
        assert module in graph
    assert ("cardrules.model.redemption.engine", "cardrules.model.redemption.state") in graph.edges


def test_every_module_belongs_to_a_declared_feature() -> None:
    unowned = sorted(m for m in package_modules() if feature_of(m) is None)
    assert not unowned, f"declare a feature in LAYERS for: {', '.join(unowned)}"


def test_no_import_cycles_between_modules() -> None:
    cycles = sorted(_rotated(c) for c in nx.simple_cycles(import_graph()))
    assert not cycles, "import cycles:\n" + "\n".join("  " + " -> ".join([*c, c[0]]) for c in cycles)


def test_no_import_cycles_between_packages() -> None:
    packages = nx.DiGraph()
    for source, target in import_graph().edges:
        a, b = (m if m in _packages() else m.rpartition(".")[0] for m in (source, target))
        if a != b and not b.startswith(f"{a}.") and not a.startswith(f"{b}."):
            packages.add_edge(a, b)
    cycles = sorted(_rotated(c) for c in nx.simple_cycles(packages))
    assert not cycles, "package cycles:\n" + "\n".join("  " + " -> ".join([*c, c[0]]) for c in cycles)


def _packages() -> set[str]:
    return {m for m, p in package_modules().items() if p.name == "__init__.py"}


def test_imports_point_down_the_layer_map() -> None:
    wrong: list[str] = []
    for source, target in sorted(import_graph().edges):
        mine, theirs = feature_of(source), feature_of(target)
        if mine is None or theirs is None or mine[1] == theirs[1]:
            continue
        if theirs[0] > mine[0]:
            wrong.append(f"  {source} ({mine[1].name}) imports {target} ({theirs[1].name}): upward")
        elif theirs[0] == mine[0]:
            wrong.append(f"  {source} ({mine[1].name}) imports {target} ({theirs[1].name}): sideways")
    assert not wrong, "imports against the layer map:\n" + "\n".join(wrong)


def test_nothing_outside_the_cli_imports_it() -> None:
    wrong = [f"  {s} imports {t}" for s, t in sorted(import_graph().edges)
             if _owns("cardrules.oracle.cli", t) and not _owns("cardrules.oracle.cli", s)]
    assert not wrong, "library code imports the command line:\n" + "\n".join(wrong)


def test_no_private_name_is_imported_from_another_module() -> None:
    wrong = [f"  {s} takes {', '.join(n for n in data['names'] if n.startswith('_'))} from {t}"
             for s, t, data in sorted(import_graph().edges(data=True))
             if any(n.startswith("_") and not n.startswith("__") for n in data["names"])]
    assert not wrong, "private names imported across modules:\n" + "\n".join(wrong)


def test_properties_point_down_inside() -> None:
    def level(module: str) -> tuple[str, int] | None:
        return next(((p, lv) for p, lv in PROPERTIES_LAYERS.items() if _owns(p, module)), None)

    wrong: list[str] = []
    for source, target in sorted(import_graph().edges):
        mine, theirs = level(source), level(target)
        if mine is None or theirs is None or mine[0] == theirs[0]:
            continue
        if theirs[1] >= mine[1]:
            wrong.append(f"  {source} imports {target}: {'sideways' if theirs[1] == mine[1] else 'upward'}")
    assert not wrong, "properties imports that do not point down:\n" + "\n".join(wrong)


def test_every_game_module_has_a_declared_layer() -> None:
    game_modules = [m for m in package_modules() if _owns(RED, m) or _owns(FF, m)]
    undeclared = sorted(m for m in game_modules if m not in MODEL_LAYERS)
    assert not undeclared, f"declare a layer in MODEL_LAYERS for: {', '.join(undeclared)}"
    vanished = sorted(set(MODEL_LAYERS) - set(package_modules()))
    assert not vanished, f"MODEL_LAYERS names modules that no longer exist: {', '.join(vanished)}"


def test_game_models_point_down_inside() -> None:
    wrong: list[str] = []
    for source, target in sorted(import_graph().edges):
        if source not in MODEL_LAYERS or not _owns("cardrules.model", target) or target in MODEL_SHARED:
            continue
        mine, theirs = MODEL_LAYERS[source], MODEL_LAYERS.get(target)
        if theirs is not None and theirs >= mine:
            wrong.append(f"  {source} ({mine}) imports {target} ({theirs}): {'sideways' if theirs == mine else 'upward'}")
    assert not wrong, "model imports that do not point down:\n" + "\n".join(wrong)


@pytest.mark.parametrize("game, other", [(RED, FF), (FF, RED)])
def test_a_game_model_does_not_import_the_other(game: str, other: str) -> None:
    wrong = [f"  {s} imports {t}" for s, t in sorted(import_graph().edges) if _owns(game, s) and _owns(other, t)]
    assert not wrong, f"{game} imports the other game's model:\n" + "\n".join(wrong)


def test_the_imports_are_read_as_python_resolves_them(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from . import a\n")
    (package / "a.py").write_text("def f():\n    from .b import g\n    from .. import top\n")
    known = {"x.pkg", "x.pkg.a", "x.pkg.b", "x.top"}
    assert imports_of("x.pkg", package / "__init__.py", known) == [("x.pkg.a", ())]
    assert imports_of("x.pkg.a", package / "a.py", known) == [("x.pkg.b", ("g",)), ("x.top", ())]


def test_the_layer_map_catches_an_upward_import() -> None:
    assert feature_of("cardrules.specs.fileio.reading") == (0, LAYERS[0][0])
    assert feature_of("cardrules.specs.catalogue.registry") == (1, LAYERS[1][0])
    assert feature_of("cardrules.model.fftcg.state") == (2, LAYERS[2][0])
    assert feature_of("cardrules.specs.smt.budget") == (2, LAYERS[2][1])
    assert feature_of("cardrules.oracle.cli.parser")[0] > feature_of("cardrules.oracle.verify.runner")[0]  # type: ignore[index]
