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


Path = Any
"""Where a value is, built as it is read and written out only for an error: the root's path text, or
``(parent path, key)`` (a field name or an array index)."""

Reader = typing.Callable[[JSON, Path], Any]


def _path_text(path: Path) -> str:
    """The path written out (``battles[0].sides[1][0].card``)."""
    keys: list[str | int] = []
    while isinstance(path, tuple):
        path, key = path
        keys.append(key)
    text: str = path
    for key in reversed(keys):
        text = _join(text, key)
    return text


def from_jsonable(tp: Any, data: JSON, path: str = "") -> Any:
    """Read ``data`` as a value of type ``tp``; malformed input names its path.

    Each type is read by a reader made once for it (:func:`_reader`), and the path of a value is written
    out only when it is malformed: a state of a few hundred values reads without working out a path
    for each."""
    return _reader(tp)(data, path)


@lru_cache(maxsize=None)
def _reader(tp: Any) -> Reader:
    """The reader of values of type ``tp`` (one that raises TypeError when asked, for a type the form does
    not support)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_reader(tp, args)
    if origin is tuple:
        return _tuple_reader(args)
    if origin is frozenset:
        return _frozenset_reader(args[0])
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_reader(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_reader(tp)
    if tp is bool:
        return _read_bool
    if tp is int:
        return _read_int
    if tp is str:
        return _read_str

    def unsupported(data: JSON, path: Path) -> Any:
        raise TypeError(f"unsupported type {tp}")

    return unsupported


def _union_reader(tp: Any, args: tuple[Any, ...]) -> Reader:
    nullable = type(None) in args
    rest = [a for a in args if a is not type(None)]

    def read(data: JSON, path: Path) -> Any:
        if data is None and nullable:
            return None
        if len(rest) != 1:
            raise TypeError(f"unsupported union {tp}")
        return _reader(rest[0])(data, path)

    return read


def _tuple_reader(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        item = args[0]

        def read_all(data: JSON, path: Path) -> Any:
            _check_array(data, path)
            each = _reader(item)
            return tuple(each(v, (path, i)) for i, v in enumerate(data))

        return read_all

    def read_fixed(data: JSON, path: Path) -> Any:
        _check_array(data, path)
        if len(data) != len(args):
            raise ScenarioError(_path_text(path), f"expected an array of {len(args)} items, found {len(data)}")
        return tuple(_reader(a)(v, (path, i)) for i, (a, v) in enumerate(zip(args, data)))

    return read_fixed


def _frozenset_reader(item: Any) -> Reader:
    def read(data: JSON, path: Path) -> Any:
        _check_array(data, path)
        each = _reader(item)
        items = [each(v, (path, i)) for i, v in enumerate(data)]
        if len(set(items)) != len(items):
            raise ScenarioError(_path_text(path), "lists an entry twice")
        return frozenset(items)

    return read


def _enum_reader(tp: type[enum.Enum]) -> Reader:
    values = [m.value for m in tp]
    known = set(values)

    def read(data: JSON, path: Path) -> Any:
        try:
            found = data in known
        except TypeError:  # an unhashable value (an array, an object): none of the values
            found = False
        if not found:
            raise ScenarioError(_path_text(path), f"expected one of {values}, found {describe(data)}")
        return tp(data)

    return read


def _dataclass_reader(tp: Any) -> Reader:
    hints = _hints(tp)
    fields = dataclasses.fields(tp)
    names = [f.name for f in fields]
    known = set(names)
    optional = {f.name for f in fields
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING}
    required = [n for n in names if n not in optional]
    readers = [(n, _reader(hints[n])) for n in names]

    def read(data: JSON, path: Path) -> Any:
        if not isinstance(data, dict):
            raise ScenarioError(_path_text(path), f"expected an object, found {_kind(data)}")
        if not known.issuperset(data):
            unknown = sorted(set(data) - known)
            raise ScenarioError(_path_text((path, unknown[0][:MAX_TEXT])), f"unknown field; known: {', '.join(names)}")
        for name in required:
            if name not in data:
                raise ScenarioError(_path_text((path, name)), "missing field")
        read = {n: each(data[n], (path, n)) for n, each in readers if n in data}
        try:
            return tp(**read)
        except ScenarioError:
            raise
        except (TypeError, ValueError) as exc:  # __post_init__ checks
            raise ScenarioError(_path_text(path), str(exc)) from None

    return read


def _read_bool(data: JSON, path: Path) -> Any:
    if not isinstance(data, bool):
        raise ScenarioError(_path_text(path), f"expected true or false, found {_kind(data)}")
    return data


def _read_int(data: JSON, path: Path) -> Any:
    if isinstance(data, bool) or not isinstance(data, int):
        raise ScenarioError(_path_text(path), f"expected an integer, found {_kind(data)}")
    if not -MAX_INT <= data <= MAX_INT:
        raise ScenarioError(_path_text(path), f"must be between {-MAX_INT} and {MAX_INT}, found {describe(data)}")
    return data


def _read_str(data: JSON, path: Path) -> Any:
    if not isinstance(data, str):
        raise ScenarioError(_path_text(path), f"expected a string, found {_kind(data)}")
    if len(data) > MAX_TEXT:
        raise ScenarioError(_path_text(path), f"at most {MAX_TEXT} characters, found {len(data)}")
    return data


def _check_array(data: JSON, path: Path) -> None:
    if not isinstance(data, list):
        raise ScenarioError(_path_text(path), f"expected an array, found {_kind(data)}")
    if len(data) > MAX_ITEMS:
        raise ScenarioError(_path_text(path), f"at most {MAX_ITEMS} items, found {len(data)}")


def _kind(data: JSON) -> str:
    if data is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array", dict: "an object"}.get(
        type(data), type(data).__name__
    )
