"""Small builders for hand-written FFTCG positions."""

from __future__ import annotations

from typing import Any

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.model.fftcg.actions import parse_action
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import Forward, Player, State, Step

DEFAULT = RuleConfig()


def fw(forward_id: str, elements: str = "fire", power: int = 5000, cost: int = 3, **fields: Any) -> Forward:
    """A Forward; ``elements`` is a '/'-separated list such as ``"fire/ice"``."""
    return Forward(
        id=forward_id,
        name=forward_id.upper(),
        elements=frozenset(elements.split("/")),
        cost=cost,
        power=power,
        **fields,
    )


def position(
    mine: list[Forward],
    theirs: list[Forward],
    *,
    step: Step = Step.DECLARATION,
    damage: tuple[int, int] = (0, 0),
) -> State:
    """Player 0 (to attack) has ``mine``, player 1 ``theirs``."""
    return State(
        players=(Player(damage=damage[0], forwards=tuple(mine)), Player(damage=damage[1], forwards=tuple(theirs))),
        turn_player=0,
        step=step,
    )


def play(state: State, *texts: str, config: RuleConfig = DEFAULT) -> State:
    """Apply actions given as text, in order."""
    for text in texts:
        state = step(state, parse_action(text), config)
    return state


def legal_texts(state: State, config: RuleConfig = DEFAULT) -> list[str]:
    return [str(a) for a in legal_actions(state, config)]


def assert_illegal(state: State, text: str, clause_id: str, config: RuleConfig = DEFAULT) -> IllegalAction:
    """``text`` is illegal, cites ``clause_id``, and is not among the legal actions."""
    assert text not in legal_texts(state, config)
    with pytest.raises(IllegalAction) as info:
        step(state, parse_action(text), config)
    assert clause_id in info.value.clause_ids, info.value
    return info.value


def field_ids(state: State, player: int) -> list[str]:
    return [f.id for f in state.players[player].forwards]


def broken_ids(state: State, player: int) -> list[str]:
    return [f.id for f in state.players[player].break_zone]


def events(state: State, kind: str) -> list[tuple[tuple[str, ...], str, int]]:
    return [(e.sources, e.target, e.amount) for e in state.events if e.kind == kind]


def cfg(**choices: str) -> RuleConfig:
    """``cfg(party_last_member="removed-from-combat")``: underscores become dashes."""
    return RuleConfig.of({k.replace("_", "-"): v for k, v in choices.items()})

