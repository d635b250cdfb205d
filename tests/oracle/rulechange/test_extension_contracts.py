"""Every extension point's declared contract matches the model: its default's signature, the model's call
site (in the source and in play), the default's own answers, and the generated page that documents it.

A point's ``parameters`` are what a proposal's function is told it will get (``cardrules proposal points``,
docs/extension-points.rst) and what ``proposal check --allow-code`` binds it against; these tests make
sure the model really calls it so: a description that reads as four parameters while the model passes
five fails here."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from collections import deque
from types import ModuleType
from typing import Any, Callable

import pytest

from cardrules.model.extension import EXTENSION_POINTS, ExtensionPoint, one_of, some_of, truth_value
from tests.cli import run
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("proposal code: the extension points' contracts")

SHIPPED = {("fftcg", "unblocked-damage"), ("redemption", "healed-destination"), ("redemption", "side-battle-sides"),
           ("redemption", "side-battles-per-turn"), ("redemption", "side-battle-allowed"),
           ("redemption", "numbers-redirect-expiry"), ("redemption", "heal-window-attachments")}

NOT_IN_PLAY: dict[str, str] = {}
"""Points the model declares but play does not yet ask with the game's configuration (a known gap, named)."""


def points() -> list[ExtensionPoint]:
    import cardrules.model.fftcg.engine  # noqa: F401  (declares the FFTCG points)
    import cardrules.model.redemption.engine  # noqa: F401  (declares the Redemption points)

    return sorted(EXTENSION_POINTS.values(), key=lambda p: (p.game, p.name))


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ast.dump(node)


def call_sites() -> dict[str, list[tuple[str, str, list[str]]]]:
    """Point name -> (file, default, argument names) of every ``config.hook("NAME", default)(ARGS)`` in model/."""
    found: dict[str, list[tuple[str, str, list[str]]]] = {}
    for path in sorted((REPO / "model").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            inner = node.func if isinstance(node, ast.Call) else None
            if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "hook"
                    and inner.args and isinstance(inner.args[0], ast.Constant)):
                continue
            assert isinstance(node, ast.Call)
            assert not node.keywords, f"{path}: the model passes a point's arguments by position only"
            found.setdefault(str(inner.args[0].value), []).append(
                (path.name, _name(inner.args[1]), [_name(a) for a in node.args]))
    return found


def test_each_default_takes_the_declared_parameters() -> None:
    assert {(p.game, p.name) for p in points()} >= SHIPPED
    for point in points():
        assert tuple(inspect.signature(point.default).parameters) == point.parameters, point.name


def test_each_call_site_passes_the_declared_parameters_in_order() -> None:
    sites = call_sites()
    assert set(sites) == {p.name for p in points()}
    for point in points():
        (site,) = sites[point.name]  # one place asks each question
        file, default, arguments = site
        assert tuple(arguments) == point.parameters, (point.name, site)
        assert default == point.default.__name__, (point.name, site)  # the default the point declares
        assert file == point.default.__module__.rsplit(".", 1)[-1] + ".py", (point.name, site)


def recorder(point: ExtensionPoint, seen: dict[str, set[int]]) -> Callable[..., Any]:
    """The default, called as the model calls the point, its answer checked against the contract."""

    def answer(*arguments: Any) -> Any:
        value = point.default(*arguments)
        assert point.returns.check(value, arguments) is None, (point.name, value)
        seen.setdefault(point.name, set()).add(len(arguments))
        return value

    return answer


def _play(game: Any, start: Any, max_states: int, max_turns: int) -> None:
    """Breadth-first play from ``start``: at most ``max_states`` states, within ``max_turns`` turns."""
    seen = {game.canonical_key(start)}
    queue = deque([start])
    while queue and len(seen) < max_states:
        state = queue.popleft()
        if game.is_terminal(state) or game.turn(state) > max_turns:
            continue
        for action in game.legal_actions(state):
            after = game.step(state, action)
            key = game.canonical_key(after)
            if key not in seen:
                seen.add(key)
                queue.append(after)


def test_the_model_calls_each_point_with_its_parameters_in_play() -> None:
    from cardrules.oracle.selection import select_scenarios
    from cardrules.properties.games import make_game
    from cardrules.properties.scenarios import RuleSetSpec

    seen: dict[str, set[int]] = {}
    for scenario in select_scenarios(None, None):
        hooks = tuple(sorted((p.name, recorder(p, seen)) for p in points() if p.game == scenario.game))
        game = make_game(scenario.game, RuleSetSpec("default", {}, {}), hooks)
        _play(game, game.state_from_json(scenario.state), 400, scenario.max_turns or 1)
    assert set(seen) == {p.name for p in points()} - set(NOT_IN_PLAY)
    for point in points():
        if point.name not in NOT_IN_PLAY:
            assert seen[point.name] == {len(point.parameters)}, point.name


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_the_redirect_expiry_is_asked_with_its_parameters_where_a_phase_ends() -> None:
    """The point play does not reach yet (``NOT_IN_PLAY``), called where the model asks it: the end of the
    phase of an ongoing redirect (``redirect.expire`` with the configuration)."""
    from cardrules.model.redemption import redirect
    from cardrules.model.redemption.config import RuleConfig
    from cardrules.model.redemption.engine import run as play
    from cardrules.model.redemption.validate import load_state
    from cardrules.properties.scenarios import load_scenario

    (point,) = [p for p in points() if p.name == "numbers-redirect-expiry"]
    seen: dict[str, set[int]] = {}
    config = RuleConfig(hooks=((point.name, recorder(point, seen)),))
    scenario = load_scenario(REPO / "properties" / "scenarios" / "redemption-stated-numbers.json")
    state = play(load_state(scenario.state), ["attack 1 h", "block e", "play r3 on h -> e", "pass", "discard"], config)
    redirect.expire(state, config)
    assert seen == {point.name: {len(point.parameters)}}


