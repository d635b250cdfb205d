"""JSON Schemas of the observable state form (the ``observable`` profile) and the features list, per game.

The observable form is ``observable_json`` of ``model/<game>/observable.py`` (each field documented
there with its clauses); :func:`observable_schema` types it, and the fields the rules leave open once
the game is over carry ``x-unspecified`` (:data:`..profiles.OBSERVABLE_UNSPECIFIED`).
:func:`features_json` lists the features an engine may declare in its hello.
"""

from __future__ import annotations

from typing import Any

from cardrules.oracle.conformance.formats.unspecified import UNSPECIFIED_KEY
from cardrules.oracle.conformance.profiles import OBSERVABLE_UNSPECIFIED

SCHEMA = "https://json-schema.org/draft/2020-12/schema"
ID = "https://cardrules.example/schemas/observable-{game}.json"


def _obj(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": sorted(properties), "additionalProperties": False,
            "properties": properties}


STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer", "minimum": 0}
BOOL: dict[str, Any] = {"type": "boolean"}
PLAYER: dict[str, Any] = {"type": "integer", "minimum": 0}
IDS: dict[str, Any] = {"type": "array", "items": STR}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _fftcg() -> dict[str, Any]:
    forward = _obj({
        "id": STR, "name": STR, "elements": IDS, "cost": INT, "power": {"type": "integer"}, "p_icon": BOOL,
        "haste": BOOL, "brave": BOOL, "preemptive": BOOL, "unblockable_by_cost": _nullable(INT),
        "unblockable_by_elements": IDS, "damage": INT, "dull": BOOL,
    })
    event = {"oneOf": [
        _obj({"event": {"const": "player-damaged"}, "player": PLAYER, "amount": INT}),
        _obj({"event": {"const": "forward-broken"}, "forward": STR}),
        _obj({"event": {"const": "forward-removed"}, "forward": STR}),
        _obj({"event": {"const": "party-disbanded"}, "members": IDS}),
    ]}
    steps = ["attack-preparation", "attack-declaration", "block-declaration", "damage-resolution", "combat-end"]
    return _obj({
        "winner": _nullable(PLAYER), "turn": INT, "turn_player": PLAYER, "step": {"enum": steps},
        "decider": PLAYER,
        "players": {"type": "array", "minItems": 2, "maxItems": 2, "items": _obj(
            {"damage": INT, "field": {"type": "array", "items": forward}, "break_zone": IDS})},
        "attack": _nullable(_obj({"attackers": IDS, "party": BOOL, "blocked": _nullable(BOOL),
                                  "blocker": _nullable(STR)})),
        "events": {"type": "array", "items": event},
    })


def _redemption() -> dict[str, Any]:
    fighter = _obj({"card": STR, "controller": PLAYER, "enhancements": IDS})
    battle = _obj({"kind": STR, "players": {"type": "array", "items": PLAYER},
                   "sides": {"type": "array", "items": {"type": "array", "items": fighter}},
                   "outcome": _nullable(STR), "mission": _nullable(STR), "defeated": IDS})
    zones = _obj({name: IDS for name in ("hand", "deck", "territory", "discard", "bondage", "redemption")})
    pair = {"type": "array", "items": STR, "minItems": 2, "maxItems": 2}
    return _obj({
        "winner": _nullable(PLAYER), "turn": INT, "active": PLAYER, "phase": STR,
        "decision": _obj({"kind": STR, "player": PLAYER, "cards": IDS}),
        "cards": {"type": "array", "items": {"type": "object", "required": ["id"]},
                  "description": "every card's printed data, as in the full state form"},
        "players": {"type": "array", "items": zones},
        "battles": {"type": "array", "items": battle},
        "statuses": {"type": "array", "items": pair}, "decreased": IDS, "placed": {"type": "array", "items": pair},
        "last_outcome": _obj({"outcome": _nullable(STR), "mission": _nullable(STR)}),
        "events": {"type": "array", "items": _obj({"event": {"const": "character-discarded"}, "card": STR,
                                                   "pile": PLAYER, "healed": BOOL})},
    })


def observable_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of ``game``'s observable state form."""
    body = _fftcg() if game == "fftcg" else _redemption()
    when, fields = OBSERVABLE_UNSPECIFIED[game]
    note = f"Unspecified once {when} is set: the game is over, so the rules say nothing more about it."
    return {"$schema": SCHEMA, "$id": ID.format(game=game), "title": f"{game} observable state", **body,
            "allOf": [{"if": {"properties": {when: {"not": {"type": "null"}}}},
                       "then": {"properties": {f: {UNSPECIFIED_KEY: True, "description": note} for f in fields}}}]}


def features_json(game: str) -> list[dict[str, Any]]:
    """The features of ``game`` an engine may declare: id, title and clauses."""
    from cardrules.specs.catalogue.features import load_features

    return [{"id": f.id, "title": f.title, "clauses": list(f.clauses)} for f in load_features().get(game, ())]


def features_text(game: str) -> str:
    """The features as text: one line per feature, then its clauses."""
    lines = []
    for feature in features_json(game):
        lines.append(f"{feature['id']}: {feature['title']}")
        lines.append(f"  clauses: {', '.join(feature['clauses'])}")
    return "\n".join(lines) + "\n"
