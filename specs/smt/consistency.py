"""Consistency and vacuity checks of clauses encoded over one situation.

A *situation* is a small vocabulary of z3 variables split in two:

* **inputs**: what the situation is (where the character is, what caused
  the discard, who owns it ...), constrained only by ``background`` facts of
  the game (a card is in one place at a time);
* **outputs**: what the rules decide (is it healed, where does it go ...).

Each clause is a :class:`ClauseConstraint` ``premise -> conclusion``. A set
of clauses *contradicts itself* when some situation leaves no outcome that
satisfies all of them::

    exists inputs . background(inputs) and
        forall outputs . not (domain(outputs) and AND_c (premise_c -> conclusion_c))

(decided with the quantifier, or where that needs too many solver steps by
counterexample-guided refinement, :func:`conflicting_situation`). A contradiction is
reported as a minimal set of clause IDs (no clause can be
dropped and the rest still conflict), with a situation that triggers it.
Every minimal set is found by the MARCO enumeration of minimal unsatisfiable
subsets (Liffiton and Malik), with the check above as the oracle.

A clause is *vacuous* under a rule set when no situation consistent with the
whole rule set makes its premise true: it can never apply.

An SMT ``unknown`` (the resource budget of :mod:`.budget` spent, an incomplete
theory) is reported as :data:`Verdict.UNKNOWN` with z3's reason, never as consistent.
Every check runs under a :class:`~.budget.Budget`: a deterministic ``rlimit`` by
default, so a verdict does not depend on the machine's load.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import z3

from cardrules.specs.smt.budget import DEFAULT, Budget


class Verdict(enum.Enum):
    CONSISTENT = "consistent"
    CONTRADICTION = "contradiction"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class ClauseConstraint:
    """One clause as ``premise -> conclusion`` over a situation's variables."""

    clause_id: str
    premise: z3.BoolRef
    conclusion: z3.BoolRef

    @property
    def formula(self) -> z3.BoolRef:
        return z3.Implies(self.premise, self.conclusion)


@dataclass(frozen=True)
class Situation:
    """The variables of one situation, its background facts and its clause constraints."""

    name: str
    inputs: tuple[z3.ExprRef, ...]
    outputs: tuple[z3.ExprRef, ...]
    background: z3.BoolRef
    """Facts every situation satisfies (constraints on inputs only)."""
    domain: z3.BoolRef
    """Ranges of the outputs (for integer-coded outputs)."""
    constraints: Mapping[str, ClauseConstraint]
    """Clause ID -> its constraint, for every clause this situation encodes."""
    describe: Callable[[z3.ModelRef], dict[str, object]]
    """Reads a readable situation (inputs, in words) from a z3 model."""


@dataclass(frozen=True)
class Contradiction:
    """A minimal set of clauses that conflict, and a situation where they do."""

    clause_ids: tuple[str, ...]
    situation: dict[str, object]


@dataclass(frozen=True)
class ConsistencyReport:
    situation: str
    clause_ids: tuple[str, ...]
    verdict: Verdict
    contradictions: tuple[Contradiction, ...] = ()
    reason: str = ""
    """Why the verdict is UNKNOWN (z3's reason), else empty."""


@dataclass(frozen=True)
class VacuityResult:
    clause_id: str
    verdict: Verdict
    """CONSISTENT: the premise can hold (a witness is given); CONTRADICTION: it never can; UNKNOWN."""
    witness: dict[str, object] = field(default_factory=dict)
    reason: str = ""


