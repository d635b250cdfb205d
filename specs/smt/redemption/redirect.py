"""Redirect clauses (``specs/clauses/redirect.toml``, seed 002) over one redirect situation.

Written from the catalogue, not from the model. The situation: a player
(``redirector``) uses a redirect ability during a battle, on an ability
(played by ``player``) or on a card's numbers, and later the phase may end
or the target card may leave the battle.

Inputs: what is redirected (``what``: an ability, numbers, something else),
whether the card redirects both, the redirected ability's state (interrupted
or not), where the target is (the battle being fought, a battle paused
below, not in battle), the printed numbers of the target card and the
numbers of target and redirecting card before, the new target's status
(the old one again; legal from the redirector's or the original player's
side), whether the phase has ended, whether the target is still in battle
and whether it is in the same battle as the redirecting card.

Outputs: whether the redirect may be used (``allowed``), whether it lasts,
what its target is, who carries out the ability and who counts as having
played it, who chooses the new targets and whether a given one may be
chosen, the amounts moved, the numbers after, whether it is still active,
how many redirect abilities the card is, and whether the card moved.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.consistency import ClauseConstraint, Situation
from cardrules.specs.smt.redemption.common import Registry, in_range, make_vars, one_of, reader, split_io

ABILITY, NUMBERS, OTHER_THING = range(3)
WHATS = ("an ability", "a card's numbers", "something else")
PENDING, ACTIVE, OTHER_STATE = range(3)
ABILITY_STATES = ("interrupted (pending)", "active", "negated or over")
ACTIVE_BATTLE, LOWER_BATTLE, NOT_IN_BATTLE = range(3)
PLACES = ("the battle being fought", "a battle paused below", "not in battle")
TARGET_ITSELF, REDIRECTING_CARD = range(2)
MAX_PLAYERS = 4


@dataclass(frozen=True)
class RDVars:
    """The z3 variables of the redirect situation."""

    # inputs
    what: z3.ArithRef
    both: z3.BoolRef
    ability_state: z3.ArithRef
    place: z3.ArithRef
    player: z3.ArithRef
    redirector: z3.ArithRef
    printed_s: z3.ArithRef
    printed_t: z3.ArithRef
    stated: z3.BoolRef
    """The redirect card states an amount."""
    stated_s: z3.ArithRef
    stated_t: z3.ArithRef
    target_s0: z3.ArithRef
    target_t0: z3.ArithRef
    card_s0: z3.ArithRef
    card_t0: z3.ArithRef
    new_is_old: z3.BoolRef
    legal_for_redirector: z3.BoolRef
    """The candidate new target meets the ability's restrictions read from the redirector's side."""
    legal_for_player: z3.BoolRef
    phase_ended: z3.BoolRef
    still_in_battle: z3.BoolRef
    """The target card is still in battle (for numbers)."""
    same_battle: z3.BoolRef
    """The target card is in the same battle (of the stack) as the redirecting card (for numbers)."""
    regained: z3.BoolRef
    """The target card has just been healed out of a discard pile (possible only under the previous heal
    wording, RED-HEAL-PREV-REGAINS)."""
    # outputs
    allowed: z3.BoolRef
    lasting: z3.BoolRef
    target_is_ability: z3.BoolRef
    target_is_card: z3.BoolRef
    beneficiary: z3.ArithRef
    carrier: z3.ArithRef
    played_by: z3.ArithRef
    chooser: z3.ArithRef
    new_target_ok: z3.BoolRef
    moved_s: z3.ArithRef
    moved_t: z3.ArithRef
    target_s: z3.ArithRef
    target_t: z3.ArithRef
    card_s: z3.ArithRef
    card_t: z3.ArithRef
    active: z3.BoolRef
    redirects: z3.ArithRef
    location_changed: z3.BoolRef

    @staticmethod
    def make() -> "RDVars":
        return make_vars(RDVars, "rd", INTEGERS)


INTEGERS = frozenset({
    "what", "ability_state", "place", "player", "redirector", "printed_s", "printed_t", "stated_s", "stated_t",
    "target_s0", "target_t0", "card_s0", "card_t0", "beneficiary", "carrier", "played_by", "chooser", "moved_s",
    "moved_t", "target_s", "target_t", "card_s", "card_t", "redirects",
})
OUTPUTS = (
    "allowed", "lasting", "target_is_ability", "target_is_card", "beneficiary", "carrier", "played_by", "chooser",
    "new_target_ok", "moved_s", "moved_t", "target_s", "target_t", "card_s", "card_t", "active", "redirects",
    "location_changed",
)

REG: Registry[RDVars] = Registry()


# --- decision functions ---------------------------------------------------------------------


@implements("RED-RD-TARGETS-IN-BATTLE")
def in_battle(place: z3.ArithRef, rs: RuleSet) -> z3.BoolRef:
    """Decision ``rd-in-battle``: active-battle: ``place = active``; any-battle: ``place != not-in-battle``."""
    if rs.option("rd-in-battle") == "any-battle":
        return one_of(place, ACTIVE_BATTLE, LOWER_BATTLE)
    return place == ACTIVE_BATTLE


@implements("RED-RD-NUMBERS-TRANSFER")
def stated_moved(v: RDVars, rs: RuleSet) -> tuple[z3.ArithRef, z3.ArithRef]:
    """What a stated amount moves, decision ``rd-stated-exceeds``: up-to-printed: each of strength
    and toughness ``min(stated, printed)`` (a card cannot give numbers it does not carry);
    stated-in-full: the stated amount as it is."""
    if rs.option("rd-stated-exceeds") == "stated-in-full":
        return v.stated_s, v.stated_t
    return (z3.If(v.stated_s < v.printed_s, v.stated_s, v.printed_s),
            z3.If(v.stated_t < v.printed_t, v.stated_t, v.printed_t))


@implements("RED-RD-NUMBERS-TRANSFER")
def amount(v: RDVars, rs: RuleSet) -> tuple[z3.ArithRef, z3.ArithRef]:
    """Decision ``rd-amount``: a stated amount if any (:func:`stated_moved`), else the target's
    full printed numbers (all-numbers) or nothing (stated-only)."""
    ss, st = stated_moved(v, rs)
    if rs.option("rd-amount") == "stated-only":
        return z3.If(v.stated, ss, 0), z3.If(v.stated, st, 0)
    return z3.If(v.stated, ss, v.printed_s), z3.If(v.stated, st, v.printed_t)


@implements("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def gain_counts(v: RDVars, rs: RuleSet) -> z3.BoolRef:
    """Decision ``rd-numbers-which-battle``: the redirecting card's gain counts while the target is
    in any battle (target-in-any-battle: ``still_in_battle``), or only while it is in the redirecting
    card's own battle (same-battle-only: ``still_in_battle and same_battle``)."""
    if rs.option("rd-numbers-which-battle") == "same-battle-only":
        return z3.And(v.still_in_battle, v.same_battle)
    return v.still_in_battle


