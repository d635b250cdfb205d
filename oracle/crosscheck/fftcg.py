"""The bridge between the executable FFTCG model and its independent z3 encoding.

The only module that imports both ``model.fftcg`` and ``specs.smt.fftcg``:

- :func:`encode_state` / :func:`decode_state`: a model state as z3 constraints on
  frame t, and a z3 model's frame t as a model state (the one decoding module;
  ``canonical(decode_state(encode_state(s))) == canonical(s)``);
- :func:`encode_action` / :func:`decode_action`: model actions and z3 action variables;
- :func:`crosscheck_state` / :func:`crosscheck_many`: the exact set of legal actions
  and, for each, the unique successor, compared between the two;
- :func:`bmc_from_state`: bounded model checking (or k-induction) of a property from a
  model state; a counterexample is decoded and replayed on the model.

What the comparison sees (:func:`canonical`): the whole state JSON except that
Forwards on the field and in Break Zones are sorted by id (the clauses give no
order) and the event log is reduced to what the encoding keeps: which Forwards
were broken this turn, by whom (credit), and which were removed.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ContextManager, Iterable, Iterator, Sequence

import z3

from cardrules.oracle.crosscheck.disagreement import CrosscheckReport, Disagreement
from cardrules.oracle.crosscheck.fast import bool_of, int_of
from cardrules.oracle.crosscheck.transitions import TransitionChecker, compare_transitions, diff
from cardrules.oracle.crosscheck.transitions import crosscheck_many as transitions_crosscheck_many
from cardrules.model.fftcg.actions import Action, Block, DeclareAttack, EndTurn, NoBlock, Pass, Remove, Split
from cardrules.model.fftcg.config import DEFAULT, RuleConfig
from cardrules.model.fftcg.engine import candidates, legal_actions, step, why_illegal
from cardrules.model.fftcg.state import Attack, Event, Forward, Outcome, Player, State, Step
from cardrules.specs.catalogue.registry import clauses_of
from cardrules.specs.smt.budget import BMC_ARITH_SOLVER, Budget, current
from cardrules.specs.smt.context import fresh_context
from cardrules.specs.smt.fftcg import actions as smt_actions
from cardrules.specs.smt.fftcg import rules as smt_rules
from cardrules.specs.smt.fftcg.bmc import SmtResult, Verdict, bmc, k_induction
from cardrules.properties.core import Property
from cardrules.properties.games import smt_properties as registered_smt_properties
from cardrules.specs.smt.fftcg.properties import PROPERTIES as Z3_FORMS
from cardrules.specs.smt.fftcg.properties import StateProperty
from cardrules.specs.smt.fftcg.system import TransitionSystem
from cardrules.specs.smt.fftcg.variants import Variants
from cardrules.specs.smt.fftcg.vocabulary import (
    ATTACK, BLOCK_WITH, ELEMENTS, END_TURN, NO_BLOCK, NO_OUTCOME, NONE, PASS, REMOVE, SPLIT, STEPS,
    ActionVars, Cards, Frame, Layout, domain,
)

# --- layout and variants ------------------------------------------------------------


def layout_of(state: State) -> Layout:
    """Each player's Forwards (field and Break Zone), sorted by id: stable along any play."""
    ids = [sorted(f.id for f in (*p.forwards, *p.break_zone)) for p in state.players]
    return Layout.of(ids[0], ids[1])


def variants_of(config: RuleConfig) -> Variants:
    return Variants.of(config.to_json(), broken=config.broken)


def _cards_by_id(state: State) -> dict[str, Forward]:
    return {f.id: f for p in state.players for f in (*p.forwards, *p.break_zone)}


# --- states -------------------------------------------------------------------------


Pairs = list[tuple[z3.ExprRef, Any]]
"""(variable, value) pairs: the facts ``variable == value`` (:func:`facts_of`)."""


def facts_of(pairs: Pairs) -> list[z3.BoolRef]:
    """``variable == value`` for each pair."""
    return [x == v for x, v in pairs]


