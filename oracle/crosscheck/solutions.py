"""Enumerating the distinct solutions of a z3 query, for the bridges' cross-checks.

Both bridges ask z3 "which actions do the guards allow?" and "which successor
does this action have?" the same way: find a model, decode it, block that
assignment of the variables of interest, ask again.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence, TypeVar

import z3

T = TypeVar("T")


class SolverUnknown(RuntimeError):
    """z3 answered ``unknown`` (a timeout, an incomplete theory): an error, never a pass."""


def distinct_solutions(
    solver: z3.Solver,
    variables: Sequence[z3.ExprRef],
    decode: Callable[[z3.ModelRef], T],
    *,
    assumptions: Iterable[z3.BoolRef] = (),
    limit: int | None = None,
    what: str = "solutions",
) -> list[T]:
    """Decoded models of ``solver`` (plus ``assumptions``) that differ on ``variables``.

    Stops after ``limit`` solutions (all, when ``None``); the solver is left as
    it was. Raises :class:`SolverUnknown` if z3 cannot decide before the limit.
    """
    found: list[T] = []
    solver.push()
    try:
        solver.add(*assumptions)
        while limit is None or len(found) < limit:
            result = solver.check()
            if result == z3.unsat:
                break
            if result == z3.unknown:
                raise SolverUnknown(f"z3 unknown while finding {what}: {solver.reason_unknown()}")
            model = solver.model()
            found.append(decode(model))
            solver.add(z3.Or(*[x != model.eval(x, model_completion=True) for x in variables]))
    finally:
        solver.pop()
    return found
