"""The bridge between the executable Redemption model and the transition-level z3 encoding of
the battle-phase fragment (:mod:`specs.smt.redemption.battle_ts`); the only module that
imports both.

- :func:`encode_state` / :func:`decode_state`: a model state as z3 constraints on frame t, and
  a z3 model's frame t as a model state (``canonical(decode_state(encode_state(s))) ==
  canonical(s)``); states outside the fragment raise :class:`OutOfScope` naming why;
- :func:`encode_action` / :func:`decode_action`: model actions and z3 action variables;
- :func:`crosscheck_state` / :func:`crosscheck_many`: the exact set of legal actions
  (``model.redemption.engine.legal_actions``) against every solution of the action variables
  under the guards, and, for each common action, the successor (found, then blocked: a second
  one is a ``uniqueness`` disagreement) against ``model.redemption.engine.step``.

The fragment (see :mod:`specs.smt.redemption.battle_ts`): two players; no decks; no card with
an ability; no statuses, decreased abilities, searches or side battles; enhancements placed on
characters in a territory (decision ``red-base-enhancement-timing`` = any-time) and carried into
the battle with them;
at most one battle, a rescue or challenge between the turn player and the other player, whose
fighters came from their own side's territory; play records only of ability-less enhancements
played in that battle; this turn's discards only Battle Resolution's. A state may be encoded in
any phase, but :func:`crosscheck_state` takes only battle- and discard-phase states as sources
(the draw phase of the next turn is where the fragment ends: those states are compared as
successors, not expanded).

What the comparison sees (:func:`canonical`): the whole state JSON (``State.to_json``: zones,
the battle with its fighters, their enhancements in play order, kind, last player, outcome,
mission and defeated list, the prompt, the play records, phase, turn, active player, counters
``battles_started``, ``next_battle``, ``next_record``, ``last_outcome``, ``last_mission``,
``winner``, this turn's discard events), except that the fighters of each side are sorted by
card id (the clauses give them no order). Nothing else is projected away.

Choices the catalogue does not determine, taken from the model's interface (documented in the
encoding too): at most ``MAX_GROUP = 3`` Heroes per attack and blockers per block; heal windows
are offered to players in seat order, each closing all its characters' discards at once, in
card-id order; play record ids and battle ids count up from the state's counters; the
``next`` action ends a phase with no prompt open. Catalogue decisions followed:
``br-rescued-soul`` (lowest id), ``br-rescue-draw`` (not success is failure), and the variants
``red-base-first-initiative`` (who counts as having played last when the battle opens),
``red-base-unblocked`` (an unblocked battle resolved at once, or played on),
``red-base-battles-per-turn`` (one main battle a turn, or any number), ``red-base-enhancement-timing``
(enhancements also put on characters outside battle),
``br-outcome-several-characters`` (when a side is beaten), ``br-challenge-success``,
``br-discard-which`` (and ``br-heal-window-player``, which cannot differ in the fragment).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ContextManager, Iterable

import z3

from cardrules.model.redemption.actions import Action, Attack, Block, CompleteDiscard, Draw, Next, Pass, Play, Put
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.state import (
    Alignment, Battle, BattleKind, Card, CardType, DiscardCause, DiscardEvent, Fighter, Mission, Origin, OriginKind,
    Outcome, Phase, PlayRecord, Prompt, PromptKind, RecordStatus, State, Undo, Zones,
)
from cardrules.oracle.crosscheck.disagreement import CrosscheckReport, Disagreement
from cardrules.oracle.crosscheck.redemption.position import Log, Logs, discard_controllers_of, entry, initial_log
from cardrules.oracle.crosscheck.fast import bool_of, int_of
from cardrules.oracle.crosscheck.transitions import TransitionChecker, compare_transitions
from cardrules.oracle.crosscheck.transitions import crosscheck_many as transitions_crosscheck_many
from cardrules.oracle.crosscheck.solutions import SolverUnknown
from cardrules.specs.catalogue.registry import clauses_of
from cardrules.specs.smt.budget import Budget, current
from cardrules.specs.smt.redemption.battle_ts import actions as smt_actions
from cardrules.specs.smt.redemption.battle_ts import rules as smt_rules
from cardrules.specs.smt.redemption.battle_ts.system import TransitionSystem
from cardrules.specs.smt.redemption.battle_ts.variants import UnknownVariant, Variants
from cardrules.specs.smt.redemption.battle_ts.vocabulary import (
    ATTACHED, PLACED, ATTACK, BATTLE_KINDS, BLOCK, BLOCK_PROMPT, BONDAGE, CHARACTER, DECLINE_HEAL, DISCARD, DRAW_CARDS,
    ENHANCEMENT, PUT,
    FIGHTER, HAND, HEAL_PROMPT, LOST_SOUL, MISSIONS, NEXT, NO_BLOCK, NONE, OUTCOMES, PASS, PHASES, PLAY, PLAY_PROMPT,
    REDEMPTION, TERRITORY, ActionVars, CardData, Frame, Layout, domain,
)


class OutOfScope(ValueError):
    """A state the battle encoding does not cover; the message says why."""


# --- layout, variants, scope --------------------------------------------------------------------

_TYPES = {CardType.CHARACTER: CHARACTER, CardType.ENHANCEMENT: ENHANCEMENT, CardType.LOST_SOUL: LOST_SOUL}
_ZONES = {"hand": HAND, "territory": TERRITORY, "discard": DISCARD, "bondage": BONDAGE, "redemption": REDEMPTION}
_PROMPTS = {PromptKind.BLOCK: BLOCK_PROMPT, PromptKind.PLAY: PLAY_PROMPT, PromptKind.HEAL_WINDOW: HEAL_PROMPT}


def layout_of(state: State) -> Layout:
    """The printed data of every card (the cards never change along a play)."""
    return Layout(tuple(
        CardData(c.id, _TYPES[c.type], c.owner, c.alignment is Alignment.GOOD, c.brigades, c.strength, c.toughness)
        for c in state.cards))


def variants_of(config: RuleConfig) -> Variants:
    """The encoding's variants for a model configuration.

    A non-chosen option of a decision the encoding does not read raises :class:`OutOfScope`
    (the encoding would run the chosen reading while the model runs the variant). The heal
    wording version (``config.heal_version``) is the one input ignored, because the fragment does
    not depend on it: the fragment has no card with an ability (:func:`scope_problems`), so
    nothing heals and no ability discards; the only heal windows are Battle Resolution's own
    (RED-BR-HEAL-WINDOW), which both wordings keep (the ``redline-window`` decision concerns the
    windows of ability discards only), and each is declined alike (RED-HEAL-WINDOW,
    RED-HEAL-AT-RESOLUTION). ``tests/oracle/crosscheck/redemption/battle`` checks the previous wording too."""
    try:
        return Variants.of(dict(config.variants), broken=config.broken)
    except UnknownVariant as error:
        raise OutOfScope(str(error)) from None


def scope_problems(state: State) -> list[str]:
    """Why ``state`` is outside the fragment (empty: inside). Structural checks the vocabulary
    cannot express; the encoding's type invariant is checked in z3 by :class:`_Checker`."""
    out: list[str] = []
    if state.players != 2:
        out.append(f"{state.players} players (the fragment has two)")
    for card in state.cards:
        if card.ability is not None:
            out.append(f"card {card.id} has an ability ({card.ability.value})")
    for p, zones in enumerate(state.zones):
        if zones.deck:
            out.append(f"player {p} has a deck")
    for name in ("statuses", "decreased", "searches"):
        if getattr(state, name):
            out.append(f"{name} is not empty")
    if any(state.side_battles):
        out.append("side battles were initiated")
    if len(state.battles) > 1:
        out.append("more than one battle on the stack")
    for battle in state.battles:
        if battle.kind is BattleKind.SIDE or battle.opened_by != -1 or battle.mission is Mission.NONE:
            out.append(f"battle {battle.id} is a side battle")
        if battle.players != (state.active, 1 - state.active):
            out.append(f"battle {battle.id} is not the turn player's against the other player")
        for side, fighter in battle.fighters():
            home = battle.players[side]
            if fighter.permanent != home or fighter.origins != (Origin(OriginKind.TERRITORY, home),):
                out.append(f"fighter {fighter.card} did not come from its side's territory")
    if state.prompt is not None and (state.prompt.kind not in _PROMPTS or state.prompt.record != -1):
        out.append(f"prompt {state.prompt.kind.value} is outside the fragment")
    for record in state.records:
        if (record.effect is not None or record.targets or record.status is not RecordStatus.BLANKED
                or record.carrier != -1 or record.amount != (0, 0) or record.undo != Undo()
                or not state.battles or record.battle_path != (state.battles[0].id,)):
            out.append(f"play record {record.id} is not a plain enhancement play in the battle")
    for event in state.discards:
        card = state.card(event.card)
        if (event.cause is not DiscardCause.RULE or event.enhancements or event.healed or event.pile != card.owner
                or event.alignment is not card.alignment or event.brigades != card.brigades):
            out.append(f"discard event of {event.card} is not a Battle Resolution discard")
    return out


