"""One function per action kind: guards, updates and an explicit frame condition.

Each function returns an :class:`ActionEncoding`: the action kind, the canonical values of
the parameters it does not use (so that every action is exactly one assignment of the action
variables), and one or more :class:`Case` s. A case is ``guard & updates & UNCHANGED(others)``:
``after`` is the symbolic next frame (built with the rule steps of :mod:`.rules`); the groups it
changes are the ones whose terms differ from the current frame, and they must lie within the
case's declared ``writes``; every other group is kept (:func:`unchanged`, TLA+'s ``UNCHANGED``).

Who acts and when (the model's interface, where the catalogue is silent; RED-BASE-TURN-PHASES
for the phases): with no prompt the turn player acts (``next``; in the battle phase, before
the turn's battle, ``attack``); otherwise the prompt's player answers it (``block``/``noblock``,
``play``/``pass``, ``discard`` = decline the heal window). Phases: ``draw`` (draw phase),
``put`` (preparation), ``next`` (any other phase). Once a player has won no action is
legal (RED-BASE-WIN-FIVE-SOULS).

Primed names (``x'``) are the next frame ``s2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.smt import transition
from cardrules.specs.smt.transition import unchanged
from cardrules.specs.smt.redemption.battle_ts import rules
from cardrules.specs.smt.redemption.battle_ts.rules import count
from cardrules.specs.smt.redemption.battle_ts.variants import Variants
from cardrules.specs.smt.redemption.battle_ts.vocabulary import (
    ATTACHED, ATTACK, BATTLE, PLACED, BLOCK, DRAW_CARDS, PREPARATION, PUT, UPKEEP, BLOCK_PROMPT, CHALLENGE, CHARACTER, DECLINE_HEAL, DISCARD_PHASE, DRAW, ENHANCEMENT,
    FIGHTER, GROUPS, HAND, HEAL_PROMPT, KINDS, MAX_GROUP, NEXT, NO_BLOCK, NONE, PASS, PLAY, PLAY_PROMPT, RESCUE,
    TERRITORY, ActionVars, Frame, Layout,
)


@dataclass(frozen=True)
class Ctx:
    """Everything one transition ``s -(a)-> s2`` is written over."""

    L: Layout
    s: Frame
    a: ActionVars
    s2: Frame
    v: Variants


@dataclass(frozen=True)
class Case:
    """``guard & AND_{g changed} g' = after.g & UNCHANGED(groups not changed)``."""

    name: str
    guard: z3.BoolRef
    after: Frame
    writes: frozenset[str]
    """The groups this case may change (its declared frame); anything else is UNCHANGED."""

    def assigns(self, s: Frame) -> dict[str, tuple[z3.ExprRef, ...]]:
        """The groups whose next value differs (as a term) from the current one."""
        now, nxt = s.groups(), self.after.groups()
        changed = {g: nxt[g] for g in GROUPS if not all(x.eq(y) for x, y in zip(now[g], nxt[g]))}
        undeclared = set(changed) - self.writes
        assert not undeclared, f"case {self.name} changes undeclared groups {sorted(undeclared)}"
        return changed

    def formula(self, s: Frame, s2: Frame) -> z3.BoolRef:
        assigns = self.assigns(s)
        nxt = s2.groups()
        updates = [x == y for g, values in assigns.items() for x, y in zip(nxt[g], values)]
        return z3.And(self.guard, *updates, *unchanged(s, s2, frozenset(assigns)))


class ActionEncoding(transition.ActionEncoding):
    """One action kind of this encoding (:class:`specs.smt.transition.ActionEncoding`)."""

    names = KINDS


# --- shared terms -----------------------------------------------------------------------------


def _game_on(s: Frame) -> z3.BoolRef:
    return s.winner == NONE


def _params(L: Layout, a: ActionVars, *, pick: bool = False, target: bool = False, on: bool = False) -> z3.BoolRef:
    parts: list[z3.BoolRef] = []
    if not pick:
        parts += [z3.Not(p) for p in a.pick]
    if not target:
        parts.append(a.target == NONE)
    if not on:
        parts.append(a.on == NONE)
    return z3.And(*parts)