class SolverUnknown(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _constraints(situation: Situation, clause_ids: Sequence[str]) -> list[ClauseConstraint]:
    missing = [cid for cid in clause_ids if cid not in situation.constraints]
    if missing:
        raise KeyError(f"situation {situation.name!r} does not encode {', '.join(missing)}")
    return [situation.constraints[cid] for cid in clause_ids]


QUANTIFIED_RLIMIT = 4_000_000
"""The rlimit of the first, quantified attempt of :func:`conflicting_situation` (at most the
budget's): above every quantified check measured but side battles' full clause set (19M)."""
MAX_REFINEMENTS = 10_000
"""A bound on the refinements of :func:`_refine` (past it: ``unknown``)."""


def conflicting_situation(
    situation: Situation, clause_ids: Sequence[str], budget: Budget = DEFAULT
) -> z3.ModelRef | None:
    """A situation where the clauses cannot all hold, or ``None`` if there is none.

    Decides ``exists inputs . background & forall outputs . not body`` (``body = domain &
    AND_c formula_c``): first with the quantifier under :data:`QUANTIFIED_RLIMIT`, and if z3
    needs more, by counterexample-guided refinement (:func:`_refine`), whose checks have no
    quantifier. Both budgets are deterministic, so the route taken is too. Raises
    :class:`SolverUnknown` when z3 cannot decide.
    """
    body = z3.And(situation.domain, *[c.formula for c in _constraints(situation, clause_ids)])
    first = Budget(min(budget.rlimit, QUANTIFIED_RLIMIT), budget.timeout_ms)
    solver = first.solver()
    solver.add(situation.background)
    solver.add(z3.ForAll(list(situation.outputs), z3.Not(body)) if situation.outputs else z3.Not(body))
    result = solver.check()
    if result == z3.sat:
        return solver.model()
    if result == z3.unsat:
        return None
    return _refine(situation, body, budget)


def _refine(situation: Situation, body: z3.BoolRef, budget: Budget) -> z3.ModelRef | None:
    """The check of :func:`conflicting_situation` by refinement (2QBF CEGAR): a *candidate*
    solver proposes inputs; a *verifier* looks for outputs that satisfy ``body`` for them. None:
    the candidate conflicts. Found: the candidate solver learns ``not body[outputs := found]`` and
    proposes again; unsat there: nothing conflicts. Ends on a finite output domain. The whole
    refinement shares one ``budget.rlimit`` (each check gets what is left)."""
    candidates, verifier = budget.solver(), budget.solver()
    candidates.add(situation.background)
    verifier.add(body)
    inputs = _free_inputs(z3.And(situation.background, body), situation.outputs)
    start = _steps(candidates)
    for _ in range(MAX_REFINEMENTS):
        proposed = _check_within(candidates, budget, start)
        if proposed == z3.unsat:
            return None
        model = candidates.model()
        answered = _check_within(verifier, budget, start, *[x == model.eval(x, model_completion=True) for x in inputs])
        if answered == z3.unsat:
            return model
        outputs = verifier.model()
        candidates.add(z3.Not(z3.substitute(body, *[(y, outputs.eval(y, model_completion=True))
                                                    for y in situation.outputs])))
    raise SolverUnknown(f"no answer after {MAX_REFINEMENTS} refinements")


def _steps(solver: z3.Solver) -> int:
    """z3's ``rlimit count`` so far (a counter of the whole context)."""
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


def _check_within(solver: z3.Solver, budget: Budget, start: int, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """``solver.check`` with what is left of ``budget.rlimit`` since ``start``; sat or unsat, else
    :class:`SolverUnknown`."""
    left = budget.rlimit - (_steps(solver) - start)
    if left <= 0:
        raise SolverUnknown(f"resource limit reached (rlimit {budget.rlimit} over the refinement)")
    solver.set(rlimit=left)
    result = solver.check(*assumptions)
    if result == z3.unknown:
        raise SolverUnknown(budget.reason(solver))
    return result


def _free_inputs(formula: z3.ExprRef, outputs: Sequence[z3.ExprRef]) -> list[z3.ExprRef]:
    """Every uninterpreted constant of ``formula`` that is not an output (the existential side)."""
    skip = {y.get_id() for y in outputs}
    seen: set[int] = set()
    found: dict[int, z3.ExprRef] = {}
    stack = [formula]
    while stack:
        term = stack.pop()
        if term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED and term.get_id() not in skip:
            found[term.get_id()] = term
        stack.extend(term.children())
    return [found[k] for k in sorted(found)]


def _shrink(situation: Situation, clause_ids: list[str], budget: Budget) -> tuple[list[str], z3.ModelRef]:
    """Drop clauses one by one while the rest still conflict (deletion-based MUS)."""
    core = list(clause_ids)
    witness = conflicting_situation(situation, core, budget)
    assert witness is not None
    for clause_id in list(core):
        trial = [c for c in core if c != clause_id]
        found = conflicting_situation(situation, trial, budget) if trial else None
        if found is not None:
            core, witness = trial, found
    return core, witness


def _grow(situation: Situation, seed: list[str], universe: list[str], budget: Budget) -> list[str]:
    """Add clauses one by one while the set stays consistent (a maximal satisfiable subset)."""
    grown = list(seed)
    for clause_id in universe:
        if clause_id in grown:
            continue
        if conflicting_situation(situation, [*grown, clause_id], budget) is None:
            grown.append(clause_id)
    return grown


def find_contradictions(
    situation: Situation, clause_ids: Sequence[str], budget: Budget = DEFAULT, limit: int = 50
) -> ConsistencyReport:
    """Every minimal conflicting subset of ``clause_ids`` (up to ``limit``), by MARCO."""
    universe = list(clause_ids)
    selectors = {cid: z3.Bool(f"use[{cid}]") for cid in universe}
    seeds = budget.solver()
    found: list[Contradiction] = []
    try:
        while len(found) < limit and _check_seeds(seeds, budget):
            model = seeds.model()
            # unassigned selectors count as chosen, so every seed is as large as allowed
            seed = [cid for cid in universe if not z3.is_false(model.eval(selectors[cid], model_completion=False))]
            if conflicting_situation(situation, seed, budget) is not None:
                core, witness = _shrink(situation, seed, budget)
                found.append(Contradiction(tuple(core), situation.describe(witness)))
                seeds.add(z3.Or([z3.Not(selectors[cid]) for cid in core]))
            else:
                mss = _grow(situation, seed, universe, budget)
                seeds.add(z3.Or([selectors[cid] for cid in universe if cid not in mss]) if len(mss) < len(universe) else z3.BoolVal(False))
    except SolverUnknown as unknown:
        return ConsistencyReport(situation.name, tuple(universe), Verdict.UNKNOWN, tuple(found), unknown.reason)
    verdict = Verdict.CONTRADICTION if found else Verdict.CONSISTENT
    return ConsistencyReport(situation.name, tuple(universe), verdict, tuple(sorted(found, key=lambda c: c.clause_ids)))


def _check_seeds(seeds: z3.Solver, budget: Budget) -> bool:
    """Whether MARCO has another seed; :class:`SolverUnknown` if z3 cannot tell."""
    result = seeds.check()
    if result == z3.unknown:
        raise SolverUnknown(budget.reason(seeds))
    return bool(result == z3.sat)


def check_vacuity(
    situation: Situation, clause_ids: Sequence[str], budget: Budget = DEFAULT
) -> tuple[VacuityResult, ...]:
    """For each clause: a situation, consistent with all of ``clause_ids``, where its premise holds."""
    constraints = _constraints(situation, clause_ids)
    results = []
    for constraint in constraints:
        solver = budget.solver()
        solver.add(situation.background, situation.domain, *[c.formula for c in constraints], constraint.premise)
        result = solver.check()
        if result == z3.sat:
            results.append(VacuityResult(constraint.clause_id, Verdict.CONSISTENT, situation.describe(solver.model())))
        elif result == z3.unsat:
            results.append(VacuityResult(constraint.clause_id, Verdict.CONTRADICTION))
        else:
            results.append(VacuityResult(constraint.clause_id, Verdict.UNKNOWN, reason=budget.reason(solver)))
    return tuple(results)
