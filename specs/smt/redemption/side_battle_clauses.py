"""The side battle clauses (``specs/clauses/side_battle.toml``, seed 000) as z3 constraints, and the
situations built from them. Written from the catalogue, not from the model.

One constraint per clause, registered in :data:`REG` in the order every report lists them:
RED-SB-SUSPEND, RED-SB-RESUME, RED-SB-SIDES-BATTLE-PLAYERS, RED-SB-CONTROL-OUTSIDERS,
RED-SB-CONTROL-ONE-INSIDER, RED-SB-CONTROL-SAME-UNMIXED, RED-SB-CONTROL-SAME-MIXED,
RED-SB-RETURN-TO-BATTLE, RED-SB-RETURN-TO-TERRITORY, RED-SB-INSTANTANEOUS, RED-SB-TARGETS-TWO,
RED-SB-TARGET-ZONES, RED-SB-DEFEAT-NORMAL, RED-SB-ONCE-PER-TURN, RED-SB-RESTRICT-AFTER,
RED-SB-SAME-ALIGNMENT, RED-SB-NEGATE-CASCADE, RED-SB-NO-INTERRUPT-FROM-SUSPENDED, and the base
rules' assumptions RED-BASE-PARALYZED-NO-BATTLE and RED-BASE-SPECIAL-INITIATIVE (who may answer a side
battle ability before its side battle starts). :func:`side_battle_situation` is the area's
consistency situation, :func:`started_side_battle_situation` the same clauses in a side battle that
did start. The variables and facts are in :mod:`.side_battle_vars`, the terms the clauses use
("in a battle when selected", "the two players in battle", ...) in :mod:`.side_battle_terms`.
"""

from __future__ import annotations

import z3

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import ClauseConstraint, Situation
from cardrules.specs.smt.redemption.common import NONE, Registry, one_of, reader, split_io
from cardrules.specs.smt.redemption.side_battle_terms import (
    alignment_ok, battling, in_a_battle, in_play_or_hand, insider, legal_selection, outside_user, outsiders_may_use,
    paralysis_bars, used_up,
)
from cardrules.specs.smt.redemption.side_battle_vars import CHARS, OUTPUTS, PAUSED_BATTLE, SBVars, background, domain

REG: Registry[SBVars] = Registry()


# --- introduction ---------------------------------------------------------------------------