# --- states -------------------------------------------------------------------------------------


def state_values(state: State, L: Layout, s: Frame, log: Log | None = None) -> list[tuple[z3.ExprRef, Any]]:
    """Every flexible variable of frame ``s`` with its value in ``state`` (in the fragment), as
    (variable, value) pairs (:func:`encode_state` asserts each as ``variable == value``).
    A fighter's ``zp`` (permanent control) and a discard event's ``dctrl`` (who controlled the
    character when it was discarded) are the encoding's log's (``log``, carried along the play by
    :func:`crosscheck_many`; by default ``state`` is a starting position), never the model's."""
    problems = scope_problems(state)
    if problems:
        raise OutOfScope("; ".join(problems))
    log = initial_log(state) if log is None else log
    battle = state.battles[0] if state.battles else None
    out: list[tuple[z3.ExprRef, Any]] = [
        (s.turn, state.turn), (s.active, state.active), (s.phase, PHASES.index(state.phase.value)),
        (s.battles_started, state.battles_started), (s.next_battle, state.next_battle),
        (s.next_record, state.next_record),
        (s.last_outcome, OUTCOMES.index(state.last_outcome.value) if state.last_outcome else NONE),
        (s.last_mission, MISSIONS.index(state.last_mission.value) if state.last_mission else NONE),
        (s.winner, state.winner if state.winner is not None else NONE),
        (s.battle, battle is not None), (s.bid, battle.id if battle else 0),
        (s.kind, BATTLE_KINDS.index(battle.kind.value) if battle else NONE),
        (s.defender, battle.players[1] if battle else NONE), (s.last, battle.last_player if battle else NONE),
        (s.outcome, OUTCOMES.index(battle.outcome.value) if battle and battle.outcome else NONE),
        (s.mission, MISSIONS.index(battle.mission.value) if battle and battle.mission else NONE),
        (s.pkind, _PROMPTS[state.prompt.kind] if state.prompt else NONE),
        (s.pplayer, state.prompt.player if state.prompt else NONE),
        (s.dcount, len(state.discards)), (s.passed, state.passed),
    ]
    place: dict[str, tuple[int, int, int, int]] = {}
    """card -> (loc, zp, side, host index)"""
    for p, zones in enumerate(state.zones):
        for name, loc in _ZONES.items():
            for cid in getattr(zones, name):
                place[cid] = (loc, p, NONE, NONE)
    for enh, character in state.placed:
        place[enh] = (PLACED, NONE, NONE, L.index(character))
    if battle is not None:
        for side, fighter in battle.fighters():
            place[fighter.card] = (FIGHTER, entry(log, fighter.card).perm, side, NONE)
            for enh in fighter.enhancements:
                place[enh] = (ATTACHED, NONE, NONE, L.index(fighter.card))
    records = {r.card: r for r in state.records}
    events = {e.card: (k + 1, e) for k, e in enumerate(state.discards)}
    # who controlled a discarded character: the encoding's log, never the event's own field
    controllers = discard_controllers_of(log, state)
    prompt_cards = set(state.prompt.cards) if state.prompt else set()
    defeated = set(battle.defeated) if battle else set()
    for i, cid in enumerate(L.ids):
        loc, zp, side, host = place[cid]
        record = records.get(cid)
        seq, event = events.get(cid, (0, None))
        out += [(s.loc[i], loc), (s.zp[i], zp), (s.side[i], side), (s.host[i], host),
                (s.doomed[i], cid in defeated), (s.pcard[i], cid in prompt_cards),
                (s.rec[i], record.id if record else 0), (s.rec_on[i], L.index(record.on) if record else NONE),
                (s.rec_by[i], record.player if record else NONE),
                (s.dseq[i], seq), (s.dctrl[i], controllers[seq - 1] if event else NONE)]
    return out


