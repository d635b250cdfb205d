"""The variables of the side battle situation, and the facts every side battle situation holds.

Written from the catalogue (``specs/clauses/side_battle.toml``, seed 000), not from the model.
The situation: a player (``user``) uses a side battle ability, selecting two characters ``x`` and
``y`` while a battle between players ``p0`` and ``p1`` is being fought; later
the side battle ends and its survivors go somewhere.

Inputs (the situation): the paused battle's players, the main battle's
players, the user (any player: decision ``sb-user-outside-battle`` of
RED-SB-SIDES-BATTLE-PLAYERS), how many side battles the user initiated this turn
(RED-SB-ONCE-PER-TURN), and for each selected
character ``c`` in {x, y}: who controls it when selected (``ctrl_c``; a
card in a hand is controlled by its holder), where it is
(``zone_c``: a territory, the paused battle, a battle paused further down,
a hand, elsewhere; RED-SB-TARGET-ZONES), its alignment (RED-SB-SAME-ALIGNMENT), owner, permanent
controller (RED-SB-RETURN-TO-TERRITORY), whether it is paralyzed (RED-BASE-PARALYZED-NO-BATTLE),
whether normal battle resolution defeats it and whether it is healed (RED-SB-DEFEAT-NORMAL), and the
side it was on in its previous battle (RED-SB-RETURN-TO-BATTLE).

Outputs (what the rules decide): whether the card may be played
(``card_playable``, RED-SB-RESTRICT-AFTER), whether the ability takes effect (``takes_effect``:
the target restrictions forbid it,
:func:`~cardrules.specs.smt.redemption.side_battle_terms.legal_selection` with the
allowance left forces it), the side battle's
players (``sb0``, ``sb1``), who controls each fighter (``side_x``,
``side_y``), who chooses that (``chooser``, :data:`NONE` when a rule fixes
it; RED-SB-SIDES-BATTLE-PLAYERS, RED-SB-CONTROL-OUTSIDERS, RED-SB-CONTROL-ONE-INSIDER,
RED-SB-CONTROL-SAME-UNMIXED, RED-SB-CONTROL-SAME-MIXED), the user's count afterwards, where
each survivor goes (``back_c``:
back to its previous battle, on ``back_side_c``, keeping its enhancements
``keeps_c``; else to the territory of ``home_c``; whether it keeps the
enhancements it carried in from where it was selected, ``keeps_carried_c``),
and the flags of the
clarifications (negation cascade, RED-SB-NEGATE-CASCADE; interrupts after a side battle,
RED-SB-NO-INTERRUPT-FROM-SUSPENDED), and who may answer the ability before its side battle starts
(``answerer``, RED-BASE-SPECIAL-INITIATIVE, from the inputs ``rest_0``/``rest_1``: a battling player
has other characters in the paused battle, and ``answer_0``/``answer_1``: holds an answer).

:func:`background` holds the facts of every situation (inputs only), :func:`domain` the ranges of
the outputs. The terms the clauses are written in are in
:mod:`~cardrules.specs.smt.redemption.side_battle_terms`, the clauses' constraints and the
situations built from them in :mod:`~cardrules.specs.smt.redemption.side_battle_clauses`.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from cardrules.specs.smt.redemption.common import NONE, in_range, make_vars, one_of

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
    """How many players are in the game."""
    p0: z3.ArithRef
    """One of the two players of the paused battle."""
    p1: z3.ArithRef
    """The two players of the paused battle (the one on top of the stack when the ability is used)."""
    m0: z3.ArithRef
    """One of the two players of the turn's main battle."""
    m1: z3.ArithRef
    """The two players of the turn's main battle (the bottom of the stack)."""
    nested: z3.BoolRef
    """The paused battle is itself a side battle (a battle lies below it)."""
    user: z3.ArithRef
    """The player who uses the side battle ability."""
    count: z3.ArithRef
    """Side battles the user initiated earlier this turn."""
    used: z3.BoolRef
    """The user plays the card to use its side battle ability on x and y."""
    same_card: z3.BoolRef
    """The two selected characters are one and the same card."""
    ctrl_x: z3.ArithRef
    """Who controls the first selected character when it is selected."""
    ctrl_y: z3.ArithRef
    """Who controls the second selected character when it is selected."""
    zone_x: z3.ArithRef
    """Where the first selected character is."""
    zone_y: z3.ArithRef
    """Where the second selected character is."""
    hero_x: z3.BoolRef
    """The first selected character is a Hero (else an Evil Character)."""
    hero_y: z3.BoolRef
    """The second selected character is a Hero (else an Evil Character)."""
    owner_x: z3.ArithRef
    """The owner of the first selected character."""
    owner_y: z3.ArithRef
    """The owner of the second selected character."""
    perm_x: z3.ArithRef
    """The player with permanent control of the first selected character."""
    perm_y: z3.ArithRef
    """The player with permanent control of the second selected character."""
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
    rest_0: z3.BoolRef
    """``p0`` has a character in the paused battle besides the selected ones."""
    rest_1: z3.BoolRef
    """``p1`` has a character in the paused battle besides the selected ones."""
    answer_0: z3.BoolRef
    """``p0`` holds an interrupt or negate they may play on a character of theirs in the paused battle."""
    answer_1: z3.BoolRef
    """``p1`` holds an interrupt or negate they may play on a character of theirs in the paused battle."""
    # outputs
    card_playable: z3.BoolRef
    """The card with the side battle ability may be played."""
    takes_effect: z3.BoolRef
    """The side battle ability takes effect: the side battle starts."""
    lasting: z3.BoolRef
    suspended: z3.BoolRef
    """The paused battle is on hold and the new battle is on top of it."""
    sb0: z3.ArithRef
    """One of the side battle's two players."""
    sb1: z3.ArithRef
    """The other of the side battle's two players."""
    side_x: z3.ArithRef
    """The player on whose side the first selected character fights."""
    side_y: z3.ArithRef
    """The player on whose side the second selected character fights."""
    chooser: z3.ArithRef
    """Who chooses the sides (-1: a rule fixes them)."""
    count_after: z3.ArithRef
    """Side battles the user has initiated this turn, this one included."""
    discarded_x: z3.BoolRef
    """The first selected character is discarded when the side battle ends."""
    discarded_y: z3.BoolRef
    """The second selected character is discarded when the side battle ends."""
    back_x: z3.BoolRef
    """The first selected character goes back to the battle it came from."""
    back_y: z3.BoolRef
    """The second selected character goes back to the battle it came from."""
    back_side_x: z3.ArithRef
    back_side_y: z3.ArithRef
    keeps_x: z3.BoolRef
    keeps_y: z3.BoolRef
    """The enhancements played on the character in the side battle stay on it (``keeps_x`` too)."""
    keeps_carried_x: z3.BoolRef
    keeps_carried_y: z3.BoolRef
    """The enhancements it carried in from where it was selected stay on it (``keeps_carried_x`` too)."""
    home_x: z3.ArithRef
    """The player whose territory the first selected character goes to."""
    home_y: z3.ArithRef
    """The player whose territory the second selected character goes to."""
    resumed: z3.BoolRef
    effect_negated: z3.BoolRef
    resolution_undone: z3.BoolRef
    victim_may_interrupt: z3.BoolRef
    interrupt_targetable: z3.BoolRef
    answerer: z3.ArithRef
    """The battling player who may answer the ability (interrupt or negate it) before its side battle
    starts, by special initiative (RED-BASE-SPECIAL-INITIATIVE, decision ``sb-answer-before-start``);
    -1: nobody."""

    @staticmethod
    def make() -> "SBVars":
        return make_vars(SBVars, "sb", INTEGERS)

    def of(self, name: str, c: str) -> z3.ExprRef:
        """The variable ``name_c`` of character ``c`` ('x' or 'y')."""
        return getattr(self, f"{name}_{c}")


