"""Heal clauses (both wordings) as constraints over one heal situation.

Written from the catalogue (``specs/clauses/heal.toml``), not from the model.
The situation: one heal (an enhancement, a character's ability or another
ability) is used on one card, in one phase, with the card in one place.

Reading of permissions and restrictions. Sentences that *allow* a heal
(``RED-HEAL-WINDOW``, ``RED-HEAL-AT-RESOLUTION``, ``RED-HEAL-PREV-ENH-TWO-WAYS``)
become ``premise -> healed``; sentences that *limit* heals become
``premise -> not healed``. "Able to heal that character" is an input
(``able``): the card's own text, brigade and class restrictions allow it; the
background ties it to the brigade and Territory Class facts, so an allowing
clause never fires for a heal that another restriction rules out by
definition.

Inputs (the situation) and outputs (what the rules decide) are listed in
:class:`HealVars`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Callable, Mapping

import z3

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.clauses import Registry
from cardrules.specs.smt.consistency import ClauseConstraint, Situation

from cardrules.specs.smt.redemption.heal_vars import (  # re-exported: the situation's variables and codes
    TERRITORY as TERRITORY,
    IN_BATTLE as IN_BATTLE,
    BEING_DISCARDED as BEING_DISCARDED,
    DISCARD_PILE as DISCARD_PILE,
    PLACES as PLACES,
    BY_ABILITY as BY_ABILITY,
    BY_RULE_FROM_ABILITY as BY_RULE_FROM_ABILITY,
    BY_BATTLE_RESOLUTION as BY_BATTLE_RESOLUTION,
    FROM_HAND_OR_DECK as FROM_HAND_OR_DECK,
    CAUSES as CAUSES,
    ENHANCEMENT as ENHANCEMENT,
    CHARACTER_ABILITY as CHARACTER_ABILITY,
    OTHER_ABILITY as OTHER_ABILITY,
    MEANS as MEANS,
    PREPARATION as PREPARATION,
    BATTLE as BATTLE,
    DISCARD as DISCARD,
    OTHER_PHASE as OTHER_PHASE,
    PHASES as PHASES,
    HealVars as HealVars,
    OUTPUTS as OUTPUTS,
)


def _attempt(v: HealVars) -> z3.BoolRef:
    """A heal is used on this card (a card worded heal or restore is played or activated on it)."""
    return v.is_heal


def _status(v: HealVars) -> z3.BoolRef:
    return z3.Or(v.poisoned, v.diseased, v.paralyzed)


def _window(v: HealVars) -> z3.BoolRef:
    """The card is a character being discarded by an ability, or by a rule an ability triggered."""
    return z3.And(v.is_character, v.place == BEING_DISCARDED, z3.Or(v.cause == BY_ABILITY, v.cause == BY_RULE_FROM_ABILITY))


def _out_of_battle(v: HealVars) -> z3.BoolRef:
    return v.phase != BATTLE


REGISTRY: Registry[HealVars] = Registry()
"""The heal clauses' constraint factories, in declaration order."""
clause_constraint = REGISTRY.clause
"""Register a constraint factory for a clause and link it in the traceability registry."""


# --- both wordings ---------------------------------------------------------------


