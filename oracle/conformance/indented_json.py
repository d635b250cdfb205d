"""The text ``json.dumps(data, indent=1, ensure_ascii=False)`` gives, made without its generators.

With an indent, the standard library encodes in Python, one generator per nesting level; the suites are
hundreds of megabytes of it. :func:`indented` appends the same pieces to one list, in the same order, by the
same rules (the type tests in ``json.encoder``'s order; strings quoted by its own ``encode_basestring``, the C
one where it exists; numbers as ``int.__repr__`` and ``float.__repr__``, the non-finite floats as JavaScript
names). Anything else it does not write: :func:`indented` then returns ``json.dumps``'s own text (or error).
``tests/oracle/conformance/test_indented_json.py`` compares the two on every kind of value.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any, Callable

_INFINITY = float("inf")


class _Unwritable(Exception):
    """A value :func:`indented` leaves to ``json.dumps`` (circular data is never met: suites are trees)."""


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise _Unwritable


def indented(data: Any) -> str:
    """``json.dumps(data, indent=1, ensure_ascii=False)``, byte for byte."""
    parts: list[str] = []
    append = parts.append
    quote: Callable[[str], str] = encode_basestring
    margins = ["\n"]

    def margin(level: int) -> str:
        while len(margins) <= level:
            margins.append("\n" + " " * len(margins))
        return margins[level]

    def write(value: Any, level: int) -> None:
        kind = type(value)
        if kind is str:  # the common kinds first, exactly (a subclass takes the tests below, in json's order)
            append(quote(value))
        elif kind is dict:
            write_dict(value, level)
        elif kind is list:
            write_list(value, level)
        elif isinstance(value, str):
            append(quote(value))
        elif value is None:
            append("null")
        elif value is True:
            append("true")
        elif value is False:
            append("false")
        elif isinstance(value, int):
            append(int.__repr__(value))
        elif isinstance(value, float):
            append(_float(value))
        elif isinstance(value, (list, tuple)):
            write_list(value, level)
        elif isinstance(value, dict):
            write_dict(value, level)
        else:
            raise _Unwritable

    def opened(value: Any, level: int, brackets: str) -> str | None:
        """Write an empty container whole (None), or open one: its bracket and its first item's margin; the
        separator between its items is returned."""
        if not value:
            append(brackets)
            return None
        inner = margin(level + 1)
        append(brackets[0] + inner)
        return "," + inner

    def write_list(value: list[Any] | tuple[Any, ...], level: int) -> None:
        between = opened(value, level, "[]")
        if between is None:
            return
        deeper = level + 1
        for item in value:
            if type(item) is str:
                append(quote(item))
            else:
                write(item, deeper)
            append(between)
        parts[-1] = margin(level) + "]"  # in place of the separator after the last item

    def write_dict(value: dict[Any, Any], level: int) -> None:
        between = opened(value, level, "{}")
        if between is None:
            return
        deeper = level + 1
        for key, item in value.items():
            append(quote(key if type(key) is str else _key(key)) + ": ")
            if type(item) is str:
                append(quote(item))
            else:
                write(item, deeper)
            append(between)
        parts[-1] = margin(level) + "}"

    try:
        write(data, 0)
    except (_Unwritable, RecursionError):
        return json.dumps(data, indent=1, ensure_ascii=False)
    return "".join(parts)