def card_values(state: State, L: Layout, c: Cards) -> Pairs:
    """The rigid attributes of every Forward of ``state``, as (variable, value) pairs."""
    cards = _cards_by_id(state)
    out: Pairs = []
    for i, fid in enumerate(L.ids):
        f = cards[fid]
        out += [(c.power[i], f.power), (c.cost[i], f.cost), (c.p_icon[i], f.p_icon), (c.haste[i], f.haste),
                (c.brave[i], f.brave), (c.preemptive[i], f.preemptive),
                (c.ub_cost_set[i], f.unblockable_by_cost is not None),
                (c.ub_cost[i], f.unblockable_by_cost or 0)]
        out += [(c.element[i][e], name in f.elements) for e, name in enumerate(ELEMENTS)]
        out += [(c.ub_element[i][e], name in f.unblockable_by_elements) for e, name in enumerate(ELEMENTS)]
    return out


def encode_cards(state: State, L: Layout, c: Cards) -> list[z3.BoolRef]:
    """The rigid attributes of every Forward of ``state``."""
    return facts_of(card_values(state, L, c))


def _events(state: State) -> tuple[set[str], set[tuple[str, str]], set[str]]:
    """(broken this turn, (broken, credited) pairs, removed this turn) from the event log."""
    broke: set[str] = set()
    credit: set[tuple[str, str]] = set()
    removed: set[str] = set()
    for e in state.events:
        if e.kind == "break":
            broke.add(e.target)
            credit.update((e.target, s) for s in e.sources)
        elif e.kind == "remove":
            removed.add(e.target)
    return broke, credit, removed


def state_values(state: State, L: Layout, s: Frame) -> Pairs:
    """Every flexible variable of frame ``s`` with its value in ``state``."""
    on_field = {f.id: f for p in state.players for f in p.forwards}
    cards = _cards_by_id(state)
    broke, credit, removed = _events(state)
    attack = state.attack
    out: Pairs = [
        (s.turn, state.turn), (s.turn_player, state.turn_player), (s.step, STEPS.index(state.step.value)),
        (s.outcome, state.outcome.winner if state.outcome else NO_OUTCOME),
        (s.pdamage[0], state.players[0].damage), (s.pdamage[1], state.players[1].damage),
        (s.in_attack, attack is not None),
        (s.party, bool(attack and attack.party)), (s.decl_pre, bool(attack and attack.declared_preemptive)),
        (s.block_declared, bool(attack and attack.blocked is not None)), (s.blocked, bool(attack and attack.blocked)),
        (s.blocker, L.index(attack.blocker) if attack and attack.blocker else NONE),
        (s.att_dealt, bool(attack and attack.attackers_dealt)), (s.blk_dealt, bool(attack and attack.blocker_dealt)),
        (s.passed, state.passed),
    ]
    for i, fid in enumerate(L.ids):
        f = cards[fid]
        out += [(s.field[i], fid in on_field), (s.dull[i], f.dull), (s.dmg[i], f.damage),
                (s.since_start[i], f.since_start), (s.attacked[i], fid in state.attacked),
                (s.attacker[i], bool(attack and fid in attack.attackers)),
                (s.declared[i], bool(attack and fid in attack.declared)),
                (s.broke[i], fid in broke), (s.removed[i], fid in removed)]
        out += [(s.credit[i][j], (fid, gid) in credit) for j, gid in enumerate(L.ids)]
    return out


def encode_state(state: State, L: Layout, s: Frame) -> list[z3.BoolRef]:
    """Every flexible variable of frame ``s`` fixed to its value in ``state``."""
    return facts_of(state_values(state, L, s))


_int, _bool = int_of, bool_of