def encode_state(state: State, L: Layout, s: Frame, log: Log | None = None) -> list[z3.BoolRef]:
    """Every flexible variable of frame ``s`` fixed to its value in ``state`` (in the fragment):
    :func:`state_values` as facts."""
    return [x == v for x, v in state_values(state, L, s, log)]


_int, _bool = int_of, bool_of


def decode_state(m: z3.ModelRef, L: Layout, s: Frame, cards: tuple[Card, ...]) -> State:
    """The model state that frame ``s`` of the z3 model ``m`` describes; ``cards`` is the printed
    data (the layout's cards as model cards). Fighters are sorted by id, enhancements on a
    fighter and play records by play record id, discard events by their position."""
    n = range(L.n)
    loc = [_int(m, s.loc[i]) for i in n]
    zp = [_int(m, s.zp[i]) for i in n]
    zones: list[dict[str, set[str]]] = [{name: set() for name in _ZONES} for _ in (0, 1)]
    names = {v: k for k, v in _ZONES.items()}
    for i in n:
        if loc[i] in names:
            zones[zp[i]][names[loc[i]]].add(L.ids[i])
    active = _int(m, s.active)
    battles: tuple[Battle, ...] = ()
    rec = [_int(m, s.rec[i]) for i in n]
    if _bool(m, s.battle):
        defender = _int(m, s.defender)
        players = (active, defender)
        sides: list[list[Fighter]] = [[], []]
        for i in n:
            if loc[i] != FIGHTER:
                continue
            side = _int(m, s.side[i])
            enhs = sorted((rec[e], L.ids[e]) for e in n if loc[e] == ATTACHED and _int(m, s.host[e]) == i)
            sides[side].append(Fighter(L.ids[i], zp[i], (Origin(OriginKind.TERRITORY, players[side]),),
                                       tuple(e for _, e in enhs)))
        outcome, mission = _int(m, s.outcome), _int(m, s.mission)
        battles = (Battle(
            id=_int(m, s.bid), kind=BattleKind(BATTLE_KINDS[_int(m, s.kind)]), players=players,
            sides=(tuple(sides[0]), tuple(sides[1])), last_player=_int(m, s.last),
            outcome=Outcome(OUTCOMES[outcome]) if outcome != NONE else None,
            mission=Mission(MISSIONS[mission]) if mission != NONE else None,
            defeated=tuple(L.ids[i] for i in n if _bool(m, s.doomed[i])),
        ),)
        bid = battles[0].id
        records = tuple(sorted(
            (PlayRecord(rec[i], L.ids[i], _int(m, s.rec_by[i]), L.ids[_int(m, s.rec_on[i])], None, (), (bid,),
                        RecordStatus.BLANKED) for i in n if rec[i] > 0),
            key=lambda r: r.id))
    else:
        records = ()
    pkind = _int(m, s.pkind)
    prompt = None
    if pkind != NONE:
        kind = {v: k for k, v in _PROMPTS.items()}[pkind]
        prompt = Prompt(kind, _int(m, s.pplayer),
                        cards=tuple(L.ids[i] for i in n if _bool(m, s.pcard[i])) if kind is PromptKind.HEAL_WINDOW else ())
    by_id = {c.id: c for c in cards}
    events = []
    for i in n:
        seq = _int(m, s.dseq[i])
        if seq > 0:
            card = by_id[L.ids[i]]
            assert card.alignment is not None
            events.append((seq, DiscardEvent(card.id, DiscardCause.RULE, card.owner, _int(m, s.dctrl[i]),
                                             card.alignment, card.brigades)))
    last_outcome, last_mission, winner = _int(m, s.last_outcome), _int(m, s.last_mission), _int(m, s.winner)
    return State(
        cards=cards,
        zones=tuple(Zones(hand=frozenset(z["hand"]), territory=frozenset(z["territory"]),
                          discard=frozenset(z["discard"]), bondage=frozenset(z["bondage"]),
                          redemption=frozenset(z["redemption"])) for z in zones),
        active=active, turn=_int(m, s.turn), phase=Phase(PHASES[_int(m, s.phase)]), battles=battles, prompt=prompt,
        records=records, battles_started=_int(m, s.battles_started), side_battles=(0, 0),
        next_battle=_int(m, s.next_battle), next_record=_int(m, s.next_record),
        last_outcome=Outcome(OUTCOMES[last_outcome]) if last_outcome != NONE else None,
        last_mission=Mission(MISSIONS[last_mission]) if last_mission != NONE else None,
        winner=winner if winner != NONE else None,
        discards=tuple(e for _, e in sorted(events, key=lambda x: x[0])), passed=_bool(m, s.passed),
        placed=frozenset((L.ids[i], L.ids[_int(m, s.host[i])]) for i in n if loc[i] == PLACED),
    )