INTEGERS = frozenset({
    "players", "p0", "p1", "m0", "m1", "user", "count", "ctrl_x", "ctrl_y", "zone_x", "zone_y", "owner_x", "owner_y",
    "perm_x", "perm_y", "prev_side_x", "prev_side_y", "sb0", "sb1", "side_x", "side_y", "chooser", "count_after",
    "back_side_x", "back_side_y", "home_x", "home_y", "answerer",
})
OUTPUTS = (
    "card_playable", "takes_effect", "lasting", "suspended", "sb0", "sb1", "side_x", "side_y", "chooser",
    "count_after", "discarded_x", "discarded_y", "back_x", "back_y", "back_side_x", "back_side_y", "keeps_x", "keeps_y",
    "keeps_carried_x", "keeps_carried_y", "home_x", "home_y", "resumed", "effect_negated", "resolution_undone", "victim_may_interrupt", "interrupt_targetable",
    "answerer",
)
BASE_CLAUSES = ("RED-BASE-PARALYZED-NO-BATTLE", "RED-BASE-SPECIAL-INITIATIVE")
"""Assumption clauses this situation also encodes (the cross-check reads them with the area's clauses)."""
CHARS = ("x", "y")


# --- the facts of every side battle situation ---------------------------------------------------


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
        v.answerer >= NONE, v.answerer < v.players,
    )
