"""What the transition-level bridges share (:mod:`oracle.crosscheck.fftcg`,
:mod:`oracle.crosscheck.redemption.battle`): solvers for one layout and variant, a model state
asserted on frame 0 (:meth:`TransitionChecker.fixed`), the legal actions and successors
z3 allows, and the action-by-action comparison with the model (the fast way first,
:mod:`oracle.crosscheck.fast`, then the plain way where that does not show agreement).

A game's bridge subclasses :class:`TransitionChecker` with its encoding and decoding of
states and actions; it imports nothing of a game itself.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from typing import Any, Callable, Generic, Hashable, Iterable, Iterator, Sequence, TypeVar

import z3

from cardrules.oracle.crosscheck.counts import comparison, note, recording, smt_clauses_called
from cardrules.oracle.crosscheck.disagreement import CrosscheckReport, Disagreement
from cardrules.oracle.crosscheck.fast import Specialiser, agrees, pairs_of_facts, plain
from cardrules.oracle.crosscheck.solutions import SolverUnknown, distinct_solutions
from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.transition import TransitionSystem

S = TypeVar("S")
"""A model state."""
A = TypeVar("A")
"""A model action."""


class TransitionChecker(ABC, Generic[S, A]):
    """z3 solvers for one layout and variant: guards only (``enabled(0)``), the transition
    relation (``T(0,1)``), and a probe of the type invariant on frame 0."""

    out_of_scope: type[Exception] = ValueError
    """Raised by :meth:`facts` for a state that breaks the invariant."""
    out_of_scope_message = "state breaks the encoding's type invariant"

    def __init__(self, ts: TransitionSystem[Any], invariant: z3.BoolRef, budget: Budget) -> None:
        self.ts, self.budget = ts, budget
        ctx = ts.ctx(0)
        recorded = [smt_clauses_called(lambda: make(ctx)) for make in ts.action_makers()]
        ts.use_actions(0, [encoding for encoding, _ in recorded])  # the solvers below use these, not a second build
        self.kind_clauses: tuple[frozenset[str], ...] = tuple(clauses for _, clauses in recorded)
        """Per action kind, the clause IDs (``@implements`` tags) of the z3 functions that build its encoding."""
        self.s0, self.a0, self.s1 = ts.at(0), ts.action_at(0), ts.at(1)
        self.guards = budget.solver()
        self.guards.add(ts.enabled(0))
        self.trans = budget.solver()
        self.trans.add(ts.trans(0))
        self.probe = budget.solver()
        self.outside = z3.Bool("out_of_scope")
        self.invariant = invariant
        self.probe.add(z3.Implies(self.outside, z3.Not(invariant)))
        self._fixed_state: S | None = None
        self._pushed = False
        self._specialiser: Specialiser | None = None

    @abstractmethod
    def kind_of(self, action: A) -> int:
        """The encoding's action kind of a model action (an index into ``ts.action_makers()``)."""

    @abstractmethod
    def encode_state(self, state: S) -> list[z3.BoolRef]:
        """``state`` as constraints on frame 0 (and on any rigid variables)."""

    @abstractmethod
    def encode_action(self, action: A) -> list[z3.BoolRef]:
        """The action variables of step 0 fixed to ``action``."""

    @abstractmethod
    def decode_action(self, m: z3.ModelRef) -> A:
        """The action the z3 model gives the action variables of step 0."""

    @abstractmethod
    def decode_successor(self, m: z3.ModelRef, source: S) -> S:
        """Frame 1 of the z3 model as a model state (``source`` for names and card data)."""

    def facts(self, state: S) -> list[z3.BoolRef]:
        """:meth:`encode_state`; :attr:`out_of_scope` if it breaks the invariant,
        :class:`SolverUnknown` if z3 cannot tell."""
        facts = self.encode_state(state)
        self.probe.push()
        try:
            self.probe.add(*facts)
            result = self.probe.check(self.outside)
            if result == z3.unknown:
                raise SolverUnknown(f"z3 unknown while checking the type invariant: {self.budget.reason(self.probe)}")
            if result != z3.unsat:
                raise self.out_of_scope(self.out_of_scope_message)
        finally:
            self.probe.pop()
        return facts

    def decode_context(self, source: S) -> Hashable:
        """What :meth:`decode_successor` reads of ``source`` besides the z3 model (by default all of
        it); with the next frame's values, the key of a decoded successor in the fast way's cache."""
        return source

    def state_values(self, state: S) -> list[tuple[z3.ExprRef, int | bool]]:
        """:meth:`encode_state` as (variable, value) pairs, for the fast way
        (:mod:`oracle.crosscheck.fast`); :class:`~oracle.crosscheck.fast.NotAValue` if a fact is not
        ``variable == value``. A bridge may override this with a cheaper reading of the same facts."""
        return pairs_of_facts(self.encode_state(state))

    def specialiser(self) -> Specialiser:
        """The static part of the fast way (built on first use, then reused)."""
        if self._specialiser is None:
            if self._pushed:  # the guards solver holds a state's facts now: they would be in every answer
                raise RuntimeError("the fast way's specialiser must be built with no state asserted")
            self._specialiser = Specialiser(z3.And(*self.guards.assertions()), z3.And(*self.trans.assertions()),
                                            self.invariant, self.a0.all(), self.s1.all(), self.budget.solver())
        return self._specialiser

    @contextmanager
    def fixed(self, state: S) -> Iterator[TransitionChecker[S, A]]:
        """Inside the ``with`` block, ``state`` on frame 0: asserted on both large solvers when
        :meth:`legal_actions` or :meth:`successors` first needs it (the invariant is probed
        then, :meth:`facts`); :func:`compare_transitions` may decide without them
        (:mod:`oracle.crosscheck.fast`)."""
        self._fixed_state, self._pushed = state, False
        try:
            yield self
        finally:
            if self._pushed:
                self.guards.pop()
                self.trans.pop()
            self._fixed_state, self._pushed = None, False

    def _assert_fixed(self) -> None:
        if self._pushed:
            return
        if self._fixed_state is None:
            raise RuntimeError("legal_actions/successors are called inside TransitionChecker.fixed(state)")
        facts = self.facts(self._fixed_state)
        for solver in (self.guards, self.trans):
            solver.push()
            solver.add(*facts)
        self._pushed = True

    def legal_actions(self) -> list[A]:
        """Every assignment of the action variables the guards allow, decoded (inside :meth:`fixed`)."""
        self._assert_fixed()
        return distinct_solutions(self.guards, self.a0.all(), self.decode_action, what="legal actions")

    def successors(self, action: A, source: S, limit: int) -> list[S]:
        """Up to ``limit`` distinct successors by ``action`` (inside :meth:`fixed`)."""
        self._assert_fixed()
        return distinct_solutions(self.trans, self.s1.all(), lambda m: self.decode_successor(m, source),
                                  assumptions=self.encode_action(action), limit=limit, what="successors")


