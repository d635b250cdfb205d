"""Derived terms and the rule steps of the battle encoding, each citing its clauses.

Every function here reads a (possibly symbolic) :class:`~.vocabulary.Frame` ``s``; the
*steps* (:func:`resolve`, :func:`open_heal_window`, :func:`discard_pending`,
:func:`finish`) return the frame after the rule, as terms over ``s``. The actions of
:mod:`.actions` chain them.

Notation: ``F(i) = loc[i] = FIGHTER``, ``A(e, c) = loc[e] = ATTACHED & host[e] = c``;
``#X`` is a count; ``player(side) = If(side = 0, active, defender)``.
"""

from __future__ import annotations

from typing import Sequence

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.smt.redemption.battle_ts.variants import Variants
from cardrules.specs.smt.redemption.battle_ts.vocabulary import (
    ATTACHED, BONDAGE, CHALLENGE, CHARACTER, DISCARD, ENHANCEMENT, FAILURE, FIGHTER, HEAL_PROMPT, LOST_SOUL,
    MUTUAL_DESTRUCTION, NONE, PLAY_PROMPT, REDEMPTION, RESCUE, SIDE0_WINS, SIDE1_WINS, SOULS_TO_WIN, STALEMATE,
    SUCCESS, TERRITORY, Frame, Layout,
)


def count(xs: Sequence[z3.BoolRef]) -> z3.ArithRef:
    """``#{x | x}``."""
    return z3.Sum(*[z3.If(x, 1, 0) for x in xs], z3.IntVal(0))


def side_player(s: Frame, side: z3.ArithRef | int) -> z3.ArithRef:
    """The battling player of a side: side 0 is the turn player's (RED-BASE-RESCUE-OR-CHALLENGE)."""
    return z3.If(side == 0, s.active, s.defender)


def on_side(s: Frame, i: int, side: int) -> z3.BoolRef:
    return z3.And(s.loc[i] == FIGHTER, s.side[i] == side)


# --- numbers, defeat, outcome, initiative ------------------------------------------------------


@implements("RED-BASE-ENHANCEMENTS", "RED-BASE-CHARACTERS")
def numbers(L: Layout, s: Frame, c: int) -> tuple[z3.ArithRef, z3.ArithRef]:
    """Strength and toughness of character ``c`` in battle: its printed numbers plus those of
    every enhancement on it (RED-BASE-ENHANCEMENTS):
    ``str(c) = strength_c + SUM_{e} If(A(e, c), strength_e, 0)``, likewise toughness."""
    enhs = L.of_type(ENHANCEMENT)
    on = {e: z3.And(s.loc[e] == ATTACHED, s.host[e] == c) for e in enhs}
    strength = L.cards[c].strength + z3.Sum(*[z3.If(on[e], L.cards[e].strength, 0) for e in enhs], z3.IntVal(0))
    toughness = L.cards[c].toughness + z3.Sum(*[z3.If(on[e], L.cards[e].toughness, 0) for e in enhs], z3.IntVal(0))
    return strength, toughness


def side_strength(L: Layout, s: Frame, side: int) -> z3.ArithRef:
    """``SUM_{c | F(c) & side[c] = side} str(c)``: numbers count only in battle (RED-BASE-DEFEAT)."""
    return z3.Sum(*[z3.If(on_side(s, c, side), numbers(L, s, c)[0], 0) for c in L.of_type(CHARACTER)],
                  z3.IntVal(0))


@implements("RED-BASE-DEFEAT")
def defeated(L: Layout, s: Frame) -> dict[int, z3.BoolRef]:
    """Character ``c`` is defeated when the opposing side's total strength reaches its
    toughness (RED-BASE-DEFEAT): ``def(c) = F(c) & total(1 - side[c]) >= tough(c)``."""
    totals = (side_strength(L, s, 0), side_strength(L, s, 1))
    out: dict[int, z3.BoolRef] = {}
    for c in L.of_type(CHARACTER):
        against = z3.If(s.side[c] == 0, totals[1], totals[0])
        out[c] = z3.And(s.loc[c] == FIGHTER, against >= numbers(L, s, c)[1])
    return out


