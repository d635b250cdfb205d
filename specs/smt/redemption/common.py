"""Shared plumbing of the Redemption situations: typed variable bundles and readers of z3 models
(each area's constraints register in a :class:`~cardrules.specs.smt.clauses.Registry`, re-exported here).

Nothing here knows a rule; the rules are in the area modules
(:mod:`.side_battle_clauses`, :mod:`.resolution`, :mod:`.redirect`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable, TypeVar

import z3

from cardrules.specs.smt.clauses import ConstraintFactory, Registry  # noqa: F401  (re-exported for the area modules)

__all__ = ["ConstraintFactory", "NONE", "Registry", "in_range", "make_vars", "one_of", "reader", "split_io"]

V = TypeVar("V")

NONE = -1
"""A player-valued output that names nobody (for example: nobody chooses)."""


_MADE: dict[tuple[type, str, frozenset[str]], tuple[z3.Context, Any]] = {}
"""The last bundle :func:`make_vars` made per (class, prefix, integers), with the z3 context it
was made in (held, so that a context is never mistaken for a later one at its address)."""


def make_vars(cls: type[V], prefix: str, integers: frozenset[str]) -> V:
    """An instance of the frozen dataclass ``cls`` whose fields are z3 constants named
    ``prefix.field`` (integers for the names in ``integers``, Booleans otherwise). Same names, same
    constants: calling this twice gives the same variables (the same bundle, while z3's default
    context is the same: a rule-decision query asks for its bundle every time, and making some
    forty constants each time was a sixth of the Redemption cross-check)."""
    key = (cls, prefix, integers)
    ctx = z3.main_ctx()
    found = _MADE.get(key)
    if found is not None and found[0] is ctx:
        return found[1]
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        name = f"{prefix}.{f.name}"
        values[f.name] = z3.Int(name) if f.name in integers else z3.Bool(name)
    made = cls(**values)
    _MADE[key] = (ctx, made)
    return made


def split_io(v: object, outputs: tuple[str, ...]) -> tuple[tuple[z3.ExprRef, ...], tuple[z3.ExprRef, ...]]:
    """(inputs, outputs) of a variable bundle, the outputs named in ``outputs``."""
    names = [f.name for f in fields(v)]  # type: ignore[arg-type]
    unknown = set(outputs) - set(names)
    if unknown:
        raise KeyError(f"unknown outputs {sorted(unknown)}")
    return (
        tuple(getattr(v, n) for n in names if n not in outputs),
        tuple(getattr(v, n) for n in names if n in outputs),
    )


def reader(v: object, skip: tuple[str, ...] = ()) -> Callable[[z3.ModelRef], dict[str, object]]:
    """A ``describe`` function: every variable of ``v`` (but ``skip``) read from a model."""

    def read(model: z3.ModelRef) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in fields(v):  # type: ignore[arg-type]
            if f.name in skip:
                continue
            value = model.eval(getattr(v, f.name), model_completion=True)
            out[f.name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
        return out

    return read


def one_of(x: z3.ArithRef, *values: z3.ArithRef | int) -> z3.BoolRef:
    return z3.Or(*[x == value for value in values])


def in_range(x: z3.ArithRef, low: int, high: int) -> z3.BoolRef:
    return z3.And(x >= low, x <= high)
