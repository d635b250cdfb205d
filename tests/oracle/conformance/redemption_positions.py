"""Shared steps of the Redemption targeted-position tests: a position by name, the game under a
rule set, a position reached by a play, and what the model lists, refuses or prompts there."""

from __future__ import annotations

from typing import Any

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.oracle.conformance.plan import make_plan
from cardrules.oracle.conformance.targeted import load_positions
from cardrules.properties.games import make_game


REVISED: dict[str, tuple[str, ...]] = {"heal": ("revised",)}
PREVIOUS: dict[str, tuple[str, ...]] = {"heal": ("previous",)}
WINDOW = "conformance-redemption-heal-in-side-battle-window"



def named_position(name: str) -> Any:
    [found] = [p for p in load_positions() if p.name == name]
    return found


def game_under(versions: dict[str, tuple[str, ...]], decisions: dict[str, str] | None = None) -> Any:
    return make_game("redemption", make_plan("redemption", versions, decisions or {}).spec)


def reach(game: Any, start: Any, *actions: str) -> Any:
    state = game.state_from_json(start)
    for text in actions:
        state = game.step(state, game.action_from_text(text))
    return state


def legal_texts(game: Any, state: Any) -> list[str]:
    return sorted(game.action_text(a) for a in game.legal_actions(state))


def refused_by(game: Any, state: Any, text: str) -> tuple[str, ...]:
    with pytest.raises(IllegalAction) as refused:
        game.step(state, game.action_from_text(text))
    return tuple(refused.value.clause_ids)


def heal_texts(game: Any, state: Any) -> list[str]:
    return [t for t in legal_texts(game, state) if t.startswith("heal ")]




def prompt_of(game: Any, state: Any) -> tuple[str, int]:
    prompt = game.state_to_json(state)["prompt"]
    return prompt["kind"], prompt["player"]

