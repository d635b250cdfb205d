"""A step on which two variants of the FFTCG transition system disagree, reachable from a start position.

The FFTCG encoding is a transition system (:mod:`.system`) over one layout of cards, read under the
decision options in force (:mod:`.variants`). Two rule sets A and B give two relations ``T_A`` and
``T_B`` over the same variables. :func:`first_step_difference` looks, by bounded model checking from
the system's initial state, for the shortest path of A-steps ``s0 .. sk`` followed by one step
``(sk, a, s')`` that is in one relation and not in the other (``T_A xor T_B``): an action one rule
set allows and the other does not, or one whose successor differs. Unsat at every depth up to the
bound means no such step within that many steps of the start, for that layout: the verdict says so.
Each check runs under a :class:`~cardrules.specs.smt.budget.Budget`; ``unknown`` is reported as such.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.difference import Outcome
from cardrules.specs.smt.fftcg.system import TransitionSystem


@dataclass(frozen=True)
class StepDifference:
    outcome: Outcome
    depth: int
    """The A-steps before the differing one (for a difference), else the depth searched."""
    model: z3.ModelRef | None = None
    reason: str = ""


def first_step_difference(a: TransitionSystem, b: TransitionSystem, depth: int, budget: Budget) -> StepDifference:
    """The shortest path of A from ``a``'s initial state whose last step is in ``T_A xor T_B`` (at most
    ``depth`` A-steps before it); ``a`` and ``b`` share one layout (so one set of variables)."""
    solver = budget.solver()
    solver.add(a.initial())
    for k in range(depth + 1):
        solver.push()
        solver.add(z3.Xor(a.trans(k), b.trans(k)))
        result = solver.check()
        if result == z3.sat:
            return StepDifference(Outcome.DIFFERENCE, k, solver.model())
        if result == z3.unknown:
            return StepDifference(Outcome.UNKNOWN, k, reason=budget.reason(solver))
        solver.pop()
        solver.add(a.trans(k))
    return StepDifference(Outcome.NONE, depth)
