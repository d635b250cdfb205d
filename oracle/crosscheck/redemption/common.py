"""What the Redemption rule-decision bridge shares (see :mod:`oracle.crosscheck.redemption.decisions`): the rule set of a
model configuration, one z3 :class:`Query` per situation and configuration (cached), the decisions the
encodings read, the report, and the errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

import z3

from cardrules.oracle.crosscheck.counts import note_query
from cardrules.oracle.crosscheck.fast import plain
from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.oracle.crosscheck.solutions import SolverUnknown
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.abilities import hosts as model_hosts
from cardrules.model.redemption.state import CardType, PromptKind, State
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.budget import Budget, current
from cardrules.specs.smt.consistency import Situation
from cardrules.specs.smt.redemption import redirect as rd
from cardrules.specs.smt.redemption import resolution as br
from cardrules.specs.smt.redemption import side_battle_clauses as sb_clauses
from cardrules.specs.smt.redemption import side_battle_vars as sb


# --- rule sets and queries ----------------------------------------------------------------------


def rule_set_of(config: RuleConfig) -> RuleSet:
    """The catalogue rule set a model configuration reads (heal version and decision variants)."""
    return RuleSet(versions={"heal": frozenset({config.heal_version})}, decisions=dict(config.variants),
                   broken=frozenset(config.broken))


class OutOfScope(ValueError):
    """A state the encoding's situation has no room for (for example more than K fighters a side).
    Counted as ``out-of-scope`` by :func:`crosscheck_state`, never a pass of a comparison."""


class EncodingNoAnswer(RuntimeError):
    """The encoding gave no answer, or several, where its clauses should force exactly one (a
    state inside what is compared): reported by :func:`crosscheck_state` as a
    :class:`Disagreement` of kind ``encoding-no-answer``, never counted as out of scope."""

    def __init__(self, message: str, answers: Sequence[Any], clause_ids: Sequence[str]) -> None:
        super().__init__(message)
        self.answers = list(answers)
        self.clause_ids = tuple(clause_ids)


ANSWERS_CACHED = 50_000
"""Complete answers each :class:`Query` keeps (least recently used first out)."""


class Query:
    """A solver holding one situation's background, domain and clause constraints."""

    def __init__(self, situation: Situation, clause_ids: Sequence[str], budget: Budget) -> None:
        self.situation = situation
        self.clause_ids = tuple(clause_ids)
        self.budget = budget
        self.solver = budget.solver()
        self.solver.add(situation.background, situation.domain,
                        *[situation.constraints[c].formula for c in clause_ids])
        self._answers: dict[tuple[Any, ...], tuple[frozenset[tuple[Any, ...]], tuple[z3.ExprRef, ...],
                                                   tuple[z3.ExprRef, ...]]] = {}

    def allowed(self, fixed: Sequence[z3.BoolRef], project: Sequence[z3.ExprRef], limit: int = 32) -> set[tuple[Any, ...]]:
        """Every value of ``project`` some outcome allowed by the clauses gives, with ``fixed`` holding.

        A complete answer (fewer than ``limit`` values, or no projection) is cached by the z3 terms
        asked (their ids; the entry holds the terms, so no id is reused while it is kept): the same
        question gets the same answer, and its clauses are noted for the comparison as on the first
        call. An answer cut at ``limit`` is asked again each time, as before."""
        key = (tuple(sorted(x.get_id() for x in fixed)), tuple(x.get_id() for x in project), limit)
        cached = None if plain() else self._answers.pop(key, None)
        if cached is not None:
            self._answers[key] = cached  # most recently used last
            note_query(self, fixed, project, cached[0])
            return set(cached[0])
        found = self._allowed(fixed, project, limit)
        if (len(found) < limit or not project) and not plain():
            if len(self._answers) >= ANSWERS_CACHED:
                del self._answers[next(iter(self._answers))]
            self._answers[key] = (frozenset(found), tuple(fixed), tuple(project))
        return found

    def _allowed(self, fixed: Sequence[z3.BoolRef], project: Sequence[z3.ExprRef], limit: int) -> set[tuple[Any, ...]]:
        found: set[tuple[Any, ...]] = set()
        self.solver.push()
        try:
            self.solver.add(*fixed)
            while len(found) < limit:
                result = self.solver.check()
                if result == z3.unknown:
                    raise SolverUnknown(f"z3 unknown: {self.budget.reason(self.solver)}")
                if result == z3.unsat:
                    break
                m = self.solver.model()
                values = tuple(m.eval(x, model_completion=True) for x in project)
                found.add(tuple(_py(x) for x in values))
                self.solver.add(z3.Or(*[x != val for x, val in zip(project, values)]) if project else z3.BoolVal(False))
        finally:
            self.solver.pop()
        note_query(self, fixed, project, found)  # which clauses decided it (oracle.crosscheck.counts)
        return found

    def possible(self, fixed: Sequence[z3.BoolRef]) -> bool:
        return bool(self.allowed(fixed, [], limit=1))


def _py(value: z3.ExprRef) -> Any:
    if z3.is_int_value(value):
        return value.as_long()
    return z3.is_true(value)