@pytest.mark.parametrize("value, problem", [
    (3, None), (0, None), (7, None), (8, "returned 8; expected an int from 0 to 7"), (True, "returned True (a bool)"),
    (2.0, "returned 2.0 (a float)"), ("1", "returned a str"), (None, "returned None"),
])
def test_the_damage_contract(value: object, problem: str | None) -> None:
    (point,) = [p for p in points() if p.name == "unblocked-damage"]
    found = point.returns.check(value, ())
    assert found is None if problem is None else problem in str(found)


@pytest.mark.parametrize("value, problem", [
    ("end-of-phase", None), ("end-of-turn", None),
    ("end-of-game", "returned 'end-of-game'; expected one of 'end-of-phase', 'end-of-turn'"),
    ("END-OF-TURN", "returned 'END-OF-TURN'"), (1, "returned 1;"), (None, "returned None;"),
    (("end-of-turn",), "returned a tuple;"),
])
def test_a_contract_of_declared_answers(value: object, problem: str | None) -> None:
    found = one_of("end-of-phase", "end-of-turn").check(value, ())
    assert found is None if problem is None else problem in str(found)


@pytest.mark.parametrize("value, problem", [
    (True, None), (False, None), (1, "returned 1; expected a bool: True or False"), (0, "returned 0;"),
    (None, "returned None;"), ("yes", "returned a str;"), ([], "returned a list;"),
])
def test_a_contract_of_a_bool(value: object, problem: str | None) -> None:
    found = truth_value().check(value, ())
    assert found is None if problem is None else problem in str(found)


@pytest.mark.parametrize("value, problem", [
    ((), None), (("e1",), None), (("e2", "e1"), None),
    (("e3",), "returned 'e3', which is not one of e1, e2; expected"), (("e1", "e1"), "naming a card twice"),
    (["e1"], "returned a list;"), (("e1", 1), "returned a tuple;"), ("e1", "returned a str;"), (None, "returned None;"),
])
def test_a_contract_of_some_of_the_given_cards(value: object, problem: str | None) -> None:
    found = some_of("some of the cards", lambda cards: cards).check(value, (("e1", "e2"),))
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
    assert rows["side-battle-allowed"]["parameters"] == ["state", "player", "config"]
    assert rows["side-battle-allowed"]["returns"] == "a bool: True or False"
    assert rows["numbers-redirect-expiry"]["parameters"] == ["state", "record", "config"]
    assert rows["numbers-redirect-expiry"]["returns"] == "one of 'end-of-phase', 'end-of-turn'"
    assert rows["heal-window-attachments"]["parameters"] == ["state", "fighter", "config"]


def _points_extension() -> ModuleType:
    sys.path.insert(0, str(REPO / "docs" / "_ext"))
    try:
        return importlib.import_module("cardrules_points")
    finally:
        sys.path.pop(0)


def test_the_extension_points_page_renders_every_point_from_the_registry() -> None:
    page = (REPO / "docs" / "extension-points.rst").read_text()
    assert ".. cardrules-points::" in page
    extension = _points_extension()
    lines = extension.page_lines(extension.declared_points())
    text = "\n".join(lines)
    for point in points():
        block = extension.point_lines(point)
        assert "\n".join(block) in text
        assert f"   def f({', '.join(point.parameters)}): ..." in block
        assert f"   @override({point.game!r}, {point.name!r})" in block
        assert f":Default: ``{point.default.__module__}.{point.default.__qualname__}``" in block
        assert any(line.startswith(":Returns: ") and line.endswith(point.returns.text.replace("*", "\\*"))
                   for line in block)
        for clause_id in point.clause_ids:
            assert f":ref:`{clause_id} <clause-{clause_id.lower()}>`" in text


def test_a_points_listing_pasted_in_the_proposals_page_is_the_commands() -> None:
    _, text = run("proposal", "points")
    printed = text.splitlines()
    page = (REPO / "docs" / "proposing.rst").read_text().splitlines()
    listed = [i for i, line in enumerate(page) if line.startswith("   ") and " / " in line.split(":")[0]
              and line.split(" / ")[0].strip() in {"fftcg", "redemption"}]
    for index in listed:  # each point the page lists, with its three lines, as the command prints them
        for offset in range(4):
            assert page[index + offset][3:] in printed, page[index + offset]