def decode_state(m: z3.ModelRef, L: Layout, c: Cards, s: Frame, names: dict[str, str]) -> State:
    """The model state that frame ``s`` of the z3 model ``m`` describes (Forwards by id;
    events: one ``break`` per broken Forward with its credits, then one ``remove`` each)."""
    players: list[Player] = []
    for p in (0, 1):
        on: list[Forward] = []
        off: list[Forward] = []
        for i in L.of_player(p):
            fid = L.ids[i]
            ub = _int(m, c.ub_cost[i]) if _bool(m, c.ub_cost_set[i]) else None
            forward = Forward(
                id=fid, name=names.get(fid, fid),
                elements=frozenset(e for k, e in enumerate(ELEMENTS) if _bool(m, c.element[i][k])),
                cost=_int(m, c.cost[i]), power=_int(m, c.power[i]), p_icon=_bool(m, c.p_icon[i]),
                dull=_bool(m, s.dull[i]), damage=_int(m, s.dmg[i]), since_start=_bool(m, s.since_start[i]),
                haste=_bool(m, c.haste[i]), brave=_bool(m, c.brave[i]), preemptive=_bool(m, c.preemptive[i]),
                unblockable_by_cost=ub,
                unblockable_by_elements=frozenset(e for k, e in enumerate(ELEMENTS) if _bool(m, c.ub_element[i][k])),
            )
            (on if _bool(m, s.field[i]) else off).append(forward)
        players.append(Player(damage=_int(m, s.pdamage[p]), forwards=tuple(on), break_zone=tuple(off)))
    attack = None
    if _bool(m, s.in_attack):
        blocker = _int(m, s.blocker)
        attack = Attack(
            attackers=tuple(sorted(L.ids[i] for i in range(L.n) if _bool(m, s.attacker[i]))),
            party=_bool(m, s.party),
            declared=tuple(sorted(L.ids[i] for i in range(L.n) if _bool(m, s.declared[i]))),
            declared_preemptive=_bool(m, s.decl_pre),
            blocked=_bool(m, s.blocked) if _bool(m, s.block_declared) else None,
            blocker=L.ids[blocker] if blocker != NONE else None,
            attackers_dealt=_bool(m, s.att_dealt), blocker_dealt=_bool(m, s.blk_dealt),
        )
    events: list[Event] = []
    for i in range(L.n):
        if _bool(m, s.broke[i]):
            sources = tuple(sorted(L.ids[j] for j in range(L.n) if _bool(m, s.credit[i][j])))
            events.append(Event("break", sources, L.ids[i]))
    events += [Event("remove", target=L.ids[i]) for i in range(L.n) if _bool(m, s.removed[i])]
    outcome = _int(m, s.outcome)
    return State(
        players=(players[0], players[1]), turn_player=_int(m, s.turn_player), step=Step(STEPS[_int(m, s.step)]),
        turn=_int(m, s.turn), attack=attack,
        attacked=frozenset(L.ids[i] for i in range(L.n) if _bool(m, s.attacked[i])),
        events=tuple(events), outcome=Outcome(outcome) if outcome != NO_OUTCOME else None,
        passed=_bool(m, s.passed),
    )


def canonical(state: State) -> dict[str, Any]:
    """The state JSON as the two sides are compared (see the module docstring)."""
    data = state.to_json()
    for player in data["players"]:
        player["forwards"] = sorted(player["forwards"], key=lambda f: f["id"])
        player["break_zone"] = sorted(player["break_zone"], key=lambda f: f["id"])
    broke, credit, removed = _events(state)
    data["events"] = {"broke": sorted(broke), "credit": sorted(credit), "removed": sorted(removed)}
    return data


# --- actions ------------------------------------------------------------------------


def encode_action(action: Action, L: Layout, a: ActionVars) -> list[z3.BoolRef]:
    """The action variables fixed to ``action`` (unused parameters canonical)."""
    pick = set(action.forwards) if isinstance(action, DeclareAttack) else set()
    target = action.blocker if isinstance(action, Block) else action.forward if isinstance(action, Remove) else None
    shares = dict(action.shares) if isinstance(action, Split) else {}
    kind = {DeclareAttack: ATTACK, Block: BLOCK_WITH, NoBlock: NO_BLOCK, Split: SPLIT, Remove: REMOVE,
            Pass: PASS, EndTurn: END_TURN}[type(action)]
    unknown = (pick | set(shares) | ({target} if target else set())) - set(L.ids)
    if unknown:
        return [z3.BoolVal(False)]
    return [a.kind == kind, a.target == (L.index(target) if target else NONE),
            *[a.pick[i] == (fid in pick) for i, fid in enumerate(L.ids)],
            *[a.share[i] == shares.get(fid, 0) for i, fid in enumerate(L.ids)]]


