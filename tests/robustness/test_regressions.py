"""Each known crash on bad input is now a clean error naming the place: exit 3 from the CLI."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.actions import parse_action
from cardrules.model.fftcg.state import MAX_SPLITS
from cardrules.model.fftcg.validate import load_state as load_ff_state
from cardrules.model.redemption.actions import parse
from cardrules.model.redemption.validate import load_state as load_red_state
from cardrules.properties.scenarios import load_scenario
from cardrules.properties.engines.trace_json import read_trace
from cardrules.specs.catalogue import CATALOGUE_DIR, CatalogueError, load

from tests.cli import run_cli
from tests.robustness.helpers import TRACE_FILES, load_json, replay_library
from tests.paths import REPO

DEEP = 100_000


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _replay_exits_3(tmp_path: Path, trace: Any, place: str) -> str:
    path = _write(tmp_path, "trace.json", trace)
    run = run_cli("replay", str(path))
    assert run.code == 3, run
    assert str(path) in run.err and place in run.err, run.err
    return run.err


def _trace(game: str) -> dict[str, Any]:
    return copy.deepcopy(load_json(TRACE_FILES[game]))


@pytest.mark.clause("RED-BASE-TURN-PHASES")
def test_deep_json_trace_is_bad_input_for_the_library(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(b"[" * DEEP)
    with pytest.raises(ScenarioError, match="deep.json: not valid JSON here: arrays or objects nested more than 100 deep"):
        read_trace(path)
    assert replay_library(path).startswith("bad input")


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
@pytest.mark.parametrize("raw", [b"[" * DEEP, b'{"a": ' + b"1" * 5000 + b"}"], ids=["deep", "long-int"])
def test_cli_replay_of_unparseable_json_exits_3(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    assert run_cli("replay", str(path)).code == 3


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
@pytest.mark.parametrize("raw", [b"[" * DEEP, b"\xff\xfe{}", b'{"a": ' + b"1" * 5000 + b"}"], ids=["deep", "not-utf8", "long-int"])
def test_unreadable_scenario_file_names_the_file(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(raw)
    with pytest.raises(ScenarioError, match=r"^x\.json: (line \d+, column \d+: )?not (valid JSON|UTF-8)"):
        load_scenario(path)


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
@pytest.mark.parametrize("raw", [b"a = " + b"[" * DEEP, b"a = " + b"{b = " * 5000, b"a = '\xff'"], ids=["array", "table", "not-utf8"])
def test_unreadable_catalogue_file_exits_3(tmp_path: Path, raw: bytes) -> None:
    directory = tmp_path / "catalogue"
    shutil.copytree(CATALOGUE_DIR, directory)
    (directory / "heal.toml").write_bytes(raw)
    with pytest.raises(CatalogueError, match=r"^heal\.toml: (not valid TOML here: arrays or tables nested more than 100 deep|line \d+, column \d+: not UTF-8)"):
        load(directory)
    run = run_cli("--catalogue", str(directory), "clauses")
    assert run.code == 3 and "heal.toml" in run.err


@pytest.mark.clause("RED-BASE-TURN-PHASES")
def test_redemption_action_that_is_not_text(tmp_path: Path) -> None:
    trace = _trace("redemption")
    trace["steps"][0]["action"] = 5
    assert "steps[0].action: expected text, found 5" in _replay_exits_3(tmp_path, trace, "steps[0].action")


@pytest.mark.clause("FF-BASE-MULTI-ELEMENT")
def test_fftcg_element_that_is_not_a_string(tmp_path: Path) -> None:
    trace = _trace("fftcg")
    trace["initial_state"]["players"][0]["forwards"][0]["elements"] = [["fire"]]
    _replay_exits_3(tmp_path, trace, "initial_state.players[0].forwards[0].elements[0]: expected an element name")


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_redemption_prompt_record_must_exist(tmp_path: Path) -> None:
    trace = _trace("redemption")
    trace["steps"][5]["state"]["prompt"]["record"] = 9
    _replay_exits_3(tmp_path, trace, "steps[5].state.prompt.record: expected the number of a play record, found 9")


@pytest.mark.clause("RED-BR-RETURN-PERMANENT-CONTROLLER")
def test_redemption_permanent_controller_must_be_a_player(tmp_path: Path) -> None:
    trace = _trace("redemption")
    trace["steps"][0]["state"]["battles"][0]["sides"][0][0]["permanent"] = 5
    _replay_exits_3(tmp_path, trace, "steps[0].state.battles[0].sides[0][0].permanent: no player 5")


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
@pytest.mark.parametrize("power", [10**20, 100_000, -(10**6)])
def test_fftcg_power_out_of_range(tmp_path: Path, power: int) -> None:
    trace = _trace("fftcg")
    trace["initial_state"]["players"][1]["forwards"][0]["power"] = power
    _replay_exits_3(tmp_path, trace, "initial_state.players[1].forwards[0].power: must be between -99999 and 99999")


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_fftcg_split_enumeration_is_bounded() -> None:
    state = load_json(TRACE_FILES["fftcg"])["initial_state"]
    for forward in state["players"][1]["forwards"]:
        forward["power"] = 99_000
    state["players"][0]["forwards"] += [
        {"id": f"z{i}", "name": "Extra", "elements": ["fire"], "cost": 1, "power": 1000} for i in range(3)
    ]
    with pytest.raises(ScenarioError, match=rf"players\[1\]\.forwards\[0\]\.power: .*MAX_SPLITS = {MAX_SPLITS:,}"):
        load_ff_state(state)


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"bounds": []}, "x.json: bounds: expected an object"),
        ({"mutants": None}, "x.json: mutants: expected an array of rule sets"),
        ({"bounds": {"max_states": True}}, "x.json: bounds.max_states"),
        ({"bounds": {"max_turns": 10**12}}, "x.json: bounds.max_turns"),
        ({"rule_sets": [{"name": "r", "decisions": {"no-such-decision": "x"}}]}, "x.json: rule_sets[0].decisions"),
        ({"description": 5}, "x.json: description: expected a string"),
    ],
)
def test_malformed_scenario_fields(tmp_path: Path, change: dict[str, Any], where: str) -> None:
    good = load_json(REPO / "properties" / "scenarios" / "fftcg-party-basics.json")
    path = _write(tmp_path, "x.json", {**good, "name": "x", **change})
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value).startswith(where), caught.value


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_scenario_state_is_checked_on_load(tmp_path: Path) -> None:
    good = load_json(REPO / "properties" / "scenarios" / "fftcg-party-basics.json")
    good["state"]["players"][1]["forwards"][0]["power"] = 10**12
    path = _write(tmp_path, "fftcg-party-basics.json", good)
    with pytest.raises(ScenarioError, match=r"^fftcg-party-basics\.json: state\.players\[1\]\.forwards\[0\]\.power: must be between"):
        load_scenario(path)


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
@pytest.mark.parametrize("text", ["split a1=²", "split a1=" + "9" * 5000, "attack " + "a" * 100_000])
def test_fftcg_action_text_limits(text: str) -> None:
    with pytest.raises(ScenarioError):
        parse_action(text)


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
@pytest.mark.parametrize("text", ["attack ² h1", "play g1 on h1 -> #²", "attack " + "9" * 5000 + " h1", 7, None])
def test_redemption_action_text_limits(text: Any) -> None:
    with pytest.raises(ScenarioError):
        parse(text)


@pytest.mark.infrastructure("bad input gets a clean error, never a traceback")
def test_redemption_numbers_bounded() -> None:
    state = load_json(TRACE_FILES["redemption"])["initial_state"]
    state["cards"][0]["strength"] = 10**20
    with pytest.raises(ScenarioError, match=r"cards\[0\]\.strength: must be between"):
        load_red_state(state)
