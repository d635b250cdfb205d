"""Every extension point's declared contract matches the model: its default's signature, the model's call
site (in the source and in play), and the default's own answers."""

from __future__ import annotations

import ast
import inspect
import json
from typing import Any, Callable

import pytest

from cardrules.model.extension import EXTENSION_POINTS, ExtensionPoint
from tests.cli import run
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("proposal code: the extension points' contracts")


def points() -> list[ExtensionPoint]:
    import cardrules.model.fftcg.engine  # noqa: F401  (declares the FFTCG points)
    import cardrules.model.redemption.engine  # noqa: F401  (declares the Redemption points)

    return sorted(EXTENSION_POINTS.values(), key=lambda p: (p.game, p.name))


def call_sites() -> dict[str, list[tuple[str, list[str]]]]:
    """Point name -> (file, argument names) of every ``config.hook("NAME", default)(ARGS)`` in model/."""
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for path in sorted((REPO / "model").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            inner = node.func if isinstance(node, ast.Call) else None
            if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "hook"
                    and inner.args and isinstance(inner.args[0], ast.Constant)):
                continue
            assert isinstance(node, ast.Call)
            assert not node.keywords, f"{path}: the model passes a point's arguments by position only"
            names = [a.id if isinstance(a, ast.Name) else a.attr if isinstance(a, ast.Attribute) else ast.dump(a)
                     for a in node.args]
            found.setdefault(str(inner.args[0].value), []).append((path.name, names))
    return found


def test_each_default_takes_the_declared_parameters() -> None:
    assert len(points()) == 4
    for point in points():
        assert tuple(inspect.signature(point.default).parameters) == point.parameters, point.name


def test_each_call_site_passes_the_declared_parameters_in_order() -> None:
    sites = call_sites()
    assert set(sites) == {p.name for p in points()}
    for point in points():
        (site,) = sites[point.name]  # one place asks each question
        assert tuple(site[1]) == point.parameters, (point.name, site)


def recorder(point: ExtensionPoint, seen: dict[str, list[int]]) -> Callable[..., Any]:
    """The default, called as the model calls the point, its answer checked against the contract."""

    def answer(*arguments: Any) -> Any:
        value = point.default(*arguments)
        assert point.returns.check(value, arguments) is None, (point.name, value)
        seen.setdefault(point.name, []).append(len(arguments))
        return value

    return answer


def test_the_model_calls_each_point_with_its_parameters_in_play() -> None:
    from cardrules.oracle.rulechange.lockstep import diff_scenario
    from cardrules.oracle.selection import select_scenarios
    from cardrules.properties.engines.explore import Bounds
    from cardrules.properties.games import make_game
    from cardrules.properties.scenarios import RuleSetSpec

    seen: dict[str, list[int]] = {}
    wanted = {"fftcg-identical-forwards", "redemption-heal-and-redirect", "redemption-heal-windows-taken"}
    for scenario in (s for s in select_scenarios(None, None) if s.name in wanted):
        hooks = tuple(sorted((p.name, recorder(p, seen)) for p in points() if p.game == scenario.game))
        game = make_game(scenario.game, RuleSetSpec("default", {}, {}), hooks)
        diff_scenario(scenario, game, game, Bounds(max_depth=scenario.max_depth, max_states=400,
                                                   max_turns=scenario.max_turns))
    assert set(seen) == {p.name for p in points()}
    for point in points():
        assert set(seen[point.name]) == {len(point.parameters)}, point.name


@pytest.mark.parametrize("value, problem", [
    (3, None), (0, None), (7, None), (8, "returned 8; expected an int from 0 to 7"), (True, "returned True (a bool)"),
    (2.0, "returned 2.0 (a float)"), ("1", "returned a str"), (None, "returned None"),
])
def test_the_damage_contract(value: object, problem: str | None) -> None:
    (point,) = [p for p in points() if p.name == "unblocked-damage"]
    found = point.returns.check(value, ())
    assert found is None if problem is None else problem in str(found)


def test_points_prints_each_signature_and_contract() -> None:
    code, text = run("proposal", "points")
    assert code == 0
    for point in points():
        assert f"{point.game} / {point.name}: " in text
        assert f"    signature: def f({', '.join(point.parameters)})\n    returns:   {point.returns.text}\n" in text
    code, text = run("proposal", "points", "--json")
    rows = {r["name"]: r for r in json.loads(text)}
    assert rows["unblocked-damage"]["parameters"] == ["state", "attackers"]
    assert rows["side-battles-per-turn"]["returns"] == "an int from 0 to 9"


def test_the_proposals_page_lists_the_points_as_the_command_prints_them() -> None:
    _, text = run("proposal", "points")
    page = (REPO / "docs" / "proposing.rst").read_text()
    for line in text.splitlines():
        assert "   " + line in page, line
