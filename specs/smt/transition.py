"""One transition-system scaffold for every z3 encoding of a game (after pySMT's
``model_checking`` example): frames, actions, ``init``/``trans``, unrolling, bounded model
checking and k-induction, written once. Each game supplies only its vocabulary (a
:class:`Frame` of typed variables per time frame ``t``), its actions and its properties.

Notation: ``s@t`` is frame ``t``, ``a@t`` the action taken from it, ``x'`` a variable of the
next frame. An action kind ``K`` is an :class:`ActionEncoding`: canonical values of the
parameters it does not use (``params_K``) and cases ``guard & updates & UNCHANGED``::

    T(t, t+1) = OR_K (kind@t = K & params_K & OR_cases (guard & updates & UNCHANGED))
    unroll(k) = T(0,1) & T(1,2) & ... & T(k-1,k)

Nothing here imports ``model.*`` (nor any game's encoding).
"""

from __future__ import annotations

import enum
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar, Generic, Iterator, Protocol, Sequence, TypeVar

import z3

from cardrules.specs.smt.budget import DEFAULT, Budget

# --- frames -------------------------------------------------------------------------------------


def flatten(value: object) -> Iterator[z3.ExprRef]:
    """The z3 terms of a (possibly nested) tuple, in order."""
    if isinstance(value, tuple):
        for item in value:
            yield from flatten(item)
    else:
        assert isinstance(value, z3.ExprRef), value
        yield value


class FrameGroups:
    """Mixin of a game's frame dataclass: its fields are the variable *groups*."""

    def groups(self) -> dict[str, tuple[z3.ExprRef, ...]]:
        """Every variable group, flattened to a tuple (scalars as 1-tuples), in field order."""
        return {f.name: tuple(flatten(getattr(self, f.name))) for f in fields(self)}  # type: ignore[arg-type]

    def all(self) -> list[z3.ExprRef]:
        """Every variable of the frame."""
        return [x for group in self.groups().values() for x in group]


def unchanged(s: FrameGroups, s2: FrameGroups, changed: frozenset[str]) -> list[z3.BoolRef]:
    """TLA+'s UNCHANGED: ``g' = g`` for every group ``g`` not in ``changed``."""
    now, nxt = s.groups(), s2.groups()
    unknown = changed - set(now)
    assert not unknown, unknown
    return [x2 == x for g in now if g not in changed for x, x2 in zip(now[g], nxt[g])]


# --- actions --------------------------------------------------------------------------------------


class Step(Protocol):
    """What one transition ``s -(a)-> s2`` is written over (a game's ``Ctx``)."""

    @property
    def s(self) -> Any: ...
    @property
    def a(self) -> Any: ...
    @property
    def s2(self) -> Any: ...


class CaseLike(Protocol):
    @property
    def guard(self) -> z3.BoolRef: ...

    def formula(self, s: Any, s2: Any) -> z3.BoolRef: ...


@dataclass(frozen=True)
class ActionEncoding:
    """One action kind: ``kind``, canonical ``params`` and its cases (a game names its kinds
    in the class attribute ``names``)."""

    names: ClassVar[tuple[str, ...]] = ()
    kind: int
    params: z3.BoolRef
    """Canonical values of the unused parameters (and ranges of the used ones)."""
    cases: tuple[CaseLike, ...]
    clauses: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.names[self.kind]

    def enabled(self, a: Any) -> z3.BoolRef:
        """``kind = K & params & OR_cases guard``: the action is legal."""
        return z3.And(a.kind == self.kind, self.params, z3.Or(*[c.guard for c in self.cases]))

    def relation(self, ctx: Step) -> z3.BoolRef:
        """``kind = K & params & OR_cases (guard & updates & UNCHANGED)``."""
        return z3.And(ctx.a.kind == self.kind, self.params, z3.Or(*[c.formula(ctx.s, ctx.s2) for c in self.cases]))


# --- the system -------------------------------------------------------------------------------------

C = TypeVar("C", bound=Step)


@dataclass
class TransitionSystem(ABC, Generic[C]):
    """``(init, trans)`` of one game's bounded configuration and variant.

    A game supplies :meth:`at`, :meth:`action_at`, :meth:`ctx`, :meth:`action_makers`,
    :meth:`initial` and (if it has frame-independent variables) :meth:`rigid`."""

    _trans: dict[int, z3.BoolRef] = field(init=False, default_factory=dict, repr=False)
    _actions: dict[int, tuple[ActionEncoding, ...]] = field(init=False, default_factory=dict, repr=False)

    @abstractmethod
    def at(self, t: int) -> Any:
        """Frame ``t``."""

    @abstractmethod
    def action_at(self, t: int) -> Any:
        """The action variables of the step from frame ``t``."""

    @abstractmethod
    def ctx(self, t: int) -> C:
        """What the step from frame ``t`` to ``t+1`` is written over."""

    @abstractmethod
    def action_makers(self) -> Sequence[Callable[[C], ActionEncoding]]:
        """One function per action kind, indexed by kind."""

    @abstractmethod
    def initial(self) -> z3.BoolRef:
        """``I(0)`` (with the type constraints of frame 0 and of the rigid variables)."""

    def rigid(self) -> z3.BoolRef:
        """Constraints on variables shared by every frame (none by default)."""
        return z3.BoolVal(True)

    def actions(self, t: int) -> tuple[ActionEncoding, ...]:
        """The action encodings of the step from frame ``t`` (built once per ``t``: :meth:`enabled`
        and :meth:`trans` share them)."""
        found = self._actions.get(t)
        if found is None:
            ctx = self.ctx(t)
            found = self._actions[t] = tuple(make(ctx) for make in self.action_makers())
        return found

    def use_actions(self, t: int, encodings: Sequence[ActionEncoding]) -> None:
        """Take ``encodings`` as :meth:`actions` of ``t``: each ``action_makers()[K](ctx(t))``, built
        by the caller (a cross-check builds them under its clause recorder, and does not build them
        again). Only before :meth:`actions` of ``t`` was built here."""
        if t in self._actions:
            raise RuntimeError(f"the action encodings of step {t} are built already")
        if len(encodings) != len(self.action_makers()):
            raise ValueError(f"{len(encodings)} action encodings for {len(self.action_makers())} action kinds")
        self._actions[t] = tuple(encodings)

    def enabled(self, t: int) -> z3.BoolRef:
        """``OR_K enabled_K``: the action variables at ``t`` name a legal action."""
        a = self.action_at(t)
        return z3.Or(*[e.enabled(a) for e in self.actions(t)])

    def trans(self, t: int) -> z3.BoolRef:
        """``T(t, t+1) = OR_K relation_K`` (built once per ``t``)."""
        if t not in self._trans:
            ctx = self.ctx(t)
            self._trans[t] = z3.Or(*[e.relation(ctx) for e in self.actions(t)])
        return self._trans[t]

    def unroll(self, k: int) -> z3.BoolRef:
        """``T(0,1) & ... & T(k-1,k)`` (true for ``k = 0``)."""
        return z3.And(*[self.trans(t) for t in range(k)]) if k else z3.BoolVal(True)