@clause_constraint("RED-HEAL-PURPOSE")
def purpose(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """A heal undoes a discard or a status: a healed card was being discarded, discarded, or had a status."""
    undoable = z3.Or(v.place == BEING_DISCARDED, v.place == DISCARD_PILE, _status(v), v.decreased)
    return ClauseConstraint("RED-HEAL-PURPOSE", v.healed, undoable)


@clause_constraint("RED-HEAL-ONLY-CHARACTERS")
def only_characters(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-ONLY-CHARACTERS", z3.And(_attempt(v), z3.Not(v.is_character)), z3.Not(v.healed))


@clause_constraint("RED-HEAL-CLEARS-STATUS")
def clears_status(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    cleared = z3.And(z3.Not(v.poisoned_after), z3.Not(v.diseased_after), z3.Not(v.paralyzed_after), v.tied_effects_end)
    return ClauseConstraint("RED-HEAL-CLEARS-STATUS", v.healed, cleared)


@clause_constraint("RED-HEAL-RESTORES-DECREASE")
def restores_decrease(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-RESTORES-DECREASE", v.healed, z3.Not(v.decreased_after))


@clause_constraint("RED-HEAL-WINDOW")
def window(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """The controller may heal a character being discarded by an ability before the discard completes."""
    premise = z3.And(_window(v), _attempt(v), v.holder_is_controller, v.able)
    return ClauseConstraint("RED-HEAL-WINDOW", premise, z3.And(v.window_open, v.healed))


@clause_constraint("RED-HEAL-WINDOW-SUSPENDS")
def window_suspends(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-WINDOW-SUSPENDS", v.window_open, z3.And(v.discarder_suspended, v.ongoing_stay_active))


@clause_constraint("RED-HEAL-WINDOW-MEANS")
def window_means(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(v.place == BEING_DISCARDED, _attempt(v), z3.Not(v.able))
    return ClauseConstraint("RED-HEAL-WINDOW-MEANS", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-AT-RESOLUTION")
def at_resolution(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(
        v.is_character, v.place == BEING_DISCARDED, v.cause == BY_BATTLE_RESOLUTION,
        _attempt(v), v.holder_is_controller, v.able,
    )
    return ClauseConstraint("RED-HEAL-AT-RESOLUTION", premise, v.healed)


@clause_constraint("RED-HEAL-ENH-PHASES")
def enhancement_phases(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """Out of battle and out of a heal window, healing enhancements are played in preparation or discard phases."""
    premise = z3.And(
        _attempt(v), v.means == ENHANCEMENT, _out_of_battle(v), v.place != BEING_DISCARDED,
        v.phase != PREPARATION, v.phase != DISCARD,
    )
    return ClauseConstraint("RED-HEAL-ENH-PHASES", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-TARGETS-HEALED")
def targets_healed(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-TARGETS-HEALED", v.healed, v.targeted)


@clause_constraint("RED-HEAL-INSTANT")
def instant(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-INSTANT", v.is_heal, z3.Not(v.lasting))


@clause_constraint("RED-HEAL-CHARACTER-TC")
def character_territory_class(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(_attempt(v), v.means == CHARACTER_ABILITY, _out_of_battle(v), z3.Not(v.healer_has_tc))
    return ClauseConstraint("RED-HEAL-CHARACTER-TC", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-RESTORE-IS-HEAL")
def restore_is_heal(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-RESTORE-IS-HEAL", v.says_restore, v.is_heal)


# --- revised wording ---------------------------------------------------------------


@clause_constraint("RED-HEAL-HEALABLE")
def healable_revised(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    healable = z3.Or(v.place == BEING_DISCARDED, _status(v))
    return ClauseConstraint("RED-HEAL-HEALABLE", z3.And(_attempt(v), z3.Not(healable)), z3.Not(v.healed))


@clause_constraint("RED-HEAL-NOT-IN-DISCARD-PILE")
def not_in_discard_pile(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-NOT-IN-DISCARD-PILE", v.place == DISCARD_PILE, z3.Not(v.healed))


@clause_constraint("RED-HEAL-TO-PERMANENT-CONTROLLER")
def to_permanent_controller(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(v.healed, v.place == BEING_DISCARDED)
    return ClauseConstraint("RED-HEAL-TO-PERMANENT-CONTROLLER", premise, v.destination == v.permanent_controller)


@clause_constraint("RED-HEAL-DISCARD-NOT-COMPLETED")
def discard_not_completed(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(v.healed, v.place == BEING_DISCARDED)
    return ClauseConstraint("RED-HEAL-DISCARD-NOT-COMPLETED", premise, z3.Not(v.discard_completed))


@clause_constraint("RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def enhancement_placement_revised(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """A healing enhancement from hand goes on a character of matching brigade in territory (whose: decision
    ``heal-territory-whose``) or being discarded: outside battle and in a heal window, or in battle too
    (decision ``heal-enh-placement-scope = everywhere``, so a fighter is no place for one)."""
    own_only = rs.option("heal-territory-whose") == "own-territory"
    in_territory = z3.And(v.place == TERRITORY, v.holders_territory) if own_only else v.place == TERRITORY
    allowed = z3.And(v.brigade_match, z3.Or(in_territory, v.place == BEING_DISCARDED))
    everywhere = rs.option("heal-enh-placement-scope") == "everywhere"
    scope = z3.BoolVal(True) if everywhere else v.phase != BATTLE
    premise = z3.And(_attempt(v), v.means == ENHANCEMENT, scope, z3.Not(allowed))
    return ClauseConstraint("RED-HEAL-ENH-ON-MATCHING-BRIGADE", premise, z3.Not(v.healed))


# --- previous wording ----------------------------------------------------------------


def _recently_discarded(v: HealVars, pending_counts: bool = True) -> z3.BoolRef:
    """'Being', 'about to be' or 'recently' discarded: by an ability or a game rule (RED-HEAL-PREV-DISCARDED-MEANS).

    A pending discard ('being discarded') counts only when the old clarification
    is read as covering it (decision ``prev-healable-pending``)."""
    by_ability_or_rule = v.cause != FROM_HAND_OR_DECK
    earlier = z3.And(v.place == DISCARD_PILE, v.this_turn)
    if not pending_counts:
        return z3.And(by_ability_or_rule, earlier)
    return z3.And(by_ability_or_rule, z3.Or(v.place == BEING_DISCARDED, earlier))


@clause_constraint("RED-HEAL-PREV-HEALABLE")
def healable_previous(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """Discarded earlier this turn, or a status; a pending discard too by the old clarification (decision
    ``prev-healable-pending``), or when 'being discarded' is read as old text of the list itself (decision
    ``redline-healable = both-old``)."""
    pending_counts = rs.option("prev-healable-pending") == "clarification-covers" or \
        rs.option("redline-healable") == "both-old"
    healable = z3.Or(_recently_discarded(v, pending_counts), _status(v))
    return ClauseConstraint("RED-HEAL-PREV-HEALABLE", z3.And(_attempt(v), z3.Not(healable)), z3.Not(v.healed))


@clause_constraint("RED-HEAL-PREV-DISCARDED-MEANS")
def discarded_means(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """A card discarded from a hand or deck is not 'recently discarded', so only a status makes it healable."""
    premise = z3.And(_attempt(v), v.place == DISCARD_PILE, v.cause == FROM_HAND_OR_DECK, z3.Not(_status(v)))
    return ClauseConstraint("RED-HEAL-PREV-DISCARDED-MEANS", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-PREV-AS-BEFORE-DISCARD")
def as_before_discard(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """``able`` for a card in a pile is judged on the card as it was before the discard."""
    premise = z3.And(_attempt(v), v.place == DISCARD_PILE, v.this_turn, z3.Not(v.able))
    return ClauseConstraint("RED-HEAL-PREV-AS-BEFORE-DISCARD", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-PREV-TO-OWNER")
def to_owner(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    from_pile = v.place == DISCARD_PILE
    if rs.option("prev-owner-scope") == "every-healed-discard":
        from_discard = z3.Or(from_pile, v.place == BEING_DISCARDED)
    else:
        from_discard = from_pile
    return ClauseConstraint("RED-HEAL-PREV-TO-OWNER", z3.And(v.healed, from_discard), v.destination == v.owner)


@clause_constraint("RED-HEAL-PREV-REGAINS")
def regains(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """What the pile took comes back. Harmful effects too (decision ``prev-regain-harmful``)? ``beneficial-only``:
    a lowering of its numbers stays lost; ``everything``: it comes back as it was (no heal clause removes a
    lowering of numbers, only statuses and decreases of abilities)."""
    if rs.option("prev-regain-harmful") == "everything":
        lowering = v.lowered_after == v.lowered
    else:
        lowering = z3.Not(v.lowered_after)
    return ClauseConstraint("RED-HEAL-PREV-REGAINS", z3.And(v.healed, v.place == DISCARD_PILE),
                            z3.And(v.regains_lost, lowering))


@clause_constraint("RED-HEAL-PREV-ATTACHED-RETURN")
def attached_return(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-PREV-ATTACHED-RETURN", z3.And(v.healed, v.place == DISCARD_PILE), v.attachments_back)


@clause_constraint("RED-HEAL-PREV-ENH-IN-OR-OUT")
def enhancement_in_or_out(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """In battle, a healing enhancement is played on a card in battle or in its heal window."""
    premise = z3.And(_attempt(v), v.means == ENHANCEMENT, v.phase == BATTLE)
    return ClauseConstraint(
        "RED-HEAL-PREV-ENH-IN-OR-OUT", premise, z3.Or(z3.Not(v.healed), v.place != DISCARD_PILE, v.this_turn)
    )


@clause_constraint("RED-HEAL-PREV-ENH-INITIATIVE")
def enhancement_initiative(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(_attempt(v), v.means == ENHANCEMENT, v.phase == BATTLE, z3.Not(v.has_initiative))
    return ClauseConstraint("RED-HEAL-PREV-ENH-INITIATIVE", premise, z3.Not(v.healed))


def _two_ways(v: HealVars, rs: RuleSet) -> tuple[z3.BoolRef, z3.BoolRef]:
    """(placement allowed, placement in a discard pile) for an enhancement played out of battle."""
    holders = v.holders_pile if rs.option("prev-pile-owner") == "holder-only" else z3.BoolVal(True)
    pile_way = z3.And(v.place == DISCARD_PILE, holders, v.this_turn)
    territory_way = z3.And(v.place == TERRITORY, v.holders_territory)
    return z3.Or(territory_way, pile_way), pile_way


@clause_constraint("RED-HEAL-PREV-ENH-TWO-WAYS")
def enhancement_two_ways(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    """Out of battle, a healing enhancement goes one of two ways, and the pile way heals the character.

    Premise: an enhancement used out of a heal window, out of battle (preparation or
    discard phase; any phase with no battle when the phases sentence is read as inserted by the
    revision, decision ``redline-enh-phases``) or in battle. Conclusion out of battle: it is on one of the two
    allowed places, and one played the pile way on a character recently discarded,
    targeting it, heals it. In battle (decision ``prev-two-ways-in-battle``): by
    default the list does not apply and no enhancement heals a character in a pile;
    with ``in-battle-too`` the same two ways hold for the player with initiative.
    """
    allowed, pile_way = _two_ways(v, rs)
    heals = z3.And(pile_way, v.is_character, v.cause != FROM_HAND_OR_DECK, v.able, v.same_target)
    two_ways = z3.And(z3.Implies(z3.Not(allowed), z3.Not(v.healed)), z3.Implies(heals, v.healed))
    if rs.option("redline-enh-phases") == "inserted":
        # 'in this way' points back to play outside battle: the phases sentence was inserted later
        out_of_battle = _out_of_battle(v)
    else:
        out_of_battle = z3.And(_out_of_battle(v), z3.Or(v.phase == PREPARATION, v.phase == DISCARD))
    premise = z3.And(_attempt(v), v.means == ENHANCEMENT, v.place != BEING_DISCARDED,
                     z3.Or(out_of_battle, v.phase == BATTLE))
    if rs.option("prev-two-ways-in-battle") == "in-battle-too":
        # in battle too: the same two ways, for the player with initiative
        in_battle = z3.Implies(v.has_initiative, two_ways)
    else:
        # only outside battle: in battle an enhancement goes on a fighter, never into a pile
        in_battle = z3.Implies(v.place == DISCARD_PILE, z3.Not(v.healed))
    return ClauseConstraint("RED-HEAL-PREV-ENH-TWO-WAYS", premise, z3.If(v.phase == BATTLE, in_battle, two_ways))


@clause_constraint("RED-HEAL-PREV-PILE-SAME-CHARACTER")
def pile_same_character(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(_attempt(v), v.means == ENHANCEMENT, v.place == DISCARD_PILE, z3.Not(v.same_target))
    return ClauseConstraint("RED-HEAL-PREV-PILE-SAME-CHARACTER", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-PREV-NOT-FROM-HAND-DECK")
def not_from_hand_or_deck(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    premise = z3.And(_attempt(v), v.place == DISCARD_PILE, v.cause == FROM_HAND_OR_DECK)
    return ClauseConstraint("RED-HEAL-PREV-NOT-FROM-HAND-DECK", premise, z3.Not(v.healed))


@clause_constraint("RED-HEAL-PREV-SEARCH")
def search(v: HealVars, rs: RuleSet) -> ClauseConstraint:
    return ClauseConstraint("RED-HEAL-PREV-SEARCH", z3.And(v.healed, v.place == DISCARD_PILE), v.pile_searched)


# --- the situation -----------------------------------------------------------------


def background(v: HealVars, players: int = 2) -> z3.BoolRef:
    """Facts of the game that hold in every heal situation (inputs only).

    * enum-coded inputs are in range; owners and controllers are players 0 to ``players - 1``
      (two in the consistency situation; the cross-check's heal use situation takes up to four);
    * only discards have a cause; 'this turn' only speaks of discard piles;
    * a heal is used only when a card worded heal or restore is used;
    * an enhancement able to heal has a matching brigade (base rule on
      enhancements); a character's ability able to heal out of battle belongs
      to a Territory Class character (the meaning of 'able', RED-HEAL-CHARACTER-TC);
    * in its heal window the controller has initiative (RED-HEAL-WINDOW);
    * Battle Resolution discards only in the battle phase;
    * only a character has statuses; a card in a pile has none.
    """
    return z3.And(
        v.place >= 0, v.place <= 3, v.cause >= 0, v.cause <= 3, v.means >= 0, v.means <= 2,
        v.phase >= 0, v.phase <= 3, v.owner >= 0, v.owner <= players - 1,
        v.permanent_controller >= 0, v.permanent_controller <= players - 1,
        z3.Implies(z3.Or(v.place == TERRITORY, v.place == IN_BATTLE), v.cause == BY_ABILITY),
        z3.Implies(v.place != DISCARD_PILE, z3.Not(v.this_turn)),
        z3.Implies(z3.And(v.place == BEING_DISCARDED, v.cause == FROM_HAND_OR_DECK), z3.BoolVal(False)),
        z3.Implies(v.place == IN_BATTLE, v.phase == BATTLE),
        z3.Implies(z3.And(v.place == BEING_DISCARDED, v.cause == BY_BATTLE_RESOLUTION), v.phase == BATTLE),
        z3.Implies(z3.And(v.able, v.means == ENHANCEMENT), v.brigade_match),
        z3.Implies(z3.And(v.able, v.means == CHARACTER_ABILITY, v.phase != BATTLE), v.healer_has_tc),
        z3.Implies(z3.And(v.place == BEING_DISCARDED, v.holder_is_controller), v.has_initiative),
        z3.Implies(z3.Not(v.is_character), z3.Not(z3.Or(v.poisoned, v.diseased, v.paralyzed, v.decreased))),
        z3.Implies(v.place == DISCARD_PILE, z3.Not(z3.Or(v.poisoned, v.diseased, v.paralyzed))),
    )


def _inputs_and_outputs(v: HealVars) -> tuple[tuple[z3.ExprRef, ...], tuple[z3.ExprRef, ...]]:
    outputs = tuple(getattr(v, name) for name in OUTPUTS)
    inputs = tuple(getattr(v, f.name) for f in fields(HealVars) if f.name not in OUTPUTS)
    return inputs, outputs


def describe(v: HealVars) -> Callable[[z3.ModelRef], dict[str, object]]:
    def read(model: z3.ModelRef) -> dict[str, object]:
        def num(x: z3.ArithRef) -> int:
            return model.eval(x, model_completion=True).as_long()

        def flag(x: z3.BoolRef) -> bool:
            return z3.is_true(model.eval(x, model_completion=True))

        place = num(v.place)
        words: dict[str, object] = {
            "card": "character" if flag(v.is_character) else "not a character",
            "place": PLACES[place],
            "phase": PHASES[num(v.phase)],
            "card used says": "heal" if flag(v.worded_heal) else ("restore abilities" if flag(v.says_restore) else "neither"),
            "healed with": MEANS[num(v.means)],
            "able to heal it": flag(v.able),
            "user is its controller": flag(v.holder_is_controller),
            "owner": f"player {num(v.owner)}",
            "permanent controller": f"player {num(v.permanent_controller)}",
        }
        if place in (BEING_DISCARDED, DISCARD_PILE):
            words["discarded by"] = CAUSES[num(v.cause)]
        if place == DISCARD_PILE:
            words["discarded this turn"] = flag(v.this_turn)
            words["pile is the healer's"] = flag(v.holders_pile)
            words["enhancement targets it"] = flag(v.same_target)
            words["numbers lowered when discarded"] = flag(v.lowered)
        statuses = [n for n, x in (("poisoned", v.poisoned), ("diseased", v.diseased), ("paralyzed", v.paralyzed)) if flag(x)]
        words["statuses"] = ", ".join(statuses) or "none"
        return words

    return read


def heal_situation(rule_set: RuleSet | None = None) -> Situation:
    """The heal situation with a constraint for every heal clause, read under ``rule_set``'s decisions."""
    rule_set = rule_set or RuleSet()
    v = HealVars.make()
    inputs, outputs = _inputs_and_outputs(v)
    # outputs' ranges; a card worded 'heal' is a heal (restore: RED-HEAL-RESTORE-IS-HEAL)
    domain = z3.And(v.destination >= 0, v.destination <= 1, z3.Implies(v.worded_heal, v.is_heal))
    constraints: Mapping[str, ClauseConstraint] = REGISTRY.build(v, rule_set)
    return Situation(
        name="heal",
        inputs=inputs,
        outputs=outputs,
        background=background(v),
        domain=domain,
        constraints=constraints,
        describe=describe(v),
    )
