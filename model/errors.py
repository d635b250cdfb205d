"""Errors shared by every game's model.

Both are ordinary exceptions with a message a user can act on: the CLI and
the oracle print them as one line, never as a traceback.
"""

from __future__ import annotations

import os
from typing import Any

from cardrules.specs.fileio import FileProblem, parse_json
from cardrules.specs.fileio.reading import decode, read_bytes


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

    def __reduce__(self) -> tuple[type, tuple[str, str, tuple[str, ...]]]:
        """Pickled by its own arguments (the default passes the message alone to ``__init__``)."""
        return type(self), (self.action, self.reason, self.clause_ids)


class ScenarioError(ValueError):
    """A state, scenario or action given as data (JSON, text) is malformed.

    ``where`` is a path into the data, such as ``players[1].forwards[0].power``.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        """Pickled by its own arguments (the default passes the message alone to ``__init__``)."""
        return type(self), (self.where, self.problem)


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

    The loading boundary for scenario and trace files, through the project's
    one file layer (:mod:`cardrules.specs.fileio`): bytes that are not UTF-8,
    text that is not JSON, nesting deeper than its bound and integers longer
    than its bound are all reported as bad input naming ``where`` (the file)
    and the position, never as a traceback.
    """
    try:
        return parse_json(decode(raw, where), where)
    except FileProblem as problem:
        raise ScenarioError(where, f"{problem.where}: {problem.what}" if problem.where else problem.what) from None


def json_from_file(path: str | os.PathLike[str], where: str, limit: int) -> Any:
    """The JSON document in a regular file of at most ``limit`` bytes; a problem with its content is a
    ScenarioError naming ``where``, one with reading it names the path as given.

    The file is read through :func:`cardrules.specs.fileio.read_bytes`: a FIFO,
    a device (``/dev/zero``) or a folder is refused before a byte is read.
    """
    try:
        raw = read_bytes(path, limit)
    except FileProblem as problem:
        raise ScenarioError(problem.path, problem.what) from None
    return json_from_bytes(raw, where)
