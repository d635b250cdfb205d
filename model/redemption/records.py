"""What a Redemption game remembers of the turn: play records, prompts, discards and pile searches.

The play records (:class:`PlayRecord`) are the battle stack's abilities with their status (active,
pending after an interrupt, negated, ...) and what undoing them takes (:class:`Undo`); the prompt
(:class:`Prompt`) says whose decision the game waits on; :class:`DiscardEvent` keeps what a
character was and carried when it was discarded (the previous heal wording needs it);
:class:`Search` is a pile search in progress. :class:`~.state.State` holds them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from cardrules.model.redemption.jsonform import OMIT_AT_DEFAULT
from cardrules.model.redemption.pieces import Alignment, Effect, Fighter, Phase, Status


class RecordStatus(enum.Enum):
    ACTIVE = "active"
    ANNOUNCED = "announced"
    """Waiting for a special initiative answer; not yet in effect."""
    PENDING = "pending"
    """Interrupted: effect undone, may reactivate (RED-BASE-INTERRUPT)."""
    NEGATED = "negated"
    FIZZLED = "fizzled"
    BLANKED = "blanked"
    """Played without its ability taking effect (no target, or restricted)."""
    ENDED = "ended"
    """A status effect whose condition a heal removed: it ends at once (RED-HEAL-CLEARS-STATUS)."""
    EXPIRED = "expired"
    """An ongoing redirect that has ended: at the end of its phase (RED-RD-UNTIL-END-OF-PHASE), or of its turn
    under a proposal's ``numbers-redirect-expiry``."""


@dataclass(frozen=True, slots=True)
class Undo:
    """What an ability did, so that interrupt and negate can take it back."""

    fighter: Fighter | None = None
    """DISCARD: the character discarded, as it was in battle."""
    battle: int = -1
    side: int = -1
    status_added: bool = False
    """Statuses: whether the status was new."""
    opened: int = -1
    """SIDE_BATTLE: id of the battle it started."""
    cleared: tuple[Status, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    """HEAL and RESTORE: the statuses the heal removed from its target, which an interrupt puts back
    (RED-BASE-INTERRUPT); left out of the JSON form when empty."""
    restored: bool = field(default=False, metadata=OMIT_AT_DEFAULT)
    """HEAL and RESTORE: whether the heal removed a decrease of its target's ability; left out of the JSON
    form when false."""
    ended: tuple[int, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    """HEAL and RESTORE: the play records of status effects the heal ended (RED-HEAL-CLEARS-STATUS), which an
    interrupt makes active again; left out of the JSON form when empty."""
    fighters: tuple[Fighter, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    """SIDE_BATTLE, under decision ``sb-negate-resolution`` = undo-all only: the two fighters of the battle
    it started as that battle began (each with where it came from, and what it carried in), which negating
    the card puts back (:mod:`model.redemption.side_battle_undo`); left out of the JSON form when empty."""


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """A card played in a battle, and what became of its ability."""

    id: int
    card: str
    player: int
    on: str
    """The character it was played on; the card itself for a side battle card a player outside
    the battle used from their hand, which is on no character (decision ``sb-user-outside-battle``)."""
    effect: Effect | None
    targets: tuple[str, ...]
    """Card ids, or ``#n`` for play record ``n``."""
    battle_path: tuple[int, ...]
    """Ids of the battles on the stack when played, bottom first; the last is where it was played."""
    status: RecordStatus
    undo: Undo = Undo()
    carrier: int = -1
    """The player who causes and carries out the effect when it is not ``player``: the
    redirecting player after a redirect (RED-RD-CARRIER-CHANGES); -1 means ``player``."""
    amount: tuple[int, int] = (0, 0)
    """REDIRECT_NUMBERS: strength and toughness moved (RED-RD-NUMBERS-TRANSFER, decisions ``rd-amount``,
    ``rd-stated-exceeds``)."""
    lasts_until: tuple[int, Phase] | None = None
    """An ongoing redirect (REDIRECT_NUMBERS): the turn and phase at whose end it stops, the phase it
    was used in (RED-RD-UNTIL-END-OF-PHASE), such as ``[1, "battle"]``; it outlives the battle it was
    used in. At that phase's end the ``numbers-redirect-expiry`` extension point may carry it on to the end
    of the turn: then it names each following phase in turn (:func:`model.redemption.redirect.at_phase_end`).
    ``None``: not ongoing (or a record written before the field existed: the current phase)."""

    @property
    def carried_by(self) -> int:
        """Who causes and carries out the effect (RED-RD-CARRIER-CHANGES)."""
        return self.player if self.carrier < 0 else self.carrier

    @property
    def battle(self) -> int:
        return self.battle_path[-1]


class PromptKind(enum.Enum):
    """Decision points other than the phase actions of the turn's player."""

    BLOCK = "block"
    PLAY = "play"
    CHOOSE_SIDES = "choose-sides"
    SPECIAL_INITIATIVE = "special-initiative"
    HEAL_WINDOW = "heal-window"
    """A discard is pending; its controller may heal first. ``record`` -1: the discard of
    Battle Resolution step 4 (RED-BR-HEAL-WINDOW, RED-HEAL-AT-RESOLUTION); else the play
    record of the discarding ability (RED-HEAL-WINDOW)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """Who must decide what, inside a battle."""

    kind: PromptKind
    player: int
    record: int = -1
    """CHOOSE_SIDES and SPECIAL_INITIATIVE: the play record concerned."""
    cards: tuple[str, ...] = ()
    """CHOOSE_SIDES: the two selected characters; HEAL_WINDOW: the characters about to be discarded."""


class DiscardCause(enum.Enum):
    """What discarded a character (RED-HEAL-PREV-DISCARDED-MEANS, RED-HEAL-PREV-NOT-FROM-HAND-DECK)."""

    ABILITY = "ability"
    RULE = "rule"
    """A game rule, such as Battle Resolution step 4."""
    HAND = "hand"
    DECK = "deck"


@dataclass(frozen=True, slots=True)
class DiscardEvent:
    """A completed discard of a character this turn: what discard triggers count
    (RED-HEAL-DISCARD-NOT-COMPLETED), and the character as it was before the discard
    (RED-HEAL-PREV-AS-BEFORE-DISCARD, RED-HEAL-PREV-ATTACHED-RETURN)."""

    card: str
    cause: DiscardCause
    pile: int
    """Whose discard pile it went to (its owner's)."""
    controller: int
    """The player with permanent control of it at the discard."""
    alignment: Alignment
    """Its alignment (character type) before the discard."""
    brigades: frozenset[str]
    """Its brigades before the discard."""
    enhancements: tuple[str, ...] = ()
    """Cards that were placed on it when it was discarded."""
    healed: bool = False
    """Previous wording: healed in its heal window, the discard still counted."""


@dataclass(frozen=True, slots=True)
class Search:
    """A search of a discard pile that came with a heal (RED-HEAL-PREV-SEARCH)."""

    player: int
    """Who searched."""
    pile: int
    """Whose discard pile."""
    target: str
