"""A search for a situation on which two clause sets of one area disagree (in the spirit of Zelkova).

Two rule sets A and B each give an area's consistency situation (:mod:`.consistency`) a set of
clause constraints: a relation ``X(inputs, outputs)`` saying which outcomes the rules allow in a
situation. A situation *tells A and B apart* when one rule set allows an outcome a player sees
that the other forbids. What a player sees of an area's outputs is :data:`OBSERVED` (for an area
not listed there: every output); two outcomes look the same when every observed output that is
shown at all has the same value in both.

Three questions, each under a :class:`~.budget.Budget` (``rlimit``):

* :func:`same_meaning`: do A and B allow exactly the same outcomes (every output, not just the
  observed ones) in every situation? ``exists i, o . background(i) & (A(i, o) xor B(i, o))``,
  without a quantifier. Unsat: the two clause sets mean the same over the whole situation.
* :func:`find_difference`, ``disjoint``: a situation where A and B each allow some outcome but
  share none that looks the same, so any engine that follows both encodings behaves
  differently there::

      exists i, a, b . bg(i) & A(i, a) & B(i, b) & forall a', b' . not (A(i, a') & B(i, b') & a' ~ b')

* :func:`find_difference`, ``allowed-forbidden``: a situation where X allows an outcome that Y
  (which allows something there) forbids, for X, Y = A, B and B, A::

      exists i, x, y . bg(i) & X(i, x) & Y(i, y) & forall y' . not (Y(i, y') & y' ~ x)

The quantified questions are answered by :func:`~.consistency.conflicting_situation` (the
quantifier under a budget, else counterexample-guided refinement). A ``restrict`` formula over
the inputs narrows a search (to the situations a caller can turn into a game position); an
unsat answer under it speaks only of those situations, and the caller says so. An ``unknown``
is :attr:`Outcome.UNKNOWN` with z3's reason, never "no difference". Nothing here reads the model.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import z3
from z3.z3util import get_vars

from cardrules.specs.smt.budget import DEFAULT, Budget
from cardrules.specs.smt.consistency import ClauseConstraint, Situation, SolverUnknown, conflicting_situation

Value = int | bool


class Outcome(enum.Enum):
    """What a search answered: a situation telling the rule sets apart, none, or z3 could not decide."""

    DIFFERENCE = "difference"
    NONE = "none"
    UNKNOWN = "unknown"


Restrict = Callable[[Mapping[str, z3.ExprRef]], z3.BoolRef]
"""Inputs by name -> a formula narrowing the situations searched."""


@dataclass(frozen=True)
class Observed:
    """One output a player sees, and when it is shown: every one of ``shown_when`` holds (a Boolean
    input or output by name; ``!name`` for its negation)."""

    name: str
    shown_when: tuple[str, ...] = ()


def _sb_fighter(c: str) -> tuple[Observed, ...]:
    ended = ("sb.ended",)
    kept = (*ended, f"!sb.discarded_{c}")
    return (Observed(f"sb.side_{c}", ("sb.takes_effect",)), Observed(f"sb.discarded_{c}", ended),
            Observed(f"sb.back_{c}", kept), Observed(f"sb.keeps_{c}", kept), Observed(f"sb.keeps_carried_{c}", kept),
            Observed(f"sb.back_side_{c}", (*ended, f"!sb.discarded_{c}", f"sb.back_{c}")),
            Observed(f"sb.home_{c}", (*ended, f"!sb.discarded_{c}", f"!sb.back_{c}")))


OBSERVED: Mapping[str, tuple[Observed, ...]] = {
    "heal": (Observed("heal.healed"), Observed("heal.destination", ("heal.healed",)),
             Observed("heal.lowered_after", ("heal.healed",))),
    "side-battle": (Observed("sb.card_playable", ("sb.used",)), Observed("sb.takes_effect"),
                    Observed("sb.count_after", ("sb.used",)), Observed("sb.chooser", ("sb.takes_effect",)),
                    Observed("sb.suspended", ("sb.takes_effect",)), Observed("sb.resumed", ("sb.ended",)),
                    Observed("sb.effect_negated", ("sb.sb_negated",)),
                    Observed("sb.resolution_undone", ("sb.sb_negated",)),
                    Observed("sb.victim_may_interrupt", ("sb.victim_in_paused",)),
                    Observed("sb.interrupt_targetable", ("sb.ended",)),
                    *_sb_fighter("x"), *_sb_fighter("y")),
}
"""Area -> the outputs a player sees: a heal happens or not, whose territory the card goes to, and
whether it comes back with its numbers still lowered (decision prev-regain-harmful);
a side battle card may be played or not, its ability takes effect or not (the battle below waits),
how many side battles its user has started, who chooses the sides and on which side each character
fights; at its end which character is discarded, goes back to its battle (on which side, with which
enhancements) or to whose territory, and whether the battle below resumes; when its card is negated,
what is negated and undone; which interrupts may be played. The other outputs (a heal's ``lasting``,
``targeted``, the window's bookkeeping ...) are what a rule engine keeps track of."""


ENCODING_LIMITS: Mapping[str, str] = {
    "heal": "one heal of one card, by one means, in one phase, two players; not modelled: how many cards a "
            "player holds, several heals in a row, later turns",
    "side-battle": "one use of a side battle ability on two characters, two to four players, up to three side "
                   "battles earlier in the turn; not modelled: card counts, what is fought in the side battle, "
                   "later turns",
    "battle-resolution": "one battle's resolution with a few characters a side; not modelled: the battle's "
                         "play before it stops, card counts outside the battle, later turns",
    "redirect": "one redirect of one ability or one card's numbers during a battle; not modelled: several "
                "redirects at once, card counts, later phases beyond the current one's end",
}
"""Area -> what its consistency situation does not model (said with every verdict about it)."""


HAPPENS: Mapping[str, str] = {"heal": "heal.healed", "side-battle": "sb.takes_effect"}
"""Area -> the output saying the action takes place. An allowed outcome where it does is looked for
first (one rule set lets the heal or side battle happen where the other forbids it: what a player
notices most); then any allowed outcome."""


@dataclass(frozen=True)
class Side:
    """One rule set's view of an area: its situation and the clauses in force."""

    label: str
    situation: Situation
    clause_ids: tuple[str, ...]

    def formula(self) -> z3.BoolRef:
        constraints = [self.situation.constraints[c].formula for c in self.clause_ids]
        return z3.And(self.situation.domain, *constraints)


@dataclass(frozen=True)
class Difference:
    """The answer of :func:`find_difference`."""

    outcome: Outcome
    kind: str = ""
    """``disjoint`` or ``allowed-forbidden`` (for a difference)."""
    allowed_by: str = ""
    """For ``allowed-forbidden``: the label of the rule set allowing the outcome the other forbids."""
    inputs: Mapping[str, Value] = field(default_factory=dict)
    """The situation: every input by name."""
    seen: Mapping[str, Mapping[str, Value]] = field(default_factory=dict)
    """Label -> the observed outputs of an outcome that rule set allows there (as z3 found them)."""
    words: Mapping[str, object] = field(default_factory=dict)
    """The situation in words (the situation's ``describe``)."""
    reason: str = ""


def observed(area: str, situation: Situation) -> tuple[Observed, ...]:
    """The observed outputs of ``area`` (:data:`OBSERVED`, else every output of the situation)."""
    return OBSERVED.get(area) or tuple(Observed(str(v)) for v in situation.outputs)


def _named(situation: Situation) -> dict[str, z3.ExprRef]:
    return {str(v): v for v in (*situation.inputs, *situation.outputs)}


class _Copies:
    """Fresh copies of the outputs, one set per tag (the inputs are shared)."""

    def __init__(self, outputs: Sequence[z3.ExprRef]) -> None:
        self.outputs = list(outputs)
        self.made: dict[str, list[z3.ExprRef]] = {}

    def of(self, tag: str) -> list[z3.ExprRef]:
        if tag not in self.made:
            self.made[tag] = [z3.Const(f"{v}@{tag}", v.sort()) for v in self.outputs]
        return self.made[tag]

    def rename(self, formula: z3.ExprRef, tag: str) -> z3.BoolRef:
        pairs = list(zip(self.outputs, self.of(tag)))
        return z3.substitute(formula, *pairs) if pairs else formula


def _shown(item: Observed, names: Mapping[str, z3.ExprRef], copies: _Copies, tag: str) -> z3.BoolRef:
    literals = [z3.Not(names[n[1:]]) if n.startswith("!") else names[n] for n in item.shown_when]
    return copies.rename(z3.And(*literals), tag)


def _looks_same(seen: Sequence[Observed], names: Mapping[str, z3.ExprRef], copies: _Copies, tag1: str,
                tag2: str) -> z3.BoolRef:
    """The outcomes ``tag1`` and ``tag2`` show the same observed outputs."""
    parts = []
    for item in seen:
        value = names[item.name]
        one, two = copies.rename(value, tag1), copies.rename(value, tag2)
        g1, g2 = _shown(item, names, copies, tag1), _shown(item, names, copies, tag2)
        parts.append(z3.And(g1 == g2, z3.Implies(g1, one == two)))
    return z3.And(*parts)


@dataclass
class _Search:
    area: str
    a: Side
    b: Side
    restrict: Restrict | None
    budget: Budget

    def __post_init__(self) -> None:
        self.names = {**_named(self.a.situation), **_named(self.b.situation)}
        self.outputs = [self.names[n] for n in dict.fromkeys(str(v) for v in (*self.a.situation.outputs,
                                                                                *self.b.situation.outputs))]
        self.copies = _Copies(self.outputs)
        self.seen = observed(self.area, self.a.situation)
        self.sides = {self.a.label: self.a, self.b.label: self.b}
        inputs = {str(v): v for v in (*self.a.situation.inputs, *self.b.situation.inputs)}
        self.inputs = inputs
        restricted = self.restrict(inputs) if self.restrict is not None else z3.BoolVal(True)
        self.background = z3.And(self.a.situation.background, self.b.situation.background, restricted)

    def holds(self, label: str, tag: str) -> z3.BoolRef:
        return self.copies.rename(self.sides[label].formula(), tag)

    def ask(self, exists: z3.BoolRef, forall_tags: Sequence[str], body: z3.BoolRef) -> z3.ModelRef | None:
        """``exists . background & exists & forall <copies of forall_tags> . not body``."""
        universal = tuple(x for tag in forall_tags for x in self.copies.of(tag))
        query = Situation("difference", (), universal, z3.And(self.background, exists), z3.BoolVal(True),
                          {"body": ClauseConstraint("body", z3.BoolVal(True), body)}, lambda m: {})
        return conflicting_situation(query, ["body"], self.budget)

    def disjoint(self) -> z3.ModelRef | None:
        a, b = self.a.label, self.b.label
        exists = z3.And(self.holds(a, "a"), self.holds(b, "b"))
        body = z3.And(self.holds(a, "a'"), self.holds(b, "b'"),
                      _looks_same(self.seen, self.names, self.copies, "a'", "b'"))
        return self.ask(exists, ["a'", "b'"], body)

    def allowed_forbidden(self, x: str, y: str, happens: bool) -> z3.ModelRef | None:
        exists = z3.And(self.holds(x, "x"), self.holds(y, "y"))
        if happens:
            exists = z3.And(exists, self.copies.rename(self.names[HAPPENS[self.area]], "x"))
        body = z3.And(self.holds(y, "y'"), _looks_same(self.seen, self.names, self.copies, "x", "y'"))
        return self.ask(exists, ["y'"], body)

    def answer(self, model: z3.ModelRef, kind: str, tags: Mapping[str, str], allowed_by: str = "") -> Difference:
        inputs = {name: _value(model, v) for name, v in sorted(self.inputs.items())}
        seen: dict[str, dict[str, Value]] = {}
        for label, tag in tags.items():
            seen[label] = {}
            for item in self.seen:
                if _value(model, _shown(item, self.names, self.copies, tag)):
                    seen[label][item.name] = _value(model, self.copies.rename(self.names[item.name], tag))
        words = self.a.situation.describe(model)
        return Difference(Outcome.DIFFERENCE, kind, allowed_by, inputs, seen, words)


def _value(model: z3.ModelRef, term: z3.ExprRef) -> Value:
    value = model.eval(term, model_completion=True)
    return value.as_long() if z3.is_int_value(value) else z3.is_true(value)


def find_difference(area: str, a: Side, b: Side, restrict: Restrict | None = None,
                    budget: Budget = DEFAULT, disjoint_first: bool = True) -> Difference:
    """A situation telling ``a`` and ``b`` apart (see the module docstring): a disjoint one first, else one
    where one rule set allows an observed outcome the other forbids (A's allowance first; one where the
action takes place, :data:`HAPPENS`, before any other). When the two
    clause sets mean the same (:func:`same_meaning`) the answer is NONE of kind ``same-meaning``, with
    no quantified search; when they differ only apart from what a player sees (:func:`unobserved_only`),
    NONE of kind ``unobserved-only``; else NONE has an empty kind: no situation tells them apart.
    ``disjoint_first=False`` skips the disjoint question (its situations are among the others': it only
    picks a clearer witness, at the price of a second copy of the outputs under the quantifier)."""
    if same_meaning(a, b, budget) is Outcome.NONE:
        return Difference(Outcome.NONE, kind="same-meaning")
    if unobserved_only(area, a, b, budget):
        return Difference(Outcome.NONE, kind="unobserved-only")
    search = _Search(area, a, b, restrict, budget)
    try:
        found = search.disjoint() if disjoint_first else None
        if found is not None:
            return search.answer(found, "disjoint", {a.label: "a", b.label: "b"})
        first = (True,) if area in HAPPENS and HAPPENS[area] in search.names else ()
        for happens in (*first, False):
            for x, y in ((a.label, b.label), (b.label, a.label)):
                found = search.allowed_forbidden(x, y, happens)
                if found is not None:
                    return search.answer(found, "allowed-forbidden", {x: "x", y: "y"}, allowed_by=x)
    except SolverUnknown as unknown:
        return Difference(Outcome.UNKNOWN, reason=unknown.reason)
    return Difference(Outcome.NONE)


def same_meaning(a: Side, b: Side, budget: Budget = DEFAULT) -> Outcome:
    """:attr:`Outcome.NONE` when A and B allow the same outcomes (every output) in every situation,
    :attr:`Outcome.DIFFERENCE` when some situation and outcome is allowed by one only, else UNKNOWN."""
    solver = budget.solver()
    solver.add(a.situation.background, b.situation.background, z3.Xor(a.formula(), b.formula()))
    result = solver.check()
    if result == z3.unsat:
        return Outcome.NONE
    return Outcome.DIFFERENCE if result == z3.sat else Outcome.UNKNOWN


def _outputs_in(formula: z3.ExprRef, outputs: Mapping[int, str]) -> set[str]:
    """The names of the outputs ``formula`` mentions (``outputs``: z3 id -> name)."""
    return {outputs[v.get_id()] for v in get_vars(formula) if v.get_id() in outputs}


def _component(parts: Sequence[set[str]], start: set[str]) -> set[str]:
    """The outputs linked to ``start`` through formulas that share outputs (each part: one formula's)."""
    reached = set(start)
    grown = True
    while grown:
        grown = False
        for part in parts:
            if part & reached and not part <= reached:
                reached |= part
                grown = True
    return reached


def unobserved_only(area: str, a: Side, b: Side, budget: Budget = DEFAULT) -> bool:
    """Whether A and B differ only in outputs no player sees, so that they allow the same observed outcomes.

    The clauses whose formulas differ, and every output linked to theirs through any formula of A or B (a
    clause, a conjunct of the domain), form one part of the relation; when it holds no observed output (nor
    one that says when an output is shown), the rest of the relation is common to A and B and the part
    changes what a player sees only where it cannot be met at all. So: True when, under A and under B, the
    part can be met in every situation (a quantified check, :func:`~.consistency.conflicting_situation`).
    False whenever that is not shown (the search then asks z3 directly)."""
    if not a.situation.domain.eq(b.situation.domain):
        return False
    outputs = {v.get_id(): str(v) for v in (*a.situation.outputs, *b.situation.outputs)}
    formulas = {side.label: {c: side.situation.constraints[c].formula for c in side.clause_ids} for side in (a, b)}
    changed = [c for c in {*formulas[a.label], *formulas[b.label]}
               if c not in formulas[a.label] or c not in formulas[b.label]
               or not formulas[a.label][c].eq(formulas[b.label][c])]
    touched = set().union(*[_outputs_in(formulas[s][c], outputs) for s in formulas for c in changed
                            if c in formulas[s]])
    if not touched:
        return False
    domain = list(a.situation.domain.children()) if z3.is_and(a.situation.domain) else [a.situation.domain]
    every = [*domain, *formulas[a.label].values(), *formulas[b.label].values()]
    part = _component([_outputs_in(f, outputs) for f in every], touched)
    shown = {o.name for o in observed(area, a.situation)} | {n.lstrip("!") for o in observed(area, a.situation)
                                                               for n in o.shown_when}
    if part & shown:
        return False
    names = {str(v): v for v in (*a.situation.outputs, *b.situation.outputs)}
    try:
        for side in (a, b):
            linked = [f for f in (*domain, *formulas[side.label].values()) if _outputs_in(f, outputs) & part]
            query = Situation("part", (), tuple(names[n] for n in sorted(part)), side.situation.background,
                              z3.BoolVal(True), {"part": ClauseConstraint("part", z3.BoolVal(True), z3.And(*linked))},
                              lambda m: {})
            if conflicting_situation(query, ["part"], budget) is not None:
                return False
    except SolverUnknown:
        return False
    return True