def diff(a: Any, b: Any) -> Any:
    """The parts of ``a`` that differ from ``b`` (for readable disagreements)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: diff(a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return {i: diff(x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y}
    return a


def compare_transitions(
    state: S,
    state_json: Callable[[], dict[str, Any]],
    checker: TransitionChecker[S, A],
    model_legal: set[A],
    model_step: Callable[[A], S],
    canonical: Callable[[S], dict[str, Any]],
    clauses_for: Callable[[A], tuple[str, ...]],
    text: Callable[[A], str],
) -> tuple[list[Disagreement], int]:
    """The legal action sets, and for each common action the unique successor (found, then
    blocked: a second one is a ``uniqueness`` disagreement); and how many actions were compared.
    Call inside ``checker.fixed(state)``.

    The fast way (:func:`oracle.crosscheck.fast.agrees`) is tried first: it can only show that the two
    agree on every one of these questions, and then the same comparisons are counted (one per
    action, for its kind's clauses). Otherwise (a disagreement, ``unknown``, a form it does not
    read) the plain way below asks again and reports. Each model step is taken once.
    ``state_json()``: the state's JSON, for the disagreements (asked only when there is one: most
    states have none, and writing a state's JSON was a third of the fast way's time)."""
    stepped: dict[A, S] = {}
    written: list[dict[str, Any]] = []

    def data() -> dict[str, Any]:
        if not written:
            written.append(state_json())
        return written[0]

    def step_once(action: A) -> S:
        if action not in stepped:
            stepped[action] = model_step(action)
        return stepped[action]

    if not plain() and agrees(checker, state, model_legal, step_once, canonical):
        for action in model_legal:  # the same comparisons as below, each of them an agreement
            with comparison():
                note(checker.kind_clauses[checker.kind_of(action)])
        return [], len(model_legal)
    found: list[Disagreement] = []
    compared = 0
    smt_list = checker.legal_actions()
    smt_legal = set(smt_list)
    if len(smt_list) != len(smt_legal):
        found.append(Disagreement("uniqueness", data(), "(action enumeration)", sorted(map(text, smt_list)),
                                  "each action once", ()))
    for action in sorted(model_legal ^ smt_legal, key=text):
        found.append(Disagreement("legality", data(), text(action), action in smt_legal, action in model_legal,
                                  clauses_for(action)))
    for action in model_legal | smt_legal:
        with comparison():  # one (state, action) comparison: legality, and the successor if legal on both sides
            note(checker.kind_clauses[checker.kind_of(action)])
    for action in sorted(model_legal & smt_legal, key=text):
        compared += 1
        expected = canonical(step_once(action))
        successors = checker.successors(action, state, 2)
        if not successors:
            found.append(Disagreement("successor", data(), text(action), "no successor", expected, clauses_for(action)))
            continue
        got = canonical(successors[0])
        if got != expected:
            found.append(Disagreement("successor", data(), text(action), diff(got, expected), diff(expected, got),
                                      clauses_for(action)))
        if len(successors) > 1:
            found.append(Disagreement("uniqueness", data(), text(action), [canonical(s) for s in successors],
                                      "one successor", clauses_for(action)))
    return found, compared


def crosscheck_many(states: Iterable[S], check: Callable[[S], tuple[Sequence[Disagreement], int]],
                    out_of_scope: type[Exception] = ValueError, describe: Callable[[S], str] = str) -> CrosscheckReport:
    """``check`` (disagreements, actions compared) over every state, with the time taken and the
    comparisons per clause; a state ``check`` refuses with ``out_of_scope`` is recorded in the
    report's ``out_of_scope`` (``describe(state)``: the reason), a failure, and the rest go on."""
    report = CrosscheckReport()
    started = time.perf_counter()
    with recording() as counts:
        for state in states:
            try:
                found, compared = check(state)
            except out_of_scope as reason:
                report.out_of_scope.append(f"{reason}; state: {describe(state)}")
                continue
            report.states += 1
            report.actions += compared
            report.disagreements.extend(found)
    report.clauses = dict(counts)
    report.seconds = time.perf_counter() - started
    return report
