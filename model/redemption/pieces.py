"""The pieces of a Redemption position: cards and their kinds, zones, fighters and battles.

Frozen, slotted dataclasses and enums, shared by :mod:`.records` and :mod:`.state` (which
re-exports every name); the limits below are the model's input bounds.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterator

from cardrules.specs.catalogue.registry import implements

MIN_PLAYERS = 2
MAX_PLAYERS = 4

MAX_CARDS = 100
"""Most cards in an input state (the model groups up to three characters per action, so
legal action lists stay in the hundreds of thousands at worst)."""
MAX_NUMBER = 99
"""Largest magnitude of a card's strength or toughness, or of numbers moved by a redirect."""
MAX_BRIGADES = 12
"""Most brigades on one card."""
MAX_BATTLES = 16
"""Most battles on the stack."""
MAX_RECORDS = 200
"""Most play records (cards played in the current main battle)."""


class CardType(enum.Enum):
    CHARACTER = "character"
    ENHANCEMENT = "enhancement"
    LOST_SOUL = "lost-soul"


class Alignment(enum.Enum):
    """Heroes and good enhancements are ``good``; Evil Characters and evil enhancements ``evil``."""

    GOOD = "good"
    EVIL = "evil"


@implements("RED-BASE-STATUSES")
class Status(enum.Enum):
    """Statuses abilities place on a character (RED-BASE-STATUSES); a heal removes them (RED-HEAL-CLEARS-STATUS)."""

    POISONED = "poisoned"
    DISEASED = "diseased"
    PARALYZED = "paralyzed"


class Effect(enum.Enum):
    """The closed set of ability effects the model knows.

    Heal (RED-HEAL-*) and redirect (RED-RD-*) members: their targets are in
    :mod:`model.redemption.heal` and :mod:`model.redemption.redirect`.
    """

    DISCARD = "discard"
    """Instantaneous: discard one character in a battle on the stack."""
    SIDE_BATTLE = "side-battle"
    """Instantaneous: start a side battle between two characters (RED-SB-SUSPEND)."""
    INTERRUPT = "interrupt"
    """Instantaneous: interrupt one ability of the active battle (RED-BASE-INTERRUPT)."""
    NEGATE = "negate"
    """Instantaneous: negate one ability of the active battle (RED-BASE-NEGATE)."""
    PARALYZE = "paralyze"
    POISON = "poison"
    DISEASE = "disease"
    DRAW_ON_SUCCESS = "draw-on-success"
    """End of battle: if the rescue or challenge succeeded, the user draws a card (RED-BR-STEP3-END-ABILITIES)."""
    DISCARD_OPPOSING = "discard-opposing"
    """Instantaneous: discard one character on a side opposed to the player carrying it out
    (a target restriction read from that player's perspective, RED-RD-TARGET-PERSPECTIVE)."""
    DECREASE = "decrease"
    """Instantaneous: decrease one character's special ability (it cannot be used) until healed
    (RED-HEAL-RESTORES-DECREASE)."""
    HEAL = "heal"
    """Instantaneous: heal one healable character (RED-HEAL-*). On enhancements and characters."""
    RESTORE = "restore"
    """'Restore abilities': a heal in every respect (RED-HEAL-RESTORE-IS-HEAL)."""
    REDIRECT_ABILITY = "redirect-ability"
    """Instantaneous: take over an interrupted ability with new targets (RED-RD-ONLY-INTERRUPTED)."""
    REDIRECT_NUMBERS = "redirect-numbers"
    """Ongoing to the end of the phase: move a card's numbers onto the redirecting card (RED-RD-NUMBERS-TRANSFER)."""
    REDIRECT_BOTH = "redirect-both"
    """Redirect a card's ability and its numbers: two redirect abilities (RED-RD-BOTH-IS-TWO)."""


HEAL_EFFECTS: frozenset[Effect] = frozenset({Effect.HEAL, Effect.RESTORE})
"""Effects that are heals (RED-HEAL-RESTORE-IS-HEAL)."""
INTERRUPTIBLE: frozenset[Effect] = frozenset({Effect.DISCARD, Effect.DISCARD_OPPOSING, Effect.PARALYZE, Effect.POISON,
                                              Effect.DISEASE, Effect.DECREASE})
"""Effects an interrupt can undo and hold pending (the model's 'interruptible effects', RED-BASE-INTERRUPT), and the
ones the negation of a side battle card negates with it (RED-SB-NEGATE-CASCADE, with the heals of :data:`HELD`)."""
HELD: frozenset[Effect] = INTERRUPTIBLE | HEAL_EFFECTS | {Effect.SIDE_BATTLE}
"""Effects whose play record may wait, pending or announced: the interruptible effects, a heal ability in effect
(an interrupt undoes the heal), and a side battle ability answered before its side battle starts (special
initiative, decision ``sb-answer-before-start``)."""


