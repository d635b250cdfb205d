"""The heal situation (:mod:`specs.smt.redemption.heal`) put to use in a position: which heals a player may use
now, and what a heal does, read from the raw position.

Written from the catalogue (``specs/clauses/heal.toml``), not from the model. The consistency
situation speaks of one heal of one card with its inputs free (``place``, ``cause``, ``means``,
``phase``, "able to heal", "the user is its controller" ...). Here those inputs are *derived in
z3* from raw facts of a position (:mod:`.position`): the target's and the healer's raw places
(which list they sit in, whose list, which battle level and side), the battle records' players,
printed card data, the statuses and decreases lying on cards, whose decision the position waits
for (a heal window and the characters it is about, initiative in battle, or nobody), and the
encoding's own log of the characters discarded this turn (where each came from).

What the consistency situation leaves to its inputs, the use of a heal in a position has to
settle; each is a constraint added to the clause whose statement says it (:data:`USE_RULES`):

- RED-HEAL-WINDOW / RED-HEAL-AT-RESOLUTION: while a heal window is open, the heal used is the
  controller's, on a character being discarded ("the character's controller gets initiative to
  heal it first"; which controller: decisions ``heal-window-player`` / ``br-heal-window-player``);
- RED-HEAL-TARGETS-HEALED: in battle with no window open, a heal targets a fighter (of any battle
  on the stack: decision ``heal-in-battle-targets``) or a character in a discard pile;
- RED-HEAL-PREV-ENH-TWO-WAYS: the previous wording's healing enhancement played outside battle
  goes on a character of its alignment and brigade, as every enhancement (found by the heal
  comparison: the clause names the places only, the model applied the base rule);
- RED-HEAL-RESTORES-DECREASE: a character whose ability is decreased cannot use it until healed;
- RED-HEAL-CHARACTER-TC: a character not fighting in the active battle uses its heal ability only
  with Territory Class, from its user's territory, and (decision ``heal-tc-when``) only at the moments an enhancement could
  be played outside battle: the preparation and discard phases, and a heal window;
- RED-HEAL-WINDOW-MEANS ("able to heal that particular character", :func:`able`): an enhancement
  from the user's hand of the target's alignment and a shared brigade; a character's heal
  ability, of a character of the user fighting in the active battle or in the user's territory,
  not itself being discarded, its ability not decreased (RED-HEAL-RESTORES-DECREASE);
- "in battle" of the situation's ``phase`` is a battle on the stack (RED-HEAL-ENH-PHASES: the
  preparation and discard phases are the moments outside battle; the rest of the battle phase
  with no battle fought is neither).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable, Mapping

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.redemption import heal as h
from cardrules.specs.smt.consistency import ClauseConstraint, Situation
from cardrules.specs.smt.redemption import position as pos

MAX_PLAYERS = pos.MAX_PLAYERS
# the raw phase names a position shows (state JSON "phase")
RAW_PHASES = {"preparation": h.PREPARATION, "discard": h.DISCARD}


@dataclass(frozen=True)
class UseVars:
    """Inputs of a heal's use in a position that the consistency situation leaves free."""

    in_window: z3.BoolRef
    """A heal window is open (the position waits for its player's heal or pass)."""
    window_by_resolution: z3.BoolRef
    """The open window is Battle Resolution's (else an ability's discard)."""
    target_in_active_battle: z3.BoolRef
    """The target fights in the battle being fought (the top of the stack)."""
    healer_in_battle: z3.BoolRef
    """The healing character fights in the active battle (the top of the stack) on the user's side."""
    healer_in_own_territory: z3.BoolRef
    healer_in_own_hand: z3.BoolRef
    healer_decreased: z3.BoolRef
    healer_being_discarded: z3.BoolRef
    healer_alignment_match: z3.BoolRef
    """The healer's printed alignment is the target's."""
    healer_brigade_overlap: z3.BoolRef
    """The healer and the target share a printed brigade (as it was before a discard: printed)."""

    @staticmethod
    def make() -> "UseVars":
        return UseVars(**{f.name: z3.Bool(f"heal_use.{f.name}") for f in fields(UseVars)})


@implements("RED-HEAL-WINDOW-MEANS", "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-CHARACTER-TC",
            "RED-HEAL-RESTORES-DECREASE", "RED-HEAL-PREV-AS-BEFORE-DISCARD")