def _enter_battle(L: Layout, s: Frame, pick: tuple[z3.BoolRef, ...], side: int) -> Frame:
    """The picked characters leave their territory for side ``side`` of the battle (their
    permanent controller, ``zp``, is kept), with the enhancements placed on them there, which are
    then on them in the battle (``PLACED -> ATTACHED``, decision ``red-base-enhancement-timing``)."""
    n = range(L.n)
    chars = L.of_type(CHARACTER)

    def carried(e: int) -> z3.BoolRef:
        return z3.And(s.loc[e] == PLACED, z3.Or(*[z3.And(s.host[e] == c, pick[c]) for c in chars]))

    loc = [z3.If(pick[i], FIGHTER, s.loc[i]) for i in n]
    for e in L.of_type(ENHANCEMENT):
        loc[e] = z3.If(carried(e), ATTACHED, s.loc[e])
    return s.with_(loc=tuple(loc), side=tuple(z3.If(pick[i], side, s.side[i]) for i in n))


RESOLUTION_WRITES = frozenset({"outcome", "mission", "last_outcome", "last_mission", "loc", "zp", "host", "doomed",
                               "winner", "pkind", "pplayer", "pcard", "side", "rec", "rec_on", "rec_by", "battle",
                               "bid", "kind", "defender", "last", "dseq", "dctrl", "dcount"})
"""Everything Battle Resolution may change (steps 1-4 and the end of the battle)."""
BLOCK_WRITES = frozenset({"loc", "side", "last", "pkind", "pplayer"})
"""What blocking changes (blockers into battle, who played last, the play prompt)."""


# --- the actions ------------------------------------------------------------------------------


@implements("RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-HERO-VS-EVIL", "RED-BASE-TURN-PHASES", "RED-BASE-BLOCKING")
def attack(ctx: Ctx) -> ActionEncoding:
    """``attack P X`` (``P = target``, ``X = {i | pick[i]}``).

    Guard: game on, no prompt, battle phase, no battle started this turn (decision
    ``red-base-battles-per-turn = one``; under ``many`` any number, one after another); ``P`` the
    other player; ``1 <= #X <= MAX_GROUP``; every ``i in X`` a Hero in the turn player's territory
    (RED-BASE-RESCUE-OR-CHALLENGE).
    Updates: ``X`` enters side 0; ``battle' = true``, ``bid' = next_battle``, ``next_battle' + 1``,
    ``battles_started' + 1``; ``kind' = RESCUE`` if ``P`` has a Lost Soul in bondage, else
    ``CHALLENGE`` (RED-BASE-RESCUE-OR-CHALLENGE); ``defender' = P``, ``last' = active``; the
    defender is asked to block (``pkind' = BLOCK``, ``pplayer' = P``, RED-BASE-BLOCKING).
    Under ``many``, ``battles_started' = 1`` (a battle was started this turn), and battle ids are
    handed out afresh as each main battle starts: one more than the ids of earlier battles still
    named by the state. Nothing outside a battle names one in the fragment (a battle's play records
    leave with it), so ``bid' = 1`` and ``next_battle' = 2``.
    """
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    many = v.is_("red-base-battles-per-turn", "many")
    x = a.pick
    heroes = [i for i, c in enumerate(L.cards) if c.is_hero]
    guard = z3.And(
        _game_on(s), s.pkind == NONE, s.phase == BATTLE, z3.BoolVal(True) if many else s.battles_started < 1,
        z3.Or(a.target == 0, a.target == 1), a.target != s.active, count(x) >= 1, count(x) <= MAX_GROUP,
        *[z3.Not(x[i]) for i in range(L.n) if i not in heroes],
        *[z3.Implies(x[i], z3.And(s.loc[i] == TERRITORY, s.zp[i] == s.active)) for i in heroes],
    )
    first_id = z3.IntVal(1) if many else s.next_battle
    after = _enter_battle(L, s, x, 0).with_(
        battle=z3.BoolVal(True), bid=first_id, next_battle=first_id + 1,
        battles_started=z3.IntVal(1) if many else s.battles_started + 1,
        kind=z3.If(rules.has_lost_soul(L, s, a.target), RESCUE, CHALLENGE), defender=a.target, last=s.active,
        pkind=z3.IntVal(BLOCK_PROMPT), pplayer=a.target,
    )
    writes = frozenset({"loc", "side", "battle", "bid", "next_battle", "battles_started", "kind", "defender", "last",
                        "pkind", "pplayer"})
    return ActionEncoding(ATTACK, _params(L, a, pick=True, target=True), (Case("attack", guard, after, writes),))


