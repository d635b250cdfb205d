"""Generated bad input: valid traces, scenario files and catalogue files, mutated, through the real loaders.

Every example must end in success or the project's bad-input error naming the
place (exit 3 from the CLI), never another exception. Per-example time is
bounded by hypothesis's ``deadline`` (sizes are bounded up front by the
mutation strategies). ``HYPOTHESIS_PROFILE=fuzz`` runs 1,000 examples per
input kind (see tests/conftest.py).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.model.errors import ScenarioError
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import RuleSetSpec, load_scenario
from cardrules.specs.catalogue import CatalogueError, load

from tests.cli import run_cli
from tests.robustness.helpers import CATALOGUE_FILES, SCENARIO_FILES, TRACE_FILES, load_json, replay_library
from tests.robustness.mutate import mutated_bytes, mutated_document, mutated_toml
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("bad input gets a clean error, never a traceback")

PER_EXAMPLE = settings(deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""A generous per-example bound: an unbounded enumeration (the old blow-up) exceeds it by far."""

_WORK = Path(tempfile.mkdtemp(prefix="cardrules-robustness-"))


def _dump(doc: Any) -> bytes:
    return json.dumps(doc).encode("utf-8")


@pytest.mark.parametrize("game", sorted(TRACE_FILES))
@PER_EXAMPLE
@given(data=st.data())
def test_mutated_traces_replay_or_are_bad_input(game: str, data: st.DataObject) -> None:
    doc = data.draw(mutated_document(load_json(TRACE_FILES[game])), label="trace")
    raw = data.draw(mutated_bytes(_dump(doc), deep=True), label="bytes")
    path = _WORK / f"trace-{game}.json"
    path.write_bytes(raw)
    outcome = replay_library(path)
    assert outcome in ("ok", "failed") or outcome.startswith("bad input")
    run = run_cli("replay", str(path))
    assert run.code in (0, 1, 3), run
    if run.code == 3:
        assert str(path) in run.err and "Traceback" not in run.err, run.err
    count("traces", {0: "replayed", 1: "replayed, property broken", 3: "bad input"}[run.code])


@pytest.mark.parametrize("source", SCENARIO_FILES, ids=lambda p: p.stem)
@PER_EXAMPLE
@given(data=st.data())
def test_mutated_scenarios_load_or_name_file_and_field(source: Path, data: st.DataObject) -> None:
    doc = data.draw(mutated_document(load_json(source)), label="scenario")
    raw = data.draw(mutated_bytes(_dump(doc)), label="bytes")
    path = _WORK / source.name
    path.write_bytes(raw)
    try:
        load_scenario(path)
    except ScenarioError as error:
        assert error.where.startswith(source.name), error
        count("scenario files", "bad input")
        return
    count("scenario files", "loaded")


def _states(game: str) -> list[Any]:
    """Valid states of ``game``: every state of its trace, and its scenarios' start positions."""
    trace = load_json(TRACE_FILES[game])
    scenarios = [load_json(path)["state"] for path in SCENARIO_FILES if path.name.startswith(game)]
    return [trace["initial_state"], *(step["state"] for step in trace["steps"]), *scenarios]


STATES: dict[str, list[Any]] = {game: _states(game) for game in TRACE_FILES}
RULE_SETS: dict[str, list[RuleSetSpec]] = {
    game: [spec for path in SCENARIO_FILES if path.name.startswith(game)
           for spec in (*load_scenario(path).rule_sets, *load_scenario(path).mutants)]
    for game in TRACE_FILES
}
"""Every rule set and mutant of the game's scenarios (the split-in-hundreds mutant enumerates the most)."""
MAX_ACTIONS = 40
"""Legal actions stepped per accepted state (the first ones, in the model's order)."""


@pytest.mark.parametrize("game", sorted(TRACE_FILES))
@PER_EXAMPLE
@given(data=st.data())
def test_states_the_parser_accepts_are_playable(game: str, data: st.DataObject) -> None:
    """A state that gets past the parser never crashes the model: its legal actions are listed and each is played.

    The mutations keep types mostly right (swapped ids, nudged numbers, dropped
    or duplicated items), so they reach the reference and range checks.
    """
    original = data.draw(st.sampled_from(STATES[game]), label="state")
    doc = data.draw(mutated_document(original, semantic=True), label="mutated")
    play = make_game(game, data.draw(st.sampled_from(RULE_SETS[game]), label="rule set"))
    try:
        state = play.state_from_json(doc)
    except ScenarioError as error:
        assert error.where or not isinstance(doc, dict), error  # only the root itself has no path
        count("states", "bad input")
        return
    for action in list(play.legal_actions(state))[:MAX_ACTIONS]:
        after = play.step(state, action)
        play.legal_actions(after)
        play.is_terminal(after)
    count("states", "loaded and played")


@pytest.fixture(scope="module")
def catalogue_copy() -> Path:
    directory = _WORK / "catalogue"
    shutil.rmtree(directory, ignore_errors=True)
    shutil.copytree(CATALOGUE_FILES[0].parent, directory)
    return directory


@PER_EXAMPLE
@given(data=st.data())
def test_mutated_catalogue_files_load_or_name_the_file(data: st.DataObject, catalogue_copy: Path) -> None:
    """One catalogue file at a time is broken; the loader the CLI uses (``--catalogue DIR``) reads the folder.

    (The CLI maps CatalogueError to exit 3: test_regressions checks it once.)
    """
    source = data.draw(st.sampled_from(CATALOGUE_FILES), label="file")
    text = data.draw(mutated_toml(source.read_text(encoding="utf-8")), label="toml")
    raw = data.draw(mutated_bytes(text.encode("utf-8")), label="bytes")
    target = catalogue_copy / source.name
    try:
        target.write_bytes(raw)
        try:
            load(catalogue_copy)
        except CatalogueError as error:
            assert error.file and str(error).startswith(error.file), error
            count("catalogue files", "bad input")
            return
        count("catalogue files", "loaded")
    finally:
        target.write_bytes(source.read_bytes())