@REG.clause("RED-SB-SUSPEND")
def suspend(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``takes_effect -> suspended``: the paused battle waits under the new one."""
    return ClauseConstraint("RED-SB-SUSPEND", v.takes_effect, v.suspended)


@REG.clause("RED-SB-RESUME")
def resume(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``ended -> resumed``."""
    return ClauseConstraint("RED-SB-RESUME", v.ended, v.resumed)


# --- who controls which side ------------------------------------------------------------------


@REG.clause("RED-SB-SIDES-BATTLE-PLAYERS")
def sides_battle_players(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``takes_effect -> {sb0, sb1} = {a, b} and side_x, side_y in {a, b} and side_x != side_y``
    where ``a, b`` are the battling players (:func:`battling`), whoever the user is. Decision
    ``sb-user-outside-battle``: under ``battling-players-only`` also
    ``used and outside_user -> not takes_effect`` (a player outside the battle cannot use the
    ability there); under ``any-player`` an outside user's ability acts like anyone's."""
    a, b = battling(v, rs)
    sides = z3.And(
        v.sb0 == a, v.sb1 == b, one_of(v.side_x, a, b), one_of(v.side_y, a, b), v.side_x != v.side_y,
    )
    if outsiders_may_use(rs):
        return ClauseConstraint("RED-SB-SIDES-BATTLE-PLAYERS", v.takes_effect, sides)
    refused = z3.And(v.used, outside_user(v, rs))
    premise = z3.Or(v.takes_effect, refused)
    conclusion = z3.And(z3.Implies(v.takes_effect, sides), z3.Implies(refused, z3.Not(v.takes_effect)))
    return ClauseConstraint("RED-SB-SIDES-BATTLE-PLAYERS", premise, conclusion)


@REG.clause("RED-SB-CONTROL-OUTSIDERS")
def control_outsiders(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Case 1: ``takes_effect and not insider(x) and not insider(y) -> chooser = user``."""
    premise = z3.And(v.takes_effect, z3.Not(insider(v, rs, "x")), z3.Not(insider(v, rs, "y")))
    return ClauseConstraint("RED-SB-CONTROL-OUTSIDERS", premise, v.chooser == v.user)


@REG.clause("RED-SB-CONTROL-ONE-INSIDER")
def control_one_insider(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Case 2: ``insider(c) and other(c') -> side_c = ctrl_c and chooser = NONE``, where
    ``other(c')`` is ``ctrl_c' != ctrl_c`` (decision ``sb-different-player`` = anyone-else) or
    ``not insider(c')`` (outsiders-only). Under outsiders-only a pair of one character of each
    battling player (``insider(x) and insider(y) and ctrl_x != ctrl_y``) falls under no case, and the
    option's reading gives it to the user, as cases 1 and 3 do where no rule fixes the sides:
    ``chooser = user``."""
    outsiders_only = rs.option("sb-different-player") == "outsiders-only"

    def case(c: str, d: str) -> z3.BoolRef:
        other = z3.Not(insider(v, rs, d)) if outsiders_only else v.of("ctrl", d) != v.of("ctrl", c)
        return z3.And(insider(v, rs, c), other)

    matched = z3.Or(case("x", "y"), case("y", "x"))
    conclusion = z3.And(
        v.chooser == NONE,
        z3.If(case("x", "y"), v.side_x == v.ctrl_x, v.side_y == v.ctrl_y),
    )
    if not outsiders_only:
        return ClauseConstraint("RED-SB-CONTROL-ONE-INSIDER", z3.And(v.takes_effect, matched), conclusion)
    unmatched = z3.And(insider(v, rs, "x"), insider(v, rs, "y"), v.ctrl_x != v.ctrl_y)
    return ClauseConstraint("RED-SB-CONTROL-ONE-INSIDER", z3.And(v.takes_effect, z3.Or(matched, unmatched)),
                            z3.If(matched, conclusion, v.chooser == v.user))


def _same_insider(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    return z3.And(insider(v, rs, "x"), v.ctrl_x == v.ctrl_y)


@REG.clause("RED-SB-CONTROL-SAME-UNMIXED")
def control_same_unmixed(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Case 3: ``ctrl_x = ctrl_y insider and in_a_battle(x) = in_a_battle(y) -> chooser = user``."""
    premise = z3.And(v.takes_effect, _same_insider(v, rs), in_a_battle(v.zone_x, rs) == in_a_battle(v.zone_y, rs))
    return ClauseConstraint("RED-SB-CONTROL-SAME-UNMIXED", premise, v.chooser == v.user)


@REG.clause("RED-SB-CONTROL-SAME-MIXED")
def control_same_mixed(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Case 4: ``ctrl_x = ctrl_y insider and exactly one in a battle -> that one stays
    with ctrl_x (side = ctrl_x) and chooser = NONE``."""
    ib_x, ib_y = in_a_battle(v.zone_x, rs), in_a_battle(v.zone_y, rs)
    premise = z3.And(v.takes_effect, _same_insider(v, rs), ib_x != ib_y)
    conclusion = z3.And(v.chooser == NONE, z3.If(ib_x, v.side_x == v.ctrl_x, v.side_y == v.ctrl_x))
    return ClauseConstraint("RED-SB-CONTROL-SAME-MIXED", premise, conclusion)


# --- the end of a side battle ---------------------------------------------------------------------


def _survivor(v: SBVars, c: str) -> z3.BoolRef:
    """``ended and not discarded_c`` (``ended`` speaks of a side battle that took place)."""
    return z3.And(v.ended, z3.Not(v.of("discarded", c)))


@REG.clause("RED-SB-RETURN-TO-BATTLE")
def return_to_battle(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """For each survivor ``c`` in a battle when selected:
    ``back_c and back_side_c = prev_side_c and keeps_c and keeps_carried_c``. A fighter healed from being
    discarded (decision ``sb-healed-fighter-destination``): under ``heal-placement`` it is
    no survivor and ``not back_c`` (it goes where the heal rules place it); under
    ``back-to-previous-battle`` it is a survivor like any other."""
    heal_placement = rs.option("sb-healed-fighter-destination") == "heal-placement"

    def from_battle(c: str) -> z3.BoolRef:
        return z3.And(v.ended, in_a_battle(v.of("zone", c), rs))

    def applies(c: str) -> z3.BoolRef:
        survivor = _survivor(v, c)
        if heal_placement:
            survivor = z3.And(survivor, z3.Not(v.of("healed", c)))
        return z3.And(survivor, in_a_battle(v.of("zone", c), rs))

    def healed_away(c: str) -> z3.BoolRef:
        return z3.And(from_battle(c), v.of("healed", c)) if heal_placement else z3.BoolVal(False)

    conclusion = z3.And(*[
        z3.And(
            z3.Implies(applies(c), z3.And(v.of("back", c), v.of("back_side", c) == v.of("prev_side", c), v.of("keeps", c),
                                          v.of("keeps_carried", c))),
            z3.Implies(healed_away(c), z3.Not(v.of("back", c))),
        )
        for c in CHARS
    ])
    premise = z3.Or(*[z3.Or(applies(c), healed_away(c)) for c in CHARS])
    return ClauseConstraint("RED-SB-RETURN-TO-BATTLE", premise, conclusion)


@REG.clause("RED-SB-RETURN-TO-TERRITORY")
def return_to_territory(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """For each survivor ``c`` not in a battle when selected: ``not back_c and not keeps_c and
    home_c = owner_c`` (decision ``sb-return-territory``: owner, or ``perm_c`` for permanent-controller);
    ``keeps_carried_c`` under decision ``sb-territory-survivor-enhancements`` = played-in-side-battle-only
    (only the enhancements played on it in the side battle are discarded), else ``not keeps_carried_c``."""
    to_owner = rs.option("sb-return-territory") == "owner"
    carried_stay = rs.option("sb-territory-survivor-enhancements") == "played-in-side-battle-only"

    def applies(c: str) -> z3.BoolRef:
        return z3.And(_survivor(v, c), z3.Not(in_a_battle(v.of("zone", c), rs)))

    conclusion = z3.And(*[
        z3.Implies(applies(c), z3.And(
            z3.Not(v.of("back", c)), z3.Not(v.of("keeps", c)),
            v.of("keeps_carried", c) == carried_stay,
            v.of("home", c) == (v.of("owner", c) if to_owner else v.of("perm", c)),
        ))
        for c in CHARS
    ])
    return ClauseConstraint("RED-SB-RETURN-TO-TERRITORY", z3.Or(*[applies(c) for c in CHARS]), conclusion)



@REG.clause("RED-SB-INSTANTANEOUS")
def instantaneous(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``takes_effect -> not lasting``: it acts once, when used. (Whether a legal use must take
    effect is left open, so that the quantified consistency check stays decidable; see
    :func:`started_side_battle_situation` for the clauses read in a side battle that did start.)"""
    return ClauseConstraint("RED-SB-INSTANTANEOUS", v.takes_effect, z3.Not(v.lasting))


@REG.clause("RED-SB-TARGETS-TWO")
def targets_two(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``used and same_card -> not takes_effect``: the targets are two distinct characters."""
    return ClauseConstraint("RED-SB-TARGETS-TWO", z3.And(v.used, v.same_card), z3.Not(v.takes_effect))


@REG.clause("RED-SB-TARGET-ZONES")
def target_zones(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``used and not (in_play_or_hand(x) and in_play_or_hand(y)) -> not takes_effect``."""
    outside = z3.Not(z3.And(in_play_or_hand(v, rs, "x"), in_play_or_hand(v, rs, "y")))
    return ClauseConstraint("RED-SB-TARGET-ZONES", z3.And(v.used, outside), z3.Not(v.takes_effect))


@REG.clause("RED-SB-DEFEAT-NORMAL")
def defeat_normal(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``ended -> discarded_c = (defeated_c and not healed_c)`` for both fighters."""
    conclusion = z3.And(*[
        v.of("discarded", c) == z3.And(v.of("defeated", c), z3.Not(v.of("healed", c))) for c in CHARS
    ])
    return ClauseConstraint("RED-SB-DEFEAT-NORMAL", v.ended, conclusion)


@REG.clause("RED-SB-ONCE-PER-TURN")
def once_per_turn(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``used -> (count >= limit -> not takes_effect) and count_after = count + [takes_effect]``."""
    conclusion = z3.And(
        z3.Implies(used_up(v, rs), z3.Not(v.takes_effect)),
        v.count_after == v.count + z3.If(v.takes_effect, 1, 0),
    )
    return ClauseConstraint("RED-SB-ONCE-PER-TURN", v.used, conclusion)


@REG.clause("RED-SB-RESTRICT-AFTER")
def restrict_after(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Once the allowance is used up (``count >= limit``), decision ``sb-restriction-scope``:
    ability-blanked: ``card_playable and not takes_effect``; card-unplayable: ``not card_playable``."""
    if rs.option("sb-restriction-scope") == "card-unplayable":
        conclusion = z3.Not(v.card_playable)
    else:
        conclusion = z3.And(v.card_playable, z3.Not(v.takes_effect))
    return ClauseConstraint("RED-SB-RESTRICT-AFTER", z3.And(v.used, used_up(v, rs)), conclusion)


@REG.clause("RED-SB-SAME-ALIGNMENT")
def same_alignment(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``used and not alignment_ok -> not takes_effect``: Hero against Hero or Evil against Evil
    (decision ``sb-pair-alignment``; under ``any-alignment`` the premise never holds)."""
    return ClauseConstraint("RED-SB-SAME-ALIGNMENT", z3.And(v.used, z3.Not(alignment_ok(v, rs))), z3.Not(v.takes_effect))


@REG.clause("RED-SB-NEGATE-CASCADE")
def negate_cascade(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``sb_negated -> (effect_in_sb and effect_interruptible -> effect_negated) and
    resolution_undone = (decision sb-negate-resolution = undo-all)``."""
    undo = rs.option("sb-negate-resolution") == "undo-all"
    conclusion = z3.And(
        z3.Implies(z3.And(v.effect_in_sb, v.effect_interruptible), v.effect_negated),
        v.resolution_undone == z3.BoolVal(undo),
    )
    return ClauseConstraint("RED-SB-NEGATE-CASCADE", v.sb_negated, conclusion)


@REG.clause("RED-SB-NO-INTERRUPT-FROM-SUSPENDED")
def no_interrupt_from_suspended(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """``victim_in_paused or (ended and not ability_in_active) ->
    (victim_in_paused -> not victim_may_interrupt) and (ended and not ability_in_active -> not interrupt_targetable)``."""
    stale = z3.And(v.ended, z3.Not(v.ability_in_active))
    conclusion = z3.And(
        z3.Implies(v.victim_in_paused, z3.Not(v.victim_may_interrupt)),
        z3.Implies(stale, z3.Not(v.interrupt_targetable)),
    )
    return ClauseConstraint(
        "RED-SB-NO-INTERRUPT-FROM-SUSPENDED", z3.Or(v.victim_in_paused, stale), conclusion
    )


@REG.clause("RED-BASE-PARALYZED-NO-BATTLE")
def paralyzed_no_battle(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Assumption (base rules): a paralyzed character cannot enter a battle, so
    ``used and (paralyzed_x or paralyzed_y) -> not takes_effect`` (:func:`paralysis_bars`: decision
    ``red-base-paralyzed-selected`` = cannot-be-selected; under may-be-selected the premise never holds,
    the status stopping only its controller sending it in)."""
    premise = z3.And(v.used, z3.Or(v.paralyzed_x, v.paralyzed_y)) if paralysis_bars(rs) else z3.BoolVal(False)
    return ClauseConstraint("RED-BASE-PARALYZED-NO-BATTLE", premise, z3.Not(v.takes_effect))


@REG.clause("RED-BASE-SPECIAL-INITIATIVE")
def answer_before_start(v: SBVars, rs: RuleSet) -> ClauseConstraint:
    """Assumption (base rules), read for a side battle ability (decision ``sb-answer-before-start``):
    an opponent's ability that would leave a player with no character in the battle being fought
    lets that player answer it first. A side battle ability takes the characters it selects out of
    the paused battle, so ``takes_effect -> answerer = p`` for the first battling player ``p``
    (``p0``, then ``p1``) who is not the user, has a selected character fighting on their side of the
    paused battle, none there besides, and holds an answer to play (without one, special initiative
    could only be declined: the same play as none); else ``answerer = -1``. Under ``never``: always -1."""
    def victim(p: z3.ArithRef, side: int, rest: z3.BoolRef, answer: z3.BoolRef) -> z3.BoolRef:
        selected = z3.Or(*[z3.And(v.of("zone", c) == PAUSED_BATTLE, v.of("prev_side", c) == side) for c in CHARS])
        return z3.And(p != v.user, selected, z3.Not(rest), answer)

    if rs.option("sb-answer-before-start") == "never":
        expected: z3.ArithRef = z3.IntVal(NONE)
    else:
        expected = z3.If(victim(v.p0, 0, v.rest_0, v.answer_0), v.p0,
                         z3.If(victim(v.p1, 1, v.rest_1, v.answer_1), v.p1, z3.IntVal(NONE)))
    return ClauseConstraint("RED-BASE-SPECIAL-INITIATIVE", v.takes_effect, v.answerer == expected)


# --- the situations ------------------------------------------------------------------------------


def side_battle_situation(rule_set: RuleSet | None = None) -> Situation:
    """The side battle situation with a constraint for every side battle clause (and
    RED-BASE-PARALYZED-NO-BATTLE), read under ``rule_set``'s decisions."""
    rule_set = rule_set or RuleSet()
    v = SBVars.make()
    inputs, outputs = split_io(v, OUTPUTS)
    return Situation(
        name="side-battle", inputs=inputs, outputs=outputs, background=background(v), domain=domain(v),
        constraints=REG.build(v, rule_set), describe=reader(v, OUTPUTS),
    )


def started_side_battle_situation(rule_set: RuleSet | None = None) -> Situation:
    """The same clauses in a situation where the side battle *did* start: ``takes_effect`` is an
    input, true, with the ability used on a legal selection (:func:`legal_selection`) within the
    allowance. The clauses about a started side battle (sides, control cases, count) then cannot
    be satisfied by the ability not taking effect."""
    rule_set = rule_set or RuleSet()
    v = SBVars.make()
    outputs_named = tuple(n for n in OUTPUTS if n != "takes_effect")
    inputs, outputs = split_io(v, outputs_named)
    started = z3.And(v.takes_effect, v.used, legal_selection(v, rule_set), z3.Not(used_up(v, rule_set)))
    return Situation(
        name="side-battle (started)", inputs=inputs, outputs=outputs, background=z3.And(background(v), started),
        domain=domain(v), constraints=REG.build(v, rule_set), describe=reader(v, outputs_named),
    )