def canonical(state: State) -> dict[str, Any]:
    """The state JSON as the two sides are compared (see the module docstring)."""
    data = state.to_json()
    for battle in data["battles"]:
        battle["sides"] = [sorted(side, key=lambda f: f["card"]) for side in battle["sides"]]
    return data


# --- actions ------------------------------------------------------------------------------------

_KIND_OF: dict[type, int] = {Attack: ATTACK, Play: PLAY, Pass: PASS, CompleteDiscard: DECLINE_HEAL, Next: NEXT,
                             Draw: DRAW_CARDS, Put: PUT}


def action_kind(action: Action) -> int:
    if isinstance(action, Block):
        return BLOCK if action.blockers else NO_BLOCK
    try:
        return _KIND_OF[type(action)]
    except KeyError:
        raise OutOfScope(f"action {action.text()!r} is outside the fragment") from None


def encode_action(action: Action, L: Layout, a: ActionVars) -> list[z3.BoolRef]:
    """The action variables fixed to ``action`` (unused parameters canonical); an action naming
    an unknown card, or with parameters the fragment has no variable for, is ``false``."""
    kind = action_kind(action)
    pick: set[str] = set(action.heroes) if isinstance(action, Attack) else set(action.blockers) \
        if isinstance(action, Block) else set()
    named = pick | ({action.card, action.on} if isinstance(action, Play) else set()) \
        | ({action.card} if isinstance(action, Put) else set())
    if named - set(L.ids) or (isinstance(action, Play) and action.targets):
        return [z3.BoolVal(False)]
    target = action.opponent if isinstance(action, Attack) else L.index(action.card) \
        if isinstance(action, (Play, Put)) else NONE
    on = L.index(action.on) if isinstance(action, Play) else NONE
    return [a.kind == kind, a.target == target, a.on == on, *[a.pick[i] == (cid in pick) for i, cid in enumerate(L.ids)]]


