"""Shared scenario helpers for the Redemption tests (hand-built positions)."""

from __future__ import annotations

from typing import Iterable, Mapping

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import parse
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Card, Effect, State


def game(
    players: int,
    cards: Iterable[Card] = (),
    zones: Mapping[int, Mapping[str, Iterable[str]]] | None = None,
    *,
    blockers: str = "e0",
    attackers: str = "h0",
    config: RuleConfig = DEFAULT,
) -> State:
    """Player 0's battle phase: ``h0`` (p0 Hero 1/5) attacks player 1, who
    blocks with ``e0`` (p1 Evil 1/5) unless told otherwise. 1 vs 5 both ways:
    nobody is defeated, a stalemate, and p1 (the blocker) played last, so p0
    holds initiative. ``sb0`` (p0, good, blue, side battle, 0/0) is in p0's hand.
    """
    base = [hero("h0", 0, 1, 5), evil("e0", 1, 1, 5), good_enh("sb0", 0, ability=Effect.SIDE_BATTLE)]
    ids = {c.id for c in cards}
    all_cards = [c for c in base if c.id not in ids] + list(cards)
    merged: dict[int, dict[str, list[str]]] = {p: {} for p in range(players)}
    merged[0] = {"territory": ["h0"], "hand": ["sb0"]}
    merged[1] = {"territory": ["e0"]}
    for p, given in (zones or {}).items():
        for zone, listed in given.items():
            merged[p].setdefault(zone, [])
            merged[p][zone] = list(dict.fromkeys([*merged[p][zone], *listed]))
    state = position(all_cards, merged, players)
    state = act(state, f"attack 1 {attackers}", config)
    return act(state, f"block {blockers}", config)


def act(state: State, text: str, config: RuleConfig = DEFAULT) -> State:
    """Apply one action; it must also be listed by legal_actions."""
    action = parse(text)
    assert action in legal_actions(state, config), f"{text!r} not in {[a.text() for a in legal_actions(state, config)]}"
    return step(state, action, config)


def acts(state: State, texts: Iterable[str], config: RuleConfig = DEFAULT) -> State:
    for text in texts:
        state = act(state, text, config)
    return state


def illegal(state: State, text: str, clause: str, config: RuleConfig = DEFAULT) -> IllegalAction:
    """The action is not listed and step raises IllegalAction citing ``clause``."""
    action = parse(text)
    assert action not in legal_actions(state, config)
    with pytest.raises(IllegalAction) as info:
        step(state, action, config)
    assert clause in info.value.clause_ids, info.value
    return info.value


def side_cards(battle_sides: tuple) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(tuple(f.card for f in side) for side in battle_sides)  # type: ignore[return-value]


def medic(card_id: str, owner: int, strength: int, toughness: int, *, tc: bool = False, brigades: Iterable[str] = ("blue",)) -> Card:
    """A Hero with a heal ability (Territory Class if ``tc``)."""
    from cardrules.model.redemption.state import Alignment, CardType

    return Card(
        card_id, CardType.CHARACTER, owner, Alignment.GOOD, frozenset(brigades), strength, toughness,
        territory_class=tc, ability=Effect.HEAL,
    )


def texts(state: State, config: RuleConfig = DEFAULT) -> list[str]:
    """The canonical texts of the legal actions."""
    return [a.text() for a in legal_actions(state, config)]


PREVIOUS = RuleConfig(heal_version="previous")
"""The previous heal wording, every other decision at its catalogue choice."""