def able(v: h.HealVars, u: UseVars) -> z3.BoolRef:
    """'Able to heal that particular character': an enhancement from the user's hand matching its
    alignment and a brigade; a character's ability of a character of the user in the active battle
    or in the user's territory, not being discarded itself, its ability not decreased."""
    enhancement = z3.And(u.healer_in_own_hand, u.healer_alignment_match, u.healer_brigade_overlap)
    character = z3.And(z3.Or(u.healer_in_battle, z3.And(u.healer_in_own_territory,
                                                          z3.Or(v.phase == h.BATTLE, v.healer_has_tc))),
                       z3.Not(u.healer_decreased), z3.Not(u.healer_being_discarded))
    return z3.If(v.means == h.ENHANCEMENT, enhancement, z3.If(v.means == h.CHARACTER_ABILITY, character, False))


def _window_rule(v: h.HealVars, u: UseVars, by_resolution: bool) -> z3.BoolRef:
    """While this kind of window is open, a heal is the controller's, on a character being discarded,
    by a means able to heal it."""
    premise = z3.And(h._attempt(v), u.in_window, u.window_by_resolution == by_resolution)
    return z3.Implies(premise, z3.Implies(v.healed, z3.And(v.place == h.BEING_DISCARDED, v.holder_is_controller,
                                                           v.able)))


def _tc_rule(v: h.HealVars, u: UseVars, rs: RuleSet) -> z3.BoolRef:
    moment = z3.Or(v.phase == h.PREPARATION, v.phase == h.DISCARD, u.in_window)
    if rs.option("heal-tc-when") == "any-time-outside-battle":
        moment = z3.BoolVal(True)
    premise = z3.And(h._attempt(v), v.means == h.CHARACTER_ABILITY, z3.Not(u.healer_in_battle))
    return z3.Implies(premise, z3.Implies(v.healed, z3.And(v.healer_has_tc, u.healer_in_own_territory, moment)))


def _decreased_rule(v: h.HealVars, u: UseVars, rs: RuleSet) -> z3.BoolRef:
    """A character whose ability is decreased cannot use it until it is healed."""
    premise = z3.And(h._attempt(v), v.means == h.CHARACTER_ABILITY, u.healer_decreased)
    return z3.Implies(premise, z3.Not(v.healed))


def _in_battle_targets_rule(v: h.HealVars, u: UseVars, rs: RuleSet) -> z3.BoolRef:
    """In battle with no heal window open, a heal targets a fighter (of a battle on the stack, or of
    the battle being fought: decision ``heal-in-battle-targets``) or a character in a discard pile
    (where a wording lets it be healed from there)."""
    fighter = v.place == h.IN_BATTLE
    if rs.option("heal-in-battle-targets") == "active-battle":
        fighter = z3.And(fighter, u.target_in_active_battle)
    premise = z3.And(h._attempt(v), z3.Not(u.in_window), v.phase == h.BATTLE)
    return z3.Implies(premise, z3.Implies(v.healed, z3.Or(fighter, v.place == h.DISCARD_PILE)))


def _two_ways_match_rule(v: h.HealVars, u: UseVars, rs: RuleSet) -> z3.BoolRef:
    """Previous wording: a healing enhancement played outside battle goes *on* a character in the
    holder's territory (the pile way is RED-HEAL-PREV-AS-BEFORE-DISCARD's), and so, as every enhancement, on one it is able to go on (alignment
    and brigade, RED-BASE-ENHANCEMENTS; RED-HEAL-PREV-PILE-SAME-CHARACTER judges that legality by
    type and brigade)."""
    premise = z3.And(h._attempt(v), v.means == h.ENHANCEMENT, v.phase != h.BATTLE, z3.Not(u.in_window),
                     v.place != h.DISCARD_PILE)  # in a pile: as it was before the discard (AS-BEFORE-DISCARD)
    return z3.Implies(premise, z3.Implies(v.healed, v.able))


