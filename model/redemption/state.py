"""Immutable state of a Redemption game, as the battle model sees it.

Everything is a frozen, slotted dataclass of tuples, frozensets, enums and
scalars, so a :class:`State` is hashable and can be a graph node as it is.

JSON form: :meth:`State.to_json`, read back by
:func:`cardrules.model.redemption.validate.load_state`, by the fixed mapping of
:mod:`model.redemption.jsonform` (objects keyed by field name, enums by value,
sets as sorted arrays). ``load_state(s.to_json()) == s`` for every state.
``load_state`` also checks the state is well formed
(:func:`cardrules.model.redemption.validate.problems`) and raises
:class:`~model.errors.ScenarioError` naming the path of the first problem.

What is abstracted away: card names and printed texts beyond the fields
below, hand-size limits, deck-outs, and abilities outside the closed
:class:`Effect` set. Heal and redirect (issue 5) add the per-turn memory the
previous heal wording needs (:class:`DiscardEvent`: what a character was and
what was on it when discarded), pile searches (:class:`Search`), decreased
abilities, and enhancements placed on characters in a territory. Issue 15 adds a
numbers redirect card's stated amount (``Card.stated_amount``, ``[strength, toughness]`` or
``null``) and the end of an ongoing redirect (``PlayRecord.lasts_until``); both may be left out
of older JSON.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Iterator

from cardrules.model.redemption.jsonform import to_jsonable
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
"""Effects an interrupt can undo and hold pending (the model's 'interruptible effects', RED-BASE-INTERRUPT): the
only ones whose play record ever waits, pending or announced."""


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
    """An ongoing redirect whose phase has ended (RED-RD-UNTIL-END-OF-PHASE)."""


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
    used in. ``None``: not ongoing (or written before issue 15: the current phase)."""

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


@dataclass(frozen=True, slots=True)
class State:
    """A whole game position."""

    cards: tuple[Card, ...]
    """Every card in the game, sorted by id (static data)."""
    zones: tuple[Zones, ...]
    """One per player, in seat order."""
    active: int = 0
    """Whose turn it is."""
    turn: int = 1
    phase: Phase = Phase.DRAW
    battles: tuple[Battle, ...] = ()
    """The battle stack, bottom (the turn's main battle) first."""
    prompt: Prompt | None = None
    """Set while a battle needs someone's decision; ``None`` means the turn's player acts."""
    records: tuple[PlayRecord, ...] = ()
    """Cards played during the current main battle; when it ends only the ongoing redirects still
    in force are kept, until the end of their phase (RED-RD-UNTIL-END-OF-PHASE)."""
    statuses: frozenset[tuple[str, Status]] = frozenset()
    battles_started: int = 0
    """Main battles started this turn."""
    side_battles: tuple[int, ...] = ()
    """Side battles initiated this turn, per player (RED-SB-ONCE-PER-TURN)."""
    next_battle: int = 1
    next_record: int = 1
    last_outcome: Outcome | None = None
    """Outcome of the last main battle resolved (for scenarios and tests)."""
    last_mission: Mission | None = None
    winner: int | None = None
    decreased: frozenset[str] = frozenset()
    """Characters whose special ability is decreased (cannot be used) until healed."""
    discards: tuple[DiscardEvent, ...] = ()
    """Completed character discards this turn, in order (cleared when the turn ends)."""
    searches: tuple[Search, ...] = ()
    """Discard pile searches this turn (cleared when the turn ends)."""
    placed: frozenset[tuple[str, str]] = frozenset()
    """``(enhancement, character)``: enhancements on a character in a territory (returned
    with a character healed from a discard pile, RED-HEAL-PREV-ATTACHED-RETURN); they go
    into battle with it."""

    def __post_init__(self) -> None:
        if not self.side_battles:
            object.__setattr__(self, "side_battles", (0,) * len(self.zones))

    # --- lookups -------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.zones)

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def has_card(self, card_id: str) -> bool:
        return any(card.id == card_id for card in self.cards)

    @property
    def active_battle(self) -> Battle | None:
        return self.battles[-1] if self.battles else None

    def record(self, record_id: int) -> PlayRecord:
        for record in self.records:
            if record.id == record_id:
                return record
        raise KeyError(record_id)

    def fighter(self, card_id: str) -> tuple[int, int, Fighter] | None:
        """``(battle index, side, fighter)`` of a character in battle, else ``None``."""
        for index, battle in enumerate(self.battles):
            for side, fighter in battle.fighters():
                if fighter.card == card_id:
                    return index, side, fighter
        return None

    def has_status(self, card_id: str, status: Status) -> bool:
        return (card_id, status) in self.statuses

    def in_territory(self, card_id: str) -> int | None:
        """The player in whose territory the card is, else ``None``."""
        for player, zones in enumerate(self.zones):
            if card_id in zones.territory:
                return player
        return None

    def in_any_battle(self, card_id: str) -> bool:
        """A character or attached card in some battle on the stack."""
        return any(
            fighter.card == card_id or card_id in fighter.enhancements
            for battle in self.battles
            for _, fighter in battle.fighters()
        )

    def battle_level(self, card_id: str) -> int | None:
        """The stack index (0 = bottom) of the battle a character or attached card is in; None if in none."""
        for level, battle in enumerate(self.battles):
            for _, fighter in battle.fighters():
                if fighter.card == card_id or card_id in fighter.enhancements:
                    return level
        return None

    # --- JSON ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form (see the module docstring)."""
        return to_jsonable(self)  # type: ignore[no-any-return]


def all_locations(state: State) -> list[tuple[str, str]]:
    """``(card id, place)`` for every card occurrence in a zone, battle or attachment."""
    seen: list[tuple[str, str]] = []
    for p, zones in enumerate(state.zones):
        for name in ("hand", "deck", "territory", "discard", "bondage", "redemption"):
            for card_id in getattr(zones, name):
                seen.append((card_id, f"zones[{p}].{name}"))
    for b, battle in enumerate(state.battles):
        for side, fighters in enumerate(battle.sides):
            for f, fighter in enumerate(fighters):
                seen.append((fighter.card, f"battles[{b}].sides[{side}][{f}].card"))
                for e, enh in enumerate(fighter.enhancements):
                    seen.append((enh, f"battles[{b}].sides[{side}][{f}].enhancements[{e}]"))
    for enh, host in sorted(state.placed):
        seen.append((enh, f"placed[{enh}]"))
    return seen
