"""JSON Schema from the model's frozen dataclasses: one ``$defs`` entry per class, built from type hints.

Both games write their state as objects keyed by dataclass field names (FFTCG with ``to_json``
methods, Redemption with :mod:`cardrules.model.redemption.jsonform`'s fixed mapping), so the shape of
the schema follows from the classes themselves: a field's Python type gives its JSON type, a class's
fields its properties, an attribute docstring the property's description. What a game's reader checks
beyond the Python type (a range, a pattern, a length) is a :class:`Rule` the game's module states next to
the model constant it comes from; the tests probe the model's reader at each bound.

The mapping, the same for both games: a dataclass is an object with exactly its ``__init__`` fields
(every one written, so every one ``required``, except a field whose metadata says ``omit_at_default``:
the writer leaves it out while it holds its default; ``default`` is the value the reference model reads
for a field left out of a state given to ``load``); an enum or ``Literal`` is an ``enum`` of its values;
``tuple[X, ...]`` an array, ``tuple[X, Y]`` an array of exactly those items; ``frozenset[X]`` an
array of distinct items written in a fixed order (``x-order``); ``X | None`` the form of ``X`` or
``null``; a boolean is never an integer.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import json
import textwrap
import types
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

NO_DEFAULT: Any = type("NoDefault", (), {"__repr__": lambda self: "NO_DEFAULT"})()
"""A :class:`Rule`'s ``default`` when the dataclass default's JSON form is the one read."""

DEFAULT_NOTE_KEY = "x-default"
"""Keyword: the value read for an omitted field, in words, where it depends on other fields."""

ORDER_KEY = "x-order"
"""Keyword: how the items of an array standing for a set are ordered when written (compared as written)."""


@dataclass(frozen=True)
class Rule:
    """What a reader checks of one field beyond its Python type: JSON Schema keywords for the value
    (``value``), for each item of an array (``items``), and whether the reader requires the field even
    though the dataclass gives it a default (``load_required``)."""

    value: Mapping[str, Any] = field(default_factory=dict)
    items: Mapping[str, Any] = field(default_factory=dict)
    load_required: bool = False
    default: Any = NO_DEFAULT
    """The value read for an omitted field when it is not the dataclass default's JSON form."""
    default_note: str = ""
    """The value read for an omitted field, in words, when it depends on other fields (``x-default``)."""


@dataclass(frozen=True)
class Scalars:
    """Bounds every value of a kind gets unless a :class:`Rule` says otherwise (a reader's generic bounds)."""

    integer: Mapping[str, Any] = field(default_factory=dict)
    string: Mapping[str, Any] = field(default_factory=dict)
    array: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SchemaSpec:
    """How one game's classes become JSON Schema."""

    rules: Mapping[tuple[str, str], Rule]
    """``(class name, field name)`` -> its rule."""
    scalars: Scalars = Scalars()
    set_order: str = "sorted"
    """The ``x-order`` of a frozenset's items."""
    to_json: Callable[[Any], Any] = json.loads
    """A default value (a model value) -> its JSON form."""


def defs_for(root: type, spec: SchemaSpec) -> dict[str, Any]:
    """``$defs`` for ``root`` and every dataclass reachable from its fields, by class name."""
    out: dict[str, Any] = {}
    _add_class(root, spec, out)
    return dict(sorted(out.items()))


def _add_class(cls: type, spec: SchemaSpec, out: dict[str, Any]) -> None:
    if cls.__name__ in out:
        return
    out[cls.__name__] = {}  # reserved first: a class that refers to itself terminates
    hints = typing.get_type_hints(cls)
    docs = attribute_docs(cls)
    properties: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        rule = spec.rules.get((cls.__name__, f.name), Rule())
        schema = _value(hints[f.name], spec, out, rule)
        if f.name in docs:
            schema = {**schema, "description": docs[f.name]}
        default = _default(f, rule, spec)
        if rule.default_note:
            schema[DEFAULT_NOTE_KEY] = rule.default_note
        elif default is not dataclasses.MISSING:
            schema["default"] = default
        properties[f.name] = schema
    out[cls.__name__] = {
        "type": "object",
        "description": first_paragraph(cls.__doc__ or cls.__name__),
        "required": [f.name for f in dataclasses.fields(cls) if f.name in properties
                     and not f.metadata.get("omit_at_default")],
        "additionalProperties": False,
        "properties": properties,
    }


def _default(f: dataclasses.Field[Any], rule: Rule, spec: SchemaSpec) -> Any:
    if rule.load_required:
        return dataclasses.MISSING
    if rule.default is not NO_DEFAULT:
        return rule.default
    if f.default is not dataclasses.MISSING:
        return spec.to_json(f.default)
    if f.default_factory is not dataclasses.MISSING:
        return spec.to_json(f.default_factory())
    return dataclasses.MISSING


def _value(tp: Any, spec: SchemaSpec, out: dict[str, Any], rule: Rule) -> dict[str, Any]:
    """The schema of a value of type ``tp`` (a field's), with the rule's keywords applied."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]
        return {"anyOf": [_value(inner, spec, out, rule), {"type": "null"}]}
    if origin is tuple or origin is frozenset:
        return _array(tp, spec, out, rule)
    return {**_scalar(tp, spec, out), **rule.value}


def _array(tp: Any, spec: SchemaSpec, out: dict[str, Any], rule: Rule) -> dict[str, Any]:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    schema: dict[str, Any] = {"type": "array", **spec.scalars.array}
    item_rule = Rule(value=rule.items)
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        schema["prefixItems"] = [_value(a, spec, out, item_rule) for a in args]
        schema.update({"minItems": len(args), "maxItems": len(args), "items": False})
    else:
        schema["items"] = _value(args[0], spec, out, item_rule)
    if origin is frozenset:
        schema.update({"uniqueItems": True, ORDER_KEY: spec.set_order})
    schema.update(rule.value)
    return schema


def _scalar(tp: Any, spec: SchemaSpec, out: dict[str, Any]) -> dict[str, Any]:
    if typing.get_origin(tp) is typing.Literal:
        return {"enum": list(typing.get_args(tp))}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp], "description": first_paragraph(tp.__doc__ or tp.__name__)}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        _add_class(tp, spec, out)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer", **spec.scalars.integer}
    if tp is str:
        return {"type": "string", **spec.scalars.string}
    if typing.get_origin(tp) is typing.Union:
        return {"anyOf": [_scalar(a, spec, out) for a in typing.get_args(tp)]}
    raise TypeError(f"no JSON Schema for {tp!r}")


def first_paragraph(doc: str) -> str:
    """The first paragraph of a docstring, on one line."""
    return " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())


@lru_cache(maxsize=None)
def attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a class's annotated attributes (``x: int`` then ``\"\"\"...\"\"\"``)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for before, after in zip(body.body, body.body[1:]):
        if (isinstance(before, ast.AnnAssign) and isinstance(before.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[before.target.id] = " ".join(inspect.cleandoc(after.value.value).split())
    return docs