# --- bounded model checking and k-induction -------------------------------------------------------


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


AtTime = Callable[[int], z3.BoolRef]
"""A state formula at frame ``t`` (pySMT's ``at_time``)."""


class _Clock:
    def __init__(self) -> None:
        self.started = time.perf_counter()

    def __call__(self) -> float:
        return time.perf_counter() - self.started


def check_under(solver: z3.Solver, name: str, bad: z3.BoolRef) -> z3.CheckSatResult:
    """Assert ``name -> bad`` and check under the assumption literal ``name``."""
    literal = z3.Bool(name)
    solver.add(z3.Implies(literal, bad))
    return solver.check(literal)


def bmc(ts: TransitionSystem[Any], p: AtTime, k: int, budget: Budget = DEFAULT) -> SmtResult:
    """``P`` at every depth ``0..k`` from ``I`` on ONE incremental solver; for ``j = 0..k``::

        I(0) & T(0,1) & ... & T(j-1,j) & !P(j)        (sat: a violation at depth j)

    checked under the assumption literal ``bad@j``. The first (shallowest) violation is returned."""
    if k < 0:
        raise ValueError(f"bmc depth must be 0 or more, not {k}")
    clock, solver = _Clock(), budget.solver()
    solver.add(ts.initial())
    for j in range(k + 1):
        if j:
            solver.add(ts.trans(j - 1))
        result = check_under(solver, f"bad@{j}", z3.Not(p(j)))
        if result == z3.sat:
            return SmtResult(Verdict.VIOLATED, j, solver.model(), seconds=clock())
        if result == z3.unknown:
            return SmtResult(Verdict.UNKNOWN, j, reason=budget.reason(solver), seconds=clock())
    return SmtResult(Verdict.HOLDS_TO_DEPTH, k, seconds=clock())


def k_induction(ts: TransitionSystem[Any], p: AtTime, q: AtTime, max_k: int, budget: Budget = DEFAULT,
                name: str = "the property") -> SmtResult:
    """Prove ``P`` for every depth by k-induction (Sheeran, Singh, Stalmarck) on ``Q``, a
    strengthening of ``P`` (``Q -> P``), for ``k = 1..max_k``, each case on one incremental solver::

        base:  I(0) & T(0,1) & ... & T(k-2,k-1) & !Q(k-1)                        unsat
        step:  Q(0) & T(0,1) & Q(1) & ... & Q(k-1) & T(k-1,k) & !Q(k)           unsat

    (no simple-path constraint). A base counterexample that violates ``P`` itself is VIOLATED;
    one that only violates the strengthening is UNKNOWN. If no ``k`` closes the step case, the
    result is HOLDS_TO_DEPTH ``max_k - 1``."""
    if max_k < 1:
        raise ValueError(f"k-induction needs max_k of 1 or more, not {max_k}")
    clock = _Clock()
    base, step = budget.solver(), budget.solver()
    base.add(ts.initial())
    step.add(ts.rigid())
    for k in range(1, max_k + 1):
        j = k - 1
        if j:
            base.add(ts.trans(j - 1))
        result = check_under(base, f"base_bad@{j}", z3.Not(q(j)))
        if result == z3.sat:
            model = base.model()
            if z3.is_false(model.eval(p(j), model_completion=True)):
                return SmtResult(Verdict.VIOLATED, j, model, seconds=clock())
            return SmtResult(Verdict.UNKNOWN, j, reason=f"the strengthening of {name} fails at depth {j}",
                             seconds=clock())
        if result == z3.unknown:
            return SmtResult(Verdict.UNKNOWN, j, reason=budget.reason(base), seconds=clock())
        step.add(q(j), ts.trans(j))
        result = check_under(step, f"step_bad@{k}", z3.Not(q(k)))
        if result == z3.unsat:
            return SmtResult(Verdict.PROVED, k, seconds=clock())
        if result == z3.unknown:
            return SmtResult(Verdict.UNKNOWN, k, reason=budget.reason(step), seconds=clock())
    return SmtResult(Verdict.HOLDS_TO_DEPTH, max_k - 1, reason="the induction step did not close", seconds=clock())