@implements("RED-BR-FOUR-OUTCOMES", "RED-BASE-MUTUAL-STALEMATE", "RED-BASE-DEFEAT")
def beaten(L: Layout, s: Frame, v: Variants) -> tuple[z3.BoolRef, z3.BoolRef]:
    """Whether each side is beaten. Decision ``br-outcome-several-characters``: ``all-defeated``:
    ``beaten(k) = AND_{c on side k} def(c)`` (an empty side is beaten); ``any-defeated``:
    ``beaten(k) = #side k = 0 | OR_{c on side k} def(c)``."""
    down = defeated(L, s)
    chars = L.of_type(CHARACTER)
    out = []
    for k in (0, 1):
        if v.is_("br-outcome-several-characters", "all-defeated"):
            out.append(z3.And(*[z3.Implies(on_side(s, c, k), down[c]) for c in chars]))
        else:
            out.append(z3.Or(count([on_side(s, c, k) for c in chars]) == 0,
                             *[z3.And(on_side(s, c, k), down[c]) for c in chars]))
    return out[0], out[1]


@implements("RED-BR-FOUR-OUTCOMES", "RED-BASE-MUTUAL-STALEMATE")
def outcome(L: Layout, s: Frame, v: Variants) -> z3.ArithRef:
    """The outcome the battle stands at (RED-BR-FOUR-OUTCOMES): both sides beaten: mutual
    destruction; neither: stalemate (RED-BASE-MUTUAL-STALEMATE); else the unbeaten side wins."""
    b0, b1 = beaten(L, s, v)
    return z3.If(z3.And(b0, b1), MUTUAL_DESTRUCTION,
                 z3.If(b1, SIDE0_WINS, z3.If(b0, SIDE1_WINS, STALEMATE)))


@implements("RED-BASE-INITIATIVE")
def initiative(L: Layout, s: Frame, v: Variants) -> z3.ArithRef:
    """Who may play next (RED-BASE-INITIATIVE): the player of the side currently losing; at
    stalemate or mutual destruction the battling player who did not play the last card:
    ``If(o = SIDE0_WINS, defender, If(o = SIDE1_WINS, active, If(last = active, defender, active)))``."""
    o = outcome(L, s, v)
    return z3.If(o == SIDE0_WINS, s.defender,
                 z3.If(o == SIDE1_WINS, s.active, z3.If(s.last == s.active, s.defender, s.active)))


def play_prompt(L: Layout, s: Frame, v: Variants) -> Frame:
    """The initiative holder gets the next decision: ``pkind' = PLAY``, ``pplayer' = initiative``."""
    return s.with_(pkind=z3.IntVal(PLAY_PROMPT), pplayer=initiative(L, s, v))


@implements("RED-BASE-RESCUE-OR-CHALLENGE")
def has_lost_soul(L: Layout, s: Frame, player: z3.ArithRef) -> z3.BoolRef:
    """``player`` has a Lost Soul in their Land of Bondage."""
    return z3.Or(*[z3.And(s.loc[i] == BONDAGE, s.zp[i] == player) for i in L.of_type(LOST_SOUL)])


# --- Battle Resolution ------------------------------------------------------------------------


