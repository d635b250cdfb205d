"""Shared pieces of the robustness tests: the valid inputs, and running the real loaders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardrules.model.errors import IllegalAction, ScenarioError
from cardrules.properties.engines.trace_json import read_trace, replay
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import SCENARIO_DIR, parse_rule_set
from cardrules.specs.catalogue import CATALOGUE_DIR

DATA = Path(__file__).parent / "data"
TRACE_FILES: dict[str, Path] = {"fftcg": DATA / "fftcg-trace.json", "redemption": DATA / "redemption-trace.json"}
"""Counterexample traces written by ``cardrules explore --json`` (split-in-hundreds and two-side-battles-per-turn mutants)."""
SCENARIO_FILES: tuple[Path, ...] = tuple(sorted(SCENARIO_DIR.glob("*.json")))
CATALOGUE_FILES: tuple[Path, ...] = tuple(sorted(CATALOGUE_DIR.glob("*.toml")))


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def replay_library(path: Path) -> str:
    """The replay path of ``cardrules replay`` through the library: 'ok', 'failed' or the bad-input message.

    Raises anything but the project's bad-input error (ScenarioError) and a refused step (IllegalAction).
    """
    try:
        trace = read_trace(path)
        rule_set = parse_rule_set(trace.get("rule_set") or {"name": "trace"}, "rule_set", mutant=False, lenient_name=True)
        result = replay(trace, make_game(trace.get("game"), rule_set))
    except ScenarioError as error:
        assert str(error).strip(), "a bad-input error has a message"
        assert error.where, f"a bad-input error names the place: {error}"
        return f"bad input: {error}"
    except IllegalAction:
        return "failed"
    return "ok" if result.ok else "failed"