def decode_action(m: z3.ModelRef, L: Layout, a: ActionVars) -> Action:
    """The model action that the z3 model ``m`` gives the action variables ``a``."""
    kind = _int(m, a.kind)
    picked = tuple(sorted(L.ids[i] for i in range(L.n) if _bool(m, a.pick[i])))
    if kind == ATTACK:
        return Attack(_int(m, a.target), picked)
    if kind in (BLOCK, NO_BLOCK):
        return Block(picked)
    if kind == PLAY:
        return Play(L.ids[_int(m, a.target)], L.ids[_int(m, a.on)])
    if kind == PUT:
        return Put(L.ids[_int(m, a.target)])
    others: dict[int, Action] = {PASS: Pass(), DECLINE_HEAL: CompleteDiscard(), NEXT: Next(), DRAW_CARDS: Draw()}
    return others[kind]


_RESOLUTION = (smt_rules.resolve, smt_rules.outcome, smt_rules.beaten, smt_rules.defeated, smt_rules.mission,
               smt_rules.to_discard, smt_rules.rescued_soul, smt_rules.check_winner, smt_rules.open_heal_window,
               smt_rules.finish, smt_rules.numbers)


def clauses_for(action: Action) -> tuple[str, ...]:
    """The clause IDs (from ``@implements``) of the constraint functions that encode ``action``."""
    kind = action_kind(action)
    funcs: list[object] = [smt_actions.ACTIONS[kind]]
    if kind in (BLOCK, PLAY):
        funcs += [smt_rules.initiative, smt_rules.outcome, smt_rules.defeated, smt_rules.numbers]
    if kind in (NO_BLOCK, PASS):
        funcs += list(_RESOLUTION)
    if kind == DECLINE_HEAL:
        funcs += [smt_rules.discard_pending, smt_rules.open_heal_window, smt_rules.finish]
    if kind == ATTACK:
        funcs += [smt_rules.has_lost_soul]
    return tuple(dict.fromkeys(cid for f in funcs for cid in clauses_of(f)))


