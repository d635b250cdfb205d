"""Counterexample traces as JSON, and their replay on the model.

Format ``cardrules-trace/1``::

    {
      "format": "cardrules-trace/1",
      "game": "fftcg",
      "rule_set": {"versions": {"party": ["seed"]}, "decisions": {}},
      "property": "party-min-two",
      "statement": "...",
      "clause_ids": ["FF-PARTY-MIN-TWO"],
      "initial_state": {... the model's JSON form ...},
      "steps": [{"action": "<canonical action text>", "state": {...}}, ...]
    }

``steps[i].state`` is the state after ``steps[i].action``. Replaying applies
each action to the previous state with the model's ``step`` and requires the
recorded state, so a trace is also a conformance vector for another engine.

Bad input is a :class:`~model.errors.ScenarioError` naming the place
(``steps[3].state.players[1].forwards[0].power``): :func:`read_trace` for
the file (not UTF-8, not JSON, nested too deeply), :func:`check_envelope`
for the fields around the states, the game's parsers for states and
actions. A trace has at most :data:`MAX_STEPS` steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from cardrules.model.errors import ScenarioError, describe, json_from_file
from cardrules.properties.core import Property
from cardrules.properties.engines.exploration import Exploration, Game

FORMAT = "cardrules-trace/1"
MAX_STEPS = 10_000
"""Most steps a trace may have."""
MAX_TRACE_BYTES = 64_000_000
"""Largest trace file read."""
TEXT_FIELDS = ("format", "game", "property", "statement")


def trace_to_json(
    exploration: Exploration[Any, Any],
    name: str,
    game: Game[Any, Any],
    rule_set: Mapping[str, Any],
) -> dict[str, Any]:
    steps = exploration.counterexample(name)
    prop = exploration.violations[name].property
    return {
        "format": FORMAT,
        "game": exploration.game_name,
        "rule_set": rule_set,
        "property": prop.name,
        "statement": prop.statement,
        "clause_ids": list(prop.clause_ids),
        "initial_state": game.state_to_json(steps[0][1]),
        "steps": [{"action": game.action_text(a), "state": game.state_to_json(s)} for a, s in steps[1:]],
    }


@dataclass(frozen=True)
class ReplayResult:
    ok: bool
    message: str
    final_state: Any = None
    before_last: Any = None
    """The state before the last step (None for a trace with no step)."""
    last_action: Any = None

    def broken(self, prop: Property, game: Game[Any, Any]) -> bool:
        """Whether the replayed trace ends by breaking ``prop``: the last state, or the last step."""
        if prop.kind == "state":
            return not prop.check(game, self.final_state)
        if self.before_last is None:
            return False
        return not prop.check(game, self.before_last, self.last_action, self.final_state)


def read_trace(path: Path) -> dict[str, Any]:
    """The JSON object of a trace file; unreadable, non-UTF-8, malformed or too deep input is a ScenarioError."""
    data = json_from_file(path, str(path), MAX_TRACE_BYTES)
    if not isinstance(data, dict):
        raise ScenarioError(str(path), f"expected a JSON object, found {describe(data)}")
    return data


def check_envelope(trace: Any) -> list[Any]:
    """Check the fields around the states; returns the steps (ScenarioError naming the field otherwise)."""
    if not isinstance(trace, Mapping):
        raise ScenarioError("", f"a trace is a JSON object, found {describe(trace)}")
    if trace.get("format") != FORMAT:
        raise ScenarioError("format", f"expected {FORMAT!r}, found {describe(trace.get('format'))}")
    for key in TEXT_FIELDS:
        if key in trace and not isinstance(trace[key], str):
            raise ScenarioError(key, f"expected a string, found {describe(trace[key])}")
    clause_ids = trace.get("clause_ids", [])
    if not isinstance(clause_ids, list) or not all(isinstance(c, str) for c in clause_ids):
        raise ScenarioError("clause_ids", "expected an array of clause IDs")
    steps = trace.get("steps")
    if not isinstance(steps, list):
        raise ScenarioError("steps", f"expected a list, found {describe(steps)}")
    if len(steps) > MAX_STEPS:
        raise ScenarioError("steps", f"at most {MAX_STEPS:,} steps, found {len(steps):,}")
    if not isinstance(trace.get("initial_state"), dict):
        raise ScenarioError("initial_state", "expected the model's JSON form of a state (an object)")
    for number, step in enumerate(steps):
        if not isinstance(step, dict) or "action" not in step or "state" not in step:
            raise ScenarioError(f"steps[{number}]", "expected an object with 'action' and 'state'")
        unknown = sorted(set(step) - {"action", "state"})
        if unknown:
            raise ScenarioError(f"steps[{number}].{describe(unknown[0])}", "unknown field; known: action, state")
    return steps


def _state(game: Game[Any, Any], data: Any, where: str) -> Any:
    """A state read by the game's parser, errors prefixed with ``where``."""
    try:
        return game.state_from_json(data)
    except ScenarioError as error:
        raise ScenarioError(f"{where}.{error.where}" if error.where else where, error.problem) from None


def _action(game: Game[Any, Any], text: Any, where: str) -> Any:
    try:
        return game.action_from_text(text)
    except ScenarioError as error:
        raise ScenarioError(f"{where}.action", f"{error.where}: {error.problem}" if error.where != "action" else error.problem) from None


def replay(trace: Mapping[str, Any], game: Game[Any, Any]) -> ReplayResult:
    """Replay a trace on ``game``; ``ok`` when every recorded state is reproduced.

    Every state and action is read before any is played, so a malformed trace
    is reported as such (naming the place) even after a step that differs.
    """
    steps = check_envelope(trace)
    state = _state(game, trace["initial_state"], "initial_state")
    played = [(_action(game, step["action"], f"steps[{n}]"), _state(game, step["state"], f"steps[{n}].state"))
              for n, step in enumerate(steps)]
    before = action = None
    for number, (action, expected) in enumerate(played):
        before, state = state, game.step(state, action)
        if state != expected:
            shown = describe(steps[number]["action"])
            return ReplayResult(False, f"steps[{number}] ({shown}): the model reaches a different state", state)
    return ReplayResult(True, f"{len(steps)} steps reproduced", state, before, action)
