"""Errors shared by every game's model.

Both are ordinary exceptions with a message a user can act on: the CLI and
the oracle print them as one line, never as a traceback.
"""

from __future__ import annotations

import json
from typing import Any


class IllegalAction(ValueError):
    """``step`` was given an action the rules forbid in this state.

    ``clause_ids`` names the clauses that forbid it (catalogue IDs), so an
    engine author can look the rule up.
    """

    def __init__(self, action: str, reason: str, clause_ids: tuple[str, ...]) -> None:
        self.action = action
        self.reason = reason
        self.clause_ids = clause_ids
        cited = f" [{', '.join(clause_ids)}]" if clause_ids else ""
        super().__init__(f"illegal action {action}: {reason}{cited}")


class ScenarioError(ValueError):
    """A state, scenario or action given as data (JSON, text) is malformed.

    ``where`` is a path into the data, such as ``players[1].forwards[0].power``.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


MAX_SHOWN = 60
"""Longest text of a bad value quoted in an error message."""


def describe(value: object) -> str:
    """A short, safe description of a bad value for an error message.

    Scalars are quoted (shortened past :data:`MAX_SHOWN` characters, huge
    integers by their digit count); containers are named by kind only, so
    that a deeply nested or huge value never makes the message itself fail
    or run to megabytes.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**MAX_SHOWN else f"an integer of more than {MAX_SHOWN} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        shown = value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "..."
        return repr(shown)
    kinds: dict[type, str] = {list: "an array", tuple: "an array", dict: "an object"}
    return kinds.get(type(value), f"a {type(value).__name__}")


def json_from_bytes(raw: bytes, where: str) -> Any:
    """Decode a JSON document read from a file; every way it can be malformed is a ScenarioError.

    The loading boundary for scenario and trace files: bytes that are not
    UTF-8, text that is not JSON, nesting deeper than the parser's recursion
    limit (json raises RecursionError) and integers longer than Python's
    4300-digit conversion limit (ValueError) are all reported as bad input
    naming ``where`` (the file), never as a traceback.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError(where, f"not UTF-8 text (byte {error.start}: {error.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioError(where, f"not valid JSON: {error}") from None
    except RecursionError:
        raise ScenarioError(where, "not valid JSON: nested too deeply") from None
    except ValueError:  # an integer literal past Python's int conversion limit
        raise ScenarioError(where, "not valid JSON here: an integer literal has more than 4300 digits") from None
