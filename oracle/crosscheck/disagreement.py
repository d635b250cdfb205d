"""A disagreement between the executable model and the z3 encoding, as both bridges report it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Disagreement:
    """The model and the encoding answer one question about one state differently.

    A disagreement is a bug in one of the two encodings or an ambiguity in the
    rules text, never something to paper over: it carries everything needed to
    reproduce and judge it.
    """

    what: str
    """What was compared: ``legality``, ``successor``, ``uniqueness`` (FFTCG transitions), or a
    rule decision such as ``sb-control``, ``br-outcome``, ``rd-amount`` (Redemption)."""
    state: dict[str, Any]
    """The model state, in its JSON form."""
    action: str
    smt: Any
    model: Any
    clause_ids: tuple[str, ...]

    def __str__(self) -> str:
        return (f"{self.what} at {self.action!r} [{', '.join(self.clause_ids)}]\n  smt:   {self.smt}\n"
                f"  model: {self.model}\n  state: {json.dumps(self.state, sort_keys=True)[:4000]}")


@dataclass
class CrosscheckReport:
    """An action-by-action cross-check over many states: what was compared, what disagreed."""

    states: int = 0
    actions: int = 0
    """Actions legal on both sides whose successors were compared."""
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: float = 0.0
    clauses: dict[str, int] = field(default_factory=dict)
    """Comparisons per clause (:mod:`oracle.crosscheck.counts`)."""
    out_of_scope: list[str] = field(default_factory=list)
    """States the encoding does not cover, each with why (a failure, never a pass)."""
