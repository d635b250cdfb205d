"""One function per action kind: guards, updates and an explicit frame condition.

Each function returns an :class:`ActionEncoding`: the action kind, the
canonical values of the parameters it does not use (so that every action is
exactly one assignment of the action variables), and one or more
:class:`Case` s. A case is ``guard & updates & UNCHANGED(others)``: its
``assigns`` give the next value of every variable group it changes, and every
group it does not name is kept (:func:`unchanged`, TLA+'s ``UNCHANGED``).
The cases of one kind have disjoint guards.

When players may act is the interface's protocol, recorded as catalogue decisions
the model shares (FF-BASE-ATTACK-STEPS, FF-BASE-END-OF-TURN): both players pass to
leave a step, as one action (``ff-step-passing``); a Forward may leave the field
(``remove``, standing for any such effect) in Attack Preparation, Attack
Declaration (not under ``ff-removal-windows = not-in-declaration``), Block Declaration
once the block is declared (or before it, under ``also-before-block``), and Combat End;
an attack left with no attacker before damage ends (``ff-attack-no-attacker-left``); the turn
may be ended in Attack Preparation or Declaration with no attack in progress
(``ff-end-turn-window``); after the game is over no action is legal
(FF-BASE-SEVEN-DAMAGE-LOSES).

Primed names (``x'``) are the next frame ``s2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.smt import transition
from cardrules.specs.smt.transition import unchanged
from cardrules.specs.smt.fftcg import rules
from cardrules.specs.smt.fftcg.rules import count
from cardrules.specs.smt.fftcg.variants import Variants
from cardrules.specs.smt.fftcg.vocabulary import (
    ATTACK, ATTACK_GROUPS, BLOCK, BLOCK_WITH, COMBAT_END, DAMAGE, DECLARATION, END_TURN, KINDS,
    LOSING_DAMAGE, NO_BLOCK, NO_OUTCOME, NONE, PASS, PREEMPTIVE, PREPARATION, REMOVE, SPLIT,
    ActionVars, Cards, Frame, Layout,
)

Terms = dict[str, tuple[z3.ExprRef, ...]]
"""Next values of some variable groups, flattened as in :meth:`Frame.groups`."""


@dataclass(frozen=True)
class Ctx:
    """Everything one transition ``s -(a)-> s2`` is written over."""

    L: Layout
    c: Cards
    s: Frame
    a: ActionVars
    s2: Frame
    v: Variants


@dataclass(frozen=True)
class Case:
    """``guard & AND_{g in assigns} g' = assigns[g] & UNCHANGED(groups not in assigns)``."""

    name: str
    guard: z3.BoolRef
    assigns: Mapping[str, tuple[z3.ExprRef, ...]]
    clauses: tuple[str, ...] = ()

    def updates(self, s2: Frame) -> list[z3.BoolRef]:
        nxt = s2.groups()
        out: list[z3.BoolRef] = []
        for group, values in self.assigns.items():
            assert len(values) == len(nxt[group]), group
            out += [x == y for x, y in zip(nxt[group], values)]
        return out

    def formula(self, s: Frame, s2: Frame) -> z3.BoolRef:
        return z3.And(self.guard, *self.updates(s2), *unchanged(s, s2, frozenset(self.assigns)))


class ActionEncoding(transition.ActionEncoding):
    """One action kind of this encoding (:class:`specs.smt.transition.ActionEncoding`)."""

    names = KINDS


# --- shared terms ---------------------------------------------------------------


def _game_on(s: Frame) -> z3.BoolRef:
    return s.outcome == NO_OUTCOME


def _attack_terms(s: Frame) -> Terms:
    g = s.groups()
    return {name: g[name] for name in ATTACK_GROUPS}


def _no_attack(L: Layout) -> Terms:
    f, n = z3.BoolVal(False), L.n
    return {
        "in_attack": (f,), "attacker": (f,) * n, "declared": (f,) * n, "party": (f,), "decl_pre": (f,),
        "block_declared": (f,), "blocked": (f,), "blocker": (z3.IntVal(NONE),), "att_dealt": (f,),
        "blk_dealt": (f,),
    }