def _after_block(ctx: Ctx, x: tuple[z3.BoolRef, ...]) -> Frame:
    """Blockers ``x`` enter side 1; decision ``red-base-first-initiative``: ``battle-opener``: the
    blocking player counts as having played the last card (``last' = defender``); ``attacker``:
    ``last' = active``."""
    L, s, v = ctx.L, ctx.s, ctx.v
    opener = s.defender if v.is_("red-base-first-initiative", "battle-opener") else s.active
    return _enter_battle(L, s, x, 1).with_(last=opener)


@implements("RED-BASE-BLOCKING", "RED-BASE-HERO-VS-EVIL", "RED-BASE-INITIATIVE")
def block(ctx: Ctx) -> ActionEncoding:
    """``block X`` (``X = {i | pick[i]}``, non-empty).

    Guard: game on, a BLOCK prompt; ``1 <= #X <= MAX_GROUP``; every ``i in X`` an Evil Character
    in the deciding player's territory (RED-BASE-BLOCKING, RED-BASE-HERO-VS-EVIL).
    Updates: :func:`_after_block`, then the initiative holder is asked to play
    (:func:`rules.play_prompt`, RED-BASE-INITIATIVE).
    """
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    x = a.pick
    evil = [i for i, c in enumerate(L.cards) if c.is_evil_character]
    guard = z3.And(
        _game_on(s), s.pkind == BLOCK_PROMPT, count(x) >= 1, count(x) <= MAX_GROUP,
        *[z3.Not(x[i]) for i in range(L.n) if i not in evil],
        *[z3.Implies(x[i], z3.And(s.loc[i] == TERRITORY, s.zp[i] == s.pplayer)) for i in evil],
    )
    after = rules.play_prompt(L, _after_block(ctx, x), v)
    return ActionEncoding(BLOCK, _params(L, a, pick=True), (Case("block", guard, after, BLOCK_WRITES),))


@implements("RED-BASE-BLOCKING", "RED-BR-ORDER")
def no_block(ctx: Ctx) -> ActionEncoding:
    """``noblock``: the defender declines to block (RED-BASE-BLOCKING): :func:`_after_block` with no
    blockers; decision ``red-base-unblocked``: ``hero-wins-at-once``: then :func:`rules.resolve`;
    ``play-continues``: the initiative holder of the standing against the empty side is asked to play
    (:func:`rules.play_prompt`), as after a block."""
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    guard = z3.And(_game_on(s), s.pkind == BLOCK_PROMPT)
    none = tuple(z3.BoolVal(False) for _ in range(L.n))
    if v.is_("red-base-unblocked", "play-continues"):
        after = rules.play_prompt(L, _after_block(ctx, none), v)
        return ActionEncoding(NO_BLOCK, _params(L, a), (Case("noblock", guard, after, BLOCK_WRITES),))
    after = rules.resolve(L, _after_block(ctx, none), v)
    return ActionEncoding(NO_BLOCK, _params(L, a), (Case("noblock", guard, after, RESOLUTION_WRITES),))


@implements("RED-BASE-ENHANCEMENTS", "RED-BASE-INITIATIVE")
def play(ctx: Ctx) -> ActionEncoding:
    """``play E on C`` (``E = target``, ``C = on``).

    Guard: game on, a PLAY prompt (the deciding player ``p`` has initiative, RED-BASE-INITIATIVE);
    ``E`` an enhancement in ``p``'s hand; ``C`` a character in the battle on ``p``'s side, with
    ``matches(E, C)``: same alignment and a shared brigade (RED-BASE-ENHANCEMENTS, decision
    ``red-base-enhancement-timing = in-battle-own-character``).
    Updates: ``loc'[E] = ATTACHED``, ``host'[E] = C``, ``zp'[E] = NONE``; its play record
    ``rec'[E] = next_record``, ``rec_on'[E] = C``, ``rec_by'[E] = p``, ``next_record' + 1``;
    ``last' = p``, ``passed' = false`` (a play answers a pass, decision ``red-base-pass-ends``); then
    the initiative holder of the new standing decides (:func:`rules.play_prompt`).
    """
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    pairs = [(e, c) for e in L.of_type(ENHANCEMENT) for c in L.of_type(CHARACTER) if L.matches(e, c)]
    legal_pair = z3.Or(*[
        z3.And(a.target == e, a.on == c, s.loc[e] == HAND, s.zp[e] == s.pplayer,
               s.loc[c] == FIGHTER, rules.side_player(s, s.side[c]) == s.pplayer)
        for e, c in pairs
    ])
    guard = z3.And(_game_on(s), s.pkind == PLAY_PROMPT, legal_pair)
    n = range(L.n)
    played = [a.target == i for i in n]
    after = s.with_(
        loc=tuple(z3.If(played[i], ATTACHED, s.loc[i]) for i in n),
        zp=tuple(z3.If(played[i], NONE, s.zp[i]) for i in n),
        host=tuple(z3.If(played[i], a.on, s.host[i]) for i in n),
        rec=tuple(z3.If(played[i], s.next_record, s.rec[i]) for i in n),
        rec_on=tuple(z3.If(played[i], a.on, s.rec_on[i]) for i in n),
        rec_by=tuple(z3.If(played[i], s.pplayer, s.rec_by[i]) for i in n),
        next_record=s.next_record + 1, last=s.pplayer, passed=z3.BoolVal(False),
    )
    after = rules.play_prompt(L, after, v)
    writes = frozenset({"loc", "zp", "host", "rec", "rec_on", "rec_by", "next_record", "last", "pkind", "pplayer",
                        "passed"})
    params = z3.And(_params(L, a, target=True, on=True), a.target >= 0, a.target < L.n, a.on >= 0, a.on < L.n)
    cases = [Case("play", guard, after, writes)]
    if v.is_("red-base-enhancement-timing", "any-time"):
        cases.append(_place(ctx, pairs))
    return ActionEncoding(PLAY, params, tuple(cases))


