"""Errors shared by every game's model.

Both are ordinary exceptions with a message a user can act on: the CLI and
the oracle print them as one line, never as a traceback.
"""

from __future__ import annotations


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
