"""The first place two JSON values differ, as a path: shared by the differential machine, the diff and the runner."""

from __future__ import annotations

from typing import Any


def first_difference(expected: Any, got: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """``(path, expected there, got there)`` for the first difference, in the expected value's key order; None if equal.

    A key on one side only shows as ``"(missing)"`` on the other; lists of
    different lengths that agree on their common part give ``path (length)``.
    ``1`` and ``True`` differ (JSON types are compared).
    """
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(k for k in got if k not in expected)]:
            if key not in got or key not in expected:
                return f"{path}.{key}", expected.get(key, "(missing)"), got.get(key, "(missing)")
            found = first_difference(expected[key], got[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for index, (a, b) in enumerate(zip(expected, got)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(got):
            return f"{path} (length)", len(expected), len(got)
        return None
    return None if expected == got and type(expected) is type(got) else (path, expected, got)
