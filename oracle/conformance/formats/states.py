"""Typed JSON Schemas of each game's state and event log, built from the model's classes and constants.

The shape comes from the dataclasses (:mod:`.typed`); the bounds each game's reader checks are the
:class:`~.typed.Rule` tables below, written with the model's own constants (``MAX_POWER``,
``FORWARD_ID``, ``MAX_ITEMS``, ...), so a changed bound changes the schema. What the schema does not say:
the consistency rules between fields (a card in exactly one place, an attack only in the steps that
have one, ...), which the reference model's ``load`` checks and the ``invalid`` vectors test; and that
an integer is written without a fraction (JSON Schema counts ``1.0`` as an integer, the reference model
refuses it).
"""

from __future__ import annotations

import copy
import enum
import inspect
import re
from functools import lru_cache
from typing import Any

from cardrules.model.fftcg import state as ff
from cardrules.model.redemption import jsonform as red_json
from cardrules.model.redemption import state as red
from cardrules.oracle.conformance.formats.typed import Rule, Scalars, SchemaSpec, defs_for, first_paragraph
from cardrules.oracle.conformance.formats.unspecified import schema_conditions

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_FF_ID: dict[str, Any] = {"type": "string", "pattern": ff.FORWARD_ID.pattern, "maxLength": ff.MAX_TEXT}
_FF_IDS: dict[str, Any] = {"maxItems": 2 * ff.MAX_FORWARDS, "uniqueItems": True, "x-order": "sorted"}
_FF_ELEMENT: dict[str, Any] = {"enum": sorted(ff.ELEMENTS)}


def _range(low: int, high: int) -> dict[str, Any]:
    return {"minimum": low, "maximum": high}


FFTCG_RULES: dict[tuple[str, str], Rule] = {
    ("Forward", "id"): Rule(value=_FF_ID),
    ("Forward", "name"): Rule(value={"minLength": 1, "maxLength": ff.MAX_TEXT}),
    ("Forward", "elements"): Rule(value={"minItems": 1, "maxItems": len(ff.ELEMENTS)}, items=_FF_ELEMENT),
    ("Forward", "cost"): Rule(value=_range(0, ff.MAX_COST)),
    ("Forward", "power"): Rule(value=_range(-ff.MAX_POWER, ff.MAX_POWER)),
    ("Forward", "damage"): Rule(value=_range(0, ff.MAX_AMOUNT)),
    ("Forward", "unblockable_by_cost"): Rule(value=_range(0, ff.MAX_COST)),
    ("Forward", "unblockable_by_elements"): Rule(value={"maxItems": len(ff.ELEMENTS)}, items=_FF_ELEMENT),
    ("Player", "damage"): Rule(value=_range(0, ff.LOSING_DAMAGE)),
    ("Player", "forwards"): Rule(value={"maxItems": ff.MAX_FORWARDS}, load_required=True),
    ("Player", "break_zone"): Rule(value={"maxItems": ff.MAX_BREAK_ZONE}),
    ("Attack", "attackers"): Rule(value=_FF_IDS, items=_FF_ID),
    ("Attack", "declared"): Rule(value=_FF_IDS, items=_FF_ID),
    ("Event", "sources"): Rule(value={"maxItems": 2 * ff.MAX_FORWARDS}, items={"maxLength": ff.MAX_TEXT}),
    ("Event", "target"): Rule(value={"maxLength": ff.MAX_TEXT}),
    ("Event", "amount"): Rule(value=_range(0, ff.MAX_AMOUNT)),
    ("Outcome", "winner"): Rule(value=_range(0, 1)),
    ("Outcome", "reason"): Rule(load_required=True),
    ("State", "players"): Rule(),
    ("State", "turn_player"): Rule(value=_range(0, 1), load_required=True),
    ("State", "step"): Rule(load_required=True),
    ("State", "turn"): Rule(value=_range(1, ff.MAX_TURN)),
    ("State", "attacked"): Rule(value=_FF_IDS, items=_FF_ID),
    ("State", "events"): Rule(value={"maxItems": ff.MAX_EVENTS}),
}
"""What :mod:`cardrules.model.fftcg.jsonform` checks of each FFTCG field beyond its type."""

_RED_CARD_ID = r"^[^\s#]\S*$"
"""A Redemption card id (``Card.__post_init__``): not empty, no white space, not starting with ``#``."""

REDEMPTION_RULES: dict[tuple[str, str], Rule] = {
    ("Card", "id"): Rule(value={"pattern": _RED_CARD_ID}),
    ("Card", "stated_amount"): Rule(items={"minimum": 0}),
    ("State", "side_battles"): Rule(default_note="a 0 for each player"),
}
"""What :mod:`cardrules.model.redemption.jsonform` checks beyond its generic bounds (:data:`REDEMPTION_SCALARS`)."""

REDEMPTION_SCALARS = Scalars(
    integer=_range(-red_json.MAX_INT, red_json.MAX_INT),
    string={"maxLength": red_json.MAX_TEXT},
    array={"maxItems": red_json.MAX_ITEMS},
)


