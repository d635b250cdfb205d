"""``.. cardrules-formats:: GAME PART``: the conformance formats of one game, rendered from the code at build
time (:mod:`cardrules.oracle.conformance.formats`), so the page cannot drift from the model.

Parts: ``states`` and ``events`` (a table per object: field, JSON type and bounds, default, meaning),
``actions`` (the EBNF grammar), ``refusals`` (reason, clause IDs, where the model refuses),
``unspecified`` (the fields no comparison reads, and when), ``features`` (the features an engine may
declare in its hello, with their clauses), ``observable`` (a table per object of the observable state
form) and ``macro-steps`` (the steps an engine may merge, and what each merges).
"""

from __future__ import annotations

import re
from typing import Any

from cardrules_rst import RstDirective, escape
from docutils import nodes
from sphinx.application import Sphinx

PARTS = ("states", "events", "actions", "refusals", "unspecified", "features", "observable", "macro-steps")


def _type_text(prop: dict[str, Any]) -> str:
    """A property's JSON type and bounds in a few words."""
    if "$ref" in prop:
        return f"*{prop['$ref'].rsplit('/', 1)[1]}*"
    if "anyOf" in prop:
        return " or ".join(_type_text(p) for p in prop["anyOf"])
    if "const" in prop:
        return f"``{prop['const']}``"
    if "enum" in prop:
        return "one of " + ", ".join("``null``" if v is None else f"``{v}``" for v in prop["enum"])
    if "oneOf" in prop:
        return "one of " + ", ".join(f"``{p['const']}``" for p in prop["oneOf"])
    kind = prop.get("type", "any")
    if kind == "array":
        if "prefixItems" in prop:
            text = "[" + ", ".join(_type_text(p) for p in prop["prefixItems"]) + "]"
        else:
            text = f"array of {_type_text(prop.get('items', {}))}"
        extras = [f"{prop['x-order']}" if "x-order" in prop else "",
                  "distinct" if prop.get("uniqueItems") else "",
                  f"{prop.get('minItems', 0)} to {prop['maxItems']} items" if "maxItems" in prop and "prefixItems" not in prop else ""]
        return text + "".join(f", {e}" for e in extras if e)
    bounds = []
    if "minimum" in prop or "maximum" in prop:
        bounds.append(f"{prop.get('minimum', '...')} to {prop.get('maximum', '...')}")
    if "maxLength" in prop:
        bounds.append(f"{prop.get('minLength', 0)} to {prop['maxLength']} characters")
    if "pattern" in prop:
        bounds.append(f"matching ``{prop['pattern']}``")
    return kind + (f" ({', '.join(bounds)})" if bounds else "")


def _object_tables(schema: dict[str, Any], names: list[str]) -> list[str]:
    lines: list[str] = []
    for name in names:
        definition = schema["$defs"][name]
        lines += [f"**{name}**: {inline(definition['description'])}", "", ".. list-table::", "   :header-rows: 1",
                  "   :widths: 18 32 12 38", "", "   * - field", "     - JSON type", "     - default", "     - meaning"]
        for field, prop in definition["properties"].items():
            default = prop.get("x-default") or (f"``{_json(prop['default'])}``" if "default" in prop else "(required)")
            lines += [f"   * - ``{field}``", f"     - {_type_text(prop)}", f"     - {default}",
                      f"     - {inline(prop.get('description', '')) or '(no note)'}"]
        lines.append("")
    return lines


