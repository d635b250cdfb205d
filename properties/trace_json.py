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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from cardrules.model.errors import ScenarioError
from cardrules.properties.core import Property
from cardrules.properties.explore import Exploration, Game

FORMAT = "cardrules-trace/1"


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


def replay(trace: Mapping[str, Any], game: Game[Any, Any]) -> ReplayResult:
    """Replay a trace on ``game``; ``ok`` when every recorded state is reproduced."""
    if trace.get("format") != FORMAT:
        raise ScenarioError("format", f"expected {FORMAT!r}, found {trace.get('format')!r}")
    steps = trace.get("steps")
    if not isinstance(steps, list):
        raise ScenarioError("steps", "expected a list")
    if not isinstance(trace.get("initial_state"), dict):
        raise ScenarioError("initial_state", "expected the model's JSON form of a state (an object)")
    state = game.state_from_json(trace["initial_state"])
    before = action = None
    for number, step in enumerate(steps):
        if not isinstance(step, dict) or "action" not in step or "state" not in step:
            raise ScenarioError(f"steps[{number}]", "expected an object with 'action' and 'state'")
        action = game.action_from_text(step["action"])
        before, state = state, game.step(state, action)
        expected = game.state_from_json(step["state"])
        if state != expected:
            return ReplayResult(False, f"steps[{number}] ({step['action']}): the model reaches a different state", state)
    return ReplayResult(True, f"{len(steps)} steps reproduced", state, before, action)
