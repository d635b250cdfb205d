"""A difference's shortest scenario as a ``cardrules-diff/1`` trace, in words, and replayed.

The trace (JSON): ``format``, ``game``, ``scenario`` (the embedded scenario, or the scope position
``<scope>#<n>``), both rule sets, ``kind``, ``clause_ids`` (the decisive clauses, or the candidates
when not narrowed: ``decisive`` says which, see :mod:`~cardrules.oracle.rulechange.decisive`), the
class (``action_kind``, ``field``), ``initial_state``, ``steps`` and the differing ``action`` with
what A and B do with it (``a`` and ``b``: ``legal``, and the state after it). A step where both
rule sets reach the same state records it as ``state``; once they have parted (a branch goes on
past a difference) it records ``state_a`` and ``state_b``.
:func:`~cardrules.oracle.rulechange.lockstep.replay_diff` plays the steps under both rule sets and
checks every recorded state and the difference.
"""

from __future__ import annotations

from typing import Any

from cardrules.oracle.rulechange.lockstep import FORMAT, Example
from cardrules.properties.engines.exploration import Game
from cardrules.properties.scenarios import RuleSetSpec, Scenario


def example_to_json(example: Example, game: str, scenario: Scenario, a: RuleSetSpec, b: RuleSetSpec) -> dict[str, Any]:
    """A ``cardrules-diff/1`` trace (see the module docstring)."""
    steps: list[dict[str, Any]] = []
    for action, state_a, state_b in example.prefix:
        steps.append({"action": action, "state": state_a} if state_b is None
                     else {"action": action, "state_a": state_a, "state_b": state_b})
    return {
        "format": FORMAT,
        "game": game,
        "scenario": scenario.name,
        "rule_set_a": a.to_json(),
        "rule_set_b": b.to_json(),
        "kind": example.kind,
        "clause_ids": list(example.clause_ids),
        "decisive": example.decisive.to_json(),
        "action_kind": example.action.split(" ", 1)[0],
        "field": example.field,
        "initial_state": dict(scenario.state),
        "steps": steps,
        "action": example.action,
        "a": {"legal": example.legal_a, "state": example.result_a},
        "b": {"legal": example.legal_b, "state": example.result_b},
    }


def narrative(example: Example, game: Game[Any, Any]) -> list[str]:
    """The distinguishing scenario in words: the steps, then what A and B do with the action."""
    lines = [f"{number}. {action}" + ("" if state_b is None else "   (A and B apart from here)" if
                                      number == 1 or example.prefix[number - 2][2] is None else "")
             for number, (action, _, state_b) in enumerate(example.prefix, 1)]
    if example.prefix and example.prefix[-1][2] is not None:
        lines.append(f"in, under A: {game.summary(game.state_from_json(example.prefix[-1][1]))}")
        lines.append(f"in, under B: {game.summary(game.state_from_json(example.prefix[-1][2]))}")
    else:
        where = game.summary(game.state_from_json(example.prefix[-1][1])) if example.prefix else "the start"
        lines.append(f"in: {where}")
    if example.parted:
        lines.append(f"(already differing: {', '.join(example.parted)})")
    if example.kind == "changed":
        lines.append(f"'{example.action}' is legal under both, with different results:")
        lines.append(f"  A -> {game.summary(game.state_from_json(example.result_a))}")
        lines.append(f"  B -> {game.summary(game.state_from_json(example.result_b))}")
        lines.append(f"  {example.field}: A {_shown(example.values[0])}, B {_shown(example.values[1])}")
    elif example.kind == "tightened":
        lines.append(f"'{example.action}' is legal under A and refused under B")
    else:
        lines.append(f"'{example.action}' is refused under A and legal under B")
    lines.append(f"decisive clause: {example.decisive.text()}")
    return lines


def _shown(value: Any) -> str:
    return "(none)" if value is None else repr(value)