def _choose(cond: z3.BoolRef, then: Terms, other: Terms) -> Terms:
    """``If(cond, then[g], other[g])`` for every group of ``other`` (``then`` names the same groups)."""
    return {g: tuple(z3.If(cond, x, y) for x, y in zip(then[g], other[g])) for g in other}


def _params(L: Layout, a: ActionVars, *, pick: bool = False, target: bool = False, share: bool = False) -> z3.BoolRef:
    parts: list[z3.BoolRef] = []
    if not pick:
        parts += [z3.Not(p) for p in a.pick]
    parts.append(z3.And(a.target >= 0, a.target < L.n) if target else a.target == NONE)
    if not share:
        parts += [x == 0 for x in a.share]
    return z3.And(*parts)


@implements("FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-DISBAND-MEANING")
def leave_field(ctx: Ctx, leaving: Sequence[z3.BoolRef], dmg: Sequence[z3.ArithRef], att: Terms) -> Terms:
    """The Forwards ``leaving`` go to their owners' Break Zones (active, no damage, not under
    control since the start), leave the attack and the party (FF-PARTY-LEAVE-FIELD):

    ``attacker'_i = attacker_i & !leaving_i``; ``party' = party & #attacker' >= 2``
    (FF-PARTY-DISBAND-UNDER-TWO, FF-PARTY-DISBAND-MEANING); ``party-last-member =
    removed-from-combat``: a party falling below two also loses its last attacker;
    a blocker that leaves is no longer the blocker (the attack stays blocked).
    ``dmg`` is the damage on each Forward before leaving; ``att`` the attack before.
    """
    L, s, v = ctx.L, ctx.s, ctx.v
    n = range(L.n)
    kept = [z3.And(att["attacker"][i], z3.Not(leaving[i])) for i in n]
    fell_apart = z3.And(att["party"][0], count(kept) < 2)
    if v.is_("party-last-member", "removed-from-combat"):
        kept = [z3.And(k, z3.Not(fell_apart)) for k in kept]
    blocker = att["blocker"][0]
    blocker_left = z3.Or(*[z3.And(blocker == i, leaving[i]) for i in n])
    out: Terms = dict(att)
    out.update({
        "attacker": tuple(kept),
        "party": (z3.And(att["party"][0], z3.Not(fell_apart)),),
        "blocker": (z3.If(blocker_left, z3.IntVal(NONE), blocker),),
        "field": tuple(z3.And(s.field[i], z3.Not(leaving[i])) for i in n),
        "dull": tuple(z3.If(leaving[i], False, s.dull[i]) for i in n),
        "dmg": tuple(z3.If(leaving[i], 0, dmg[i]) for i in n),
        "since_start": tuple(z3.If(leaving[i], False, s.since_start[i]) for i in n),
    })
    return out


@implements("FF-PARTY-DISBAND-COMBAT-END", "FF-BASE-ATTACK-STEPS")
def end_of_attack(ctx: Ctx, ends: z3.BoolRef, att: Terms, step: z3.ArithRef) -> tuple[Terms, z3.ArithRef]:
    """When ``ends``: the attack is over. ``party-disband-timing = combat-end-step``: go to
    the Combat End Step, where a party still existing disbands (``party' = false``; decision
    ``party-active-meaning = members-active-state``: only if no member is dull after the step);
    ``after-damage-resolution``: the party disbands now, the attack is gone and play
    returns to Attack Declaration."""
    if ctx.v.is_("party-disband-timing", "after-damage-resolution"):
        return _choose(ends, _no_attack(ctx.L), att), z3.If(ends, DECLARATION, step)
    done = dict(att)
    if ctx.v.is_("party-active-meaning", "members-active-state"):
        # only a party whose members are all active (not dull) disbands; the members after this step
        dull_member = z3.Or(*[z3.And(att["attacker"][i], ctx.s2.dull[i]) for i in range(ctx.L.n)])
        done["party"] = (z3.And(att["party"][0], dull_member),)
    else:
        done["party"] = (z3.BoolVal(False),)
    return _choose(ends, done, att), z3.If(ends, COMBAT_END, step)


