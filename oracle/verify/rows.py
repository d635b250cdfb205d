"""One row of ``cardrules verify``: a property, on a scenario and rule set, by one engine, with its verdict."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any

SIZE_NAMES = {"explore": "states_explored", "hypothesis": "actions_played", "smt": "depth_checked"}
"""Per engine, what a row's size counts."""
FAILED_VERDICTS = frozenset({"violated", "MISSED", "UNKNOWN"})
"""Verdicts that fail a run."""


@dataclass
class Row:
    property: str
    scenario: str
    rule_set: str
    engine: str
    verdict: str
    """holds | proved | holds-bounded | violated | known-gap | caught | not-reached | MISSED | UNKNOWN

    For a mutant: ``caught`` (this engine found the expected violation),
    ``not-reached`` (it did not, but another engine did), ``MISSED`` (no engine did).
    """
    states: int
    """Its size: states explored (explore), actions played (hypothesis), depth checked (smt); see :attr:`size_name`."""
    seconds: float
    clause_ids: tuple[str, ...] = ()
    counterexample: list[str] = field(default_factory=list)
    trace: dict[str, Any] | None = None
    note: str = ""
    """Something the verdict alone does not say (an undecided k-induction before a bounded check)."""

    @builtins.property
    def size_name(self) -> str:
        """What :attr:`states` counts for this row's engine (the JSON key of the size)."""
        return SIZE_NAMES.get(self.engine, "size")

    @builtins.property  # the field ``property`` shadows the builtin in this class body
    def failed(self) -> bool:
        return self.verdict in FAILED_VERDICTS

    def to_json(self) -> dict[str, Any]:
        return {
            "property": self.property,
            "scenario": self.scenario,
            "rule_set": self.rule_set,
            "engine": self.engine,
            "verdict": self.verdict,
            self.size_name: self.states,
            "seconds": round(self.seconds, 3),
            "clause_ids": list(self.clause_ids),
            "counterexample": self.counterexample,
            "trace": self.trace,
            "note": self.note,
        }
