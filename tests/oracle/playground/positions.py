"""Positions the playground's tests open (each game's state JSON, as a link carries it)."""

from __future__ import annotations

from typing import Any

FIRE_PARTY: dict[str, Any] = {
    "turn": 1, "turn_player": 0, "phase": "attack", "step": "attack-declaration",
    "players": [
        {"damage": 0, "forwards": [
            {"id": "a1", "name": "Fire Knight", "elements": ["fire"], "cost": 3, "power": 3000},
            {"id": "a2", "name": "Fire Squire", "elements": ["fire"], "cost": 2, "power": 2000}]},
        {"damage": 0, "forwards": [
            {"id": "b1", "name": "Stone Warden", "elements": ["earth"], "cost": 5, "power": 5000}]},
    ],
}
"""Player 0 has two Fire Forwards (3000 and 2000) that may attack as a party; player 1 one 5000 Forward."""
