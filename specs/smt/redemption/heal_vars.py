"""The heal situation's variables (:class:`HealVars`) and the codes of its integer inputs, split out of
:mod:`specs.smt.redemption.heal` (which re-exports every name here).

Written from the catalogue (``specs/clauses/heal.toml``), not from the model.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import z3

# places of the target card
TERRITORY, IN_BATTLE, BEING_DISCARDED, DISCARD_PILE = range(4)
PLACES = ("territory", "in battle", "being discarded", "discard pile")
# what discarded it (when it is being discarded or in a discard pile)
BY_ABILITY, BY_RULE_FROM_ABILITY, BY_BATTLE_RESOLUTION, FROM_HAND_OR_DECK = range(4)
CAUSES = ("a special ability", "a game rule a special ability triggered", "Battle Resolution", "from a hand or deck")
# what heals
ENHANCEMENT, CHARACTER_ABILITY, OTHER_ABILITY = range(3)
MEANS = ("an enhancement from hand", "a character's own ability", "another card's ability")
# phases
PREPARATION, BATTLE, DISCARD, OTHER_PHASE = range(4)
PHASES = ("preparation", "battle", "discard", "draw or upkeep")


@dataclass(frozen=True)
class HealVars:
    """The z3 variables of the heal situation."""

    # inputs
    place: z3.ArithRef
    """Where the card is."""
    cause: z3.ArithRef
    """What discarded it (for a card being discarded or in a discard pile)."""
    means: z3.ArithRef
    """What heals: an enhancement from hand, a character's own ability, another card's ability."""
    phase: z3.ArithRef
    """The phase the heal is used in."""
    is_character: z3.BoolRef
    """The card is a character."""
    worded_heal: z3.BoolRef
    """The card says 'heal'."""
    says_restore: z3.BoolRef
    """The card says 'restore abilities'."""
    able: z3.BoolRef
    """The heal's own text, brigade and class restrictions allow it on this character."""
    brigade_match: z3.BoolRef
    same_target: z3.BoolRef
    """An enhancement on a character in a pile targets that very character."""
    this_turn: z3.BoolRef
    """The card was discarded earlier in this turn (for a card in a discard pile)."""
    holders_pile: z3.BoolRef
    """The discard pile the card is in belongs to the player using the heal."""
    holders_territory: z3.BoolRef
    """The territory the card is in belongs to the player using the heal."""
    holder_is_controller: z3.BoolRef
    """The player using the heal controls the card."""
    has_initiative: z3.BoolRef
    """The player using the heal has the initiative."""
    healer_has_tc: z3.BoolRef
    """The character whose ability heals has Territory Class."""
    poisoned: z3.BoolRef
    diseased: z3.BoolRef
    paralyzed: z3.BoolRef
    decreased: z3.BoolRef
    owner: z3.ArithRef
    """The card's owner (a player)."""
    permanent_controller: z3.ArithRef
    """The player with permanent control of the card."""
    lowered: z3.BoolRef
    """The card's numbers (strength, toughness) are lowered by an effect that still lasts; for a card in a
    discard pile, by one that was on it when it was discarded."""
    # outputs
    healed: z3.BoolRef
    """The heal takes place on this card."""
    is_heal: z3.BoolRef
    """The card used counts as a heal."""
    destination: z3.ArithRef
    """The player whose territory the healed card goes to."""
    poisoned_after: z3.BoolRef
    diseased_after: z3.BoolRef
    paralyzed_after: z3.BoolRef
    decreased_after: z3.BoolRef
    tied_effects_end: z3.BoolRef
    discard_completed: z3.BoolRef
    """The discard the heal interrupted counts as completed."""
    window_open: z3.BoolRef
    """A heal window is open for the card."""
    discarder_suspended: z3.BoolRef
    ongoing_stay_active: z3.BoolRef
    targeted: z3.BoolRef
    lasting: z3.BoolRef
    pile_searched: z3.BoolRef
    """A discard pile was searched for the card."""
    regains_lost: z3.BoolRef
    """The card gets back what it lost on the discard."""
    attachments_back: z3.BoolRef
    """The cards that were on it come back with it."""
    lowered_after: z3.BoolRef
    """After the heal its numbers are lowered by such an effect."""

    @staticmethod
    def make() -> "HealVars":
        values = {}
        for f in fields(HealVars):
            integer = f.name in {"place", "cause", "means", "phase", "owner", "permanent_controller", "destination"}
            values[f.name] = z3.Int(f"heal.{f.name}") if integer else z3.Bool(f"heal.{f.name}")
        return HealVars(**values)


OUTPUTS = (
    "healed", "is_heal", "destination", "poisoned_after", "diseased_after", "paralyzed_after", "decreased_after",
    "tied_effects_end", "discard_completed", "window_open", "discarder_suspended", "ongoing_stay_active",
    "targeted", "lasting", "pile_searched", "regains_lost", "attachments_back", "lowered_after",
)
