"""Generic JSON form for the Redemption model's frozen dataclasses.

The mapping is fixed and documented so that other engines can read and write
states (see :mod:`model.redemption.state` for the field list):

- a dataclass is an object with exactly its field names as keys (written
  always, except a field marked :data:`OMIT_AT_DEFAULT`, written only when not
  at its default; on reading, a field that has a default may be left out, so
  states written before a field was added, such as the heal and redirect
  fields, still read);
- an :class:`enum.Enum` is its ``value`` (a string);
- ``tuple[X, ...]`` and fixed ``tuple[X, Y]`` are arrays;
- ``frozenset[X]`` is an array sorted by the JSON text of its elements, so
  equal sets always give the same JSON;
- ``X | None`` is ``null`` or the form of ``X``; ``int``, ``str``, ``bool``
  are themselves (a boolean is never accepted as an integer).

:func:`from_jsonable` raises :class:`~model.errors.ScenarioError` naming the
path (``battles[0].sides[1][0].card``) of the first malformed value.

Generous size bounds keep bad input from costing memory or time: an integer
is between -:data:`MAX_INT` and :data:`MAX_INT`, a string at most
:data:`MAX_TEXT` characters, an array at most :data:`MAX_ITEMS` items (the
state checks tighter, documented bounds of its own).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import lru_cache
from typing import Any

from cardrules.model.errors import ScenarioError, describe

JSON = Any

MAX_INT = 1_000_000
"""Largest magnitude of any integer read."""
MAX_TEXT = 64
"""Longest string read (card ids, brigades)."""
MAX_ITEMS = 1000
"""Most items of any array read."""


OMIT_AT_DEFAULT: dict[str, bool] = {"omit_at_default": True}
"""Field metadata of a field added after the JSON form was published: it is written only when it is not at its
default, so the form of every state that does not use it stays as it was."""


def to_jsonable(value: object) -> JSON:
    """The JSON form of a model value (dataclass, enum, tuple, frozenset, scalar)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get("omit_at_default") and getattr(value, f.name) == f.default)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, frozenset):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"no JSON form for {type(value).__name__}")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def from_jsonable(tp: Any, data: JSON, path: str = "") -> Any:
    """Read ``data`` as a value of type ``tp``; malformed input names its path."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"unsupported union {tp}")
        return from_jsonable(rest[0], data, path)
    if origin is tuple:
        _check_array(data, path)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v, _join(path, i)) for i, v in enumerate(data))
        if len(data) != len(args):
            raise ScenarioError(path, f"expected an array of {len(args)} items, found {len(data)}")
        return tuple(from_jsonable(a, v, _join(path, i)) for i, (a, v) in enumerate(zip(args, data)))
    if origin is frozenset:
        _check_array(data, path)
        items = [from_jsonable(args[0], v, _join(path, i)) for i, v in enumerate(data)]
        if len(set(items)) != len(items):
            raise ScenarioError(path, "lists an entry twice")
        return frozenset(items)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [m.value for m in tp]
        if data not in values:
            raise ScenarioError(path, f"expected one of {values}, found {describe(data)}")
        return tp(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ScenarioError(path, f"expected an object, found {_kind(data)}")
        hints = _hints(tp)
        names = [f.name for f in dataclasses.fields(tp)]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise ScenarioError(_join(path, unknown[0][:MAX_TEXT]), f"unknown field; known: {', '.join(names)}")
        optional = {
            f.name for f in dataclasses.fields(tp)
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        }
        missing = [n for n in names if n not in data and n not in optional]
        if missing:
            raise ScenarioError(_join(path, missing[0]), "missing field")
        read = {n: from_jsonable(hints[n], data[n], _join(path, n)) for n in names if n in data}
        try:
            return tp(**read)
        except ScenarioError:
            raise
        except (TypeError, ValueError) as exc:  # __post_init__ checks
            raise ScenarioError(path, str(exc)) from None
    if tp is bool:
        if not isinstance(data, bool):
            raise ScenarioError(path, f"expected true or false, found {_kind(data)}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ScenarioError(path, f"expected an integer, found {_kind(data)}")
        if not -MAX_INT <= data <= MAX_INT:
            raise ScenarioError(path, f"must be between {-MAX_INT} and {MAX_INT}, found {describe(data)}")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise ScenarioError(path, f"expected a string, found {_kind(data)}")
        if len(data) > MAX_TEXT:
            raise ScenarioError(path, f"at most {MAX_TEXT} characters, found {len(data)}")
        return data
    raise TypeError(f"unsupported type {tp}")


def _check_array(data: JSON, path: str) -> None:
    if not isinstance(data, list):
        raise ScenarioError(path, f"expected an array, found {_kind(data)}")
    if len(data) > MAX_ITEMS:
        raise ScenarioError(path, f"at most {MAX_ITEMS} items, found {len(data)}")


def _kind(data: JSON) -> str:
    if data is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array", dict: "an object"}.get(
        type(data), type(data).__name__
    )