@implements("RED-BASE-ENHANCEMENTS")
def _place(ctx: Ctx, pairs: list[tuple[int, int]]) -> Case:
    """``play E on C`` outside battle, under decision ``red-base-enhancement-timing = any-time``: the
    turn's player puts an enhancement from their hand on a matching character in their territory.
    Guard: game on, no battle and no prompt, any phase after the draw; ``E`` in the turn player's hand,
    ``C`` in their territory, ``matches(E, C)`` (RED-BASE-ENHANCEMENTS; the fragment's enhancements have
    no ability). Updates: ``loc'[E] = PLACED``, ``host'[E] = C``, ``zp'[E] = NONE``; it goes into battle
    with ``C`` (:func:`_enter_battle`)."""
    L, s, a = ctx.L, ctx.s, ctx.a
    legal_pair = z3.Or(*[
        z3.And(a.target == e, a.on == c, s.loc[e] == HAND, s.zp[e] == s.active,
               s.loc[c] == TERRITORY, s.zp[c] == s.active)
        for e, c in pairs
    ])
    guard = z3.And(_game_on(s), z3.Not(s.battle), s.pkind == NONE, s.phase != DRAW, legal_pair)
    n = range(L.n)
    placed = [a.target == i for i in n]
    after = s.with_(
        loc=tuple(z3.If(placed[i], PLACED, s.loc[i]) for i in n),
        zp=tuple(z3.If(placed[i], NONE, s.zp[i]) for i in n),
        host=tuple(z3.If(placed[i], a.on, s.host[i]) for i in n),
    )
    return Case("place", guard, after, frozenset({"loc", "zp", "host"}))


@implements("RED-BASE-INITIATIVE", "RED-BR-ORDER")
def pass_play(ctx: Ctx) -> ActionEncoding:
    """``pass``: the player asked to play passes. Decision ``red-base-pass-ends``: ``one-pass``: play in
    the battle ends (RED-BASE-INITIATIVE) and Battle Resolution follows (:func:`rules.resolve`,
    RED-BR-ORDER); ``both-pass``: with no pass pending the other battling player is asked to play
    (``passed' = true``, ``pplayer' = `` the other of ``active`` and ``defender``), and a pass in answer
    to a pass ends play (``passed' = false``, then :func:`rules.resolve`)."""
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    guard = z3.And(_game_on(s), s.pkind == PLAY_PROMPT)
    if v.is_("red-base-pass-ends", "one-pass"):
        return ActionEncoding(PASS, _params(L, a), (Case("pass", guard, rules.resolve(L, s, v), RESOLUTION_WRITES),))
    other = z3.If(s.pplayer == s.active, s.defender, s.active)
    hand_over = Case("pass-hands-over", z3.And(guard, z3.Not(s.passed)), s.with_(passed=z3.BoolVal(True), pplayer=other),
                     frozenset({"passed", "pplayer"}))
    ends = Case("pass-ends-play", z3.And(guard, s.passed), rules.resolve(L, s.with_(passed=z3.BoolVal(False)), v),
                RESOLUTION_WRITES | {"passed"})
    return ActionEncoding(PASS, _params(L, a), (hand_over, ends))