@implements("RED-BR-MISSION-RESULT", "RED-BR-CHALLENGE-RESULT", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
def mission(L: Layout, s: Frame, o: z3.ArithRef, v: Variants) -> z3.ArithRef:
    """Step 2 (RED-BR-MISSION-RESULT). Challenge: the outcome alone (RED-BR-CHALLENGE-RESULT;
    decision ``br-challenge-success``: ``challenger-wins``: ``o = SIDE0_WINS``;
    ``challenger-not-beaten``: ``o != SIDE1_WINS``). Rescue: success iff ``o = SIDE0_WINS`` and
    the defender still has a Lost Soul (access, RED-BR-RESCUE-SUCCESS); every other case is a
    failure (RED-BR-RESCUE-FAIL, decision ``br-rescue-draw = not-success-is-failure``)."""
    if v.is_("br-challenge-success", "challenger-wins"):
        challenge_won = o == SIDE0_WINS
    else:
        challenge_won = o != SIDE1_WINS
    rescued = z3.And(o == SIDE0_WINS, has_lost_soul(L, s, s.defender))
    won = z3.If(s.kind == CHALLENGE, challenge_won, rescued)
    return z3.If(won, SUCCESS, FAILURE)


@implements("RED-BR-STEP4-DISCARD-RETURN", "RED-BASE-DEFEAT")
def to_discard(L: Layout, s: Frame, o: z3.ArithRef, v: Variants) -> dict[int, z3.BoolRef]:
    """Characters step 4 discards (decision ``br-discard-which``): ``defeated-characters``:
    ``def(c)``; ``losing-side-only``: ``def(c)`` and ``c``'s side is beaten by the outcome
    (``SIDE0_WINS`` beats side 1, ``SIDE1_WINS`` side 0, mutual destruction both)."""
    down = defeated(L, s)
    if v.is_("br-discard-which", "defeated-characters"):
        return down
    out: dict[int, z3.BoolRef] = {}
    for c, d in down.items():
        side_beaten = z3.Or(o == MUTUAL_DESTRUCTION, z3.If(s.side[c] == 0, o == SIDE1_WINS, o == SIDE0_WINS))
        out[c] = z3.And(d, side_beaten)
    return out


@implements("RED-BR-RESCUE-SUCCESS", "RED-BR-UNAFFECTED-NORMAL")
def rescued_soul(L: Layout, s: Frame) -> dict[int, z3.BoolRef]:
    """Which Lost Soul a successful rescue takes (decision ``br-rescued-soul = lowest-id``): the
    defender's Lost Soul in bondage with no lower-id one there (the layout is sorted by id)."""
    out: dict[int, z3.BoolRef] = {}
    earlier: list[z3.BoolRef] = []
    for i in L.of_type(LOST_SOUL):
        here = z3.And(s.loc[i] == BONDAGE, s.zp[i] == s.defender)
        out[i] = z3.And(here, *[z3.Not(e) for e in earlier])
        earlier.append(here)
    return out


@implements("RED-BASE-WIN-FIVE-SOULS")
def check_winner(L: Layout, s: Frame) -> z3.ArithRef:
    """A player with five Lost Souls in their Land of Redemption wins (RED-BASE-WIN-FIVE-SOULS):
    ``winner' = If(winner != NONE, winner, first p in seat order with #redemption(p) >= 5, else NONE)``."""
    souls = L.of_type(LOST_SOUL)
    redeemed = [count([z3.And(s.loc[i] == REDEMPTION, s.zp[i] == p) for i in souls]) for p in (0, 1)]
    return z3.If(s.winner != NONE, s.winner,
                 z3.If(redeemed[0] >= SOULS_TO_WIN, 0, z3.If(redeemed[1] >= SOULS_TO_WIN, 1, NONE)))


@implements("RED-BR-ORDER", "RED-BR-STEP1-OUTCOME", "RED-BR-STEP3-END-ABILITIES", "RED-BR-UNAFFECTED-NORMAL",
            "RED-BR-RESCUE-SUCCESS")
def resolve(L: Layout, s: Frame, v: Variants) -> Frame:
    """Battle Resolution steps 1 to 3, then step 4 opens (RED-BR-ORDER):

    1. ``outcome' = o = outcome(s)``, fixed once (RED-BR-STEP1-OUTCOME); ``last_outcome' = o``;
    2. ``mission' = m = mission(s, o)``; ``last_mission' = m``;
    3. no end-of-battle abilities in the fragment (RED-BR-STEP3-END-ABILITIES); the ordinary fate of
       the other cards (RED-BR-UNAFFECTED-NORMAL): if a rescue succeeded, the rescued soul goes to
       the turn player's Land of Redemption (RED-BR-RESCUE-SUCCESS); every enhancement on a fighter
       goes to its owner's discard pile; the winner is checked (RED-BASE-WIN-FIVE-SOULS);
    4. ``doomed'(c) = to_discard(c)``, then :func:`open_heal_window`.

    Steps 2 and 4 read the fighters as step 1 saw them (numbers with enhancements).
    """
    o = outcome(L, s, v)
    m = mission(L, s, o, v)
    doomed = to_discard(L, s, o, v)
    rescue_ok = z3.And(s.kind == RESCUE, m == SUCCESS)
    soul = rescued_soul(L, s)
    loc, zp, host = list(s.loc), list(s.zp), list(s.host)
    for i in L.of_type(LOST_SOUL):
        taken = z3.And(rescue_ok, soul[i])
        loc[i] = z3.If(taken, REDEMPTION, s.loc[i])
        zp[i] = z3.If(taken, s.active, s.zp[i])
    for e in L.of_type(ENHANCEMENT):
        on = s.loc[e] == ATTACHED
        loc[e] = z3.If(on, DISCARD, s.loc[e])
        zp[e] = z3.If(on, L.cards[e].owner, s.zp[e])
        host[e] = z3.If(on, z3.IntVal(NONE), s.host[e])  # one placed on a character outside the battle stays
    after = s.with_(
        outcome=o, mission=m, last_outcome=o, last_mission=m, loc=tuple(loc), zp=tuple(zp), host=tuple(host),
        doomed=tuple(doomed.get(i, z3.BoolVal(False)) for i in range(L.n)),
    )
    after = after.with_(winner=check_winner(L, after))
    return open_heal_window(L, after, v)


@implements("RED-BR-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-WINDOW")
def open_heal_window(L: Layout, s: Frame, v: Variants) -> Frame:
    """Step 4 begins with the heal window (RED-BR-HEAL-WINDOW, RED-HEAL-AT-RESOLUTION): while a
    doomed character is still in the battle, its controlling player (decision
    ``br-heal-window-player``: the player of its side in the battle, or its permanent controller)
    gets a decision before the discard: ``pkind' = HEAL``, ``pplayer' = p`` the first such player in
    seat order (model interface: the catalogue gives no order), ``pcard'(c) = F(c) & doomed(c) &
    ctrl(c) = p``. With nobody left, the battle ends (:func:`finish`)."""
    chars = L.of_type(CHARACTER)
    if v.is_("br-heal-window-player", "battle-controller"):
        ctrl = {c: side_player(s, s.side[c]) for c in chars}
    else:
        ctrl = {c: s.zp[c] for c in chars}
    pending = {c: z3.And(s.loc[c] == FIGHTER, s.doomed[c]) for c in chars}
    any_of = [z3.Or(*[z3.And(pending[c], ctrl[c] == p) for c in chars]) for p in (0, 1)]
    player = z3.If(any_of[0], 0, 1)
    window = s.with_(
        pkind=z3.IntVal(HEAL_PROMPT), pplayer=player,
        pcard=tuple(z3.And(pending[i], ctrl[i] == player) if i in pending else z3.BoolVal(False)
                    for i in range(L.n)),
    )
    return choose(z3.Or(*any_of), window, finish(L, s))


@implements("RED-BR-STEP4-DISCARD-RETURN", "RED-HEAL-WINDOW")
def discard_pending(L: Layout, s: Frame, v: Variants) -> Frame:
    """The heal window closes unused (declined, RED-HEAL-WINDOW): its characters are discarded
    (RED-BR-STEP4-DISCARD-RETURN) to their owners' discard piles, each a completed discard of this
    turn numbered in card-id order: ``dseq'(c) = dcount + 1 + #{d < c | pcard(d)}``,
    ``dctrl'(c) = zp(c)`` (its permanent controller), ``dcount' = dcount + #pcard``; then the next
    heal window opens, or the battle ends (:func:`open_heal_window`)."""
    n = range(L.n)
    loc, zp, side, dseq, dctrl = list(s.loc), list(s.zp), list(s.side), list(s.dseq), list(s.dctrl)
    for i in n:
        gone = s.pcard[i]
        rank = count([s.pcard[j] for j in range(i)])
        loc[i] = z3.If(gone, DISCARD, s.loc[i])
        zp[i] = z3.If(gone, L.cards[i].owner, s.zp[i])
        side[i] = z3.If(gone, NONE, s.side[i])
        dseq[i] = z3.If(gone, s.dcount + 1 + rank, s.dseq[i])
        dctrl[i] = z3.If(gone, s.zp[i], s.dctrl[i])
    after = s.with_(
        loc=tuple(loc), zp=tuple(zp), side=tuple(side), dseq=tuple(dseq), dctrl=tuple(dctrl),
        dcount=s.dcount + count(list(s.pcard)), pcard=tuple(z3.BoolVal(False) for _ in n),
    )
    return open_heal_window(L, after, v)


@implements("RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-STEP4-DISCARD-RETURN")
def finish(L: Layout, s: Frame) -> Frame:
    """Step 4's returns: every character still in the battle goes back to the territory of its
    permanent controller (RED-BR-RETURN-PERMANENT-CONTROLLER; ``zp`` is kept); the battle leaves the
    stack: battle variables canonical, no prompt, the battle's play records cleared."""
    n = range(L.n)
    none, f = z3.IntVal(NONE), z3.BoolVal(False)
    return s.with_(
        loc=tuple(z3.If(s.loc[i] == FIGHTER, TERRITORY, s.loc[i]) for i in n),
        side=tuple(none for _ in n), doomed=tuple(f for _ in n), pcard=tuple(f for _ in n),
        rec=tuple(z3.IntVal(0) for _ in n), rec_on=tuple(none for _ in n), rec_by=tuple(none for _ in n),
        battle=f, bid=z3.IntVal(0), kind=none, defender=none, last=none, outcome=none, mission=none,
        pkind=none, pplayer=none,
    )


def choose(cond: z3.BoolRef, then: Frame, other: Frame) -> Frame:
    """``If(cond, then.g, other.g)`` for every group (terms that are the same AST are kept as is)."""
    a, b = then.groups(), other.groups()
    merged: dict[str, object] = {}
    for g in a:
        values = tuple(x if x.eq(y) else z3.If(cond, x, y) for x, y in zip(a[g], b[g]))
        merged[g] = values if isinstance(getattr(then, g), tuple) else values[0]
    return then.with_(**merged)
