"""FFTCG start positions of a scope: the start of the turn player's attack phase.

A position is the Attack Preparation Step of turn 1's attack phase: seat 0 is
the turn player (renaming the two seats is sound, the rules only read *turn
player* and *opponent*, so the turn player is always seat 0), each seat has
Forwards on the field drawn from the scope's printed cards, each active or
dull and under its controller's control since the start of the turn or not,
no damage on any Forward, nothing attacked yet, and each player's damage
from the scope's ``[damage]`` domains (5 or 6 leave a player one or two hits
from losing).

Why such a position is reachable in a real game: Forwards enter the field in
the main phase before the attack phase (a Forward cast this turn is not
under control since the start of the turn), paying costs and abilities can
dull them, and damage builds up over earlier turns; the attack phase begins
in Attack Preparation with no attack and no damage on Forwards. Field order
is never read by the rules, so one order is enumerated (the scope's card
order); identical Forwards in the same situation are one multiset.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product
from math import comb, prod
from string import ascii_lowercase
from typing import Any, Iterator, Mapping, Sequence

from cardrules.model.fftcg.state import ELEMENTS
from cardrules.properties.scopes.errors import ScopeError

SEATS = {"active": 0, "defender": 1}


def check_cards(scope: Any, where: str) -> None:
    """Each printed card's blocking restriction names real elements."""
    for name, template in sorted(scope.cards.items()):
        for element in template.get("unblockable_by_elements", []):
            if element not in ELEMENTS:
                raise ScopeError(f"{where}: cards.{name}.unblockable_by_elements: unknown element {element!r}; "
                                 f"known: {', '.join(sorted(ELEMENTS))}")


Item = tuple[str, bool, bool]
"""A Forward on the field: (printed card, dull, under control since the start of the turn)."""


def zone_choices(zone: Mapping[str, Any]) -> list[tuple[Item, ...]]:
    """Every multiset of (card, dull, since start) of a size in the zone's count."""
    items = [(name, dull, since) for name in zone["cards"] for dull in zone.get("dull", [False])
             for since in zone.get("since_start", [True])]
    low, high = zone["count"]
    return [combo for size in range(low, high + 1) for combo in combinations_with_replacement(items, size)]


def candidates(scope: Any) -> int:
    """How many positions the domains give before symmetry."""
    damage = scope.extra["damage"]
    zones = prod(sum(comb(_items(z) + k - 1, k) for k in range(z["count"][0], z["count"][1] + 1)) for z in scope.zones)
    return len(damage["active"]) * len(damage["defender"]) * zones


def _items(zone: Mapping[str, Any]) -> int:
    return len(zone["cards"]) * len(zone.get("dull", [False])) * len(zone.get("since_start", [True]))


def _forward(card_id: str, template: Mapping[str, Any], dull: bool, since: bool) -> dict[str, Any]:
    return {
        "id": card_id, "name": template["name"], "elements": sorted(template["elements"]), "cost": template["cost"],
        "power": template["power"], "p_icon": template.get("p_icon", False), "dull": dull, "damage": 0,
        "since_start": since, "haste": template.get("haste", False), "brave": template.get("brave", False),
        "preemptive": template.get("preemptive", False), "unblockable_by_cost": template.get("unblockable_by_cost"),
        "unblockable_by_elements": sorted(template.get("unblockable_by_elements", [])),
    }


def build_state(scope: Any, choice: Sequence[tuple[Item, ...]], zones: Sequence[Mapping[str, Any]],
                damage: tuple[int, int]) -> dict[str, Any]:
    """The JSON form of the position: ids ``NAME-SEAT``, then ``b``, ``c``... for further copies."""
    fields: list[list[dict[str, Any]]] = [[], []]
    used: dict[str, int] = {}
    for zone, items in zip(zones, choice):
        seat = SEATS[zone["seat"]]
        for name, dull, since in items:
            base = f"{name}-{seat}"
            copy = used.get(base, 0)
            used[base] = copy + 1
            fields[seat].append(_forward(base if copy == 0 else f"{base}{ascii_lowercase[copy]}",
                                         scope.cards[name], dull, since))
    return {
        "turn": 1, "turn_player": 0, "phase": "attack", "step": "attack-preparation",
        "players": [{"damage": damage[seat], "forwards": fields[seat], "break_zone": []} for seat in (0, 1)],
        "attack": None, "attacked": [], "events": [], "outcome": None,
    }


def positions(scope: Any) -> Iterator[dict[str, Any]]:
    """Every position of the scope as JSON, in a fixed order (damage, then zone choices in zone order)."""
    damage = scope.extra["damage"]
    options = [zone_choices(zone) for zone in scope.zones]
    for active, defender in product(damage["active"], damage["defender"]):
        for choice in product(*options):
            yield build_state(scope, choice, scope.zones, (active, defender))


def summary(state: Mapping[str, Any]) -> str:
    """One line: each player's damage and Forwards (power, dull, newly arrived)."""
    parts = []
    for seat, player in enumerate(state["players"]):
        shown = [f"{f['id']} {f['power']}{' dull' if f['dull'] else ''}{'' if f['since_start'] else ' new'}"
                 for f in player["forwards"]]
        parts.append(f"P{seat} damage {player['damage']}: {', '.join(shown) or 'no Forward'}")
    return " | ".join(parts)
