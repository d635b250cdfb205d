"""Bounded model checking and k-induction of a state property, with z3.

Results are one of :class:`Verdict`: ``PROVED`` (k-induction), ``HOLDS_TO_DEPTH``
(no violation within ``k`` steps), ``VIOLATED`` (with the z3 model of the
trace) or ``UNKNOWN`` (with z3's reason); an unknown or a timeout is never
reported as a pass.

BMC uses ONE incremental solver for all depths: ``I(0)`` is asserted once, then
for ``j = 0, 1, ..., k``: assert ``T(j-1, j)`` and check under the assumption
literal ``bad_j`` with ``bad_j -> !P(j)``::

    I(0) & T(0,1) & ... & T(j-1,j) & !P(j)        (sat: a violation at depth j)

k-induction (Sheeran, Singh, Stalmarck) checks, for ``k = 1, 2, ...``, with
``Q = P & S & domain & settled`` (``S`` the property's strengthening):

    base:  I(0) & T(0,1) & ... & T(k-2,k-1) & !Q(k-1)        unsat
    step:  Q(0) & T(0,1) & Q(1) & ... & Q(k-1) & T(k-1,k) & !Q(k)   unsat

the step case again on one incremental solver (no simple-path constraint).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

import z3

from cardrules.specs.smt.fftcg.properties import StateProperty
from cardrules.specs.smt.fftcg.rules import settled
from cardrules.specs.smt.fftcg.system import TransitionSystem
from cardrules.specs.smt.fftcg.vocabulary import cards_domain, domain


class Verdict(enum.Enum):
    PROVED = "proved"
    HOLDS_TO_DEPTH = "holds to depth"
    VIOLATED = "violated"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SmtResult:
    verdict: Verdict
    depth: int
    """Depth checked (HOLDS_TO_DEPTH), of the violation (VIOLATED), the k of the proof
    (PROVED), or reached when z3 gave up (UNKNOWN)."""
    model: z3.ModelRef | None = None
    """For VIOLATED: a z3 model of frames ``0..depth`` and actions ``0..depth-1``."""
    reason: str = ""
    seconds: float = 0.0


def _p(ts: TransitionSystem, prop: StateProperty, t: int) -> z3.BoolRef:
    return prop.holds(ts.layout, ts.cards, ts.at(t))


def _q(ts: TransitionSystem, prop: StateProperty, t: int) -> z3.BoolRef:
    s = ts.at(t)
    return z3.And(prop.holds(ts.layout, ts.cards, s), prop.strengthening(ts.layout, ts.cards, s),
                  domain(ts.layout, s), settled(ts.layout, ts.cards, s))


def _solver(timeout_ms: int, rlimit: int) -> z3.Solver:
    """A solver with a time limit and (if ``rlimit > 0``) a deterministic resource limit."""
    solver = z3.Solver()
    solver.set(timeout=timeout_ms)
    if rlimit:
        solver.set(rlimit=rlimit)
    return solver


def bmc(ts: TransitionSystem, prop: StateProperty, k: int, timeout_ms: int = 30_000, rlimit: int = 0) -> SmtResult:
    """``P`` at every depth ``0..k`` from ``I``; the first (shallowest) violation is returned."""
    if k < 0:
        raise ValueError(f"bmc depth must be 0 or more, not {k}")
    started = time.perf_counter()
    solver = _solver(timeout_ms, rlimit)
    solver.add(ts.initial())
    for j in range(k + 1):
        if j:
            solver.add(ts.trans(j - 1))
        bad = z3.Bool(f"bad@{j}")
        solver.add(z3.Implies(bad, z3.Not(_p(ts, prop, j))))
        result = solver.check(bad)
        if result == z3.sat:
            return SmtResult(Verdict.VIOLATED, j, solver.model(), seconds=time.perf_counter() - started)
        if result == z3.unknown:
            return SmtResult(Verdict.UNKNOWN, j, reason=solver.reason_unknown(), seconds=time.perf_counter() - started)
    return SmtResult(Verdict.HOLDS_TO_DEPTH, k, seconds=time.perf_counter() - started)


def k_induction(
    ts: TransitionSystem, prop: StateProperty, max_k: int, timeout_ms: int = 30_000, rlimit: int = 0
) -> SmtResult:
    """Prove ``P`` (strengthened to ``Q``) for every depth with k-induction, ``k <= max_k``.

    A base-case counterexample that violates ``P`` itself is VIOLATED; one that only
    violates the strengthening is UNKNOWN (the strengthening is wrong, not ``P``).
    If no ``k <= max_k`` closes the step case, the result is HOLDS_TO_DEPTH ``max_k``.
    """
    if max_k < 1:
        raise ValueError(f"k-induction needs max_k of 1 or more, not {max_k}")
    started = time.perf_counter()

    def elapsed() -> float:
        return time.perf_counter() - started

    base = _solver(timeout_ms, rlimit)
    base.add(ts.initial())
    step = _solver(timeout_ms, rlimit)
    step.add(cards_domain(ts.layout, ts.cards))
    for k in range(1, max_k + 1):
        j = k - 1
        if j:
            base.add(ts.trans(j - 1))
        bad = z3.Bool(f"base_bad@{j}")
        base.add(z3.Implies(bad, z3.Not(_q(ts, prop, j))))
        result = base.check(bad)
        if result == z3.sat:
            model = base.model()
            if z3.is_false(model.eval(_p(ts, prop, j), model_completion=True)):
                return SmtResult(Verdict.VIOLATED, j, model, seconds=elapsed())
            return SmtResult(Verdict.UNKNOWN, j, reason=f"the strengthening of {prop.name} fails at depth {j}",
                             seconds=elapsed())
        if result == z3.unknown:
            return SmtResult(Verdict.UNKNOWN, j, reason=base.reason_unknown(), seconds=elapsed())
        step.add(_q(ts, prop, j))
        step.add(ts.trans(j))
        bad = z3.Bool(f"step_bad@{k}")
        step.add(z3.Implies(bad, z3.Not(_q(ts, prop, k))))
        result = step.check(bad)
        if result == z3.unsat:
            return SmtResult(Verdict.PROVED, k, seconds=elapsed())
        if result == z3.unknown:
            return SmtResult(Verdict.UNKNOWN, k, reason=step.reason_unknown(), seconds=elapsed())
    return SmtResult(Verdict.HOLDS_TO_DEPTH, max_k - 1, reason="the induction step did not close", seconds=elapsed())
