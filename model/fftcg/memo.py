"""Remembered answers of pure FFTCG model functions that the search asks again and again (speed only).

Nothing here decides a rule: each function returns exactly what the model function it names
returns, remembered by its arguments (all immutable values). The model's own functions stay the
reference; this module carries no ``@implements`` and is not mutated by the mutation probe, which
empties these caches whenever it activates a mutant (they are ``lru_cache`` functions of a model
module), so a mutant's answers are never mixed with the reference's.

- :func:`legal_splits`: :func:`cardrules.model.fftcg.damage.legal_splits`, as a tuple that also
  answers ``split in splits`` by hashing. Judging a party's split (``why_illegal``) asks whether it
  is one of the legal splits: without this, listing the legal actions of a state with a split to
  make built every legal split once per candidate split, a quadratic cost under the split in
  hundreds (thousands of splits).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from typing import Any

import cardrules.model.fftcg.damage as damage
from cardrules.model.fftcg.actions import Split
from cardrules.model.fftcg.config import RuleConfig


class Splits(tuple[Split, ...]):
    """A tuple of splits in the model's order, with membership by hash (the same answer as a tuple's)."""

    _members: frozenset[Split]

    def __new__(cls, splits: tuple[Split, ...]) -> Splits:
        made = super().__new__(cls, splits)
        made._members = frozenset(splits)
        return made

    def __contains__(self, item: Any) -> bool:
        try:
            return item in self._members
        except TypeError:  # an unhashable value: equal to no split
            return False


@lru_cache(maxsize=512)
def _remembered_splits(members: tuple[str, ...], power: int, unit: int, config: RuleConfig) -> Splits:
    return Splits(damage.legal_splits(members, power, unit, config))


def legal_splits(members: tuple[str, ...], power: int, unit: int, config: RuleConfig) -> Splits:
    """:func:`cardrules.model.fftcg.damage.legal_splits` (the module's function of the moment, so a
    mutant of it is what is asked), remembered; but asked afresh while a profiler or tracer watches
    which model functions run (:mod:`cardrules.oracle.trace.coverage`), so that the clauses a step
    exercises never depend on what was asked before."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return Splits(damage.legal_splits(members, power, unit, config))
    return _remembered_splits(members, power, unit, config)
