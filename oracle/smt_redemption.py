"""The bridge between the executable Redemption model and its independent z3 encoding
(:mod:`specs.smt.redemption`); the only module that imports both.

The comparison is made at the level of the rule decisions the clauses make. For a model
state (and the model's own successors), the bridge reads the *inputs* of an encoding's
situation off the state, fixes them in z3 together with every clause in force, and asks
z3 which *outputs* the clauses allow; the model's answer is read off the successor
states it produces. Each rule has one ``crosscheck_*`` function returning
:class:`Disagreement` records (state JSON, action, both answers, clause IDs):

- :func:`crosscheck_side_battle_plays`: the target pairs a side battle card may select and
  whether its ability takes effect (RED-SB-TARGET-ZONES, -TARGETS-TWO, -SAME-ALIGNMENT,
  -ONCE-PER-TURN, -RESTRICT-AFTER, -INSTANTANEOUS, RED-BASE-PARALYZED-NO-BATTLE), and for each
  offered play the set of control assignments with who chooses (the four control cases,
  RED-SB-SIDES-BATTLE-PLAYERS), the user's count, the new battle on top (RED-SB-SUSPEND)
  and the recorded 'came from a battle' (decision sb-in-battle-meaning);
- :func:`crosscheck_resolution`: from the numbers and fighters of a battle when play in it
  stops, the outcome, mission, discarded characters, heal window players, survivors'
  destinations and enhancements, the rescued Lost Soul and end-of-battle draws, against the
  model's resolution run to the end with every heal window declined (RED-BR-*, and for side
  battles RED-SB-RETURN-*, RED-SB-DEFEAT-NORMAL, RED-SB-RESUME);
- :func:`crosscheck_redirect_plays`: redirectable abilities, numbers targets, new targets
  from the redirector's perspective, carrier and location after a redirect, the amount moved
  (RED-RD-*); :func:`crosscheck_phase_change`: ongoing redirects end with their phase.

Numbers in battle (for resolution) are computed through the redirect encoding
(:func:`card_numbers`: printed numbers, then every active numbers redirect applied by
RED-RD-NUMBERS-TRANSFER / RED-RD-NUMBERS-IN-BATTLE-ONLY).

Every comparison is two-way and reads z3's answer, never the model's: where the clauses should
force one answer (resolution outputs, a survivor's return, the numbers moved), anything but
exactly one z3 answer is a disagreement (``br-unique``, ``encoding-no-answer``,
``encoding-several-answers``), not a skipped state. Main battle survivors' homes and every
fighter's enhancements are z3's ``home`` / ``enh_discarded`` (RED-BR-RETURN-PERMANENT-CONTROLLER,
RED-BR-UNAFFECTED-NORMAL); the rescued Lost Soul is ``soul_rescued``; end-of-battle draws are
``end_fires`` (RED-BR-STEP3-END-ABILITIES, compared when a user has a card to draw). A side
battle or redirect card the model refuses entirely is compared too (z3 must then allow no
target), unless it is refused by a base rule no encoding reads (no own character in the active
battle to play the enhancement on, RED-BASE-ENHANCEMENTS, or a special initiative prompt): those
are counted as ``sb-refused-base-rule`` / ``rd-refused-base-rule``. ``out-of-scope`` counts only
resolutions the BR situation has no room for (more than :data:`specs.smt.redemption.resolution.K`
fighters a side, or an ability's heal window met while resolving). A decision variant the
encodings do not read raises :class:`OutOfScope` (:func:`_key`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

import z3

from cardrules.oracle.disagreement import Disagreement
from cardrules.model.redemption.actions import Action, CompleteDiscard, Pass, Play, Sides
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.abilities import hosts as model_hosts
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.resolution import mission_result as model_mission_of
from cardrules.model.redemption.standing import outcome as model_outcome_of
from cardrules.model.redemption.state import (
    Alignment, Battle, BattleKind, CardType, Effect, Fighter, Mission, OriginKind, Outcome, PromptKind, RecordStatus,
    State, Status,
)
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.consistency import Situation
from cardrules.specs.smt.redemption import redirect as rd
from cardrules.specs.smt.redemption import resolution as br
from cardrules.specs.smt.redemption import side_battle as sb
from cardrules.specs.smt.redemption.common import NONE

# --- rule sets and queries ----------------------------------------------------------------------


def rule_set_of(config: RuleConfig) -> RuleSet:
    """The catalogue rule set a model configuration reads (heal version and decision variants)."""
    return RuleSet(versions={"heal": frozenset({config.heal_version})}, decisions=dict(config.variants))


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


class Query:
    """A solver holding one situation's background, domain and clause constraints."""

    def __init__(self, situation: Situation, clause_ids: Sequence[str]) -> None:
        self.situation = situation
        self.clause_ids = tuple(clause_ids)
        self.solver = z3.Solver()
        self.solver.set(timeout=10_000)
        self.solver.add(situation.background, situation.domain,
                        *[situation.constraints[c].formula for c in clause_ids])

    def allowed(self, fixed: Sequence[z3.BoolRef], project: Sequence[z3.ExprRef], limit: int = 32) -> set[tuple[Any, ...]]:
        """Every value of ``project`` some outcome allowed by the clauses gives, with ``fixed`` holding."""
        found: set[tuple[Any, ...]] = set()
        self.solver.push()
        try:
            self.solver.add(*fixed)
            while len(found) < limit:
                result = self.solver.check()
                if result == z3.unknown:
                    raise RuntimeError(f"z3 unknown: {self.solver.reason_unknown()}")
                if result == z3.unsat:
                    break
                m = self.solver.model()
                values = tuple(m.eval(x, model_completion=True) for x in project)
                found.add(tuple(_py(x) for x in values))
                self.solver.add(z3.Or(*[x != val for x, val in zip(project, values)]) if project else z3.BoolVal(False))
        finally:
            self.solver.pop()
        return found

    def possible(self, fixed: Sequence[z3.BoolRef]) -> bool:
        return bool(self.allowed(fixed, [], limit=1))


