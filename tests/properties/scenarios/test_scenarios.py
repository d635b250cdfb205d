"""The embedded scenarios load, and malformed scenario files are reported by file and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import load_scenario, load_scenarios

pytestmark = pytest.mark.infrastructure("the embedded scenario files and their loader")


def test_embedded_scenarios_cover_both_games_and_load_as_states() -> None:
    scenarios = load_scenarios()
    assert {s.game for s in scenarios} == {"fftcg", "redemption"}
    assert len(scenarios) >= 6
    for s in scenarios:
        for rule_set in (*s.rule_sets, *s.mutants):
            game = make_game(s.game, rule_set)
            assert game.state_to_json(game.state_from_json(s.state)) == game.state_to_json(game.state_from_json(s.state))
    assert all(s.mutants for s in scenarios if s.game == "fftcg")


GOOD = {"name": "x", "game": "fftcg", "description": "d", "state": {}}


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        ({"game": "chess"}, "x.json: game", "unknown game 'chess'"),
        ({"name": "y"}, "x.json: name", "must equal the file name"),
        ({"bounds": {"max_turns": -1}}, "x.json: bounds.max_turns", "non-negative"),
        ({"mutants": [{"name": "m", "decisions": {}}]}, "x.json: mutants[0].expect_violated", "must violate"),
        ({"rule_sets": [{"name": "r", "colour": 1}]}, "x.json: rule_sets[0].colour", "unknown field"),
    ],
)
def test_bad_scenarios_name_file_and_field(tmp_path: Path, change: dict, where: str, problem: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({**GOOD, **change}))
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value).startswith(where) and problem in str(caught.value)


def test_missing_field_and_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"name": "x", "game": "fftcg"}))
    with pytest.raises(ScenarioError, match="x.json: description: missing required field"):
        load_scenario(path)
    path.write_text("{")
    with pytest.raises(ScenarioError, match="x.json: line 1, column 2: not valid JSON"):
        load_scenario(path)