def decode_action(m: z3.ModelRef, L: Layout, a: ActionVars, s: Frame) -> Action:
    """The model action that the z3 model ``m`` gives the action variables ``a`` taken in frame ``s``."""
    kind = _int(m, a.kind)
    if kind == ATTACK:
        return DeclareAttack(tuple(sorted(L.ids[i] for i in range(L.n) if _bool(m, a.pick[i]))))
    if kind in (BLOCK_WITH, REMOVE):
        fid = L.ids[_int(m, a.target)]
        return Block(fid) if kind == BLOCK_WITH else Remove(fid)
    if kind == SPLIT:
        members = sorted(L.ids[i] for i in range(L.n) if _bool(m, s.attacker[i]))
        return Split(tuple((fid, _int(m, a.share[L.index(fid)])) for fid in members))
    others: dict[int, Action] = {NO_BLOCK: NoBlock(), PASS: Pass(), END_TURN: EndTurn()}
    return others[kind]


_KIND_OF = {DeclareAttack: ATTACK, Block: BLOCK_WITH, NoBlock: NO_BLOCK, Split: SPLIT, Remove: REMOVE,
            Pass: PASS, EndTurn: END_TURN}


def clauses_for(action: Action) -> tuple[str, ...]:
    """The clause IDs (from ``@implements``) of the constraint functions that encode ``action``."""
    kind = _KIND_OF[type(action)]
    funcs: list[object] = [smt_actions.ACTIONS[kind]]
    if kind in (SPLIT, PASS):
        funcs += [smt_actions.resolve_damage_part, smt_actions.leave_field, smt_actions.end_of_attack]
    if kind == SPLIT:
        funcs += [smt_rules.valid_split]
    if kind == REMOVE:
        funcs += [smt_actions.leave_field, smt_actions.end_of_attack]
    if kind == ATTACK:
        funcs += [smt_rules.valid_party, smt_rules.element_party, smt_rules.can_attack]
    if kind == BLOCK_WITH:
        funcs += [smt_rules.can_block, smt_rules.may_block_alone]
    return tuple(dict.fromkeys(cid for f in funcs for cid in clauses_of(f)))


# --- the cross-check ----------------------------------------------------------------


class OutOfScope(ValueError):
    """A state the encoding does not cover (it breaks the type invariant or is not settled)."""


class _Checker(TransitionChecker[State, Action]):
    """The solvers of :class:`~oracle.crosscheck.transitions.TransitionChecker` for one layout and variant;
    the invariant is ``domain & settled`` on frame 0."""

    out_of_scope = OutOfScope
    out_of_scope_message = "state breaks the encoding's type invariant or is not settled"

    def __init__(self, layout: Layout, variants: Variants, budget: Budget) -> None:
        ts = TransitionSystem(layout, lambda c, s: z3.BoolVal(True), variants)
        s0 = ts.at(0)
        super().__init__(ts, z3.And(domain(layout, s0), smt_rules.settled(layout, ts.cards, s0)), budget)
        self.layout = layout
        self.cards = ts.cards

    def kind_of(self, action: Action) -> int:
        return _KIND_OF[type(action)]

    def encode_state(self, state: State) -> list[z3.BoolRef]:
        return facts_of(self.state_values(state))

    def state_values(self, state: State) -> Pairs:
        return card_values(state, self.layout, self.cards) + state_values(state, self.layout, self.s0)

    def encode_action(self, action: Action) -> list[z3.BoolRef]:
        return encode_action(action, self.layout, self.a0)

    def decode_action(self, m: z3.ModelRef) -> Action:
        return decode_action(m, self.layout, self.a0, self.s0)

    def decode_successor(self, m: z3.ModelRef, source: State) -> State:
        return decode_state(m, self.layout, self.cards, self.s1, _names(source))

    def decode_context(self, source: State) -> tuple[tuple[str, str], ...]:
        return tuple(sorted(_names(source).items()))


@lru_cache(maxsize=32)
def _checker(layout: Layout, variants: Variants, budget: Budget) -> _Checker:
    return _Checker(layout, variants, budget)


