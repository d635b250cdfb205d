"""Side battle clauses (``specs/clauses/side_battle.toml``, seed 000) over one side battle situation.

Written from the catalogue, not from the model. The situation: a player
(``user``) uses a side battle ability, selecting two characters ``x`` and
``y`` while a battle between players ``p0`` and ``p1`` is being fought; later
the side battle ends and its survivors go somewhere.

Inputs (the situation): the paused battle's players, the main battle's
players, the user (any player: decision ``sb-user-outside-battle``), how
many side battles the user initiated this turn, and for each selected
character ``c`` in {x, y}: who controls it when selected (``ctrl_c``; a
card in a hand is controlled by its holder), where it is
(``zone_c``: a territory, the paused battle, a battle paused further down,
a hand, elsewhere), its alignment, owner, permanent controller, whether it is
paralyzed, whether normal battle resolution defeats it and whether it is
healed, and the side it was on in its previous battle.

Outputs (what the rules decide): whether the card may be played
(``card_playable``), whether the ability takes effect (``takes_effect``:
the target restrictions forbid it, :func:`legal_selection` with the
allowance left forces it), the side battle's
players (``sb0``, ``sb1``), who controls each fighter (``side_x``,
``side_y``), who chooses that (``chooser``, :data:`NONE` when a rule fixes
it), the user's count afterwards, where each survivor goes (``back_c``:
back to its previous battle, on ``back_side_c``, keeping its enhancements
``keeps_c``; else to the territory of ``home_c``; whether it keeps the
enhancements it carried in from where it was selected, ``keeps_carried_c``),
and the flags of the
clarifications (negation cascade, interrupts after a side battle).

"In a battle when selected" (decision ``sb-in-battle-meaning``) is
:func:`in_a_battle`; "controlled by a battling player" is :func:`insider`.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import ClauseConstraint, Situation
from cardrules.specs.smt.redemption.common import NONE, Registry, in_range, make_vars, one_of, reader, split_io

# where a selected character is
TERRITORY, PAUSED_BATTLE, LOWER_BATTLE, HAND, ELSEWHERE = range(5)
ZONES = ("a territory", "the paused battle", "a battle paused below it", "a hand", "elsewhere (deck, discard pile)")
MAX_PLAYERS = 4
MAX_COUNT = 3
"""Side battles initiated earlier this turn range over 0..3 (more than the allowance is never needed)."""


@dataclass(frozen=True)
class SBVars:
    """The z3 variables of the side battle situation."""

    # inputs
    players: z3.ArithRef
    p0: z3.ArithRef
    p1: z3.ArithRef
    """The two players of the paused battle (the one on top of the stack when the ability is used)."""
    m0: z3.ArithRef
    m1: z3.ArithRef
    """The two players of the turn's main battle (the bottom of the stack)."""
    nested: z3.BoolRef
    """The paused battle is itself a side battle (a battle lies below it)."""
    user: z3.ArithRef
    count: z3.ArithRef
    """Side battles the user initiated earlier this turn."""
    used: z3.BoolRef
    """The user plays the card to use its side battle ability on x and y."""
    same_card: z3.BoolRef
    ctrl_x: z3.ArithRef
    ctrl_y: z3.ArithRef
    zone_x: z3.ArithRef
    zone_y: z3.ArithRef
    hero_x: z3.BoolRef
    hero_y: z3.BoolRef
    owner_x: z3.ArithRef
    owner_y: z3.ArithRef
    perm_x: z3.ArithRef
    perm_y: z3.ArithRef
    paralyzed_x: z3.BoolRef
    paralyzed_y: z3.BoolRef
    prev_side_x: z3.ArithRef
    prev_side_y: z3.ArithRef
    """The side (0 or 1) the character was on in the battle it was in when selected."""
    defeated_x: z3.BoolRef
    defeated_y: z3.BoolRef
    """Normal Battle Resolution of the side battle would discard it."""
    healed_x: z3.BoolRef
    healed_y: z3.BoolRef
    ended: z3.BoolRef
    """The side battle this ability started has taken place and ended (its resolution included);
    the clauses about the end read this input rather than ``takes_effect``."""
    sb_negated: z3.BoolRef
    """The card whose ability started the side battle is negated."""
    effect_in_sb: z3.BoolRef
    """An effect produced by a card played during the side battle (nested ones included)."""
    effect_interruptible: z3.BoolRef
    victim_in_paused: z3.BoolRef
    """A character of the paused battle is defeated by an ability played in the side battle."""
    ability_in_active: z3.BoolRef
    """An ability considered as an interrupt's target belongs to the battle being fought."""
    # outputs
    card_playable: z3.BoolRef
    takes_effect: z3.BoolRef
    lasting: z3.BoolRef
    suspended: z3.BoolRef
    """The paused battle is on hold and the new battle is on top of it."""
    sb0: z3.ArithRef
    sb1: z3.ArithRef
    side_x: z3.ArithRef
    side_y: z3.ArithRef
    chooser: z3.ArithRef
    count_after: z3.ArithRef
    discarded_x: z3.BoolRef
    discarded_y: z3.BoolRef
    back_x: z3.BoolRef
    back_y: z3.BoolRef
    back_side_x: z3.ArithRef
    back_side_y: z3.ArithRef
    keeps_x: z3.BoolRef
    keeps_y: z3.BoolRef
    """The enhancements played on the character in the side battle stay on it (``keeps_x`` too)."""
    keeps_carried_x: z3.BoolRef
    keeps_carried_y: z3.BoolRef
    """The enhancements it carried in from where it was selected stay on it (``keeps_carried_x`` too)."""
    home_x: z3.ArithRef
    home_y: z3.ArithRef
    resumed: z3.BoolRef
    effect_negated: z3.BoolRef
    resolution_undone: z3.BoolRef
    victim_may_interrupt: z3.BoolRef
    interrupt_targetable: z3.BoolRef

    @staticmethod
    def make() -> "SBVars":
        return make_vars(SBVars, "sb", INTEGERS)

    def of(self, name: str, c: str) -> z3.ExprRef:
        """The variable ``name_c`` of character ``c`` ('x' or 'y')."""
        return getattr(self, f"{name}_{c}")  # type: ignore[no-any-return]