UseRule = Callable[[h.HealVars, UseVars, RuleSet], z3.BoolRef]
USE_RULES: dict[str, UseRule] = {
    "RED-HEAL-WINDOW": lambda v, u, rs: _window_rule(v, u, False),
    "RED-HEAL-AT-RESOLUTION": lambda v, u, rs: _window_rule(v, u, True),
    "RED-HEAL-CHARACTER-TC": _tc_rule,
    "RED-HEAL-RESTORES-DECREASE": _decreased_rule,
    "RED-HEAL-TARGETS-HEALED": _in_battle_targets_rule,
    "RED-HEAL-PREV-ENH-TWO-WAYS": _two_ways_match_rule,
}
"""Clause ID -> what the clause settles about a heal's use in a position (conjoined with its
constraint of the consistency situation)."""
implements("RED-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-CHARACTER-TC")(_window_rule)
implements("RED-HEAL-CHARACTER-TC")(_tc_rule)
implements("RED-HEAL-RESTORES-DECREASE")(_decreased_rule)
implements("RED-HEAL-TARGETS-HEALED")(_in_battle_targets_rule)
implements("RED-HEAL-PREV-ENH-TWO-WAYS")(_two_ways_match_rule)


def use_background(v: h.HealVars, u: UseVars) -> z3.BoolRef:
    """The consistency situation's background (up to four players), a being-discarded character
    only in an open window, and 'able' as :func:`able` defines it."""
    return z3.And(h.background(v, MAX_PLAYERS),
                  z3.Implies(v.place == h.BEING_DISCARDED, u.in_window),
                  v.able == able(v, u))


def heal_use_situation(rule_set: RuleSet) -> tuple[Situation, h.HealVars, UseVars]:
    """The heal situation with every clause's constraint, plus what it settles about a heal's use."""
    base = h.heal_situation(rule_set)
    v, u = h.HealVars.make(), UseVars.make()
    constraints: dict[str, ClauseConstraint] = {}
    for clause_id, constraint in base.constraints.items():
        rule = USE_RULES.get(clause_id)
        if rule is None:
            constraints[clause_id] = constraint
        else:
            constraints[clause_id] = ClauseConstraint(clause_id, z3.BoolVal(True),
                                                      z3.And(constraint.formula, rule(v, u, rule_set)))
    domain = z3.And(v.destination >= 0, v.destination <= MAX_PLAYERS - 1, z3.Implies(v.worded_heal, v.is_heal))
    inputs = (*base.inputs, *[getattr(u, f.name) for f in fields(UseVars)])
    situation = Situation(name="heal-use", inputs=inputs, outputs=base.outputs, background=use_background(v, u),
                          domain=domain, constraints=constraints, describe=base.describe)
    return situation, v, u


# --- from the raw position ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    """A card's printed data the heal situation reads."""

    character: bool
    enhancement: bool
    alignment: str
    brigades: frozenset[str]
    territory_class: bool
    ability: str


@dataclass(frozen=True)
class UseFacts:
    """The raw facts of one candidate heal: ``user`` heals ``target`` with ``healer``."""

    user: int
    phase: str
    """The position's phase name."""
    window: int
    """0: no heal window open; 1: an ability's discard window; 2: Battle Resolution's window."""
    target: tuple[tuple[str, int], ...]
    healer: tuple[tuple[str, int], ...]
    """Raw places (:func:`oracle.crosscheck.redemption.position.raw_card`, with the log's permanent control)."""
    target_printed: Printed
    healer_printed: Printed
    target_pending: bool
    """The target is one of the characters the open window is about."""
    healer_pending: bool
    statuses: frozenset[str]
    """Statuses lying on the target."""
    target_decreased: bool
    healer_decreased: bool
    discarded_this_turn: bool
    """The encoding's log: the target entered a discard pile this turn and is still there."""
    from_hand_or_deck: bool
    """The encoding's log: it entered the pile from a hand or deck."""
    target_lowered: bool = False
    """The target's numbers are lowered by an effect still lasting: a numbers redirect in force naming it, or a
    reduction kept from one (for a card in a pile, one that was on it when it was discarded)."""