@implements(
    "FF-BASE-BLOCKED-EXCHANGE", "FF-PARTY-BLOCKED-SUM", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-BREAK-CREDIT",
    "FF-BASE-PREEMPTIVE", "FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-UNBLOCKED-DAMAGE", "FF-PARTY-UNBLOCKED-ONE",
    "FF-BASE-BREAK-DAMAGE", "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-BASE-ATTACK-STEPS",
)
def resolve_damage_part(ctx: Ctx, share: Sequence[z3.ArithRef]) -> Terms:
    """Resolve the current damage part (``step in {PREEMPTIVE, DAMAGE}``), all at once.

    - unblocked (:func:`rules.unblocked`), in the ordinary part, with an attacker left:
      ``pdamage'[D] = pdamage[D] + 1`` (FF-PARTY-UNBLOCKED-ONE); at 7 the attacker wins
      and nothing else changes (FF-BASE-SEVEN-DAMAGE-LOSES);
    - (attackers deal, blocker deals) = :func:`rules.dealing`; the blocker takes
      ``SUM_{attacker i} max(power[i], 0)`` (FF-PARTY-BLOCKED-SUM; ``party-sum-members =
      declared-members``: the sum over every declared Forward while ``party``); a party member ``i``
      takes ``share[i]``, a single attacker the blocker's power (FF-BASE-BLOCKED-EXCHANGE);
    - every Forward that then ``breaks`` leaves the field (:func:`leave_field`); a broken
      blocker is credited to the current attackers (``party-preemptive-broken-member =
      all-declared``: to every declared Forward of a party), a broken attacker to the
      blocker (FF-PARTY-BREAK-CREDIT, FF-BASE-BREAK-DAMAGE);
    - then the Pre-emptive Strike part goes on to the ordinary part, and the ordinary part
      ends the attack (:func:`end_of_attack`).
    """
    L, c, s, v = ctx.L, ctx.c, ctx.s, ctx.v
    n = range(L.n)
    defender_hit = z3.And(s.step == DAMAGE, rules.unblocked(s, v), count(s.attacker) >= 1)
    deal_a, deal_b = rules.dealing(L, c, s, v, s.step)
    if v.is_("party-sum-members", "declared-members"):
        # every Forward declared in a still-existing party counts, with its printed (last known) power
        adds = [z3.If(s.party, s.declared[i], s.attacker[i]) for i in n]
    else:
        adds = list(s.attacker)
    to_blocker = z3.Sum(*[z3.If(adds[i], rules.nonneg(c.power[i]), 0) for i in n])
    blocker_power = rules.nonneg(rules.select(s.blocker, c.power, z3.IntVal(0)))
    mid = [
        s.dmg[i]
        + z3.If(z3.And(deal_a, s.blocker == i), to_blocker, 0)
        + z3.If(z3.And(deal_b, s.attacker[i]), z3.If(s.party, share[i], blocker_power), 0)
        for i in n
    ]
    broken = [z3.And(s.field[i], rules.breaks(c.power[i], mid[i])) for i in n]
    if v.is_("party-preemptive-broken-member", "all-declared"):
        creditors = [z3.If(s.party, s.declared[j], s.attacker[j]) for j in n]
    else:
        creditors = list(s.attacker)
    credited = [
        [z3.Or(s.credit[i][j], z3.And(broken[i], z3.Or(
            z3.And(deal_a, s.blocker == i, creditors[j]),
            z3.And(deal_b, s.attacker[i], s.blocker == j))))
         for j in n]
        for i in n
    ]
    att = _attack_terms(s)
    att["att_dealt"] = (z3.Or(s.att_dealt, deal_a),)
    att["blk_dealt"] = (z3.Or(s.blk_dealt, deal_b),)
    out = leave_field(ctx, broken, mid, att)
    defender_damage = rules.select(1 - s.turn_player, s.pdamage, z3.IntVal(0)) + 1
    loses = z3.And(defender_hit, defender_damage >= LOSING_DAMAGE)
    ends = z3.And(z3.Not(loses), s.step == DAMAGE)
    attack, step = end_of_attack(ctx, ends, {g: out[g] for g in ATTACK_GROUPS},
                                 z3.If(z3.And(z3.Not(loses), s.step == PREEMPTIVE), DAMAGE, s.step))
    out.update(attack)
    out.update({
        "step": (step,),
        "broke": tuple(z3.Or(s.broke[i], broken[i]) for i in n),
        "credit": tuple(x for row in credited for x in row),
        "pdamage": tuple(s.pdamage[p] + z3.If(z3.And(defender_hit, s.turn_player != p), 1, 0) for p in (0, 1)),
        "outcome": (z3.If(loses, s.turn_player, s.outcome),),
    })
    return out