# --- the cross-check ----------------------------------------------------------------------------


class _Checker(TransitionChecker[State, Action]):
    """The solvers of :class:`~oracle.crosscheck.transitions.TransitionChecker` for one layout and variant;
    the invariant is ``domain`` on frame 0."""

    out_of_scope = OutOfScope
    out_of_scope_message = "state breaks the battle encoding's type invariant"

    def __init__(self, layout: Layout, variants: Variants, budget: Budget) -> None:
        ts = TransitionSystem(layout, lambda s: z3.BoolVal(True), variants)
        super().__init__(ts, domain(layout, ts.at(0)), budget)
        self.layout = layout
        self.log: Log | None = None
        """The encoding's log of the state being encoded (set by :func:`_fixed`)."""

    def kind_of(self, action: Action) -> int:
        return action_kind(action)

    def encode_state(self, state: State) -> list[z3.BoolRef]:
        return encode_state(state, self.layout, self.s0, self.log)

    def state_values(self, state: State) -> list[tuple[z3.ExprRef, Any]]:
        return state_values(state, self.layout, self.s0, self.log)

    def encode_action(self, action: Action) -> list[z3.BoolRef]:
        return encode_action(action, self.layout, self.a0)

    def decode_action(self, m: z3.ModelRef) -> Action:
        return decode_action(m, self.layout, self.a0)

    def decode_successor(self, m: z3.ModelRef, source: State) -> State:
        return decode_state(m, self.layout, self.s1, source.cards)

    def decode_context(self, source: State) -> tuple[Card, ...]:
        return source.cards


@lru_cache(maxsize=32)
def _checker(layout: Layout, variants: Variants, budget: Budget) -> _Checker:
    return _Checker(layout, variants, budget)


