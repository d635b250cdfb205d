"""The z3 forms of FFTCG state properties, with their clauses.

These are formulas, not a second property list: each is the second face of a property of
the one registry (``properties/core.py``), which names it in :attr:`Property.smt`
(``properties/fftcg/smt_faces.py``) under the same name; the bridge :mod:`oracle.crosscheck.fftcg`
resolves a registry name to its form here (this package never imports the registry).

Each :class:`StateProperty` is a formula over one frame. ``should_hold`` says
whether it must hold in every reachable state (Quint's ``///`` note);
``strengthening`` is an extra invariant conjoined for k-induction (a proof of
``P & S`` proves ``P``); the type invariant :func:`vocabulary.domain` and
:func:`rules.settled` are always conjoined.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.smt.fftcg.rules import count
from cardrules.specs.smt.fftcg.vocabulary import LOSING_DAMAGE, Cards, Frame, Layout

Formula = Callable[[Layout, Cards, Frame], z3.BoolRef]


def _true(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    return z3.BoolVal(True)


@dataclass(frozen=True)
class StateProperty:
    name: str
    statement: str
    clause_ids: tuple[str, ...]
    holds: Formula
    should_hold: bool = True
    strengthening: Formula = _true


@implements("FF-PARTY-MIN-TWO", "FF-PARTY-DISBAND-UNDER-TWO")
def party_min_two(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """``party -> #attacker >= 2``."""
    return z3.Implies(s.party, count(s.attacker) >= 2)


@implements("FF-PARTY-LEAVE-FIELD")
def attackers_on_field(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """``AND_i (attacker_i -> field_i)``."""
    return z3.And(*[z3.Implies(s.attacker[i], s.field[i]) for i in range(L.n)])


@implements("FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-UNBLOCKED-ONE")
def damage_at_most_seven(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """``pdamage[0] <= 7 & pdamage[1] <= 7``."""
    return z3.And(*[s.pdamage[p] <= LOSING_DAMAGE for p in (0, 1)])


@implements("FF-BASE-SEVEN-DAMAGE-LOSES")
def seven_damage_has_lost(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """``pdamage[p] >= 7 -> outcome = 1 - p``: the strengthening that makes the bound inductive."""
    return z3.And(*[z3.Implies(s.pdamage[p] >= LOSING_DAMAGE, s.outcome == 1 - p) for p in (0, 1)])


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", "FF-PARTY-BLOCKED-SUM")
def damage_in_thousands(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """``(AND_i power_i mod 1000 = 0) -> AND_i dmg_i mod 1000 = 0``: when every power is a
    multiple of 1000, so is the damage on every Forward."""
    return z3.Implies(z3.And(*[c.power[i] % 1000 == 0 for i in range(L.n)]),
                      z3.And(*[s.dmg[i] % 1000 == 0 for i in range(L.n)]))


def player1_undamaged(L: Layout, c: Cards, s: Frame) -> z3.BoolRef:
    """``pdamage[1] = 0``: made up, false whenever player 0 can attack unblocked."""
    return s.pdamage[1] == 0


PROPERTIES: dict[str, StateProperty] = {
    p.name: p
    for p in (
        StateProperty("party-min-two", "While a party exists it has at least two members.",
                      ("FF-PARTY-MIN-TWO", "FF-PARTY-DISBAND-UNDER-TWO"), party_min_two),
        StateProperty("party-members-on-field", "Every attacker, and every member of a party, is on the field.",
                      ("FF-PARTY-LEAVE-FIELD",), attackers_on_field),
        StateProperty("damage-at-most-seven", "No player ever has more than 7 damage.",
                      ("FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-UNBLOCKED-ONE"), damage_at_most_seven,
                      strengthening=seven_damage_has_lost),
        StateProperty("damage-in-thousands",
                      "When every power is a multiple of 1000, so is the damage on every Forward.",
                      ("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT"), damage_in_thousands),
        StateProperty("player1-undamaged", "Made up (should not hold): player 1 never takes damage.",
                      ("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE"), player1_undamaged,
                      should_hold=False),
    )
}
