"""Derived predicates and terms of the FFTCG encoding, each citing its clauses.

Notation: ``s`` is the frame before an action, ``c`` the rigid card
attributes, ``L`` the layout; ``A = s.turn_player``, ``D = 1 - A``;
``#X`` counts the true members of a Boolean group ``X``.
"""

from __future__ import annotations

from typing import Sequence

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.smt.fftcg.variants import Variants
from cardrules.specs.smt.fftcg.vocabulary import BREAK_THRESHOLD, DAMAGE, ELEMENTS, NONE, PREEMPTIVE, Cards, Frame, Layout


def count(bools: Sequence[z3.BoolRef]) -> z3.ArithRef:
    """``#bools``: how many are true."""
    return z3.Sum(*[z3.If(b, 1, 0) for b in bools]) if bools else z3.IntVal(0)


def select(index: z3.ArithRef, values: Sequence[z3.ExprRef], default: z3.ExprRef) -> z3.ExprRef:
    """``values[index]`` for a symbolic ``index`` (``default`` when out of range)."""
    term = default
    for i in reversed(range(len(values))):
        term = z3.If(index == i, values[i], term)
    return term


def nonneg(x: z3.ArithRef) -> z3.ArithRef:
    """``max(x, 0)``: a negative power deals no damage."""
    return z3.If(x > 0, x, 0)


@implements("FF-BASE-CAN-ATTACK")
def can_attack(L: Layout, c: Cards, s: Frame, i: int) -> z3.BoolRef:
    """FF-BASE-CAN-ATTACK: ``A = owner(i) & field[i] & !dull[i] & (since_start[i] | haste[i]) & !attacked[i]``."""
    return z3.And(s.turn_player == L.owners[i], s.field[i], z3.Not(s.dull[i]),
                  z3.Or(s.since_start[i], c.haste[i]), z3.Not(s.attacked[i]))


@implements("FF-PARTY-ELEMENT", "FF-BASE-MULTI-ELEMENT")
def element_party(L: Layout, c: Cards, members: Sequence[z3.BoolRef], v: Variants) -> z3.BoolRef:
    """FF-PARTY-ELEMENT. ``common-element``: ``OR_e AND_i (m_i -> element[i][e])``.
    ``pairwise-overlap``: ``AND_{i<j} (m_i & m_j -> OR_e element[i][e] & element[j][e])``."""
    n = L.n
    if v.is_("party-element-match", "pairwise-overlap"):
        return z3.And(*[
            z3.Implies(z3.And(members[i], members[j]),
                       z3.Or(*[z3.And(c.element[i][e], c.element[j][e]) for e in range(len(ELEMENTS))]))
            for i in range(n) for j in range(i + 1, n)
        ])
    return z3.Or(*[z3.And(*[z3.Implies(members[i], c.element[i][e]) for i in range(n)]) for e in range(len(ELEMENTS))])