@implements("RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION",
            "RED-HEAL-ENH-PHASES", "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-PREV-ENH-TWO-WAYS",
            "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def fix_inputs(v: h.HealVars, u: UseVars, f: UseFacts, players: tuple[tuple[int, int], ...],
               bondage: tuple[int, ...], rs: RuleSet) -> list[z3.BoolRef]:
    """The situation's inputs, derived in z3 from the raw facts: the place (a territory, a battle,
    being discarded: a fighter the open window is about, a discard pile), what discarded it, the
    phase (a battle on the stack is 'in battle'), the user's own territory and pile, the user as
    the target's controller (by the window's decision), permanent control (:func:`position.permanent`)."""
    stack = pos.StackPos.of(players, bondage)
    t, x = pos.CardPos.of(dict(f.target)), pos.CardPos.of(dict(f.healer))
    pending = z3.BoolVal(f.target_pending)
    place = z3.If(t.where == pos.TERRITORY_LIST, h.TERRITORY,
                  z3.If(pos.fighting(t), z3.If(pending, h.BEING_DISCARDED, h.IN_BATTLE),
                        z3.If(t.where == pos.DISCARD, h.DISCARD_PILE, -1)))
    window_cause = h.BY_BATTLE_RESOLUTION if f.window == 2 else h.BY_ABILITY
    cause = z3.If(place == h.BEING_DISCARDED, window_cause,
                  z3.If(z3.And(place == h.DISCARD_PILE, z3.BoolVal(f.from_hand_or_deck)), h.FROM_HAND_OR_DECK,
                        h.BY_ABILITY))
    phase = z3.If(stack.height > 0, h.BATTLE, RAW_PHASES.get(f.phase, h.OTHER_PHASE))
    decision = "br-heal-window-player" if f.window == 2 else "heal-window-player"
    if rs.option(decision) == "permanent-controller":
        controller = pos.permanent(t)
    else:
        controller = pos.control(t, stack)
    hp, tp = f.healer_printed, f.target_printed
    means = h.ENHANCEMENT if hp.enhancement else (h.CHARACTER_ABILITY if hp.character else h.OTHER_ABILITY)
    statuses = f.statuses
    top = stack.height - 1
    return [
        v.place == place, v.cause == cause, v.means == means, v.phase == phase,
        v.is_character == tp.character, v.worded_heal == (hp.ability == "heal"),
        v.says_restore == (hp.ability == "restore"), v.is_heal,
        v.brigade_match == z3.BoolVal(hp.alignment == tp.alignment and bool(hp.brigades & tp.brigades)),
        v.same_target, v.this_turn == z3.BoolVal(f.discarded_this_turn),
        v.holders_pile == z3.And(t.where == pos.DISCARD, t.holder == f.user),
        v.holders_territory == z3.And(t.where == pos.TERRITORY_LIST, t.holder == f.user),
        v.holder_is_controller == (controller == f.user), v.has_initiative,
        v.healer_has_tc == hp.territory_class,
        v.poisoned == ("poisoned" in statuses), v.diseased == ("diseased" in statuses),
        v.paralyzed == ("paralyzed" in statuses), v.decreased == f.target_decreased,
        v.owner == t.owner, v.permanent_controller == pos.permanent(t), v.lowered == f.target_lowered,
        u.in_window == (f.window > 0), u.window_by_resolution == (f.window == 2),
        u.target_in_active_battle == z3.And(pos.fighting(t), t.level == top),
        u.healer_in_battle == z3.And(pos.fighting(x), x.level == top, pos.control(x, stack) == f.user),
        u.healer_in_own_territory == z3.And(x.where == pos.TERRITORY_LIST, x.holder == f.user),
        u.healer_in_own_hand == z3.And(x.where == pos.HAND, x.holder == f.user),
        u.healer_decreased == f.healer_decreased, u.healer_being_discarded == f.healer_pending,
        u.healer_alignment_match == (hp.alignment == tp.alignment),
        u.healer_brigade_overlap == bool(hp.brigades & tp.brigades),
    ]


def log_discards(before: Mapping[str, int], after: Mapping[str, int]) -> tuple[bool, bool]:
    """The encoding's log entry of a card that moved between two positions of the play: whether it
    entered a discard pile, and whether it came from a hand or a deck (RED-HEAL-PREV-DISCARDED-MEANS,
    RED-HEAL-PREV-NOT-FROM-HAND-DECK)."""
    entered = after["where"] == pos.DISCARD and before["where"] != pos.DISCARD
    return entered, entered and before["where"] in (pos.HAND, pos.DECK)


implements("RED-HEAL-PREV-DISCARDED-MEANS", "RED-HEAL-PREV-NOT-FROM-HAND-DECK", "RED-HEAL-PREV-HEALABLE")(log_discards)