def _fixed(state: State, config: RuleConfig, log: Log | None = None) -> ContextManager[TransitionChecker[State, Action]]:
    """The checker of ``state``'s layout and ``config``'s variant with ``state`` on frame 0
    (``log``: the encoding's log of the play up to ``state``; by default a starting position)."""
    checker = _checker(layout_of(state), variants_of(config), current())
    checker.log = log
    return checker.fixed(state)


def roundtrip(state: State, config: RuleConfig = DEFAULT) -> State:
    """``decode(encode(state))`` through z3 (frame 0, with the type invariant)."""
    checker = _checker(layout_of(state), variants_of(config), current())
    checker.log = None
    solver = checker.budget.solver()
    solver.add(*checker.facts(state))
    result = solver.check()
    if result == z3.unknown:
        raise SolverUnknown(f"z3 unknown while decoding a state: {checker.budget.reason(solver)}")
    if result != z3.sat:
        raise OutOfScope("the encoded state is unsatisfiable")
    return decode_state(solver.model(), checker.layout, checker.s0, state.cards)  # the layout its ts was built with


def smt_legal_actions(state: State, config: RuleConfig = DEFAULT) -> list[Action]:
    """Every assignment of the action variables the guards allow, decoded (one per action)."""
    with _fixed(state, config) as checker:
        return checker.legal_actions()


def smt_successors(state: State, action: Action, config: RuleConfig = DEFAULT, limit: int = 2) -> list[State]:
    """Up to ``limit`` distinct successors of ``state`` by ``action`` under the encoding."""
    with _fixed(state, config) as checker:
        return checker.successors(action, state, limit)


SOURCE_PHASES: frozenset[Phase] = frozenset(Phase)
"""Phases whose states :func:`crosscheck_state` takes as sources: every phase (the fragment has
no decks, so drawing draws nothing)."""


def crosscheck_state(state: State, config: RuleConfig = DEFAULT) -> list[Disagreement]:
    """Compare the legal action sets, and for each common action the unique successor."""
    return _crosscheck_state(state, config)[0]


def _crosscheck_state(state: State, config: RuleConfig, logs: Logs | None = None) -> tuple[list[Disagreement], int]:
    """:func:`crosscheck_state`, and the number of actions compared (``logs``: the encoding's logs
    of the play so far, extended here to every successor)."""
    if state.phase not in SOURCE_PHASES:
        raise OutOfScope(f"the {state.phase.value} phase is not a source phase of the fragment")
    logs = logs if logs is not None else Logs()

    def model_step(action: Action) -> State:
        after = step(state, action, config)
        logs.record(state, after)
        return after

    with _fixed(state, config, logs.of(state)) as checker:
        model_legal = set(legal_actions(state, config))
        for action in model_legal:
            action_kind(action)  # an action outside the fragment raises OutOfScope
        return compare_transitions(state, state.to_json, checker, model_legal, model_step, canonical, clauses_for,
                                   lambda action: action.text())


def crosscheck_many(states: Iterable[State], config: RuleConfig = DEFAULT) -> CrosscheckReport:
    """:func:`crosscheck_state` over ``states`` (all must be source states of the fragment, in the
    order of a play or of a breadth-first exploration, so that the encoding's log is carried
    along the steps from the first; one that is not a source state is recorded as out of scope,
    a failure)."""
    variants_of(config)  # a rule set the encoding does not read is refused as a whole, before any state
    logs = Logs()
    return transitions_crosscheck_many(states, lambda state: _crosscheck_state(state, config, logs), OutOfScope,
                                       lambda state: json.dumps(state.to_json(), sort_keys=True)[:2000])


def in_scope(state: State) -> bool:
    """Whether ``state`` is a source state of the fragment, so that :func:`crosscheck_state` applies."""
    return state.phase in SOURCE_PHASES and not scope_problems(state)
