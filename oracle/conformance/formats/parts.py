"""Each part of the formats as ``cardrules conformance schema --game G --part P`` prints it.

Parts: ``states`` (JSON Schema of a state), ``events`` (of a log entry), ``vectors`` (the suite schema
with every ``state`` typed as that game's state), ``actions`` (the grammar: EBNF text, or JSON) and
``refusals`` (the table: text, or JSON), ``observable`` (JSON Schema of the observable state form) and
``features`` (the features an engine may declare: text, or JSON). Unknown names raise :class:`FormatsError` (bad input).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from cardrules.oracle.conformance.formats import grammar, refusals
from cardrules.oracle.conformance.formats.observable import features_json, features_text, observable_schema
from cardrules.oracle.conformance.formats.states import GAMES, events_schema, state_schema
from cardrules.oracle.conformance.schema import schema as suite_schema

PARTS = ("states", "events", "actions", "refusals", "vectors", "observable", "features")
FORMATS = ("json", "text")
TEXT_PARTS = ("actions", "refusals", "features")
"""The parts that have a text form (their default); the others are JSON Schemas."""


class FormatsError(ValueError):
    """An unknown game, part or output format (one line, naming it and the known ones)."""


def vectors_schema(game: str) -> dict[str, Any]:
    """The suite schema (``vectors.schema.json``) for ``game``'s suites, every ``state`` typed as its state."""
    typed = copy.deepcopy(suite_schema())
    state = state_schema(game)
    typed["$id"] = typed["$id"].replace(".json", f"-{game}.json")
    typed["title"] += f", {game} suites with typed states"
    typed["properties"]["game"] = {"const": game}
    _type_states(typed["$defs"])
    typed["$defs"].update(state["$defs"])
    return typed


def _type_states(node: Any) -> None:
    """Every ``"state": {"type": "object", ...}`` property below ``node`` becomes a reference to the state."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and properties.get("state", {}).get("type") == "object":
            described = {k: v for k, v in properties["state"].items() if k == "description"}
            properties["state"] = {"$ref": "#/$defs/State", **described}
        for value in node.values():
            _type_states(value)
    elif isinstance(node, list):
        for value in node:
            _type_states(value)


def grammar_json(game: str) -> dict[str, Any]:
    """The grammar as data: its forms and token classes, and the EBNF text."""
    chosen = grammar.GRAMMARS[game]
    return {
        "game": game,
        "max_length": chosen.max_length,
        "forms": [{"name": f.name, "note": f.note} for f in chosen.forms],
        "tokens": [{"name": t.name, "pattern": t.pattern, "description": t.description} for t in chosen.tokens],
        "ebnf": grammar.ebnf(game),
        "examples": grammar.examples(game),
    }


def render(game: str, part: str, output: str | None = None) -> str:
    """The text ``cardrules conformance schema --game game --part part [--format output]`` prints."""
    if game not in GAMES:
        raise FormatsError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    if part not in PARTS:
        raise FormatsError(f"unknown part {part!r}; known: {', '.join(PARTS)}")
    if output is not None and output not in FORMATS:
        raise FormatsError(f"unknown format {output!r}; known: {', '.join(FORMATS)}")
    output = output or ("text" if part in TEXT_PARTS else "json")
    if output == "text" and part not in TEXT_PARTS:
        raise FormatsError(f"--part {part} is a JSON Schema: it prints as json only")
    if part == "actions":
        return grammar.ebnf(game) if output == "text" else _dump(grammar_json(game))
    if part == "refusals":
        return refusals.table_text(game) if output == "text" else _dump(refusals.table_json(game))
    if part == "features":
        return features_text(game) if output == "text" else _dump(features_json(game))
    builders = {"observable": observable_schema, "states": state_schema, "events": events_schema, "vectors": vectors_schema}
    return _dump(builders[part](game))


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
