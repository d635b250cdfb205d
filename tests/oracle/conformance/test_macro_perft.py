"""Perft under declared macro steps: an engine that resolves Damage Resolution within the action before it
counts the model's tree with that ``pass`` contracted (FF-BASE-ATTACK-STEPS).

The position: P0 attacks with a1 (3000) and P1, whose only Forward b1 is dull, has declared no block; the
window after the block is open: P0 may pass, or either player may remove a1 or b1 (three actions). In the
model, passing leads into Damage Resolution, where the one thing to do is to pass again (1 action below
``pass``). An engine that merged that step is already in the Combat End Step after ``pass``: its window
allows the pass and the removal of either Forward still on the field (3 actions below ``pass``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from cardrules.oracle.conformance.macro_perft import contracted_perft
from cardrules.oracle.conformance.runner import run_adapter
from cardrules.oracle.conformance.targeted import POSITIONS_DIR
from cardrules.oracle.conformance.vectors import perft_from
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import RuleSetSpec
from cardrules.properties.scenarios.loader import load_scenario
from .conftest import ADAPTERS

pytestmark = pytest.mark.clause("FF-BASE-ATTACK-STEPS")

DEFAULT = RuleSetSpec("default", {}, {})
MACRO = "fftcg:damage-resolution"


def after_the_block_window() -> tuple[dict[str, Any], dict[str, Any]]:
    """A suite holding one depth-2 perft vector from the open window after ``noblock``."""
    scenario = load_scenario(POSITIONS_DIR / "conformance-fftcg-end-turn-dull-forwards.json")
    game = make_game("fftcg", DEFAULT)
    state = game.state_from_json(scenario.state)
    for text in ("attack a1", "pass", "noblock"):
        state = game.step(state, game.action_from_text(text))
    vector = perft_from(game, state, scenario.name, frozenset({"FF-BASE-ATTACK-STEPS"}), 2, "window")
    assert vector is not None
    suite = {"format": "cardrules-vectors/4", "suite": "fftcg-default", "game": "fftcg",
             "rule_set": {"expression": "default", "versions": {}, "decisions": {}},
             "clauses_in_force": ["FF-BASE-ATTACK-STEPS"], "vectors": [vector]}
    return suite, vector


def test_the_damage_pass_is_contracted_into_the_pass_before_it() -> None:
    suite, vector = after_the_block_window()
    assert sorted(vector["divide"]) == ["pass", "remove a1", "remove b1"]
    assert vector["divide"]["pass"] == 1  # the model: Damage Resolution, pass again
    nodes, divide = contracted_perft(suite, vector, {MACRO})
    assert divide["pass"] == 3  # merged: the Combat End Step's pass, remove a1, remove b1
    assert {a: n for a, n in divide.items() if a != "pass"} == {a: n for a, n in vector["divide"].items() if a != "pass"}
    assert nodes == [3, sum(divide.values())]
    assert contracted_perft(suite, vector, set()) == (vector["nodes"], vector["divide"])


def merging_engine(declares: bool) -> list[str]:
    spec = {"merge": True, "macro_steps": [MACRO]}
    if not declares:  # merges all the same, but says nothing of it
        spec = {"merge": True, "macro_steps": [], "merged": [MACRO]}
    return [sys.executable, str(ADAPTERS / "protocol_declaring.py"), json.dumps(spec)]


def test_an_engine_that_declares_the_macro_step_passes_the_perft_vector() -> None:
    suite, _ = after_the_block_window()
    [result] = run_adapter(merging_engine(True), [suite], 10.0).results
    assert result.verdict == "pass", (result.where, result.expected, result.got)


def test_an_engine_that_merges_without_declaring_it_fails_on_the_divide_of_pass() -> None:
    suite, _ = after_the_block_window()
    [result] = run_adapter(merging_engine(False), [suite], 10.0).results
    assert result.verdict == "fail"
    assert [row[0] for row in result.divide] == ["pass"]