@implements("RED-BR-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-WINDOW", "RED-HEAL-WINDOW-MEANS",
            "RED-BR-STEP4-DISCARD-RETURN")
def decline_heal(ctx: Ctx) -> ActionEncoding:
    """``discard``: the heal window's player declines to heal; the pending discard completes
    (:func:`rules.discard_pending`). In the fragment no card can heal (RED-HEAL-WINDOW-MEANS: only
    an enhancement or ability able to heal may be used), so declining is the only answer.
    Guard: game on, a heal window prompt."""
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    guard = z3.And(_game_on(s), s.pkind == HEAL_PROMPT)
    after = rules.discard_pending(L, s, v)
    return ActionEncoding(DECLINE_HEAL, _params(L, a), (Case("discard", guard, after, RESOLUTION_WRITES),))


@implements("RED-BASE-TURN-PHASES")
def next_phase(ctx: Ctx) -> ActionEncoding:
    """``next``: the turn player ends the current phase (no prompt open; the draw phase ends by
    drawing, :func:`draw_cards`). Cases (RED-BASE-TURN-PHASES):

    - upkeep, preparation, battle: ``phase' = phase + 1``;
    - discard: the next player's turn: ``active' = 1 - active``, ``turn' = turn + 1``,
      ``phase' = DRAW``, ``battles_started' = 0``, this turn's discard list cleared.
    """
    L, s, a = ctx.L, ctx.s, ctx.a
    n = range(L.n)
    on = z3.And(_game_on(s), s.pkind == NONE)
    cases = (
        Case("phase", z3.And(on, s.phase > DRAW, s.phase < DISCARD_PHASE), s.with_(phase=s.phase + 1),
             frozenset({"phase"})),
        Case("end-turn", z3.And(on, s.phase == DISCARD_PHASE),
             s.with_(active=1 - s.active, turn=s.turn + 1, phase=z3.IntVal(DRAW), battles_started=z3.IntVal(0),
                     dseq=tuple(z3.IntVal(0) for _ in n), dctrl=tuple(z3.IntVal(NONE) for _ in n),
                     dcount=z3.IntVal(0)),
             frozenset({"active", "turn", "phase", "battles_started", "dseq", "dctrl", "dcount"})),
    )
    return ActionEncoding(NEXT, _params(L, a), cases)


@implements("RED-BASE-TURN-PHASES")
def draw_cards(ctx: Ctx) -> ActionEncoding:
    """``draw``: the draw phase's one action: the turn player draws three cards, then upkeep
    begins (RED-BASE-TURN-PHASES). The fragment has no decks, so nothing is drawn:
    ``phase' = UPKEEP``. Guard: game on, no prompt, draw phase."""
    L, s, a = ctx.L, ctx.s, ctx.a
    guard = z3.And(_game_on(s), s.pkind == NONE, s.phase == DRAW)
    return ActionEncoding(DRAW_CARDS, _params(L, a),
                          (Case("draw", guard, s.with_(phase=z3.IntVal(UPKEEP)), frozenset({"phase"})),))


@implements("RED-BASE-TURN-PHASES", "RED-BASE-CHARACTERS")
def put(ctx: Ctx) -> ActionEncoding:
    """``put C`` (``C = target``): in preparation the turn player puts a character from their hand
    into their territory, under their permanent control (RED-BASE-TURN-PHASES, RED-BASE-CHARACTERS).
    Guard: game on, no prompt, preparation, ``C`` a character with ``loc[C] = HAND & zp[C] = active``.
    Updates: ``loc'[C] = TERRITORY`` (``zp`` is kept: the hand's player)."""
    L, s, a = ctx.L, ctx.s, ctx.a
    chars = L.of_type(CHARACTER)
    guard = z3.And(_game_on(s), s.pkind == NONE, s.phase == PREPARATION,
                   z3.Or(*[z3.And(a.target == c, s.loc[c] == HAND, s.zp[c] == s.active) for c in chars]))
    n = range(L.n)
    after = s.with_(loc=tuple(z3.If(a.target == i, TERRITORY, s.loc[i]) for i in n))
    params = z3.And(_params(L, a, target=True), a.target >= 0, a.target < L.n)
    return ActionEncoding(PUT, params, (Case("put", guard, after, frozenset({"loc"})),))


ACTIONS: tuple[Callable[[Ctx], ActionEncoding], ...] = (attack, block, no_block, play, pass_play, decline_heal,
                                                        next_phase, draw_cards, put)
"""Every action kind, in the order of the kind constants."""