INTEGERS = frozenset({
    "players", "p0", "p1", "m0", "m1", "user", "count", "ctrl_x", "ctrl_y", "zone_x", "zone_y", "owner_x", "owner_y",
    "perm_x", "perm_y", "prev_side_x", "prev_side_y", "sb0", "sb1", "side_x", "side_y", "chooser", "count_after",
    "back_side_x", "back_side_y", "home_x", "home_y",
})
OUTPUTS = (
    "card_playable", "takes_effect", "lasting", "suspended", "sb0", "sb1", "side_x", "side_y", "chooser",
    "count_after", "discarded_x", "discarded_y", "back_x", "back_y", "back_side_x", "back_side_y", "keeps_x", "keeps_y",
    "keeps_carried_x", "keeps_carried_y", "home_x", "home_y", "resumed", "effect_negated", "resolution_undone", "victim_may_interrupt", "interrupt_targetable",
)
BASE_CLAUSES = ("RED-BASE-PARALYZED-NO-BATTLE",)
"""Assumption clauses this situation also encodes (the cross-check reads them with the area's clauses)."""
CHARS = ("x", "y")

REG: Registry[SBVars] = Registry()


# --- decision functions -----------------------------------------------------------------


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


def outside_user(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The user is not one of the two players in battle (:func:`battling`)."""
    a, b = battling(v, rs)
    return z3.Not(one_of(v.user, a, b))


@implements("RED-SB-SIDES-BATTLE-PLAYERS")
def outsiders_may_use(rs: RuleSet) -> bool:
    """Decision ``sb-user-outside-battle``: under ``battling-players-only`` (the default) only the
    two battling players use abilities in a battle; under ``any-player`` anyone may."""
    return rs.option("sb-user-outside-battle") == "any-player"


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
    ``other(c')`` is ``ctrl_c' != ctrl_c`` (anyone-else) or ``not insider(c')`` (outsiders-only)."""
    def case(c: str, d: str) -> z3.BoolRef:
        other = z3.Not(insider(v, rs, d)) if rs.option("sb-different-player") == "outsiders-only" else v.of("ctrl", d) != v.of("ctrl", c)
        return z3.And(insider(v, rs, c), other)

    premise = z3.And(v.takes_effect, z3.Or(case("x", "y"), case("y", "x")))
    conclusion = z3.And(
        v.chooser == NONE,
        z3.If(case("x", "y"), v.side_x == v.ctrl_x, v.side_y == v.ctrl_y),
    )
    return ClauseConstraint("RED-SB-CONTROL-ONE-INSIDER", premise, conclusion)


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


def legal_selection(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The selection meets every default condition on targets: two distinct characters
    (RED-SB-TARGETS-TWO) of one alignment (RED-SB-SAME-ALIGNMENT), each in play or in the
    user's hand (RED-SB-TARGET-ZONES), neither paralyzed (RED-BASE-PARALYZED-NO-BATTLE)."""
    return z3.And(
        z3.Not(v.same_card), alignment_ok(v, rs), in_play_or_hand(v, rs, "x"), in_play_or_hand(v, rs, "y"),
        z3.Not(v.paralyzed_x), z3.Not(v.paralyzed_y),
    )


def alignment_ok(v: SBVars, rs: RuleSet) -> z3.BoolRef:
    """The pair's alignments allow a side battle: one alignment (RED-SB-SAME-ALIGNMENT), or any
    pair under decision ``sb-pair-alignment = any-alignment`` (the literal, sufficient reading)."""
    if rs.option("sb-pair-alignment") == "any-alignment":
        return z3.BoolVal(True)
    return v.hero_x == v.hero_y


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
    ``used and (paralyzed_x or paralyzed_y) -> not takes_effect``."""
    return ClauseConstraint(
        "RED-BASE-PARALYZED-NO-BATTLE", z3.And(v.used, z3.Or(v.paralyzed_x, v.paralyzed_y)), z3.Not(v.takes_effect)
    )


# --- the situation -------------------------------------------------------------------------------


def background(v: SBVars) -> z3.BoolRef:
    """Facts of every side battle situation (inputs only).

    * 2 to 4 players; every player-valued input names one of them; ``p0 != p1``;
    * a nested side battle has the same two players as every battle below it, so the main
      battle's players are ``p0, p1`` (the note of RED-SB-SIDES-BATTLE-PLAYERS); the ``user``
      is any player (whether one outside the battle may use the ability is decision
      ``sb-user-outside-battle``, read by RED-SB-SIDES-BATTLE-PLAYERS);
    * a character in the paused battle is controlled by ``p0`` or ``p1`` (likewise in a battle
      below, which exists only when ``nested``); in a territory its controller has permanent
      control; in a hand its holder controls it;
    * the same card twice has the same attributes; a healed character was defeated.
    """
    players = [v.p0, v.p1, v.m0, v.m1, v.user, v.ctrl_x, v.ctrl_y, v.owner_x, v.owner_y, v.perm_x, v.perm_y]
    facts = [in_range(v.players, 2, MAX_PLAYERS), in_range(v.count, 0, MAX_COUNT), v.p0 != v.p1,
             v.m0 == v.p0, v.m1 == v.p1]
    facts += [z3.And(p >= 0, p < v.players) for p in players]
    for c in CHARS:
        zone, ctrl = v.of("zone", c), v.of("ctrl", c)
        facts += [
            in_range(zone, TERRITORY, ELSEWHERE), in_range(v.of("prev_side", c), 0, 1),
            z3.Implies(one_of(zone, PAUSED_BATTLE, LOWER_BATTLE), one_of(ctrl, v.p0, v.p1)),
            z3.Implies(zone == LOWER_BATTLE, v.nested),
            z3.Implies(zone == TERRITORY, ctrl == v.of("perm", c)),
            z3.Implies(v.of("healed", c), v.of("defeated", c)),
        ]
    facts.append(z3.Implies(v.same_card, z3.And(*[
        v.of(n, "x") == v.of(n, "y")
        for n in ("ctrl", "zone", "hero", "owner", "perm", "paralyzed", "prev_side", "defeated", "healed")
    ])))
    return z3.And(*facts)


def domain(v: SBVars) -> z3.BoolRef:
    """Ranges of the outputs; an ability takes effect only when used, with a card that may be played."""
    return z3.And(
        z3.Implies(v.takes_effect, z3.And(v.used, v.card_playable)),
        v.chooser >= NONE, v.chooser < v.players, v.sb0 >= 0, v.sb1 >= 0, v.sb0 < v.players, v.sb1 < v.players,
        in_range(v.count_after, 0, MAX_COUNT + 1), v.side_x >= 0, v.side_y >= 0, v.side_x < v.players,
        v.side_y < v.players, in_range(v.back_side_x, 0, 1), in_range(v.back_side_y, 0, 1),
        v.home_x >= 0, v.home_y >= 0, v.home_x < v.players, v.home_y < v.players,
    )


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