# --- the actions ------------------------------------------------------------------


@implements("FF-PARTY-FORM-DECLARATION", "FF-PARTY-FORM-VALID", "FF-PARTY-ALL-CAN-ATTACK", "FF-PARTY-DULL-ALL",
            "FF-BASE-CAN-ATTACK", "FF-BASE-ATTACK-DULLS", "FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-PARTY-NO-SIZE-LIMIT")
def declare_attack(ctx: Ctx) -> ActionEncoding:
    """``attack X`` (``X = {i | pick[i]}``, a party if ``#X >= 2``).

    Guard: game on, Attack Declaration, no attack (FF-PARTY-FORM-DECLARATION,
    FF-BASE-ONE-ATTACK-AT-A-TIME); ``#X >= 1``; every ``i in X`` can attack
    (FF-BASE-CAN-ATTACK, FF-PARTY-ALL-CAN-ATTACK); ``#X >= 2 -> valid_party(X)``.
    Updates: ``attacked' = attacked | X``; ``dull'_i = dull_i | (i in X & !keeps_active_i)`` with
    ``keeps_active_i = brave_i`` (``party-brave-members = all-dull``: not in a party)
    (FF-BASE-ATTACK-DULLS, FF-PARTY-DULL-ALL); the attack: ``attacker' = declared' = X``,
    ``party' = #X >= 2``, ``decl_pre' = AND_{i in X} preemptive_i``, no block yet.
    """
    L, c, s, a, v = ctx.L, ctx.c, ctx.s, ctx.a, ctx.v
    n = range(L.n)
    x = a.pick
    is_party = count(x) >= 2
    guard = z3.And(
        _game_on(s), s.step == DECLARATION, z3.Not(s.in_attack), count(x) >= 1,
        *[z3.Implies(x[i], rules.can_attack(L, c, s, i)) for i in n],
        z3.Implies(is_party, rules.valid_party(L, c, x, v)),
    )
    if v.is_("party-brave-members", "all-dull"):
        keeps_active = [z3.And(c.brave[i], z3.Not(is_party)) for i in n]
    else:
        keeps_active = list(c.brave)
    assigns: Terms = dict(_no_attack(L))
    assigns.update({
        "in_attack": (z3.BoolVal(True),),
        "attacker": tuple(x), "declared": tuple(x), "party": (is_party,),
        "decl_pre": (z3.And(*[z3.Implies(x[i], c.preemptive[i]) for i in n]),),
        "attacked": tuple(z3.Or(s.attacked[i], x[i]) for i in n),
        "dull": tuple(z3.Or(s.dull[i], z3.And(x[i], z3.Not(keeps_active[i]))) for i in n),
    })
    return ActionEncoding(ATTACK, _params(L, a, pick=True), (Case("declare", guard, assigns),))


