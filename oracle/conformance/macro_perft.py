"""Perft counts as an engine that merges declared macro steps sees them (FF-BASE-ATTACK-STEPS).

A perft vector counts the model's action sequences, one ``pass`` per part of Damage Resolution and of the
Combat End Step included. An engine that declared such a step a macro step (:mod:`.macro`) resolves it
within the action before it, so its tree has no node inside the step: the sequence ``block b1, pass, pass``
of the model is ``block b1`` there. The runner then holds the engine to the counts of the model's tree with
every merged action contracted into the action before it, computed here from the vector's start position
under the suite's rule set; a vector whose start is itself inside a declared macro step is not sent (the
engine never stops there).
"""

from __future__ import annotations

from typing import Any, Iterable

from cardrules.oracle.conformance.adapter import rule_set_spec
from cardrules.oracle.conformance.macro import MACRO_STEPS, merged
from cardrules.properties.engines.exploration import Game
from cardrules.properties.games import make_game


def declares_for(game: str, declared: Iterable[str]) -> tuple[str, ...]:
    """The declared macro steps that are the game's."""
    return tuple(sorted(n for n in declared if n in MACRO_STEPS and MACRO_STEPS[n].game == game))


def _game(suite: dict[str, Any]) -> Game[Any, Any]:
    return make_game(suite["game"], rule_set_spec(suite.get("rule_set") or {}))


def _settled(game: Game[Any, Any], name: str, declared: tuple[str, ...], state: Any) -> Any:
    """``state`` after the merged actions the engine takes by itself: while the position's only legal
    action is one a declared macro step merges, it is taken."""
    while not game.is_terminal(state):
        actions = list(game.legal_actions(state))
        if len(actions) != 1 or not merged(name, declared, game.state_to_json(state), game.action_text(actions[0])):
            return state
        state = game.step(state, actions[0])
    return state


def contracted_perft(suite: dict[str, Any], vector: dict[str, Any],
                     declared: Iterable[str]) -> tuple[list[int], dict[str, int]]:
    """Node counts per depth (1 to the vector's depth) and the divide (leaves below each first action) of
    the perft vector's tree with the declared macro steps merged."""
    game, name = _game(suite), suite["game"]
    steps = declares_for(name, declared)
    depth = int(vector["depth"])

    def children(state: Any) -> list[tuple[str, Any]]:
        if game.is_terminal(state):
            return []
        return [(game.action_text(a), _settled(game, name, steps, game.step(state, a)))
                for a in game.legal_actions(state)]

    def counts(state: Any, remaining: int) -> list[int]:
        out = [0] * remaining
        for _, child in children(state):
            out[0] += 1
            for level, count in enumerate(counts(child, remaining - 1) if remaining > 1 else [], 1):
                out[level] += count
        return out

    root = game.state_from_json(vector["state"])
    nodes = [0] * depth
    divide: dict[str, int] = {}
    for action, child in children(root):
        below = counts(child, depth - 1) if depth > 1 else []
        nodes[0] += 1
        for level, count in enumerate(below, 1):
            nodes[level] += count
        divide[action] = below[-1] if below else 1
    return nodes, dict(sorted(divide.items()))
