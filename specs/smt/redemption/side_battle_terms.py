"""The terms the side battle clauses are written in, read under the clause catalogue's decisions.

Written from the catalogue (``specs/clauses/side_battle.toml``, seed 000), not from the model;
each term is a z3 formula (or a number) over the side battle situation's variables
(:class:`~cardrules.specs.smt.redemption.side_battle_vars.SBVars`):

* "in a battle when selected" (decision ``sb-in-battle-meaning``) is :func:`in_a_battle`
  (RED-SB-CONTROL-SAME-UNMIXED, RED-SB-CONTROL-SAME-MIXED, RED-SB-RETURN-TO-BATTLE);
* "the two players in battle" (decision ``sb-nested-battle-players``) is :func:`battling`, and
  "controlled by a battling player" :func:`insider`; whether a player outside the battle may use
  the ability (decision ``sb-user-outside-battle``) is :func:`outsiders_may_use`
  (RED-SB-SIDES-BATTLE-PLAYERS);
* "in play or in the user's hand" (decision ``sb-in-play-zones``) is :func:`in_play_or_hand`
  (RED-SB-TARGET-ZONES);
* the allowance of side battles per turn is :func:`per_turn_limit` and :func:`used_up`
  (RED-SB-ONCE-PER-TURN, RED-SB-RESTRICT-AFTER);
* a legal selection of targets is :func:`legal_selection` (RED-SB-TARGETS-TWO,
  RED-SB-SAME-ALIGNMENT with :func:`alignment_ok`, RED-SB-TARGET-ZONES,
  RED-BASE-PARALYZED-NO-BATTLE).

The constraints that use them are in :mod:`~cardrules.specs.smt.redemption.side_battle_clauses`.
"""

from __future__ import annotations

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.redemption.common import one_of
from cardrules.specs.smt.redemption.side_battle_vars import HAND, LOWER_BATTLE, PAUSED_BATTLE, TERRITORY, SBVars


# --- where a character is, who is in battle ---------------------------------------------------


@implements("RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE")
def in_a_battle(zone: z3.ArithRef, rs: RuleSet) -> z3.BoolRef:
    """'In a battle when selected' (decision ``sb-in-battle-meaning``):
    any-battle-on-stack: ``zone in {paused, lower}``; suspended-battle-only: ``zone = paused``."""
    if rs.option("sb-in-battle-meaning") == "suspended-battle-only":
        return zone == PAUSED_BATTLE
    return one_of(zone, PAUSED_BATTLE, LOWER_BATTLE)


@implements("RED-SB-SIDES-BATTLE-PLAYERS")
def battling(v: SBVars, rs: RuleSet) -> tuple[z3.ArithRef, z3.ArithRef]:
    """'The two players in battle' (decision ``sb-nested-battle-players``): the paused
    battle's (directly-paused) or the main battle's (main-battle)."""
    if rs.option("sb-nested-battle-players") == "main-battle":
        return v.m0, v.m1
    return v.p0, v.p1


def insider(v: SBVars, rs: RuleSet, c: str) -> z3.BoolRef:
    """Character ``c`` is controlled by one of the two players in battle."""
    a, b = battling(v, rs)
    return one_of(v.of("ctrl", c), a, b)


@implements("RED-SB-TARGET-ZONES")
def in_play_or_hand(v: SBVars, rs: RuleSet, c: str) -> z3.BoolRef:
    """RED-SB-TARGET-ZONES with decision ``sb-in-play-zones``: in play (a territory, or a battle
    on the stack unless territory-only) or in the user's hand: ``zone = hand and ctrl = user``."""
    zone = v.of("zone", c)
    in_play = zone == TERRITORY
    if rs.option("sb-in-play-zones") == "territory-or-battle":
        in_play = one_of(zone, TERRITORY, PAUSED_BATTLE, LOWER_BATTLE)
    return z3.Or(in_play, z3.And(zone == HAND, v.of("ctrl", c) == v.user))


@implements("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def per_turn_limit(rs: RuleSet) -> int:
    """Side battles one player may initiate per turn: one (two under the broken variant
    ``two-side-battles-per-turn``, a mutant verify must catch)."""
    return 2 if rs.is_broken("two-side-battles-per-turn") else 1


def used_up(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The user has initiated their allowance this turn: ``count >= limit``."""
    return v.count >= per_turn_limit(rs)


# --- who may use the ability ------------------------------------------------------------------


def outside_user(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The user is not one of the two players in battle (:func:`battling`)."""
    a, b = battling(v, rs)
    return z3.Not(one_of(v.user, a, b))


@implements("RED-SB-SIDES-BATTLE-PLAYERS")
def outsiders_may_use(rs: RuleSet) -> bool:
    """Decision ``sb-user-outside-battle``: under ``battling-players-only`` (the default) only the
    two battling players use abilities in a battle; under ``any-player`` anyone may."""
    return rs.option("sb-user-outside-battle") == "any-player"


# --- the selection ------------------------------------------------------------------------------


@implements("RED-BASE-PARALYZED-NO-BATTLE")
def paralysis_bars(rs: RuleSet) -> bool:
    """Whether a paralyzed character is kept out of a side battle (decision ``red-base-paralyzed-selected``:
    cannot-be-selected, the default; under may-be-selected the status stops only its controller sending
    it in, by attack or block)."""
    return rs.option("red-base-paralyzed-selected") == "cannot-be-selected"


def legal_selection(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The selection meets every default condition on targets: two distinct characters
    (RED-SB-TARGETS-TWO) of one alignment (RED-SB-SAME-ALIGNMENT), each in play or in the
    user's hand (RED-SB-TARGET-ZONES), neither paralyzed (RED-BASE-PARALYZED-NO-BATTLE, :func:`paralysis_bars`)."""
    unparalyzed = [z3.Not(v.paralyzed_x), z3.Not(v.paralyzed_y)] if paralysis_bars(rs) else []
    return z3.And(
        z3.Not(v.same_card), alignment_ok(v, rs), in_play_or_hand(v, rs, "x"), in_play_or_hand(v, rs, "y"), *unparalyzed,
    )


def alignment_ok(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The pair's alignments allow a side battle: one alignment (RED-SB-SAME-ALIGNMENT), or any
    pair under decision ``sb-pair-alignment = any-alignment`` (the literal, sufficient reading)."""
    if rs.option("sb-pair-alignment") == "any-alignment":
        return z3.BoolVal(True)
    return v.hero_x == v.hero_y