def _ability(v: RDVars) -> z3.BoolRef:
    return z3.And(v.allowed, v.what == ABILITY)


def _numbers(v: RDVars) -> z3.BoolRef:
    return z3.And(v.allowed, v.what == NUMBERS)


# --- clauses ----------------------------------------------------------------------------------


@REG.clause("RED-RD-PURPOSE")
def purpose(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed -> (ability: carrier = redirector) and (numbers: beneficiary = redirecting card)``."""
    conclusion = z3.And(
        z3.Implies(v.what == ABILITY, v.carrier == v.redirector),
        z3.Implies(v.what == NUMBERS, v.beneficiary == REDIRECTING_CARD),
    )
    return ClauseConstraint("RED-RD-PURPOSE", v.allowed, conclusion)


@REG.clause("RED-RD-TWO-KINDS")
def two_kinds(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``what = something else -> not allowed``."""
    return ClauseConstraint("RED-RD-TWO-KINDS", v.what == OTHER_THING, z3.Not(v.allowed))


@REG.clause("RED-RD-ABILITY-INSTANT")
def ability_instant(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and ability -> not lasting``."""
    return ClauseConstraint("RED-RD-ABILITY-INSTANT", _ability(v), z3.Not(v.lasting))


@REG.clause("RED-RD-NUMBERS-ONGOING")
def numbers_ongoing(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and numbers -> lasting``."""
    return ClauseConstraint("RED-RD-NUMBERS-ONGOING", _numbers(v), v.lasting)


@REG.clause("RED-RD-ABILITY-TARGET")
def ability_target(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and ability -> target_is_ability``."""
    return ClauseConstraint("RED-RD-ABILITY-TARGET", _ability(v), v.target_is_ability)


@REG.clause("RED-RD-NUMBERS-TARGET")
def numbers_target(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and numbers -> target_is_card``."""
    return ClauseConstraint("RED-RD-NUMBERS-TARGET", _numbers(v), v.target_is_card)


@REG.clause("RED-RD-ONLY-INTERRUPTED")
def only_interrupted(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``what = ability and not both and ability_state != pending -> not allowed`` (the ability half of
    a card that redirects both follows the same rule through :func:`both_is_two`)."""
    return ClauseConstraint(
        "RED-RD-ONLY-INTERRUPTED", z3.And(v.what == ABILITY, z3.Not(v.both), v.ability_state != PENDING),
        z3.Not(v.allowed)
    )


@REG.clause("RED-RD-NEW-TARGETS")
def new_targets(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and ability -> chooser = redirector``."""
    return ClauseConstraint("RED-RD-NEW-TARGETS", _ability(v), v.chooser == v.redirector)


@REG.clause("RED-RD-SAME-TARGET-ALLOWED")
def same_target_allowed(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and ability and new_is_old and legal_for_redirector -> new_target_ok``."""
    premise = z3.And(_ability(v), v.new_is_old, v.legal_for_redirector)
    return ClauseConstraint("RED-RD-SAME-TARGET-ALLOWED", premise, v.new_target_ok)


@REG.clause("RED-RD-CARRIER-CHANGES")
def carrier_changes(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and ability -> played_by = player and carrier = redirector``."""
    return ClauseConstraint(
        "RED-RD-CARRIER-CHANGES", _ability(v), z3.And(v.played_by == v.player, v.carrier == v.redirector)
    )


@REG.clause("RED-RD-NUMBERS-NO-INTERRUPT")
def numbers_no_interrupt(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """A card's numbers in battle may be redirected in any ability state:
    ``what = numbers and not both and in_battle(place) -> allowed`` (the permission, as the seed's 'can';
    the numbers half of a card that redirects both: :func:`both_is_two`)."""
    return ClauseConstraint(
        "RED-RD-NUMBERS-NO-INTERRUPT", z3.And(v.what == NUMBERS, z3.Not(v.both), in_battle(v.place, rs)), v.allowed
    )


@REG.clause("RED-RD-NUMBERS-TRANSFER")
def numbers_transfer(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """While active: ``moved = amount``, ``target = target0 - moved`` and, while the gain counts
    (:func:`gain_counts`: the target in battle), ``card = card0 + moved`` (both strength and toughness)."""
    ms, mt = amount(v, rs)
    conclusion = z3.And(
        v.moved_s == ms, v.moved_t == mt, v.target_s == v.target_s0 - v.moved_s, v.target_t == v.target_t0 - v.moved_t,
        z3.Implies(gain_counts(v, rs), z3.And(v.card_s == v.card_s0 + v.moved_s, v.card_t == v.card_t0 + v.moved_t)),
    )
    return ClauseConstraint("RED-RD-NUMBERS-TRANSFER", z3.And(_numbers(v), v.active), conclusion)


@REG.clause("RED-RD-TARGETS-IN-BATTLE")
def targets_in_battle(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``not in_battle(place) -> not allowed``."""
    return ClauseConstraint("RED-RD-TARGETS-IN-BATTLE", z3.Not(in_battle(v.place, rs)), z3.Not(v.allowed))


@implements("RED-HEAL-PREV-REGAINS")
def regain_ends(v: RDVars, rs: RuleSet) -> z3.BoolRef:
    """Whether a heal ended the redirect before its phase did: under the previous heal wording a
    character healed out of a discard pile gets back what it lost there (RED-HEAL-PREV-REGAINS), and
    under decision ``prev-regain-harmful`` = beneficial-only a harmful effect, such as a numbers
    redirect's lowering of it, is not among what comes back: the redirect of its numbers is over,
    taking nothing off it any more. ``false`` under the revised wording (no heal out of a pile) and
    under everything (the lowering comes back with the rest)."""
    if "RED-HEAL-PREV-REGAINS" not in clauses_in_force("heal", rs):
        return z3.BoolVal(False)
    if rs.option("prev-regain-harmful") == "everything":
        return z3.BoolVal(False)
    return z3.And(v.what == NUMBERS, v.regained)


@REG.clause("RED-RD-UNTIL-END-OF-PHASE")
def until_end_of_phase(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and lasting -> active = not (phase_ended or regain_ends)``; a numbers redirect whose
    phase has ended leaves its target (decision ``rd-lapse-reduction``): lapse-ends-both:
    ``target = target0`` (its numbers back); reduction-stays: ``target = target0 - amount`` (the move was
    made once). One a heal ended first (:func:`regain_ends`) takes nothing off its target:
    ``target = target0``."""
    ss, st = amount(v, rs)
    healed = regain_ends(v, rs)
    back = z3.And(v.target_s == v.target_s0, v.target_t == v.target_t0)
    if rs.option("rd-lapse-reduction") == "reduction-stays":
        after = z3.If(healed, back, z3.And(v.target_s == v.target_s0 - ss, v.target_t == v.target_t0 - st))
    else:
        after = back
    ended = z3.Or(v.phase_ended, healed)
    conclusion = z3.And(v.active == z3.Not(ended), z3.Implies(z3.And(v.what == NUMBERS, ended), after))
    return ClauseConstraint("RED-RD-UNTIL-END-OF-PHASE", z3.And(v.allowed, v.lasting), conclusion)


@REG.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def numbers_in_battle_only(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and numbers and active and not gain_counts -> card = card0`` (the gain is lost;
    :func:`gain_counts`: the target left battle, or, under same-battle-only, is not in the
    redirecting card's battle)."""
    premise = z3.And(_numbers(v), v.active, z3.Not(gain_counts(v, rs)))
    return ClauseConstraint(
        "RED-RD-NUMBERS-IN-BATTLE-ONLY", premise, z3.And(v.card_s == v.card_s0, v.card_t == v.card_t0)
    )


@REG.clause("RED-RD-BOTH-IS-TWO")
def both_is_two(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """A card that redirects both is two redirect abilities, each under its own rule: ``both ->
    redirects = 2``, its ability half only of an interrupted ability (``what = ability and
    ability_state != pending -> not allowed``, the rule of RED-RD-ONLY-INTERRUPTED) and its numbers half
    of any card in battle, interrupted or not (``what = numbers and in_battle(place) -> allowed``, the
    rule of RED-RD-NUMBERS-NO-INTERRUPT). The other redirect clauses read ``what`` and hold for each
    half as they are."""
    halves = z3.And(
        z3.Implies(z3.And(v.what == ABILITY, v.ability_state != PENDING), z3.Not(v.allowed)),
        z3.Implies(z3.And(v.what == NUMBERS, in_battle(v.place, rs)), v.allowed),
    )
    return ClauseConstraint("RED-RD-BOTH-IS-TWO", v.both, z3.And(v.redirects == 2, halves))


@REG.clause("RED-RD-TARGET-PERSPECTIVE")
def target_perspective(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed and ability -> new_target_ok = legal_for_redirector``."""
    return ClauseConstraint("RED-RD-TARGET-PERSPECTIVE", _ability(v), v.new_target_ok == v.legal_for_redirector)


@REG.clause("RED-RD-LOCATION-UNCHANGED")
def location_unchanged(v: RDVars, rs: RuleSet) -> ClauseConstraint:
    """``allowed -> not location_changed``."""
    return ClauseConstraint("RED-RD-LOCATION-UNCHANGED", v.allowed, z3.Not(v.location_changed))


# --- the situation -----------------------------------------------------------------------------------


def background(v: RDVars) -> z3.BoolRef:
    """Facts of every redirect situation (inputs only): enum ranges; players of a 2-4 player game;
    printed and stated numbers non-negative (the numbers before a redirect may be below zero: an
    earlier redirect stating more than its target prints, decision ``rd-stated-exceeds`` =
    stated-in-full, leaves it there); a card redirecting both is about an ability and numbers (``what`` is
    one of them); a target not in battle is not still in battle, nor in the redirecting card's; the old target was legal for
    whoever used the ability (so ``new_is_old -> legal_for_player``)."""
    return z3.And(
        in_range(v.what, ABILITY, OTHER_THING), in_range(v.ability_state, PENDING, OTHER_STATE),
        in_range(v.place, ACTIVE_BATTLE, NOT_IN_BATTLE), in_range(v.player, 0, MAX_PLAYERS - 1),
        in_range(v.redirector, 0, MAX_PLAYERS - 1),
        *[x >= 0 for x in (v.printed_s, v.printed_t, v.stated_s, v.stated_t)],
        z3.Implies(v.both, v.what != OTHER_THING),
        z3.Implies(v.place == NOT_IN_BATTLE, z3.Not(v.still_in_battle)),
        z3.Implies(v.same_battle, v.still_in_battle),
        z3.Implies(v.new_is_old, v.legal_for_player),
    )


def domain(v: RDVars) -> z3.BoolRef:
    """Output ranges: one or two redirect abilities; the beneficiary is the target or the redirecting card."""
    return z3.And(in_range(v.redirects, 1, 2), in_range(v.beneficiary, TARGET_ITSELF, REDIRECTING_CARD))


def redirect_situation(rule_set: RuleSet | None = None) -> Situation:
    """The redirect situation, one constraint per redirect clause, read under ``rule_set``."""
    rule_set = rule_set or RuleSet()
    v = RDVars.make()
    inputs, outputs = split_io(v, OUTPUTS)
    facts = background(v)
    if "RED-HEAL-PREV-REGAINS" not in clauses_in_force("heal", rule_set):
        facts = z3.And(facts, z3.Not(v.regained))  # no wording in force heals out of a pile
    return Situation(
        name="redirect", inputs=inputs, outputs=outputs, background=facts, domain=domain(v),
        constraints=REG.build(v, rule_set), describe=reader(v, OUTPUTS),
    )