ENCODED_AREAS: frozenset[str] = frozenset({"side-battle", "battle-resolution", "redirect", "heal"})
"""The catalogue areas the rule-level encodings hold clauses of."""
READ_DECISIONS: frozenset[str] = frozenset({
    "sb-nested-battle-players", "sb-different-player", "sb-healed-fighter-destination", "sb-in-battle-meaning", "sb-return-territory",
    "sb-territory-survivor-enhancements", "sb-user-outside-battle",
    "sb-in-play-zones", "sb-pair-alignment", "sb-restriction-scope", "sb-negate-resolution", "sb-answer-before-start",
    "br-outcome-several-characters", "br-challenge-success", "br-rescue-access", "br-rescue-draw", "br-discard-which",
    "br-heal-window-player", "rd-amount", "rd-stated-exceeds", "rd-in-battle", "rd-numbers-which-battle",
    "rd-lapse-reduction",
    # heal (specs.smt.redemption.heal and its use in a position, specs.smt.redemption.heal_use; the redline-*
    # decisions move clauses between the wordings, specs.catalogue.rulesets.MEMBERSHIP_CHANGES)
    "heal-window-player", "heal-territory-whose", "heal-tc-when", "prev-healable-pending", "prev-owner-scope",
    "prev-pile-owner", "prev-two-ways-in-battle", "redline-window", "redline-destination", "redline-discard-pile",
    "redline-not-completed", "redline-healable", "redline-enh-phases", "heal-enh-placement-scope", "prev-regain-harmful",
    # a base-rule assumption the side battle situation encodes (RED-BASE-PARALYZED-NO-BATTLE, specs.smt.redemption.side_battle_terms)
    "red-base-paralyzed-selected",
})
"""Decisions of :data:`ENCODED_AREAS` whose options :mod:`specs.smt.redemption` reads (``rs.option``).
The others there (``br-rescued-soul``, ``rd-redirected-ability-timing``, ``sb-duplicated-sentences``)
are encoded at their chosen option only."""


@lru_cache(maxsize=64)
def unread_variants(variants: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The non-chosen options in ``variants`` of decisions on clauses of :data:`ENCODED_AREAS`
    that the encodings do not read. Decisions of other areas are not encoded at all and reach the
    comparison only through the inputs read off the model's states: the base rules'
    (``red-base-*``)."""
    decisions = default_catalogue().decisions
    out = []
    for decision_id, option_id in variants:
        clause, decision = decisions[decision_id]
        if clause.area in ENCODED_AREAS and decision_id not in READ_DECISIONS and option_id != decision.chosen:
            out.append(f"{decision_id}={option_id}")
    return tuple(out)


Key = tuple[str, tuple[tuple[str, str], ...], Budget, tuple[str, ...]]
"""A configuration's heal version and variants, the z3 budget, and its broken variants (:func:`config_key`;
the rule-level encodings implement :data:`ENCODED_BROKEN`)."""

ENCODED_BROKEN: frozenset[str] = frozenset({"two-side-battles-per-turn"})
"""The broken variants the rule-level encodings implement. The model's others break the interrupt and
redirect of side battle and heal abilities (``interrupted-side-battle-starts``, ``interrupted-heal-stays``,
``redirected-side-battle-uncounted``, ``redirected-side-battle-no-choice``), which no z3 situation holds:
a configuration naming one is refused by name, never compared under the sound rules."""


def config_key(config: RuleConfig) -> Key:
    """The cache key of a configuration's solvers (with the budget in force); :class:`OutOfScope`
    for a variant the encodings do not read (they would run the chosen reading while the model
    runs the variant)."""
    unread = unread_variants(config.variants)
    if unread:
        raise OutOfScope(f"the Redemption encodings do not read {', '.join(unread)} (only the chosen options)")
    missing = [name for name in config.broken if name not in ENCODED_BROKEN]
    if missing:
        raise OutOfScope(f"the Redemption rule-level encodings do not implement broken variant(s) {', '.join(missing)}")
    return config.heal_version, config.variants, current(), config.broken


@lru_cache(maxsize=32)
def sb_query(key: Key) -> Query:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1], broken=key[3]))
    return Query(sb_clauses.side_battle_situation(rs), (*clauses_in_force("side-battle", rs), *sb.BASE_CLAUSES), key[2])


@lru_cache(maxsize=32)
def br_query(key: Key) -> Query:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1], broken=key[3]))
    return Query(br.resolution_situation(rs, k=br.K), clauses_in_force("battle-resolution", rs), key[2])


@lru_cache(maxsize=32)
def rd_query(key: Key) -> Query:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1], broken=key[3]))
    return Query(rd.redirect_situation(rs), clauses_in_force("redirect", rs), key[2])


# --- disagreements ------------------------------------------------------------------------------


@dataclass
class CrosscheckReport:
    states: int = 0
    transitions: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    """How many times each kind of decision was compared."""
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: float = 0.0
    clauses: dict[str, int] = field(default_factory=dict)
    """Comparisons per clause (:mod:`oracle.crosscheck.counts`)."""
    out_of_scope: list[str] = field(default_factory=list)
    """Comparisons the situations had no room for, each with why (a failure, never a pass)."""

    def count(self, what: str, n: int = 1) -> None:
        self.decisions[what] = self.decisions.get(what, 0) + n


def characters_in(state: State) -> list[str]:
    return [c.id for c in state.cards if c.type is CardType.CHARACTER]


def refused_by_base_rules(state: State, user: int, card_id: str) -> bool:
    """Whether ``user`` cannot play the enhancement ``card_id`` now for a reason no Redemption
    encoding reads: no character of theirs in the active battle to play it on (RED-BASE-ENHANCEMENTS,
    decision ``red-base-enhancement-timing``), or a special initiative prompt, which admits only
    an interrupt or negate (RED-BASE-SPECIAL-INITIATIVE). The side battle and redirect situations
    start from a card that is used; these refusals are counted (``*-refused-base-rule``), not compared."""
    assert state.prompt is not None
    return state.prompt.kind is PromptKind.SPECIAL_INITIATIVE or not model_hosts(state, user, card_id)