def _py(value: z3.ExprRef) -> Any:
    if z3.is_int_value(value):
        return value.as_long()  # type: ignore[union-attr]
    return z3.is_true(value)


ENCODED_AREAS: frozenset[str] = frozenset({"side-battle", "battle-resolution", "redirect"})
"""The catalogue areas the rule-level encodings hold clauses of."""
READ_DECISIONS: frozenset[str] = frozenset({
    "sb-nested-battle-players", "sb-different-player", "sb-in-battle-meaning", "sb-return-territory",
    "sb-in-play-zones", "sb-per-turn-limit", "sb-restriction-scope", "sb-negate-resolution",
    "br-outcome-several-characters", "br-challenge-success", "br-rescue-draw", "br-discard-which",
    "br-heal-window-player", "rd-amount", "rd-in-battle",
})
"""Decisions of :data:`ENCODED_AREAS` whose options :mod:`specs.smt.redemption` reads (``rs.option``).
The others there (``br-rescued-soul``, ``rd-redirected-ability-timing``, ``sb-duplicated-sentences``)
are encoded at their chosen option only."""


@lru_cache(maxsize=64)
def _unread_variants(variants: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The non-chosen options in ``variants`` of decisions on clauses of :data:`ENCODED_AREAS`
    that the encodings do not read. Decisions of other areas are not encoded at all and reach the
    comparison only through the inputs read off the model's states: the heal area's (and the
    heal wording version: no heal-area clause is in the encodings, and every heal window met in
    a resolution is declined) and the base rules' (``red-base-*``)."""
    decisions = default_catalogue().decisions
    out = []
    for decision_id, option_id in variants:
        clause, decision = decisions[decision_id]
        if clause.area in ENCODED_AREAS and decision_id not in READ_DECISIONS and option_id != decision.chosen:
            out.append(f"{decision_id}={option_id}")
    return tuple(out)


def _key(config: RuleConfig) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The cache key of a configuration's solvers; :class:`OutOfScope` for a variant the encodings
    do not read (they would run the chosen reading while the model runs the variant)."""
    unread = _unread_variants(config.variants)
    if unread:
        raise OutOfScope(f"the Redemption encodings do not read {', '.join(unread)} (only the chosen options)")
    return config.heal_version, config.variants


@lru_cache(maxsize=32)
def _sb_query(key: tuple[str, tuple[tuple[str, str], ...]]) -> Query:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1]))
    return Query(sb.side_battle_situation(rs), (*clauses_in_force("side-battle", rs), *sb.BASE_CLAUSES))


@lru_cache(maxsize=32)
def _br_query(key: tuple[str, tuple[tuple[str, str], ...]]) -> Query:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1]))
    return Query(br.resolution_situation(rs, k=br.K), clauses_in_force("battle-resolution", rs))


@lru_cache(maxsize=32)
def _rd_query(key: tuple[str, tuple[tuple[str, str], ...]]) -> Query:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1]))
    return Query(rd.redirect_situation(rs), clauses_in_force("redirect", rs))


def clear_caches() -> None:
    """Forget every solver (after monkeypatching an encoding, in tests)."""
    for cached in (_sb_query, _br_query, _rd_query, _sb_answer, _transfer):
        cached.cache_clear()


# --- disagreements ------------------------------------------------------------------------------


@dataclass
class CrosscheckReport:
    states: int = 0
    transitions: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    """How many times each kind of decision was compared."""
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, what: str, n: int = 1) -> None:
        self.decisions[what] = self.decisions.get(what, 0) + n


# --- side battles: inputs --------------------------------------------------------------------------


def _character_inputs(state: State, card_id: str, user: int) -> dict[str, int | bool]:
    """The per-character inputs of the side battle situation, read off ``state``."""
    card = state.card(card_id)
    top = len(state.battles) - 1
    found = state.fighter(card_id)
    values: dict[str, int | bool] = {"hero": card.alignment is Alignment.GOOD, "owner": card.owner,
                                     "paralyzed": state.has_status(card_id, Status.PARALYZED), "prev_side": 0}
    if found is not None:
        index, side, fighter = found
        values.update(zone=sb.PAUSED_BATTLE if index == top else sb.LOWER_BATTLE,
                      ctrl=state.battles[index].players[side], perm=fighter.permanent, prev_side=side)
        return values
    where = state.in_territory(card_id)
    if where is not None:
        values.update(zone=sb.TERRITORY, ctrl=where, perm=where)
        return values
    for player, zones in enumerate(state.zones):
        if card_id in zones.hand:
            values.update(zone=sb.HAND, ctrl=player, perm=card.owner)
            return values
    values.update(zone=sb.ELSEWHERE, ctrl=card.owner, perm=card.owner)
    return values


def _sb_fixed(state: State, user: int, x: str, y: str) -> tuple[tuple[str, int | bool], ...]:
    top, bottom = state.battles[-1], state.battles[0]
    fixed: dict[str, int | bool] = {
        "players": state.players, "p0": top.players[0], "p1": top.players[1], "m0": bottom.players[0],
        "m1": bottom.players[1], "nested": len(state.battles) > 1, "user": user, "count": state.side_battles[user],
        "used": True, "same_card": x == y,
    }
    for c, card_id in (("x", x), ("y", y)):
        for name, value in _character_inputs(state, card_id, user).items():
            fixed[f"{name}_{c}"] = value
    return tuple(sorted(fixed.items()))


def _constraints(v: object, fixed: Iterable[tuple[str, int | bool]]) -> list[z3.BoolRef]:
    return [getattr(v, name) == value for name, value in fixed]


@dataclass(frozen=True)
class SideBattleAnswer:
    """What the side battle encoding says about one use of a side battle ability on (x, y)."""

    takes_effect: bool
    assignments: frozenset[tuple[int, int, int]]
    """(side_x, side_y, chooser) when it takes effect."""
    count_after: frozenset[int]
    players: frozenset[tuple[int, int]]
    came_from_battle: tuple[bool, bool]
    suspended: frozenset[bool] = frozenset()
    """Output ``suspended`` (RED-SB-SUSPEND: the paused battle waits under the new one)."""


@lru_cache(maxsize=100_000)
def _sb_answer(key: tuple[str, tuple[tuple[str, str], ...]], fixed: tuple[tuple[str, int | bool], ...]) -> SideBattleAnswer:
    query, v = _sb_query(key), sb.SBVars.make()
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1]))
    base = _constraints(v, fixed) + [v.takes_effect]
    if not query.possible(base):
        return SideBattleAnswer(False, frozenset(), frozenset(), frozenset(), (False, False))
    zones = dict(fixed)
    came = tuple(z3.is_true(z3.simplify(sb.in_a_battle(z3.IntVal(int(zones[f"zone_{c}"])), rs))) for c in "xy")
    return SideBattleAnswer(
        True,
        frozenset(query.allowed(base, [v.side_x, v.side_y, v.chooser])),  # type: ignore[arg-type]
        frozenset(c for (c,) in query.allowed(base, [v.count_after])),
        frozenset(query.allowed(base, [v.sb0, v.sb1])),  # type: ignore[arg-type]
        (bool(came[0]), bool(came[1])),
        frozenset(x for (x,) in query.allowed(base, [v.suspended])),
    )


def side_battle_answer(state: State, user: int, x: str, y: str, config: RuleConfig = DEFAULT) -> SideBattleAnswer:
    """The encoding's answer for ``user`` using a side battle ability on ``x`` and ``y`` in ``state``."""
    return _sb_answer(_key(config), _sb_fixed(state, user, x, y))


def _characters(state: State) -> list[str]:
    return [c.id for c in state.cards if c.type is CardType.CHARACTER]


def _refused_by_base_rules(state: State, user: int, card_id: str) -> bool:
    """Whether ``user`` cannot play the enhancement ``card_id`` now for a reason no Redemption
    encoding reads: no character of theirs in the active battle to play it on (RED-BASE-ENHANCEMENTS,
    decision ``red-base-enhancement-timing``), or a special initiative prompt, which admits only
    an interrupt or negate (RED-BASE-SPECIAL-INITIATIVE). The side battle and redirect situations
    start from a card that is used; these refusals are counted (``*-refused-base-rule``), not compared."""
    assert state.prompt is not None
    return state.prompt.kind is PromptKind.SPECIAL_INITIATIVE or not model_hosts(state, user, card_id)


SB_PAIR_CLAUSES = ("RED-SB-TARGET-ZONES", "RED-SB-TARGETS-TWO", "RED-SB-SAME-ALIGNMENT", "RED-SB-ONCE-PER-TURN",
                   "RED-SB-RESTRICT-AFTER", "RED-SB-INSTANTANEOUS", "RED-BASE-PARALYZED-NO-BATTLE")
SB_CONTROL_CLAUSES = ("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-ONE-INSIDER",
                      "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED")


def _model_side_battle(state: State, play: Play, config: RuleConfig) -> tuple[set[tuple[int, int, int]], list[State]]:
    """What the model does with a side battle play: the (side_x, side_y, chooser) it offers or
    makes, and the states with the new battle open."""
    x, y = sorted(play.targets)
    after = step(state, play, config)
    opened: list[tuple[State, int]] = []
    if after.prompt is not None and after.prompt.kind is PromptKind.CHOOSE_SIDES:
        for action in legal_actions(after, config):
            if isinstance(action, Sides):
                opened.append((step(after, action, config), after.prompt.player))
    elif len(after.battles) == len(state.battles) + 1:
        opened.append((after, NONE))
    out: set[tuple[int, int, int]] = set()
    states: list[State] = []
    for new, chooser in opened:
        battle = new.battles[len(state.battles)]
        owner_of = {f.card: battle.players[s] for s, f in battle.fighters()}
        out.add((owner_of.get(x, NONE), owner_of.get(y, NONE), chooser))
        states.append(new)
    return out, states


def crosscheck_side_battle_plays(state: State, config: RuleConfig = DEFAULT,
                                 report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Side battle cards of the player who must act (see the module docstring)."""
    found: list[Disagreement] = []
    if state.prompt is None or state.prompt.kind not in (PromptKind.PLAY, PromptKind.SPECIAL_INITIATIVE) or not state.battles:
        return found
    user = state.prompt.player
    legal = legal_actions(state, config)
    data: dict[str, Any] | None = None
    characters = _characters(state)
    for card_id in sorted(state.zones[user].hand):
        if state.card(card_id).ability is not Effect.SIDE_BATTLE:
            continue
        plays = [a for a in legal if isinstance(a, Play) and a.card == card_id]
        if not plays and _refused_by_base_rules(state, user, card_id):
            if report:
                report.count("sb-refused-base-rule")
            continue
        data = data or state.to_json()
        if report:
            report.count("sb-pairs")
            if not plays:
                report.count("sb-refused")  # the model refuses the card: z3 must allow no pair either
        model_pairs = {tuple(sorted(a.targets)) for a in plays if a.targets}
        smt_pairs = {(x, y) for i, x in enumerate(characters) for y in characters[i + 1:]
                     if side_battle_answer(state, user, x, y, config).takes_effect}
        if model_pairs != smt_pairs:
            found.append(Disagreement("sb-pairs", data, f"play {card_id}", sorted(smt_pairs - model_pairs),
                                      sorted(model_pairs - smt_pairs), SB_PAIR_CLAUSES))
        first: dict[tuple[str, ...], Play] = {}
        for a in plays:
            if a.targets:
                first.setdefault(tuple(sorted(a.targets)), a)
        for (x, y), play in sorted(first.items()):
            answer = side_battle_answer(state, user, x, y, config)
            model_set, opened = _model_side_battle(state, play, config)
            if report:
                report.count("sb-control")
                if len(model_set) > 1:
                    report.count("sb-user-choice")
            if model_set != set(answer.assignments):
                found.append(Disagreement("sb-control", data, play.text(), sorted(answer.assignments), sorted(model_set),
                                          SB_CONTROL_CLAUSES))
            for new in opened:
                battle = new.battles[len(state.battles)]
                if report:
                    report.count("sb-start")
                if {new.side_battles[user]} != set(answer.count_after):
                    found.append(Disagreement("sb-count", data, play.text(), sorted(answer.count_after),
                                              new.side_battles[user], ("RED-SB-ONCE-PER-TURN",)))
                if {battle.players} != set(answer.players) or battle.kind is not BattleKind.SIDE:
                    found.append(Disagreement("sb-players", data, play.text(), sorted(answer.players),
                                              (battle.kind.value, battle.players), ("RED-SB-SIDES-BATTLE-PLAYERS",)))
                below = [b.id for b in new.battles[:len(state.battles)]]
                suspended = below == [b.id for b in state.battles] and len(new.battles) == len(state.battles) + 1
                if answer.suspended != {suspended}:
                    found.append(Disagreement("sb-suspend", data, play.text(), sorted(answer.suspended),
                                              [b.id for b in new.battles], ("RED-SB-SUSPEND",)))
                came = {f.card: f.origin.kind is OriginKind.BATTLE for _, f in battle.fighters()}
                if (came.get(x), came.get(y)) != answer.came_from_battle:
                    found.append(Disagreement("sb-origin", data, play.text(), answer.came_from_battle,
                                              (came.get(x), came.get(y)), ("RED-SB-RETURN-TO-BATTLE", "RED-SB-CONTROL-SAME-MIXED")))
    return found


# --- numbers (through the redirect encoding) ---------------------------------------------------------


@lru_cache(maxsize=100_000)
def _transfer(key: tuple[str, tuple[tuple[str, str], ...]], printed: tuple[int, int], target0: tuple[int, int],
              card0: tuple[int, int], in_battle: bool) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """One active numbers redirect: (moved, target after, redirecting card after), forced by the clauses."""
    query, v = _rd_query(key), rd.RDVars.make()
    fixed = [v.what == rd.NUMBERS, v.both == False, v.place == rd.ACTIVE_BATTLE, v.stated == False,  # noqa: E712
             v.printed_s == printed[0], v.printed_t == printed[1], v.target_s0 == target0[0], v.target_t0 == target0[1],
             v.card_s0 == card0[0], v.card_t0 == card0[1], v.phase_ended == False, v.still_in_battle == in_battle,  # noqa: E712
             v.allowed, v.active]
    answers = query.allowed(fixed, [v.moved_s, v.moved_t, v.target_s, v.target_t, v.card_s, v.card_t], limit=2)
    if len(answers) != 1:
        raise EncodingNoAnswer(f"the redirect encoding gives {len(answers)} answers for numbers {printed}, {target0}, {card0}",
                               sorted(answers), ("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING",
                                                 "RED-RD-NUMBERS-IN-BATTLE-ONLY"))
    ms, mt, ts, tt, cs, ct = next(iter(answers))
    return (ms, mt), (ts, tt), (cs, ct)


def card_numbers(state: State, config: RuleConfig = DEFAULT) -> dict[str, tuple[int, int]]:
    """Every card's strength and toughness: printed, then each active numbers redirect in play order."""
    numbers = {c.id: (c.strength, c.toughness) for c in state.cards}
    key = _key(config)
    for record in state.records:
        if record.effect is not Effect.REDIRECT_NUMBERS or record.status is not RecordStatus.ACTIVE:
            continue
        target = record.targets[0]
        printed = (state.card(target).strength, state.card(target).toughness)
        _, numbers[target], card_after = _transfer(key, printed, numbers[target], numbers[record.card],
                                                   state.in_any_battle(target))
        numbers[record.card] = card_after
    return numbers


def fighter_numbers(state: State, fighter: Fighter, numbers: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """A fighter's total: the character plus every enhancement on it."""
    parts = [numbers[fighter.card], *[numbers[e] for e in fighter.enhancements]]
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


# --- battle resolution ---------------------------------------------------------------------------------

BR_CLAUSES = ("RED-BR-FOUR-OUTCOMES", "RED-BR-STEP1-OUTCOME", "RED-BASE-DEFEAT")
MISSION_CLAUSES = ("RED-BR-MISSION-RESULT", "RED-BR-CHALLENGE-RESULT", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
_KIND = {BattleKind.RESCUE: br.RESCUE, BattleKind.CHALLENGE: br.CHALLENGE, BattleKind.SIDE: br.SIDE}
_OUTCOME = {Outcome.SIDE0_WINS: br.SIDE0_WINS, Outcome.SIDE1_WINS: br.SIDE1_WINS,
            Outcome.MUTUAL_DESTRUCTION: br.MUTUAL, Outcome.STALEMATE: br.STALEMATE}
_MISSION = {Mission.SUCCESS: br.SUCCESS, Mission.FAILURE: br.FAILURE, Mission.NONE: br.NO_MISSION}


def resolution_starts(before: State, after: State) -> bool:
    """Play in the top battle stopped: its outcome got fixed, or it left the stack at once."""
    if not before.battles or before.battles[-1].outcome is not None:
        return False
    index = len(before.battles) - 1
    if len(after.battles) <= index:
        return True
    return after.battles[index].id == before.battles[-1].id and after.battles[index].outcome is not None


def _run_resolution(after: State, battle_id: int, config: RuleConfig) -> tuple[State, list[tuple[int, tuple[str, ...]]]]:
    """Decline every heal window until the battle leaves the stack; the windows seen (player, cards)."""
    windows: list[tuple[int, tuple[str, ...]]] = []
    state = after
    for _ in range(20):
        if not any(b.id == battle_id for b in state.battles):
            return state, windows
        prompt = state.prompt
        if prompt is None or prompt.kind is not PromptKind.HEAL_WINDOW or prompt.record >= 0:
            raise OutOfScope(f"resolution of battle {battle_id} waits on {prompt}")
        windows.append((prompt.player, prompt.cards))
        state = step(state, CompleteDiscard(), config)
    raise OutOfScope("resolution did not finish")


def crosscheck_resolution(before: State, action: Action, after: State, config: RuleConfig = DEFAULT,
                          report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Compare one resolution (``before --action--> after`` starts it) with the encodings."""
    if not resolution_starts(before, after):
        return []
    battle = before.battles[-1]
    if any(len(side) > br.K for side in battle.sides):
        raise OutOfScope(f"more than {br.K} characters on a side")
    numbers = card_numbers(before, config)
    resolving = after.battles[len(before.battles) - 1] if len(after.battles) >= len(before.battles) else None
    final, windows = _run_resolution(after, battle.id, config) if resolving is not None else (after, [])
    data, text, found = before.to_json(), action.text(), []
    v, query = br.BRVars.make(br.K), _br_query(_key(config))
    attached = {e for _, f in battle.fighters() for e in f.enhancements}
    end_records = [r for r in before.records if r.effect is Effect.DRAW_ON_SUCCESS and r.status is RecordStatus.ACTIVE
                   and r.battle == battle.id and r.card in attached]
    fixed = [v.kind == _KIND[battle.kind], v.players[0] == battle.players[0], v.players[1] == battle.players[1],
             v.player_count == before.players, v.end_ability == bool(end_records),
             v.access == (battle.kind is BattleKind.RESCUE and bool(before.zones[battle.players[1]].bondage))]
    slot: dict[str, tuple[int, int]] = {}
    for s, fighters in enumerate(battle.sides):
        fixed.append(v.n[s] == len(fighters))
        for i, fighter in enumerate(fighters):
            strength, toughness = fighter_numbers(before, fighter, numbers)
            slot[fighter.card] = (s, i)
            fixed += [v.strength[s][i] == strength, v.toughness[s][i] == toughness, v.perm[s][i] == fighter.permanent,
                      v.healed[s][i] == False,  # noqa: E712
                      v.from_battle[s][i] == (battle.kind is BattleKind.SIDE and fighter.origin.kind is OriginKind.BATTLE)]
        for i in range(len(fighters), br.K):
            fixed += [v.strength[s][i] == 0, v.toughness[s][i] == 1, v.perm[s][i] == 0, v.healed[s][i] == False,  # noqa: E712
                      v.from_battle[s][i] == False]  # noqa: E712
    cards = list(slot)
    main = battle.kind is not BattleKind.SIDE
    project = [v.outcome, v.mission, v.soul_rescued, *[v.doomed[s][i] for s, i in slot.values()],
               *[z3.If(v.doomed[s][i], v.window_player[s][i], NONE) for s, i in slot.values()]]
    if end_records:
        project.append(v.end_fires)  # RED-BR-STEP3-END-ABILITIES
    if main:
        # RED-BR-RETURN-PERMANENT-CONTROLLER (a survivor's home; none for a discarded character)
        # and RED-BR-UNAFFECTED-NORMAL (every fighter's enhancements discarded or not). Side
        # battle survivors are governed by RED-SB-RETURN-* and compared through the side
        # battle encoding (see _survivors).
        project += [z3.If(v.doomed[s][i], NONE, v.home[s][i]) for s, i in slot.values()]
        project += [v.enh_discarded[s][i] for s, i in slot.values()]
    answers = query.allowed(fixed, project, limit=4)
    if report:
        report.count("br-resolution")
    if len(answers) != 1:
        found.append(Disagreement("br-unique", data, text, sorted(answers), "one answer",
                                  (*BR_CLAUSES, "RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-UNAFFECTED-NORMAL")))
        return found
    (outcome, mission, soul_rescued, *rest) = next(iter(answers))
    end_fires = rest.pop(2 * len(cards)) if end_records else None
    n = len(cards)
    doomed = {c for c, d in zip(cards, rest[:n]) if d}
    window_player = dict(zip(cards, rest[n:2 * n]))
    smt_home: dict[str, int] = dict(zip(cards, rest[2 * n:3 * n])) if main else {}
    smt_enh_discarded: dict[str, bool] = dict(zip(cards, rest[3 * n:4 * n])) if main else {}
    recorded = resolving if resolving is not None else None
    model_outcome = _OUTCOME[recorded.outcome] if recorded is not None and recorded.outcome else (
        _OUTCOME[final.last_outcome] if battle.kind is not BattleKind.SIDE and final.last_outcome else None)
    model_mission = _MISSION[recorded.mission] if recorded is not None and recorded.mission else (
        _MISSION[final.last_mission] if battle.kind is not BattleKind.SIDE and final.last_mission else None)
    if model_outcome is None and battle.kind is BattleKind.SIDE and isinstance(action, Pass):
        # A side battle that leaves the stack at once (no heal window) records its outcome
        # nowhere; a pass changes neither the battle nor any number, so the model's step 1 and
        # step 2 decisions read on ``before`` are the ones its resolution took.
        result = model_outcome_of(before, battle, config)
        model_outcome, model_mission = _OUTCOME[result], _MISSION[model_mission_of(before, battle, result, config)]
        if report:
            report.count("br-outcome-at-once")
    if model_outcome is None and report:
        report.count("br-outcome-unrecorded")
    if model_outcome is not None and model_outcome != outcome:
        found.append(Disagreement("br-outcome", data, text, br.OUTCOMES[outcome], br.OUTCOMES[model_outcome], BR_CLAUSES))
    if model_mission is not None and model_mission != mission:
        found.append(Disagreement("br-mission", data, text, br.MISSIONS[mission], br.MISSIONS[model_mission], MISSION_CLAUSES))
    discarded = {c for c in cards if c in final.zones[final.card(c).owner].discard}
    if discarded != doomed:
        found.append(Disagreement("br-discard", data, text, sorted(doomed), sorted(discarded),
                                  ("RED-BR-STEP4-DISCARD-RETURN", "RED-SB-DEFEAT-NORMAL", "RED-BASE-DEFEAT")))
    model_windows = {c: player for player, group in windows for c in group}
    smt_windows = {c: window_player[c] for c in doomed}
    if model_windows != smt_windows:
        found.append(Disagreement("br-heal-window", data, text, smt_windows, model_windows, ("RED-BR-HEAL-WINDOW",)))
    # the rescued Lost Soul
    if battle.kind is BattleKind.RESCUE:
        rescuer = battle.players[0]
        gained = len(final.zones[rescuer].redemption) - len(before.zones[rescuer].redemption)
        expected = 1 if soul_rescued else 0
        if report:
            report.count("br-soul")
        if gained != expected:
            found.append(Disagreement("br-soul", data, text, expected, gained, ("RED-BR-RESCUE-SUCCESS", "RED-BR-UNAFFECTED-NORMAL")))
    # end-of-battle abilities: whether they fired, seen as draws by their users (observable only
    # when a user has a card to draw)
    users = sorted({r.player for r in end_records})
    if end_records and any(before.zones[p].deck for p in users):
        if report:
            report.count("br-end-ability")
        drew = any(len(final.zones[p].deck) < len(before.zones[p].deck) for p in users)
        if drew != end_fires:
            found.append(Disagreement("br-end-ability", data, text, end_fires, drew, ("RED-BR-STEP3-END-ABILITIES",)))
    found += _survivors(before, battle, final, doomed, smt_home, smt_enh_discarded, data, text, config, report)
    return found


def _survivors(before: State, battle: Battle, final: State, doomed: set[str], smt_home: dict[str, int],
               smt_enh_discarded: dict[str, bool], data: dict[str, Any], text: str,
               config: RuleConfig, report: CrosscheckReport | None) -> list[Disagreement]:
    """Where each survivor went and what became of the enhancements on every fighter.

    Main battle: ``smt_home`` / ``smt_enh_discarded`` are the Battle Resolution encoding's unique
    ``home`` (``NONE`` for a discarded character) and ``enh_discarded`` per character
    (RED-BR-RETURN-PERMANENT-CONTROLLER, RED-BR-UNAFFECTED-NORMAL). Side battle: the side battle
    encoding's unique (back, back side, home, keeps) per fighter (RED-SB-RETURN-TO-BATTLE,
    RED-SB-RETURN-TO-TERRITORY), and the battle below resumes (RED-SB-RESUME)."""
    found: list[Disagreement] = []
    w, sbq = sb.SBVars.make(), _sb_query(_key(config))
    for s, fighter in battle.fighters():
        card = fighter.card
        if report:
            report.count("br-return")
        spot = final.fighter(card)
        territory = final.in_territory(card)
        model_place: tuple[Any, ...] = ("battle", final.battles[spot[0]].id, spot[1]) if spot else ("territory", territory)
        if battle.kind is not BattleKind.SIDE:
            home = smt_home[card]
            smt_place = ("discard",) if home == NONE else ("territory", home)
            if card in doomed:
                model_place = ("discard",) if card in final.zones[final.card(card).owner].discard else model_place
            if model_place != smt_place:
                found.append(Disagreement("br-return", data, text, smt_place, model_place,
                                          ("RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-STEP4-DISCARD-RETURN")))
            enh_kept = not smt_enh_discarded[card]
        elif card in doomed:
            enh_kept = False
        else:
            origin = fighter.origin
            zone = sb.HAND if origin.kind is OriginKind.HAND else sb.TERRITORY
            if origin.kind is OriginKind.BATTLE:
                zone = sb.PAUSED_BATTLE if origin.battle == before.battles[-2].id else sb.LOWER_BATTLE
            fixed = [w.takes_effect, w.ended, w.discarded_x == False, w.zone_x == zone,  # noqa: E712
                     w.owner_x == before.card(card).owner, w.perm_x == fighter.permanent, w.prev_side_x == max(origin.side, 0),
                     w.ctrl_x == (origin.player if origin.kind is not OriginKind.BATTLE else battle.players[s]),
                     w.players == before.players, w.p0 == before.battles[-2].players[0], w.p1 == before.battles[-2].players[1]]
            # a survivor's place: back to its battle on a side, or to a territory; and whether it keeps
            # its enhancements (outputs that do not apply are projected to NONE)
            answers = sbq.allowed(fixed, [w.back_x, z3.If(w.back_x, w.back_side_x, NONE),
                                          z3.If(w.back_x, NONE, w.home_x), w.keeps_x], limit=4)
            back_battle = origin.battle if origin.kind is OriginKind.BATTLE else None
            smt_places = {("battle", back_battle, bs) if back else ("territory", home) for back, bs, home, _ in answers}
            clauses = ("RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-SB-RESUME")
            if report:
                report.count("sb-return")
            if len(answers) != 1:
                found.append(Disagreement("encoding-no-answer" if not answers else "encoding-several-answers", data,
                                          f"{text} ({card})", sorted(map(str, answers)), model_place, clauses))
                continue
            if {model_place} != smt_places:
                found.append(Disagreement("sb-return", data, text, sorted(map(str, smt_places)), model_place, clauses))
            enh_kept = next(iter(answers))[3]
        for enh in fighter.enhancements:
            in_pile = enh in final.zones[final.card(enh).owner].discard
            if in_pile == enh_kept:
                found.append(Disagreement("br-enhancement", data, f"{text} ({enh} on {card})",
                                          "kept" if enh_kept else "discarded", "discarded" if in_pile else "kept",
                                          ("RED-BR-UNAFFECTED-NORMAL", "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY")))
    if battle.kind is BattleKind.SIDE:
        resumed = final.battles[-1].id if final.battles else None
        smt_resumed = sbq.allowed([w.takes_effect, w.ended], [w.resumed])
        if report:
            report.count("sb-resume")
        if smt_resumed != {(resumed == before.battles[-2].id,)}:
            found.append(Disagreement("sb-resume", data, text, sorted(smt_resumed),
                                      f"battle {resumed} on top (the paused one: {before.battles[-2].id})", ("RED-SB-RESUME",)))
    return found


# --- redirects ------------------------------------------------------------------------------------------

_STATE = {RecordStatus.PENDING: rd.PENDING, RecordStatus.ACTIVE: rd.ACTIVE}
RD_ABILITY_CLAUSES = ("RED-RD-ONLY-INTERRUPTED", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-ABILITY-TARGET", "RED-RD-TWO-KINDS")
RD_NUMBERS_CLAUSES = ("RED-RD-NUMBERS-TARGET", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-NUMBERS-NO-INTERRUPT")


def _place(state: State, card_id: str) -> int:
    for index, battle in enumerate(state.battles):
        for _, fighter in battle.fighters():
            if fighter.card == card_id or card_id in fighter.enhancements:
                return rd.ACTIVE_BATTLE if index == len(state.battles) - 1 else rd.LOWER_BATTLE
    return rd.NOT_IN_BATTLE


def _opposing(state: State, player: int, card_id: str) -> bool:
    """The printed restriction of a discard-opposing ability, read for ``player``: a character on
    a side of a battle ``player`` fights in, not ``player``'s side."""
    return any(player in b.players and b.players[s] != player and f.card == card_id
               for b in state.battles for s, f in b.fighters())


def crosscheck_redirect_plays(state: State, config: RuleConfig = DEFAULT,
                              report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Redirect cards of the player who must act (see the module docstring)."""
    found: list[Disagreement] = []
    if state.prompt is None or state.prompt.kind is not PromptKind.PLAY:
        return found
    user = state.prompt.player
    legal = legal_actions(state, config)
    v, query = rd.RDVars.make(), _rd_query(_key(config))
    data: dict[str, Any] | None = None
    for card_id in sorted(state.zones[user].hand):
        effect = state.card(card_id).ability
        if effect not in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
            continue
        plays = [a for a in legal if isinstance(a, Play) and a.card == card_id]
        if not plays and _refused_by_base_rules(state, user, card_id):
            if report:
                report.count("rd-refused-base-rule")
            continue
        if not plays and report:
            report.count("rd-refused")  # the model refuses the card: z3 must allow no target either
        data = data or state.to_json()
        if effect in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_BOTH):
            if report:
                report.count("rd-ability")
            model_ids = {int(a.targets[0][1:]) for a in plays if len(a.targets) >= 2 or (effect is Effect.REDIRECT_ABILITY and a.targets)}
            smt_ids = set()
            for record in state.records:
                if record.effect in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
                    continue
                fixed = [v.what == rd.ABILITY, v.both == (effect is Effect.REDIRECT_BOTH),
                         v.ability_state == _STATE.get(record.status, rd.OTHER_STATE),
                         v.place == _place(state, record.card), v.allowed]
                if query.possible(fixed):
                    smt_ids.add(record.id)
            if model_ids != smt_ids:
                found.append(Disagreement("rd-ability-targets", data, f"play {card_id}", sorted(smt_ids), sorted(model_ids),
                                          RD_ABILITY_CLAUSES))
            found += _new_targets(state, user, plays, data, config, report)
        if effect in (Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
            if report:
                report.count("rd-numbers")
            if effect is Effect.REDIRECT_NUMBERS:
                model_cards = {a.targets[0] for a in plays if a.targets}
            else:
                model_cards = {state.record(int(a.targets[0][1:])).card for a in plays if len(a.targets) == 1}
            candidates = [c.id for c in state.cards if c.type is not CardType.LOST_SOUL]
            if effect is Effect.REDIRECT_BOTH:
                candidates = sorted({r.card for r in state.records if r.status is not RecordStatus.BLANKED
                                     and r.effect not in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH)})
            smt_cards = {c for c in candidates
                         if query.possible([v.what == rd.NUMBERS, v.place == _place(state, c), v.allowed])}
            if model_cards != smt_cards:
                found.append(Disagreement("rd-numbers-targets", data, f"play {card_id}", sorted(smt_cards),
                                          sorted(model_cards), RD_NUMBERS_CLAUSES))
            found += _numbers_played(state, plays, effect, data, config, report)
    return found


def _new_targets(state: State, user: int, plays: list[Play], data: dict[str, Any], config: RuleConfig,
                 report: CrosscheckReport | None) -> list[Disagreement]:
    """New targets of a redirected discard-opposing ability (read from the redirector's side), and
    who carries it out after the redirect."""
    found: list[Disagreement] = []
    v, query = rd.RDVars.make(), _rd_query(_key(config))
    by_record: dict[int, set[str]] = {}
    for play in plays:
        if len(play.targets) >= 2:
            by_record.setdefault(int(play.targets[0][1:]), set()).add(play.targets[1])
    for record_id, offered in sorted(by_record.items()):
        record = state.record(record_id)
        if record.effect is Effect.DISCARD_OPPOSING:
            if report:
                report.count("rd-new-targets")
            smt_targets = set()
            for c in _characters(state):
                fixed = [v.what == rd.ABILITY, v.allowed, v.ability_state == rd.PENDING, v.place == rd.ACTIVE_BATTLE,
                         v.new_is_old == (c in record.targets), v.legal_for_redirector == _opposing(state, user, c),
                         v.legal_for_player == _opposing(state, record.carried_by, c), v.new_target_ok]
                if query.possible(fixed):
                    smt_targets.add(c)
            if offered != smt_targets:
                found.append(Disagreement("rd-new-targets", data, f"redirect #{record_id}", sorted(smt_targets),
                                          sorted(offered), ("RED-RD-TARGET-PERSPECTIVE", "RED-RD-NEW-TARGETS",
                                                            "RED-RD-SAME-TARGET-ALLOWED")))
        play = next(p for p in plays if len(p.targets) >= 2 and int(p.targets[0][1:]) == record_id)
        after = step(state, play, config)
        if report:
            report.count("rd-carrier")
        fixed = [v.what == rd.ABILITY, v.allowed, v.player == record.player, v.redirector == user]
        smt = query.allowed(fixed, [v.carrier, v.played_by])
        taken = after.record(record_id)
        model = {(taken.carried_by, taken.player)}
        if model != smt:
            found.append(Disagreement("rd-carrier", data, play.text(), sorted(smt), sorted(model),
                                      ("RED-RD-CARRIER-CHANGES", "RED-RD-PURPOSE", "RED-RD-NEW-TARGETS")))
        host = _host(state, record.card)
        moved = host is not None and after.in_any_battle(host) and _host(after, record.card) != host
        if report:
            report.count("rd-location")
        smt_moved = query.allowed(fixed, [v.location_changed])
        if smt_moved != {(moved,)}:
            found.append(Disagreement("rd-location", data, play.text(), sorted(smt_moved),
                                      f"moved from {host} to {_host(after, record.card)}" if moved else "stays",
                                      ("RED-RD-LOCATION-UNCHANGED",)))
    return found


def _host(state: State, card_id: str) -> str | None:
    for battle in state.battles:
        for _, fighter in battle.fighters():
            if card_id in fighter.enhancements:
                return fighter.card
    return None


def _numbers_played(state: State, plays: list[Play], effect: Effect, data: dict[str, Any], config: RuleConfig,
                    report: CrosscheckReport | None) -> list[Disagreement]:
    """The amount a numbers redirect moves (and that it is one redirect, or two for 'both')."""
    found: list[Disagreement] = []
    seen: set[str] = set()
    for play in plays:
        if not play.targets or (effect is Effect.REDIRECT_BOTH and len(play.targets) != 1):
            continue
        target = play.targets[0] if effect is Effect.REDIRECT_NUMBERS else state.record(int(play.targets[0][1:])).card
        if target in seen:
            continue
        seen.add(target)
        after = step(state, play, config)
        new = [r for r in after.records if r.effect is Effect.REDIRECT_NUMBERS and r.id >= state.next_record]
        if report:
            report.count("rd-amount")
        card = state.card(target)
        (moved, _, _) = _transfer(_key(config), (card.strength, card.toughness), (0, 0), (0, 0), True)
        model = [r.amount for r in new if r.status is RecordStatus.ACTIVE]
        if model != [moved]:
            found.append(Disagreement("rd-amount", data, play.text(), [moved], model,
                                      ("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING", "RED-RD-BOTH-IS-TWO")))
    return found


def crosscheck_phase_change(before: State, action: Action, after: State, config: RuleConfig = DEFAULT,
                            report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Ongoing numbers redirects: still active while their phase lasts, over once it has ended
    (RED-RD-UNTIL-END-OF-PHASE)."""
    found: list[Disagreement] = []
    active = [r for r in before.records if r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE]
    if not active:
        return found
    ended = (before.turn, before.phase) != (after.turn, after.phase)
    v, query = rd.RDVars.make(), _rd_query(_key(config))
    smt = query.allowed([v.what == rd.NUMBERS, v.allowed, v.phase_ended == ended, v.place == rd.ACTIVE_BATTLE], [v.active])
    for record in active:
        if report:
            report.count("rd-expiry")
        try:
            now = after.record(record.id)
        except KeyError:
            continue  # the battle's records are gone with the battle
        model = now.status is RecordStatus.ACTIVE
        if now.status in (RecordStatus.NEGATED, RecordStatus.PENDING):
            continue
        if {(model,)} != smt:
            found.append(Disagreement("rd-expiry", before.to_json(), action.text(), sorted(smt), model,
                                      ("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")))
    return found


# --- everything ---------------------------------------------------------------------------------------------

TransitionCheck = Callable[[State, Action, State, RuleConfig, CrosscheckReport], list[Disagreement]]


def crosscheck_state(state: State, config: RuleConfig = DEFAULT, report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Every per-state and per-transition check from ``state`` (each legal action is stepped once)."""
    report = report if report is not None else CrosscheckReport()
    _key(config)  # a variant the encodings do not read is an error here, not a silent default
    found = crosscheck_side_battle_plays(state, config, report)
    try:
        found += crosscheck_redirect_plays(state, config, report)
    except EncodingNoAnswer as e:
        found.append(_no_answer(state, "(redirect plays)", e, report))
    for action in legal_actions(state, config):
        after = step(state, action, config)
        report.transitions += 1
        try:
            found += crosscheck_resolution(state, action, after, config, report)
        except OutOfScope:
            report.count("out-of-scope")
        except EncodingNoAnswer as e:
            found.append(_no_answer(state, action.text(), e, report))
        found += crosscheck_phase_change(state, action, after, config, report)
    return found


def _no_answer(state: State, text: str, error: EncodingNoAnswer, report: CrosscheckReport) -> Disagreement:
    """An encoding that gave no or several answers, as a disagreement (not as out of scope)."""
    report.count("encoding-no-answer")
    return Disagreement("encoding-no-answer", state.to_json(), text, error.answers, f"one answer ({error})",
                        error.clause_ids)


def crosscheck_many(states: Iterable[State], config: RuleConfig = DEFAULT) -> CrosscheckReport:
    """:func:`crosscheck_state` over many states, with counts of every decision compared."""
    report = CrosscheckReport()
    started = time.perf_counter()
    for state in states:
        report.states += 1
        report.disagreements.extend(crosscheck_state(state, config, report))
    report.seconds = time.perf_counter() - started
    return report
