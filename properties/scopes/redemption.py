"""Redemption start positions of a scope: the start of the turn player's battle phase.

A position is what the turn player (seat 0, the *active* seat) faces when the
battle phase begins: characters already in the territories, Lost Souls in the
Lands of Bondage, enhancements (and characters) in hand, no battle yet, no play
record, turn 1. Every zone of every seat is filled with a multiset of the
scope's printed cards (:func:`zone_choices`); a card owned by another player
(``owner = "other"``: the next seat's for the active seat, the active seat's
for the others) is a character whose owner is not its permanent controller.

Why such a position is reachable in a real game: characters and Lost Souls
reach the territories and the Land of Bondage in the phases before battle
(drawing, putting characters into play), hands hold what was drawn, and the
battle phase begins with nothing played in it yet; a character in the
territory of a player who does not own it is where control of it lies after
a side battle returned it to its permanent controller, or after an ability
that takes control (both part of a real game; the model abstracts how). Only a
scope that says it starts mid-game (``start.mid_game``) adds what happened
earlier in the same turn: statuses on characters in a territory, side battles
the turn player already initiated (after a main battle, so one main battle
was started).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product
from math import comb, prod
from string import ascii_lowercase
from typing import Any, Iterator, Mapping, Sequence

from cardrules.model.redemption.state import Card
from cardrules.model.redemption.jsonform import from_jsonable
from cardrules.properties.scopes.errors import ScopeError

SEATS = ("active", "defender", "others")
ZONE_KIND = {"territory": ("character",), "bondage": ("lost-soul",), "redemption": ("lost-soul",),
             "hand": ("character", "enhancement")}
"""The card types each zone may hold."""


def check_cards(scope: Any, where: str) -> None:
    """Each printed card is a valid model card, and each zone holds only the types it may."""
    for name, template in sorted(scope.cards.items()):
        try:
            from_jsonable(Card, _card_json(name, template, 0))
        except ValueError as error:
            raise ScopeError(f"{where}: cards.{name}: {error}") from None
    for i, zone in enumerate(scope.zones):
        for j, name in enumerate(zone["cards"]):
            kind = scope.cards[name]["type"]
            if kind not in ZONE_KIND[zone["zone"]]:
                raise ScopeError(f"{where}: zones[{i}].cards[{j}]: a {kind} cannot be in a {zone['zone']} "
                                 f"(it holds: {', '.join(ZONE_KIND[zone['zone']])})")
            if zone.get("owner") == "other" and kind != "character":
                raise ScopeError(f"{where}: zones[{i}].owner: only a character can be controlled by a player "
                                 "who does not own it")


def _card_json(card_id: str, template: Mapping[str, Any], owner: int) -> dict[str, Any]:
    lost = template["type"] == "lost-soul"
    return {
        "id": card_id, "type": template["type"], "owner": owner,
        "alignment": None if lost else template.get("alignment"),
        "brigades": [] if lost else sorted(template.get("brigades", [])),
        "strength": template.get("strength", 0), "toughness": template.get("toughness", 0),
        "territory_class": template.get("territory_class", False), "ability": template.get("ability"),
        "stated_amount": template.get("stated_amount"),
    }


def zone_choices(names: Sequence[str], count: Sequence[int]) -> list[tuple[str, ...]]:
    """Every multiset of ``names`` (identical copies are one card several times) of a size in ``count``."""
    low, high = count
    return [combo for size in range(low, high + 1) for combo in combinations_with_replacement(names, size)]


def candidates(scope: Any) -> int:
    """How many positions the domains give before symmetry (an upper bound with mid-game statuses)."""
    total = 0
    domains = scope.extra.get("mid_game", {}) if scope.mid_game else {}
    for players in scope.players:
        slots = _slots(scope, players)
        zones = prod(sum(comb(len(z["cards"]) + k - 1, k) for k in range(z["count"][0], z["count"][1] + 1))
                     for _, z in slots)
        characters = sum(z["count"][1] for _, z in slots if z["zone"] == "territory")
        marks = (1 + len(domains.get("statuses", []))) ** characters if domains.get("statuses") else 1
        total += zones * marks * len(domains.get("side_battles", [0]))
    return total


def _slots(scope: Any, players: int) -> list[tuple[int, Mapping[str, Any]]]:
    """(seat, zone entry) for every zone entry of the scope, for each seat it applies to."""
    out: list[tuple[int, Mapping[str, Any]]] = []
    for zone in scope.zones:
        seats = {"active": [0], "defender": [1], "others": list(range(2, players))}[zone["seat"]]
        out.extend((seat, zone) for seat in seats)
    return out


def _owner(seat: int, zone: Mapping[str, Any], players: int) -> int:
    if zone.get("owner", "self") == "self":
        return seat
    return 1 if seat == 0 else 0


def build_state(scope: Any, players: int, choice: Sequence[tuple[str, ...]],
                slots: Sequence[tuple[int, Mapping[str, Any]]]) -> dict[str, Any]:
    """The JSON form of the position where each slot holds the cards ``choice`` gives it (ids ``NAME-pOWNER``,
    then ``b``, ``c``... for further copies of the same card and owner)."""
    cards: list[dict[str, Any]] = []
    zones: list[dict[str, list[str]]] = [
        {"hand": [], "deck": [], "territory": [], "discard": [], "bondage": [], "redemption": []}
        for _ in range(players)
    ]
    used: dict[str, int] = {}
    for (seat, zone), names in zip(slots, choice):
        owner = _owner(seat, zone, players)
        for name in names:
            base = f"{name}-p{owner}"
            copy = used.get(base, 0)
            used[base] = copy + 1
            card_id = base if copy == 0 else f"{base}{ascii_lowercase[copy]}"
            cards.append(_card_json(card_id, scope.cards[name], owner))
            zones[seat][zone["zone"]].append(card_id)
    for z in zones:
        for key in ("hand", "territory", "bondage", "redemption"):
            z[key].sort()
    return {
        "cards": sorted(cards, key=lambda c: c["id"]), "zones": zones, "active": 0, "turn": 1, "phase": "battle",
        "battles": [], "prompt": None, "records": [], "statuses": [], "battles_started": 0,
        "side_battles": [0] * players, "next_battle": 1, "next_record": 1, "last_outcome": None,
        "last_mission": None, "winner": None, "decreased": [], "discards": [], "searches": [], "placed": [],
    }


def _mid_game(scope: Any, state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The position, with each combination of the mid-game domains (none unless the scope starts mid-game)."""
    domains = scope.extra.get("mid_game", {}) if scope.mid_game else {}
    statuses = [None, *domains.get("statuses", [])]
    initiated = domains.get("side_battles", [0])
    characters = sorted(c for z in state["zones"] for c in z["territory"])
    for marks in product(statuses, repeat=len(characters) if len(statuses) > 1 else 0):
        for count in initiated:
            out = dict(state)
            out["statuses"] = sorted([c, s] for c, s in zip(characters, marks) if s is not None)
            out["side_battles"] = [count, *state["side_battles"][1:]]
            if count:
                out["battles_started"], out["next_battle"] = 1, 2 + count
            yield out


def positions(scope: Any) -> Iterator[dict[str, Any]]:
    """Every position of the scope as JSON, in a fixed order (player count, then zone choices in the scope's
    zone order); equivalent ones are dropped by the caller."""
    for players in scope.players:
        slots = _slots(scope, players)
        options = [zone_choices(zone["cards"], zone["count"]) for _, zone in slots]
        for choice in product(*options):
            yield from _mid_game(scope, build_state(scope, players, choice, slots))


def summary(state: Mapping[str, Any]) -> str:
    """One line: each seat's territory, hand and Land of Bondage."""
    parts = []
    for seat, zones in enumerate(state["zones"]):
        held = [f"{k} {' '.join(zones[k])}" for k in ("territory", "hand", "bondage") if zones[k]]
        parts.append(f"P{seat}: {'; '.join(held) or 'nothing'}")
    if state["statuses"]:
        parts.append("statuses " + " ".join(f"{c}={s}" for c, s in state["statuses"]))
    if any(state["side_battles"]):
        parts.append(f"side battles initiated {state['side_battles'][0]}")
    return " | ".join(parts)