@implements("FF-PARTY-P-ICON", "FF-BASE-P-ICON")
def p_icon_party(L: Layout, c: Cards, members: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """FF-PARTY-P-ICON: ``AND_i (m_i -> p_icon[i])``."""
    return z3.And(*[z3.Implies(members[i], c.p_icon[i]) for i in range(L.n)])


@implements("FF-PARTY-FORM-VALID", "FF-PARTY-MIN-TWO", "FF-PARTY-NO-SIZE-LIMIT", "FF-PARTY-TWO-TYPES")
def valid_party(L: Layout, c: Cards, members: Sequence[z3.BoolRef], v: Variants) -> z3.BoolRef:
    """FF-PARTY-FORM-VALID: ``#m >= 2`` (no upper bound, FF-PARTY-NO-SIZE-LIMIT) and an
    element party or a P icon party (FF-PARTY-TWO-TYPES)."""
    return z3.And(count(members) >= 2, z3.Or(element_party(L, c, members, v), p_icon_party(L, c, members)))


@implements("FF-BASE-BLOCK")
def may_block_alone(c: Cards, attacker: int, blocker: int) -> z3.BoolRef:
    """No blocking restriction of ``attacker`` excludes ``blocker``:
    ``!(ub_cost_set[a] & cost[b] >= ub_cost[a]) & !OR_e (ub_element[a][e] & element[b][e])``."""
    return z3.And(
        z3.Not(z3.And(c.ub_cost_set[attacker], c.cost[blocker] >= c.ub_cost[attacker])),
        z3.Not(z3.Or(*[z3.And(c.ub_element[attacker][e], c.element[blocker][e]) for e in range(len(ELEMENTS))])),
    )


@implements("FF-PARTY-BLOCK-ANY-MEMBER", "FF-BASE-BLOCK")
def can_block(L: Layout, c: Cards, s: Frame, b: int) -> z3.BoolRef:
    """FF-BASE-BLOCK, FF-PARTY-BLOCK-ANY-MEMBER: ``D = owner(b) & field[b] & !dull[b] &
    OR_a (attacker[a] & may_block_alone(a, b))``: one blockable member is enough."""
    return z3.And(s.turn_player != L.owners[b], s.field[b], z3.Not(s.dull[b]),
                  z3.Or(*[z3.And(s.attacker[a], may_block_alone(c, a, b)) for a in range(L.n)]))


@implements("FF-BASE-BREAK-DAMAGE", "FF-BASE-BREAK-ZERO-POWER")
def breaks(power: z3.ArithRef, damage: z3.ArithRef) -> z3.BoolRef:
    """``power <= 0 | (power >= 1000 & damage >= power)``."""
    return z3.Or(power <= 0, z3.And(power >= BREAK_THRESHOLD, damage >= power))


def settled(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """No Forward on the field should be broken: ``AND_i (field[i] -> !breaks(power[i], dmg[i]))``.

    Breaks happen at once when damage is dealt, so every reachable state is settled;
    the encoding is defined on settled states."""
    return z3.And(*[z3.Implies(s.field[i], z3.Not(breaks(c.power[i], s.dmg[i]))) for i in range(L.n)])


@implements("FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-PREEMPTIVE")
def attackers_preemptive(L: Layout, c: Cards, s: Frame, v: Variants) -> z3.BoolRef:
    """FF-PARTY-PREEMPTIVE-ALL: the attacking side has Pre-emptive Strike iff every current
    attacker has it (``#attacker >= 1 & AND_i (attacker[i] -> preemptive[i])``); under
    ``party-preemptive-members = at-formation`` a party uses ``decl_pre`` instead."""
    current = z3.And(count(s.attacker) >= 1, *[z3.Implies(s.attacker[i], c.preemptive[i]) for i in range(L.n)])
    if v.is_("party-preemptive-members", "at-formation"):
        return z3.If(s.party, z3.And(count(s.attacker) >= 1, s.decl_pre), current)
    return current


def blocker_term(c: Cards, s: Frame, values: Sequence[z3.ExprRef], default: z3.ExprRef) -> z3.ExprRef:
    return select(s.blocker, values, default)


@implements("FF-BASE-PREEMPTIVE", "FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-BLOCKED-EXCHANGE")
def dealing(L: Layout, c: Cards, s: Frame, v: Variants, part: int | z3.ArithRef) -> tuple[z3.BoolRef, z3.BoolRef]:
    """(attackers deal, blocker deals) in damage part ``part`` (PREEMPTIVE or DAMAGE).

    Both need a blocked attack with the blocker on the field and an attacker left. A side
    deals once per attack (``!att_dealt`` / ``!blk_dealt``), in the Pre-emptive Strike part
    only if it has Pre-emptive Strike (FF-BASE-PREEMPTIVE)."""
    engaged = z3.And(s.blocked, s.blocker != NONE, count(s.attacker) >= 1)
    ordinary = part == DAMAGE if isinstance(part, z3.ArithRef) else z3.BoolVal(part == DAMAGE)
    attackers = z3.And(engaged, z3.Not(s.att_dealt), z3.Or(ordinary, attackers_preemptive(L, c, s, v)))
    blocker = z3.And(engaged, z3.Not(s.blk_dealt),
                     z3.Or(ordinary, blocker_term(c, s, c.preemptive, z3.BoolVal(False))))
    return attackers, blocker


@implements("FF-BASE-PREEMPTIVE", "FF-BASE-ATTACK-STEPS")
def has_preemptive_part(L: Layout, c: Cards, s: Frame, v: Variants) -> z3.BoolRef:
    """Damage Resolution opens with a Pre-emptive Strike part iff some side deals then."""
    attackers, blocker = dealing(L, c, s, v, PREEMPTIVE)
    return z3.Or(attackers, blocker)


@implements("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE", "FF-PARTY-BLOCKED-SUM")
def unblocked(s: Frame, v: Variants) -> z3.BoolRef:
    """The attack deals its one point of damage to the defender: not blocked; or, under
    ``party-blocker-left = as-unblocked``, blocked by a Forward that has left the field
    before the attacking side dealt its damage (a combatant deals damage once per attack,
    FF-BASE-PREEMPTIVE). Under ``no-damage`` a blocked attack stays blocked."""
    plain = z3.And(s.block_declared, z3.Not(s.blocked))
    if v.is_("party-blocker-left", "as-unblocked"):
        return z3.Or(plain, z3.And(s.blocked, s.blocker == NONE, z3.Not(s.att_dealt)))
    return plain


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def split_unit(v: Variants) -> int:
    """Shares are multiples of 1000 (the broken variant ``party-split-in-hundreds``, a mutant: 100)."""
    return 100 if v.is_broken("party-split-in-hundreds") else 1000


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def valid_split(L: Layout, c: Cards, s: Frame, share: Sequence[z3.ArithRef], v: Variants) -> z3.BoolRef:
    """The blocker's controller divides its power among the current members.

    With ``P = max(power[blocker], 0)``, unit ``u`` (1000), ``main = P - P mod u``:

    - non-members get 0; ``share[i] >= 0``;
    - ``floor``: every share is a multiple of u and ``SUM share = main``;
      ``remainder-to-one``: ``SUM share = P``, every ``share[i] mod u`` is 0 or ``P mod u``
      and at most one is not 0 (that member also takes the remainder);
    - ``party-zero-share = each-hit-if-possible``: with ``base[i] = share[i] - share[i] mod u``:
      if ``main >= 1000 * #members`` every ``base[i] >= 1000``, else every ``base[i]`` is 0 or 1000.
    """
    u = split_unit(v)
    power = nonneg(blocker_term(c, s, c.power, z3.IntVal(0)))
    rem = power % u
    main = power - rem
    parts: list[z3.BoolRef] = []
    for i in range(L.n):
        parts.append(z3.If(s.attacker[i], share[i] >= 0, share[i] == 0))
    if v.is_("party-blocker-power-remainder", "remainder-to-one"):
        parts.append(z3.Sum(*share) == power)
        parts += [z3.Or(share[i] % u == 0, share[i] % u == rem) for i in range(L.n)]
        parts.append(count([share[i] % u != 0 for i in range(L.n)]) <= 1)
    else:
        parts.append(z3.Sum(*share) == main)
        parts += [share[i] % u == 0 for i in range(L.n)]
    if v.is_("party-zero-share", "each-hit-if-possible"):
        members = count(s.attacker)
        base = [share[i] - share[i] % u for i in range(L.n)]
        parts.append(z3.If(
            main >= 1000 * members,
            z3.And(*[z3.Implies(s.attacker[i], base[i] >= 1000) for i in range(L.n)]),
            z3.And(*[z3.Implies(s.attacker[i], z3.Or(base[i] == 0, base[i] == 1000)) for i in range(L.n)]),
        ))
    return z3.And(*parts)


@implements("FF-PARTY-SPLIT-THOUSANDS")
def split_needed(L: Layout, c: Cards, s: Frame, v: Variants) -> z3.BoolRef:
    """In a damage part, the blocker deals damage to a party: its controller must divide it."""
    in_part = z3.Or(s.step == PREEMPTIVE, s.step == DAMAGE)
    return z3.And(s.in_attack, in_part, s.party, dealing(L, c, s, v, s.step)[1])
