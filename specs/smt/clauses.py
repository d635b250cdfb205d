"""Clause ID -> the factory of its z3 constraint, one registry per situation.

Each area's encoding declares its constraints with ``@REG.clause("ID")``: the
factory is linked to its clause in the traceability registry (an SMT link) and
kept in declaration order, which is the order every report lists clauses in.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import ClauseConstraint

V = TypeVar("V")
ConstraintFactory = Callable[[V, RuleSet], ClauseConstraint]
"""(the situation's variables, a rule set) -> one clause's constraint."""


class Registry(Generic[V]):
    """Clause ID -> constraint factory, for one situation (one per area), in declaration order."""

    def __init__(self) -> None:
        self.factories: dict[str, ConstraintFactory[V]] = {}

    def clause(self, clause_id: str) -> Callable[[ConstraintFactory[V]], ConstraintFactory[V]]:
        """Register a factory for ``clause_id`` and link it (SMT link) in the traceability registry."""

        def register(factory: ConstraintFactory[V]) -> ConstraintFactory[V]:
            implements(clause_id)(factory)
            self.factories[clause_id] = factory
            return factory

        return register

    def build(self, v: V, rule_set: RuleSet) -> dict[str, ClauseConstraint]:
        return {cid: make(v, rule_set) for cid, make in self.factories.items()}
