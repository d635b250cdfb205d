"""The JSON schema of a ``cardrules-scope/1`` file (its TOML document read as JSON).

Three parts: the fields every scope has (:data:`COMMON`), then one part per game
(:data:`GAME_SCHEMAS`) for the printed cards a scope draws from and the zones
it fills. :mod:`.format` validates the common part first, then the game's,
so the first problem found is reported in terms of the file the user wrote.
"""

from __future__ import annotations

from typing import Any

FORMAT = "cardrules-scope/1"
MAX_NAME = 40
NAME_PATTERN = "^[a-z][a-z0-9]{0,15}$"
"""A printed card's template name: lower-case letters and digits, at most 16 (ids are built from it)."""

_NAME: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": "^[A-Za-z0-9_.-]+$"}
_COUNT: dict[str, Any] = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 6},
                          "minItems": 2, "maxItems": 2}
_BOOLS: dict[str, Any] = {"type": "array", "items": {"type": "boolean"}, "minItems": 1, "maxItems": 2, "uniqueItems": True}

COMMON: dict[str, Any] = {
    "type": "object",
    "required": ["format", "game", "name", "description", "bounds", "start", "players", "cards", "zones"],
    "properties": {
        "format": {"const": FORMAT},
        "game": {"enum": ["redemption", "fftcg"]},
        "name": _NAME,
        "description": {"type": "string", "maxLength": 2000},
        "bounds": {
            "type": "object", "additionalProperties": False,
            "required": ["turns", "max_states_per_position"],
            "properties": {
                "turns": {"type": "integer", "minimum": 1, "maximum": 3},
                "max_states_per_position": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
                "max_depth": {"type": "integer", "minimum": 1, "maximum": 10_000},
                "max_positions": {"type": "integer", "minimum": 1, "maximum": 100_000},
            },
        },
        "start": {
            "type": "object", "additionalProperties": False, "required": ["point"],
            "properties": {"point": {"enum": ["battle-phase", "attack-phase"]}, "mid_game": {"type": "boolean"}},
        },
        "players": {
            "type": "object", "additionalProperties": False, "required": ["count"],
            "properties": {"count": {"type": "array", "items": {"type": "integer", "minimum": 2, "maximum": 4},
                                     "minItems": 1, "maxItems": 3, "uniqueItems": True}},
        },
        "cards": {"type": "object", "minProperties": 1, "maxProperties": 24,
                  "propertyNames": {"pattern": NAME_PATTERN}},
        "zones": {"type": "array", "minItems": 1, "maxItems": 16},
        "mid_game": {"type": "object"},
        "damage": {"type": "object"},
    },
    "additionalProperties": False,
}

_RED_CARD: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["type"],
    "properties": {
        "type": {"enum": ["character", "enhancement", "lost-soul"]},
        "alignment": {"enum": ["good", "evil"]},
        "brigades": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]{1,16}$"}, "minItems": 1,
                     "maxItems": 3, "uniqueItems": True},
        "strength": {"type": "integer", "minimum": 0, "maximum": 20},
        "toughness": {"type": "integer", "minimum": 0, "maximum": 20},
        "territory_class": {"type": "boolean"},
        "ability": {"enum": ["discard", "side-battle", "interrupt", "negate", "paralyze", "poison", "disease",
                             "draw-on-success", "discard-opposing", "decrease", "heal", "restore",
                             "redirect-ability", "redirect-numbers", "redirect-both"]},
        "stated_amount": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 20},
                          "minItems": 2, "maxItems": 2},
    },
}

_RED_ZONE: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["seat", "zone", "cards", "count"],
    "properties": {
        "seat": {"enum": ["active", "defender", "others"]},
        "zone": {"enum": ["hand", "territory", "bondage", "redemption"]},
        "owner": {"enum": ["self", "other"]},
        "cards": {"type": "array", "items": {"type": "string", "pattern": NAME_PATTERN}, "minItems": 1,
                  "maxItems": 12, "uniqueItems": True},
        "count": _COUNT,
    },
}

_FF_CARD: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["name", "elements", "cost", "power"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 40},
        "elements": {"type": "array", "items": {"enum": ["fire", "ice", "wind", "earth", "lightning", "water",
                                                         "light", "dark"]},
                     "minItems": 1, "maxItems": 3, "uniqueItems": True},
        "cost": {"type": "integer", "minimum": 1, "maximum": 12},
        "power": {"type": "integer", "minimum": 1000, "maximum": 15000},
        "p_icon": {"type": "boolean"}, "haste": {"type": "boolean"}, "brave": {"type": "boolean"},
        "preemptive": {"type": "boolean"},
        "unblockable_by_cost": {"type": "integer", "minimum": 1, "maximum": 12},
        "unblockable_by_elements": {"type": "array", "items": {"type": "string"}, "maxItems": 3, "uniqueItems": True},
    },
}

_FF_ZONE: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["seat", "cards", "count"],
    "properties": {
        "seat": {"enum": ["active", "defender"]},
        "zone": {"enum": ["field"]},
        "cards": {"type": "array", "items": {"type": "string", "pattern": NAME_PATTERN}, "minItems": 1,
                  "maxItems": 12, "uniqueItems": True},
        "count": _COUNT,
        "dull": _BOOLS,
        "since_start": _BOOLS,
    },
}

_DAMAGE: dict[str, Any] = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 6},
                           "minItems": 1, "maxItems": 7, "uniqueItems": True}

GAME_SCHEMAS: dict[str, dict[str, Any]] = {
    "redemption": {
        "type": "object",
        "properties": {
            "cards": {"type": "object", "additionalProperties": _RED_CARD},
            "zones": {"type": "array", "items": _RED_ZONE},
            "start": {"properties": {"point": {"const": "battle-phase"}}},
            "mid_game": {
                "type": "object", "additionalProperties": False,
                "properties": {
                    "statuses": {"type": "array", "items": {"enum": ["poisoned", "diseased", "paralyzed"]},
                                 "maxItems": 3, "uniqueItems": True},
                    "side_battles": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 3},
                                     "minItems": 1, "maxItems": 4, "uniqueItems": True},
                },
            },
        },
    },
    "fftcg": {
        "type": "object",
        "properties": {
            "cards": {"type": "object", "additionalProperties": _FF_CARD},
            "zones": {"type": "array", "items": _FF_ZONE},
            "start": {"properties": {"point": {"const": "attack-phase"}}},
            "players": {"properties": {"count": {"const": [2]}}},
            "damage": {
                "type": "object", "additionalProperties": False, "required": ["active", "defender"],
                "properties": {"active": _DAMAGE, "defender": _DAMAGE},
            },
            "mid_game": {"type": "object", "additionalProperties": False, "properties": {}},
        },
        "required": ["damage"],
    },
}
"""Per game: what its cards, zones and extra domains look like (on top of :data:`COMMON`)."""