def _fixed(state: State, config: RuleConfig) -> ContextManager[TransitionChecker[State, Action]]:
    """The checker of ``state``'s layout and ``config``'s variant with ``state`` on frame 0."""
    return _checker(layout_of(state), variants_of(config), current()).fixed(state)


def _names(state: State) -> dict[str, str]:
    return {fid: f.name for fid, f in _cards_by_id(state).items()}


def smt_legal_actions(state: State, config: RuleConfig = DEFAULT) -> list[Action]:
    """Every assignment of the action variables the guards allow, decoded (one per action)."""
    with _fixed(state, config) as checker:
        return checker.legal_actions()


def smt_successors(state: State, action: Action, config: RuleConfig = DEFAULT, limit: int = 2) -> list[State]:
    """Up to ``limit`` distinct successors of ``state`` by ``action`` under the encoding."""
    with _fixed(state, config) as checker:
        return checker.successors(action, state, limit)


def crosscheck_state(state: State, config: RuleConfig = DEFAULT) -> list[Disagreement]:
    """Compare the legal action sets, and for each common action the unique successor
    (found, then blocked: a second one is a ``uniqueness`` disagreement)."""
    return _crosscheck_state(state, config)[0]


def _crosscheck_state(state: State, config: RuleConfig) -> tuple[list[Disagreement], int]:
    """:func:`crosscheck_state`, and the number of actions compared."""
    with _fixed(state, config) as checker:
        return compare_transitions(state, state.to_json, checker, set(legal_actions(state, config)),
                                   lambda action: step(state, action, config), canonical, clauses_for, str)


def crosscheck_many(states: Iterable[State], config: RuleConfig = DEFAULT) -> CrosscheckReport:
    """:func:`crosscheck_state` over ``states``; a state the encoding does not cover is recorded as out of scope."""
    return transitions_crosscheck_many(states, lambda state: _crosscheck_state(state, config), OutOfScope,
                                       lambda state: json.dumps(state.to_json(), sort_keys=True)[:2000])


# --- BMC from a model state --------------------------------------------------------------


@dataclass(frozen=True)
class BmcResult:
    property: str
    verdict: Verdict
    depth: int
    trace: tuple[tuple[Action | None, State], ...] = ()
    """For VIOLATED: ``(None, start), (action1, state1), ...`` as decoded from z3."""
    replay_problems: tuple[str, ...] = ()
    """Where replaying the trace on the model did not give the decoded states (empty: it reproduced)."""
    reason: str = ""
    seconds: float = 0.0


def smt_properties() -> dict[str, Property]:
    """Every FFTCG property with a z3 face, by name (the one property list,
    :mod:`properties.games`; the faces are given in :mod:`properties.fftcg.smt_faces`), in the order of
    the z3 forms."""
    order = list(Z3_FORMS)
    faces = sorted(registered_smt_properties("fftcg"), key=lambda p: order.index(p.smt) if p.smt in order else len(order))
    return {p.name: p for p in faces}


def z3_form(name: str) -> StateProperty:
    """The z3 formula of the property ``name``; :class:`KeyError` if it has no z3 face."""
    smt = smt_properties()[name].smt
    assert smt is not None
    return Z3_FORMS[smt]


def transition_system(state: State, config: RuleConfig = DEFAULT) -> TransitionSystem:
    """The transition system whose only initial state is ``state``."""
    L = layout_of(state)

    def init(c: Cards, s: Frame) -> z3.BoolRef:
        return z3.And(*encode_cards(state, L, c), *encode_state(state, L, s))

    return TransitionSystem(L, init, variants_of(config))


def bmc_budget(budget: Budget) -> Budget:
    """``budget`` with the arithmetic solver of the bounded checks (:data:`~specs.smt.budget.BMC_ARITH_SOLVER`)
    unless it names one: the same verdicts, the k-induction step cases 3 to 5 times faster."""
    return budget if budget.arith_solver is not None else replace(budget, arith_solver=BMC_ARITH_SOLVER)