def inline(text: str) -> str:
    """A model docstring's text as safe reST: a role (``:data:`X```) or a single-quoted ```X``` becomes the
    literal ````X````, literals stay as they are, everything else is escaped."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"``\1``", text)
    text = re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", text)
    parts = re.split(r"(``[^`]+``)", text)
    return "".join(p if p.startswith("``") else escape(p) for p in parts)


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


def _schema_part(game: str, part: str) -> list[str]:
    from cardrules.oracle.conformance.formats.states import EVENT_CLASSES, events_schema, state_schema

    schema = state_schema(game) if part == "states" else events_schema(game)
    names = list(schema["$defs"]) if part == "states" else list(EVENT_CLASSES[game])
    if part == "states":
        names = ["State"] + [n for n in names if n != "State"]
    return _object_tables(schema, names)


def _refusal_part(game: str) -> list[str]:
    from cardrules.oracle.conformance.formats.refusals import refusal_table

    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 45 25", "",
             "   * - clauses named", "     - reason (``{...}``: a value filled in)", "     - refused in"]
    for row in refusal_table(game):
        lines += [f"   * - {', '.join(f'``{c}``' for c in row.clauses)}", f"     - {escape(row.reason)}",
                  f"     - ``{row.module.rsplit('/', 1)[1]}`` ``{row.function}``"]
    return lines + [""]


def _unspecified_part(game: str) -> list[str]:
    from cardrules.oracle.conformance.formats.unspecified import unspecified_for

    lines: list[str] = []
    for entry in unspecified_for(game):
        fields = ", ".join(f"``{f}``" for f in entry.fields)
        lines += [f"* {fields}, once ``{entry.when}`` is not null ({', '.join(entry.clauses)}): "
                  f"{escape(entry.reason)}.", ""]
    return lines


def _features_part(game: str) -> list[str]:
    from cardrules.oracle.conformance.formats.observable import features_json

    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 20 35 45", "",
             "   * - feature", "     - what it is", "     - clauses"]
    for feature in features_json(game):
        lines += [f"   * - ``{feature['id']}``", f"     - {escape(feature['title'])}",
                  f"     - {', '.join(f'``{c}``' for c in feature['clauses'])}"]
    return lines + [""]


def _observable_part(game: str) -> list[str]:
    from cardrules.oracle.conformance.formats.observable import observable_schema

    def kind(prop: dict[str, Any]) -> str:
        items = prop.get("items", {})
        if "oneOf" in items:
            return "array of " + ", ".join(f"``{p['properties']['event']['const']}``" for p in items["oneOf"])
        if items.get("type") == "object" or prop.get("type") == "object":
            fields = (items or prop).get("properties", {})
            shape = ", ".join(f"``{f}``" for f in fields) or "its printed data"
            return ("array of objects: " if items else "object: ") + shape
        return _type_text(prop)

    schema = observable_schema(game)
    return [f"* ``{name}``: {kind(prop)}" for name, prop in schema["properties"].items()] + [""]


def _macro_part(game: str) -> list[str]:
    from cardrules.oracle.conformance.macro import MACRO_STEPS

    lines: list[str] = []
    for step in MACRO_STEPS.values():
        if step.game == game:
            steps = ", ".join(f"``{s}``" for s in step.steps)
            lines += [f"* ``{step.name}``: {escape(step.title)} (the action ``{step.action}`` taken in {steps}; "
                      f"{', '.join(step.clauses)}).", ""]
    return lines or ["(none)", ""]


class FormatsDirective(RstDirective):
    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        game, part = self.arguments
        if part not in PARTS:
            raise self.error(f"cardrules-formats: unknown part {part!r}; known: {', '.join(PARTS)}")
        if part in ("states", "events"):
            lines = _schema_part(game, part)
        elif part == "actions":
            from cardrules.oracle.conformance.formats.grammar import ebnf

            lines = [".. code-block:: text", ""] + [f"   {line}" if line else "" for line in ebnf(game).splitlines()] + [""]
        elif part == "refusals":
            lines = _refusal_part(game)
        elif part == "features":
            lines = _features_part(game)
        elif part == "observable":
            lines = _observable_part(game)
        elif part == "macro-steps":
            lines = _macro_part(game)
        else:
            lines = _unspecified_part(game)
        return self.render(lines)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cardrules-formats", FormatsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