@implements("FF-BASE-BLOCK", "FF-PARTY-BLOCK-ANY-MEMBER")
def block(ctx: Ctx) -> ActionEncoding:
    """``block b`` (``b = target``). Guard: game on, Block Declaration, an attack whose block
    is not yet declared, :func:`rules.can_block` ``(b)``. Updates: ``block_declared' =
    blocked' = true``, ``blocker' = b``; blocking does not dull (FF-BASE-BLOCK), unless
    ``ff-base-blocker-dulls = dulls``: ``dull'_b = true``."""
    L, c, s, a, v = ctx.L, ctx.c, ctx.s, ctx.a, ctx.v
    guard = z3.And(_game_on(s), s.step == BLOCK, s.in_attack, z3.Not(s.block_declared),
                   z3.Or(*[z3.And(a.target == b, rules.can_block(L, c, s, b)) for b in range(L.n)]))
    assigns: Terms = {"block_declared": (z3.BoolVal(True),), "blocked": (z3.BoolVal(True),), "blocker": (a.target,)}
    if v.is_("ff-base-blocker-dulls", "dulls"):
        assigns["dull"] = tuple(z3.Or(s.dull[i], a.target == i) for i in range(L.n))
    return ActionEncoding(BLOCK_WITH, _params(L, a, target=True), (Case("block", guard, assigns),))


@implements("FF-BASE-BLOCK")
def no_block(ctx: Ctx) -> ActionEncoding:
    """``noblock``. Guard as :func:`block` without a blocker. Updates: ``block_declared' = true``,
    ``blocked' = false``."""
    L, s, a = ctx.L, ctx.s, ctx.a
    guard = z3.And(_game_on(s), s.step == BLOCK, s.in_attack, z3.Not(s.block_declared))
    assigns: Terms = {"block_declared": (z3.BoolVal(True),), "blocked": (z3.BoolVal(False),)}
    return ActionEncoding(NO_BLOCK, _params(L, a), (Case("noblock", guard, assigns),))


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def split(ctx: Ctx) -> ActionEncoding:
    """``split`` (``share``): the blocker's controller divides its damage among the party.
    Guard: game on, :func:`rules.split_needed`, :func:`rules.valid_split` ``(share)``.
    Updates: :func:`resolve_damage_part` with ``share``."""
    L, c, s, a, v = ctx.L, ctx.c, ctx.s, ctx.a, ctx.v
    guard = z3.And(_game_on(s), rules.split_needed(L, c, s, v), rules.valid_split(L, c, s, a.share, v))
    return ActionEncoding(SPLIT, _params(L, a, share=True),
                          (Case("split", guard, resolve_damage_part(ctx, a.share)),))


@implements("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD")
def removal_window(s: Frame, v: Variants) -> z3.BoolRef:
    """Players may act (a Forward may leave the field) in this step: Attack Preparation, Attack Declaration
    (not under ``ff-removal-windows = not-in-declaration``), Block Declaration once the block is declared
    (``also-before-block``: at any time), each damage part (``also-in-damage`` only: every frame of a part
    is before it deals its damage, the split or pass resolves it) and Combat End."""
    in_block = s.step == BLOCK if v.is_("ff-removal-windows", "also-before-block") else z3.And(s.step == BLOCK, s.block_declared)
    steps = [s.step == PREPARATION, s.step == COMBAT_END, in_block]
    if not v.is_("ff-removal-windows", "not-in-declaration"):
        steps.append(s.step == DECLARATION)
    if v.is_("ff-removal-windows", "also-in-damage"):
        steps += [s.step == PREEMPTIVE, s.step == DAMAGE]
    return z3.Or(*steps)