def _fftcg_plain(value: Any) -> Any:
    """The JSON form of an FFTCG default value (as the ``to_json`` methods write it)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_fftcg_plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value


SPECS: dict[str, tuple[type, SchemaSpec]] = {
    "fftcg": (ff.State, SchemaSpec(FFTCG_RULES, to_json=_fftcg_plain)),
    "redemption": (red.State, SchemaSpec(REDEMPTION_RULES, REDEMPTION_SCALARS, "sorted-by-json-text", red_json.to_jsonable)),
}
"""Each game's state class and how its classes become JSON Schema."""

GAMES = tuple(SPECS)

EVENT_CLASSES: dict[str, tuple[str, ...]] = {
    "fftcg": ("Event",),
    "redemption": ("DiscardEvent", "Search", "PlayRecord"),
}
"""The classes of each game's logs of what happened: FFTCG's turn event log; Redemption has no event log,
but keeps the turn's completed discards and pile searches and the main battle's play records."""

ORDER_NOTE = ("x-order: the order in which the items of an array standing for a set are written (the "
              "runner compares states as written): 'sorted' by code point, or 'sorted-by-json-text', by the "
              "JSON text of each item with sorted keys.")


@lru_cache(maxsize=None)
def _defs(game: str) -> dict[str, Any]:
    root, spec = SPECS[game]
    defs = defs_for(root, spec)
    if game == "fftcg":
        defs["Event"]["properties"]["kind"] = _event_kinds()
    else:
        defs["Card"]["allOf"] = _card_conditions()
    defs[root.__name__]["allOf"] = schema_conditions(game)
    return defs


def _card_conditions() -> list[dict[str, Any]]:
    """What ``Card.__post_init__`` checks between a Redemption card's fields, as ``if``/``then`` clauses."""
    lost_soul = {"properties": {"type": {"const": red.CardType.LOST_SOUL.value}}}
    redirects = [red.Effect.REDIRECT_NUMBERS.value, red.Effect.REDIRECT_BOTH.value]
    return [
        {"if": lost_soul, "then": {"properties": {"alignment": {"type": "null"}, "ability": {"type": "null"}}},
         "else": {"properties": {"alignment": {"not": {"type": "null"}}, "brigades": {"minItems": 1}}}},
        {"if": {"properties": {"type": {"const": red.CardType.CHARACTER.value}}},
         "then": {"properties": {"ability": {"enum": [None, *sorted(e.value for e in red.HEAL_EFFECTS)]}}}},
        {"if": {"properties": {"stated_amount": {"not": {"type": "null"}}}, "required": ["stated_amount"]},
         "then": {"properties": {"ability": {"enum": redirects}}}},
    ]


def _event_kinds() -> dict[str, Any]:
    """The ``kind`` of an FFTCG event, each value with its meaning from the ``Event`` docstring."""
    doc = inspect.cleandoc(ff.Event.__doc__ or "")
    meaning = dict(re.findall(r"^- ``([a-z-]+)``: (.*?)[;.]?$", doc, re.MULTILINE))
    return {"description": "What happened", "oneOf": [
        {"const": kind, "description": meaning.get(kind, "")} for kind in ff.EVENT_KINDS]}


def state_schema(game: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a ``game`` state, as the model writes it and reads it."""
    root, _ = SPECS[game]
    return {
        "$schema": DIALECT,
        "$id": f"https://cardrules.invalid/schemas/{game}-state.json",
        "title": f"{game} state",
        "description": (f"{first_paragraph(root.__doc__ or '')} Every field is written; 'default' is what the "
                        f"reference model reads for a field left out of a state given to load. {ORDER_NOTE} "
                        "x-unspecified: a field whose value the rules do not determine in that state, which no "
                        "comparison reads."),
        "$ref": f"#/$defs/{root.__name__}",
        "$defs": copy.deepcopy(_defs(game)),
    }


def events_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of an entry of ``game``'s logs (:data:`EVENT_CLASSES`)."""
    defs = _defs(game)
    names = EVENT_CLASSES[game]
    kept = {name: copy.deepcopy(defs[name]) for name in defs if name in names or _used_by(defs, names, name)}
    refs = [{"$ref": f"#/$defs/{name}"} for name in names]
    return {
        "$schema": DIALECT,
        "$id": f"https://cardrules.invalid/schemas/{game}-events.json",
        "title": f"{game} log entries",
        "description": " ".join(f"{n}: {defs[n]['description']}" for n in names),
        **({"$ref": refs[0]["$ref"]} if len(refs) == 1 else {"anyOf": refs}),
        "$defs": kept,
    }


def _used_by(defs: dict[str, Any], roots: tuple[str, ...], name: str) -> bool:
    """Whether ``$defs/name`` is reachable from one of ``roots``."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(re.findall(r'"#/\$defs/(\w+)"', repr(defs[current]).replace("'", '"')))
    return name in seen