@implements("RED-BASE-CHARACTERS", "RED-BASE-ENHANCEMENTS")
@dataclass(frozen=True, slots=True)
class Card:
    """The printed data of one card (RED-BASE-CHARACTERS, RED-BASE-ENHANCEMENTS)."""

    id: str
    """Unique card id within the game, such as ``h1``."""
    type: CardType
    owner: int
    """Seat index of the player who owns the card."""
    alignment: Alignment | None = None
    """Hero/good or Evil/evil; ``None`` for Lost Souls."""
    brigades: frozenset[str] = frozenset()
    strength: int = 0
    """A character's strength, or an enhancement's strength bonus."""
    toughness: int = 0
    territory_class: bool = False
    """Territory Class flag (RED-BASE-TERRITORY-CLASS): a character's heal ability may be
    used outside battle only with it (RED-HEAL-CHARACTER-TC)."""
    ability: Effect | None = None
    """An enhancement's one optional ability; a character may carry a heal (or restore) ability."""
    stated_amount: tuple[int, int] | None = None
    """A numbers redirect card (``redirect-numbers`` or ``redirect-both``) that states how much it
    moves: ``[strength, toughness]``, each 0 to MAX_NUMBER, such as ``[3, 3]`` (3/3 out of an 8/8);
    ``null``: no amount stated (decision ``rd-amount``). An amount above the target's printed
    numbers moves at most those (decision ``rd-stated-exceeds``). RED-RD-NUMBERS-TRANSFER."""

    def __post_init__(self) -> None:
        if not self.id or any(c.isspace() for c in self.id) or self.id.startswith("#"):
            raise ValueError(f"card id {self.id!r} must be non-empty, without spaces, not starting with '#'")
        if self.type is CardType.LOST_SOUL:
            if self.alignment is not None or self.ability is not None:
                raise ValueError(f"Lost Soul {self.id} has no alignment or ability")
        elif self.alignment is None or not self.brigades:
            raise ValueError(f"card {self.id}: characters and enhancements need an alignment and a brigade")
        if self.type is CardType.CHARACTER and self.ability is not None and self.ability not in HEAL_EFFECTS:
            raise ValueError(f"card {self.id}: a character's modelled ability can only be a heal")
        if self.stated_amount is not None:
            if self.ability not in (Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
                raise ValueError(f"card {self.id}: only a numbers redirect (redirect-numbers, redirect-both) states an amount")
            if any(n < 0 for n in self.stated_amount):
                raise ValueError(f"card {self.id}: a stated amount is two numbers of 0 or more")

    @property
    def is_hero(self) -> bool:
        return self.type is CardType.CHARACTER and self.alignment is Alignment.GOOD

    @property
    def is_evil_character(self) -> bool:
        return self.type is CardType.CHARACTER and self.alignment is Alignment.EVIL


@dataclass(frozen=True, slots=True)
class Zones:
    """One player's zones. The deck is ordered, top card first."""

    hand: frozenset[str] = frozenset()
    deck: tuple[str, ...] = ()
    territory: frozenset[str] = frozenset()
    """Characters; this player has permanent control of each."""
    discard: frozenset[str] = frozenset()
    bondage: frozenset[str] = frozenset()
    """Land of Bondage: Lost Souls."""
    redemption: frozenset[str] = frozenset()
    """Land of Redemption: rescued Lost Souls."""

    def cards(self) -> Iterator[str]:
        yield from self.hand
        yield from self.deck
        yield from self.territory
        yield from self.discard
        yield from self.bondage
        yield from self.redemption


@implements("RED-BASE-TURN-PHASES")
class Phase(enum.Enum):
    """The five phases of a turn, in order (RED-BASE-TURN-PHASES)."""

    DRAW = "draw"
    UPKEEP = "upkeep"
    PREPARATION = "preparation"
    BATTLE = "battle"
    DISCARD = "discard"


class OriginKind(enum.Enum):
    TERRITORY = "territory"
    HAND = "hand"
    BATTLE = "battle"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a character came from when it entered its battle (RED-SB-RETURN-TO-BATTLE)."""

    kind: OriginKind
    player: int
    """Territory or hand owner; for ``battle``, the player who controlled it there."""
    battle: int = -1
    """For ``battle``: the id of the battle it came from."""
    side: int = -1
    """For ``battle``: the side (0 or 1) it was on."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """A character in a battle, with the enhancements on it."""

    card: str
    permanent: int
    """The player with permanent control (RED-BR-RETURN-PERMANENT-CONTROLLER)."""
    origins: tuple[Origin, ...]
    """Where it came from, one entry per battle it is nested in, the last for
    the battle it is in now (RED-SB-RETURN-TO-BATTLE pops one on return)."""
    enhancements: tuple[str, ...] = ()
    """Enhancements on the character, in play order; they travel with it."""

    @property
    def origin(self) -> Origin:
        return self.origins[-1]


class BattleKind(enum.Enum):
    RESCUE = "rescue"
    CHALLENGE = "challenge"
    SIDE = "side"


class Outcome(enum.Enum):
    """The four outcomes (RED-BR-FOUR-OUTCOMES), named by side: side 0 is the
    first battling player's (the Heroes in a main battle), side 1 the second's."""

    SIDE0_WINS = "side0-wins"
    SIDE1_WINS = "side1-wins"
    MUTUAL_DESTRUCTION = "mutual-destruction"
    STALEMATE = "stalemate"


class Mission(enum.Enum):
    """Step 2 result of a main battle (RED-BR-MISSION-RESULT)."""

    SUCCESS = "success"
    FAILURE = "failure"
    NONE = "none"
    """A side battle has no rescue or challenge to settle."""
    UNDETERMINED = "undetermined"
    """Only under decision ``br-rescue-draw = undetermined``: a rescue attempt with access that ended in
    mutual destruction or a stalemate succeeded no more than it failed."""


@dataclass(frozen=True, slots=True)
class Battle:
    """One battle on the stack."""

    id: int
    kind: BattleKind
    players: tuple[int, int]
    """The two battling players: side 0's and side 1's."""
    sides: tuple[tuple[Fighter, ...], tuple[Fighter, ...]]
    last_player: int
    """Who played (or put in) the last card, for initiative in a tie."""
    opened_by: int = -1
    """For side battles: the play record of the side battle ability."""
    outcome: Outcome | None = None
    """Set once resolution has begun (step 1)."""
    mission: Mission | None = None
    defeated: tuple[str, ...] = ()
    """Step 4: characters the outcome discards (pending until the heal window closes)."""

    def fighters(self) -> Iterator[tuple[int, Fighter]]:
        for side, fighters in enumerate(self.sides):
            for fighter in fighters:
                yield side, fighter