@implements("FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO", "FF-BASE-ATTACK-STEPS")
def remove(ctx: Ctx) -> ActionEncoding:
    """``remove f`` (``f = target``): a Forward leaves the field by an effect.

    Guard: game on; Attack Preparation, Attack Declaration, Combat End, or Block
    Declaration after the block (decision ``ff-removal-windows``; ``also-before-block``:
    Block Declaration at any time; ``also-in-damage``: each damage part too, before it deals
    its damage; ``not-in-declaration``: never in Attack Declaration);
    ``field[f]``. Updates: :func:`leave_field` ``({f})``, ``removed'[f] = true``; an attack
    left with no attacker before damage (Declaration or Block step) ends
    (:func:`end_of_attack`; decision ``ff-attack-no-attacker-left = ends``; ``continues``: it
    runs on and deals nothing; ``redeclare``: no attack, back to Attack Declaration at once).
    """
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    n = range(L.n)
    guard = z3.And(_game_on(s), removal_window(s, v), z3.Or(*[z3.And(a.target == i, s.field[i]) for i in n]))
    leaving = [a.target == i for i in n]
    out = leave_field(ctx, leaving, s.dmg, _attack_terms(s))
    none_left = z3.And(s.in_attack, count(out["attacker"]) == 0, z3.Or(s.step == DECLARATION, s.step == BLOCK))
    if v.is_("ff-attack-no-attacker-left", "redeclare"):
        attack = _choose(none_left, _no_attack(L), {g: out[g] for g in ATTACK_GROUPS})
        step = z3.If(none_left, DECLARATION, s.step)
    else:
        ends = z3.And(none_left, z3.BoolVal(v.is_("ff-attack-no-attacker-left", "ends")))
        attack, step = end_of_attack(ctx, ends, {g: out[g] for g in ATTACK_GROUPS}, s.step)
    out.update(attack)
    out["step"] = (step,)
    out["removed"] = tuple(z3.Or(s.removed[i], leaving[i]) for i in n)
    return ActionEncoding(REMOVE, _params(L, a, target=True), (Case("remove", guard, out),))


@implements("FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-BASE-PREEMPTIVE",
            "FF-PARTY-DISBAND-COMBAT-END")
def pass_step(ctx: Ctx) -> ActionEncoding:
    """``pass``: both players pass, as one action (decision ``ff-step-passing``: one-pass-for-both);
    the cases by step (FF-BASE-ATTACK-STEPS):

    - Preparation -> Declaration;
    - Declaration with an attack -> Block Declaration;
    - Block Declaration once the block is declared -> the Pre-emptive Strike part if
      some side deals then (:func:`rules.has_preemptive_part`), else the ordinary part;
    - a damage part that needs no split: :func:`resolve_damage_part`;
    - Combat End -> Declaration, the attack is over (FF-BASE-ONE-ATTACK-AT-A-TIME).
    """
    L, c, s, a, v = ctx.L, ctx.c, ctx.s, ctx.a, ctx.v
    on = _game_on(s)
    zero = [z3.IntVal(0)] * L.n
    cases = (
        Case("preparation", z3.And(on, s.step == PREPARATION), {"step": (z3.IntVal(DECLARATION),)}),
        Case("declaration", z3.And(on, s.step == DECLARATION, s.in_attack), {"step": (z3.IntVal(BLOCK),)}),
        Case("block", z3.And(on, s.step == BLOCK, s.in_attack, s.block_declared),
             {"step": (z3.If(rules.has_preemptive_part(L, c, s, v), PREEMPTIVE, DAMAGE),)}),
        Case("damage", z3.And(on, s.in_attack, z3.Or(s.step == PREEMPTIVE, s.step == DAMAGE),
                              z3.Not(rules.split_needed(L, c, s, v))),
             resolve_damage_part(ctx, zero)),
        Case("combat-end", z3.And(on, s.step == COMBAT_END),
             {"step": (z3.IntVal(DECLARATION),), **_no_attack(L)}),
    )
    return ActionEncoding(PASS, _params(L, a), cases)


