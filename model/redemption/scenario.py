"""Compact builders for cards and positions (for scenarios, tests and strategies)."""

from __future__ import annotations

from typing import Iterable, Mapping

from cardrules.model.redemption.state import Alignment, Card, CardType, Effect, Phase, State, Zones


def hero(card_id: str, owner: int, strength: int, toughness: int, brigades: Iterable[str] = ("blue",)) -> Card:
    return Card(card_id, CardType.CHARACTER, owner, Alignment.GOOD, frozenset(brigades), strength, toughness)


def evil(card_id: str, owner: int, strength: int, toughness: int, brigades: Iterable[str] = ("crimson",)) -> Card:
    return Card(card_id, CardType.CHARACTER, owner, Alignment.EVIL, frozenset(brigades), strength, toughness)


def good_enh(
    card_id: str, owner: int, strength: int = 0, toughness: int = 0, ability: Effect | None = None,
    brigades: Iterable[str] = ("blue",), stated_amount: tuple[int, int] | None = None,
) -> Card:
    """A good enhancement; ``stated_amount``: what a numbers redirect card states it moves."""
    return Card(card_id, CardType.ENHANCEMENT, owner, Alignment.GOOD, frozenset(brigades), strength, toughness,
                ability=ability, stated_amount=stated_amount)


def evil_enh(
    card_id: str, owner: int, strength: int = 0, toughness: int = 0, ability: Effect | None = None,
    brigades: Iterable[str] = ("crimson",), stated_amount: tuple[int, int] | None = None,
) -> Card:
    """An evil enhancement; ``stated_amount``: what a numbers redirect card states it moves."""
    return Card(card_id, CardType.ENHANCEMENT, owner, Alignment.EVIL, frozenset(brigades), strength, toughness,
                ability=ability, stated_amount=stated_amount)


def soul(card_id: str, owner: int) -> Card:
    return Card(card_id, CardType.LOST_SOUL, owner)


def position(
    cards: Iterable[Card],
    zones: Mapping[int, Mapping[str, Iterable[str]]],
    players: int,
    *,
    active: int = 0,
    phase: Phase = Phase.BATTLE,
) -> State:
    """A state with the given cards placed in the given zones (deck lists keep their order)."""
    per_player: list[Zones] = []
    for p in range(players):
        given = zones.get(p, {})
        per_player.append(
            Zones(
                hand=frozenset(given.get("hand", ())),
                deck=tuple(given.get("deck", ())),
                territory=frozenset(given.get("territory", ())),
                discard=frozenset(given.get("discard", ())),
                bondage=frozenset(given.get("bondage", ())),
                redemption=frozenset(given.get("redemption", ())),
            )
        )
    return State(cards=tuple(sorted(cards, key=lambda c: c.id)), zones=tuple(per_player), active=active, phase=phase)