class BmcSession:
    """Bounded checks and k-inductions of several properties from one model state under one rule set,
    sharing one z3 context and one transition system (its ``init`` and ``T(t, t+1)`` built once, however
    many properties and depths are checked): made by :func:`bmc_session`.

    Each answer depends only on the start, the rule set, the budget and the checks asked before it in
    the session (the terms they built); :func:`bmc_from_state` is a session of one check."""

    def __init__(self, state: State, config: RuleConfig, budget: Budget) -> None:
        self.state = state
        self.config = config
        self.budget = bmc_budget(budget)
        self.ts = transition_system(state, config)

    def check(self, property_name: str, k: int, *, induction: bool = False) -> BmcResult:
        """:func:`bmc_from_state` of ``property_name`` to depth ``k``, in this session's context."""
        prop = z3_form(property_name)
        ts = self.ts
        check = k_induction if induction else bmc
        result: SmtResult = check(ts, prop, k, self.budget)
        if result.verdict is not Verdict.VIOLATED or result.model is None:
            return BmcResult(property_name, result.verdict, result.depth, reason=result.reason, seconds=result.seconds)
        m, L, names = result.model, ts.layout, _names(self.state)
        trace: list[tuple[Action | None, State]] = [(None, decode_state(m, L, ts.cards, ts.at(0), names))]
        for t in range(result.depth):
            action = decode_action(m, L, ts.action_at(t), ts.at(t))
            trace.append((action, decode_state(m, L, ts.cards, ts.at(t + 1), names)))
        return BmcResult(property_name, result.verdict, result.depth, tuple(trace),
                         tuple(replay(self.state, trace, self.config)), seconds=result.seconds)


@contextmanager
def bmc_session(state: State, config: RuleConfig = DEFAULT, budget: Budget | None = None) -> Iterator[BmcSession]:
    """A :class:`BmcSession` in a fresh z3 context (:func:`~specs.smt.context.fresh_context`) for the
    ``with`` block: nothing of it is used after (results are decoded into plain values)."""
    with fresh_context():
        yield BmcSession(state, config, budget or current())


def bmc_from_state(state: State, property_name: str, k: int, config: RuleConfig = DEFAULT, *,
                   induction: bool = False, budget: Budget | None = None) -> BmcResult:
    """Check the registered property ``property_name`` (its z3 face, :func:`z3_form`) from ``state`` to depth ``k`` (with ``induction``:
    try to prove it by k-induction, ``k`` the largest k). A counterexample is decoded and
    replayed on the executable model. ``budget``: z3's, by default :func:`~specs.smt.budget.current`.

    The check runs in a fresh z3 context (:func:`~specs.smt.context.fresh_context`): its
    answer, the counterexample included, depends only on the arguments, not on what the
    process checked before."""
    z3_form(property_name)  # an unknown property is told before any z3 work
    with bmc_session(state, config, budget) as session:
        return session.check(property_name, k, induction=induction)


def is_legal(state: State, action: Action, config: RuleConfig = DEFAULT) -> bool:
    """``action in legal_actions(state, config)``, judging only ``action``: it is one of the model's
    candidates and ``why_illegal`` accepts it, which is how ``legal_actions`` is defined.
    ``legal_actions`` judges every candidate, and under the split in hundreds a blocker's power
    has thousands of splits, each judged by listing them all again: a replay asks this instead."""
    if state.outcome is not None:
        return False
    return action in candidates(state, config) and why_illegal(state, action, config) is None


def replay(start: State, trace: Sequence[tuple[Action | None, State]], config: RuleConfig = DEFAULT) -> list[str]:
    """Play the trace's actions on the model from ``start``; name every state that differs."""
    problems: list[str] = []
    if canonical(trace[0][1]) != canonical(start):
        problems.append("the decoded start differs from the given state")
    current = start
    for number, (action, decoded) in enumerate(trace[1:], 1):
        assert action is not None
        if not is_legal(current, action, config):
            problems.append(f"step {number}: {action} is not legal on the model")
            break
        current = step(current, action, config)
        if canonical(current) != canonical(decoded):
            problems.append(f"step {number}: {action}: model {diff(canonical(current), canonical(decoded))} "
                            f"!= smt {diff(canonical(decoded), canonical(current))}")
            break
    return problems