@implements("FF-BASE-END-OF-TURN", "FF-BASE-SEVEN-DAMAGE-LOSES")
def end_turn(ctx: Ctx) -> ActionEncoding:
    """``end-turn``. Guard: game on, Preparation or Declaration, no attack (decision
    ``ff-end-turn-window``; ``declaration-only``: Declaration only), the turn player holds priority
    (not ``passed``).
    Updates (FF-BASE-END-OF-TURN): on-field Forwards lose their damage and are under control
    since the start; ``turn_player' = 1 - turn_player``, ``turn' = turn + 1``, Preparation;
    the new turn player's on-field Forwards become active; ``attacked``, ``broke``,
    ``removed``, ``credit`` are cleared (a new turn); a player with 7 damage has lost."""
    L, s, a, v = ctx.L, ctx.s, ctx.a, ctx.v
    n = range(L.n)
    steps = [s.step == DECLARATION] if v.is_("ff-end-turn-window", "declaration-only") else [s.step == PREPARATION, s.step == DECLARATION]
    guard = z3.And(_game_on(s), z3.Or(*steps), z3.Not(s.in_attack), z3.Not(s.passed))
    new_player = 1 - s.turn_player
    f = z3.BoolVal(False)
    assigns: Terms = dict(_no_attack(L))
    assigns.update({
        "turn": (s.turn + 1,), "turn_player": (new_player,), "step": (z3.IntVal(PREPARATION),),
        "dmg": tuple(z3.If(s.field[i], 0, s.dmg[i]) for i in n),
        "since_start": tuple(z3.Or(s.field[i], s.since_start[i]) for i in n),
        "dull": tuple(z3.And(s.dull[i], z3.Not(z3.And(s.field[i], new_player == L.owners[i]))) for i in n),
        "attacked": (f,) * L.n, "broke": (f,) * L.n, "removed": (f,) * L.n, "credit": (f,) * (L.n * L.n),
        "outcome": (z3.If(s.pdamage[0] >= LOSING_DAMAGE, 1, z3.If(s.pdamage[1] >= LOSING_DAMAGE, 0, s.outcome)),),
    })
    return ActionEncoding(END_TURN, _params(L, a), (Case("end-turn", guard, assigns),))


ACTIONS: tuple[Callable[[Ctx], ActionEncoding], ...] = (declare_attack, block, no_block, split, remove, pass_step, end_turn)
"""Every action kind, in the order of the kind constants (as written; :func:`with_priority` makes the
transition system's)."""


@implements("FF-BASE-ATTACK-STEPS")
def with_priority(ctx: Ctx, encoding: ActionEncoding) -> ActionEncoding:
    """Who holds priority (decision ``ff-step-passing``), over one action kind as written.

    Every case clears ``passed`` (an action gives priority back to the turn player). Under
    ``alternating-priority`` a ``pass`` in a step where players may act (:func:`removal_window`) by the
    turn player (``!passed``) only sets ``passed``: the pass cases as written then need ``passed``
    (the other player's pass ends the step). Under the chosen ``one-pass-for-both`` one ``pass`` is
    both players' passes, and ``passed`` stays false."""
    s, v = ctx.s, ctx.v
    cleared = {"passed": (z3.BoolVal(False),)}
    written = [c for c in encoding.cases if isinstance(c, Case)]
    assert len(written) == len(encoding.cases)
    cases = [Case(c.name, c.guard, {**cleared, **c.assigns}, c.clauses) for c in written]
    if encoding.kind == PASS and v.is_("ff-step-passing", "alternating-priority"):
        window = removal_window(s, v)
        first = z3.And(z3.Not(s.passed), window, z3.Or(*[c.guard for c in cases]))
        cases = [Case(c.name, z3.And(c.guard, z3.Or(s.passed, z3.Not(window))), c.assigns, c.clauses) for c in cases]
        cases.append(Case("hand-priority", first, {"passed": (z3.BoolVal(True),)}))
    return ActionEncoding(encoding.kind, encoding.params, tuple(cases), encoding.clauses)


def priority_actions() -> tuple[Callable[[Ctx], ActionEncoding], ...]:
    """:data:`ACTIONS`, each through :func:`with_priority`: the transition system's actions."""
    def wrapped(make: Callable[[Ctx], ActionEncoding]) -> Callable[[Ctx], ActionEncoding]:
        return lambda ctx: with_priority(ctx, make(ctx))
    return tuple(wrapped(make) for make in ACTIONS)


PRIORITY_ACTIONS = priority_actions()
