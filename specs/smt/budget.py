"""How much work z3 may do on one query: a deterministic resource limit, not a clock.

Every solver of the encodings and the bridges is made by :meth:`Budget.solver`. The
budget is z3's ``rlimit`` (a count of z3's internal steps, the same on every machine and
under any load), set per solver and applying to each ``check`` separately (z3 counts
from where the context stands when the check starts). A wall-clock ``timeout`` is only
ever an explicit user option (``--timeout``), off by default, so that a verdict never
depends on how busy the machine is.

A query that runs out of budget answers ``unknown``; :func:`unknown_reason` says so.
``unknown`` is never a pass.

The numbers rest on measurement (``solver.statistics()``'s ``rlimit count`` before and
after each check, over the test suite, the cross-checks of every scenario, every
consistency and vacuity check and every BMC property): :data:`DEFAULT_RLIMIT` is about
ten times the largest single check measured, so a machine four times slower (or a z3
that needs a few times more steps) still decides every query.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

import z3

LARGEST_MEASURED = 6_300_000
"""The largest rlimit count of one check measured: a k-induction step of ``verify --engine smt``
(6.25M). Next: the quantified consistency checks (battle resolution 1.7M, heal 0.83M; the side
battle one, 19-25M, is decided by refinement instead, 2.9M in all, see
:func:`specs.smt.consistency.conflicting_situation`), BMC 1.6M, a battle-fragment successor
0.30M, an FFTCG successor 28K, a rule-decision query 5K."""
DEFAULT_RLIMIT = 60_000_000
"""The default budget of one check: about 10x :data:`LARGEST_MEASURED`."""
MAX_RLIMIT = 4_000_000_000
"""The largest budget ``--rlimit`` accepts (z3 takes an unsigned 32-bit count)."""

_EXHAUSTED = frozenset({"canceled", "max. resource limit exceeded", "resource limit exceeded"})


@dataclass(frozen=True, slots=True)
class Budget:
    """``rlimit`` steps per check (deterministic), and an optional wall-clock ``timeout_ms``."""

    rlimit: int = DEFAULT_RLIMIT
    timeout_ms: int | None = None
    arith_solver: int | None = None
    """z3's arithmetic solver (the solver parameter ``arith.solver``), or None for z3's default.
    A choice of engine, not of answer: a query decided is sat or unsat whichever decides it (the
    model z3 picks for a sat query may differ). What it spends of the ``rlimit`` differs, so
    whether a query runs out (``unknown``, reported as such, naming the solver) can differ: the
    largest k-induction query measured, damage-in-thousands on fftcg-identical-forwards, used
    4.2 M with z3's default and 4.6 M with solver 2, under :data:`LARGEST_MEASURED`. The bounded
    checks and k-induction from a model state use 2, the older simplex-based solver
    (:data:`BMC_ARITH_SOLVER`)."""

    def __post_init__(self) -> None:
        if not 0 < self.rlimit <= MAX_RLIMIT:
            raise ValueError(f"rlimit must be in 1..{MAX_RLIMIT}, not {self.rlimit}")
        if self.timeout_ms is not None and self.timeout_ms <= 0:
            raise ValueError(f"timeout must be positive, not {self.timeout_ms}")

    def solver(self) -> z3.Solver:
        """A fresh solver with ``rlimit`` (and ``timeout`` if one was asked for) set."""
        solver = z3.Solver()
        self.apply(solver)
        return solver

    def apply(self, solver: z3.Solver) -> None:
        """Set this budget on an existing ``solver``."""
        solver.set(rlimit=self.rlimit)
        if self.timeout_ms is not None:
            solver.set(timeout=self.timeout_ms)
        if self.arith_solver is not None:
            solver.set("arith.solver", self.arith_solver)

    def reason(self, solver: z3.Solver) -> str:
        """:func:`unknown_reason` of ``solver`` under this budget."""
        return unknown_reason(solver, self)


def unknown_reason(solver: z3.Solver, budget: Budget) -> str:
    """Why ``solver`` answered ``unknown``, in words (an exhausted ``rlimit`` is named as such)."""
    reason = solver.reason_unknown()
    if reason in _EXHAUSTED:
        limit = f"rlimit {budget.rlimit}" + (f" or timeout {budget.timeout_ms} ms" if budget.timeout_ms else "")
        if budget.arith_solver is not None:
            limit += f", arith.solver={budget.arith_solver}"
        return f"resource limit reached ({limit}): {reason}"
    return reason


BMC_ARITH_SOLVER = 2
"""The arithmetic solver of the bounded checks and k-induction from a model state
(``cardrules verify --engine smt``, ``cardrules smt bmc``): their hard queries are the
k-induction step cases of ``damage-in-thousands`` (powers and damage modulo 1000 over
symbolic cards), which z3's older arithmetic solver decides 3 to 5 times faster than its
default one (measured on every embedded FFTCG scenario and rule set, 2026-12-01: 0.4 s
against 1.6 to 2.4 s for ``fftcg-identical-forwards``; the same verdicts everywhere)."""

DEFAULT = Budget()
"""The budget every library function uses unless given another."""


_ACTIVE: ContextVar[Budget] = ContextVar("cardrules_smt_budget", default=DEFAULT)


def current() -> Budget:
    """The budget in force: :data:`DEFAULT`, or the one of the innermost :func:`using`.

    The bridges (``oracle/smt_*.py``) cache their solvers per layout and variant; they
    read this budget when they make one (it is part of the cache key), so a command's
    ``--rlimit`` / ``--timeout`` reach every solver without threading a parameter
    through every comparison."""
    return _ACTIVE.get()


@contextmanager
def using(budget: Budget) -> Iterator[Budget]:
    """Make ``budget`` the one :func:`current` returns inside the ``with`` block."""
    token = _ACTIVE.set(budget)
    try:
        yield budget
    finally:
        _ACTIVE.reset(token)
