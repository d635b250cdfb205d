"""Immutable state of a Redemption game, as the battle model sees it.

Everything is a frozen, slotted dataclass of tuples, frozensets, enums and
scalars, so a :class:`State` is hashable and can be a graph node as it is.

JSON form: :meth:`State.to_json` / :meth:`State.from_json`, by the fixed
mapping of :mod:`model.redemption.jsonform` (objects keyed by field name,
enums by value, sets as sorted arrays). ``from_json(to_json(s)) == s`` for
every state. ``from_json`` also checks the state is well formed
(:func:`problems`) and raises :class:`~model.errors.ScenarioError` naming the
path of the first problem.

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

from cardrules.model.errors import ScenarioError
from cardrules.model.redemption.jsonform import from_jsonable, to_jsonable
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

    @classmethod
    def from_json(cls, data: Any) -> "State":
        """Read and check a state; malformed input raises ScenarioError naming the path."""
        state = from_jsonable(cls, data, "")
        found = problems(state)
        if found:
            where, problem = found[0]
            raise ScenarioError(where, problem)
        return state  # type: ignore[no-any-return]


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


def problems(state: State) -> list[tuple[str, str]]:
    """Structural problems of a state, as ``(path, problem)``; empty when well formed.

    Checks: player count, cards sorted and unique, every card in exactly one
    place, zone contents of the right card type, battles between two
    distinct players, prompt players in range, a prompt exactly while a battle
    is on (every step of a battle waits on a player); then the input bounds
    (MAX_CARDS, MAX_NUMBER, MAX_BRIGADES, MAX_BATTLES, MAX_RECORDS), counters,
    and every reference: player indexes (controllers, origins, carriers,
    piles), battle ids (unique, below ``next_battle``; a character's origin
    battle below it on the stack), play record ids (unique, below
    ``next_record``; ``#n`` targets and the prompt's record exist) and card ids,
    so that the rule modules never meet a dangling reference.
    """
    out: list[tuple[str, str]] = []
    if not MIN_PLAYERS <= state.players <= MAX_PLAYERS:
        out.append(("zones", f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, found {state.players}"))
        return out
    ids = [c.id for c in state.cards]
    if ids != sorted(set(ids)):
        out.append(("cards", "card ids must be unique and sorted"))
    by_id = {c.id: c for c in state.cards}
    for i, card in enumerate(state.cards):
        if not 0 <= card.owner < state.players:
            out.append((f"cards[{i}].owner", f"no player {card.owner}"))
    if len(state.side_battles) != state.players:
        out.append(("side_battles", "needs one counter per player"))
    if not 0 <= state.active < state.players:
        out.append(("active", f"no player {state.active}"))
    places: dict[str, str] = {}
    for card_id, place in all_locations(state):
        if card_id not in by_id:
            out.append((place, f"unknown card {card_id!r}"))
        elif card_id in places:
            out.append((place, f"card {card_id!r} is also in {places[card_id]}"))
        else:
            places[card_id] = place
    for card_id in ids:
        if card_id not in places:
            out.append(("cards", f"card {card_id!r} is in no zone"))
    for p, zones in enumerate(state.zones):
        for name, kind in (("territory", CardType.CHARACTER), ("bondage", CardType.LOST_SOUL), ("redemption", CardType.LOST_SOUL)):
            for card_id in sorted(getattr(zones, name)):
                if card_id in by_id and by_id[card_id].type is not kind:
                    out.append((f"zones[{p}].{name}", f"{card_id!r} is not a {kind.value}"))
    for b, battle in enumerate(state.battles):
        a, d = battle.players
        if a == d or not (0 <= a < state.players and 0 <= d < state.players):
            out.append((f"battles[{b}].players", "needs two distinct players of the game"))
        for side, fighters in enumerate(battle.sides):
            for f, fighter in enumerate(fighters):
                card = by_id.get(fighter.card)
                if card is not None and card.type is not CardType.CHARACTER:
                    out.append((f"battles[{b}].sides[{side}][{f}].card", f"{fighter.card!r} is not a character"))
                for enh in fighter.enhancements:
                    if enh in by_id and by_id[enh].type is not CardType.ENHANCEMENT:
                        out.append((f"battles[{b}].sides[{side}][{f}].enhancements", f"{enh!r} is not an enhancement"))
    if state.prompt is not None and not 0 <= state.prompt.player < state.players:
        out.append(("prompt.player", f"no player {state.prompt.player}"))
    if state.prompt is not None and not state.battles:
        out.append(("prompt", "a prompt needs a battle"))
    if state.battles and state.prompt is None:
        out.append(("prompt", "a battle is on, so a player has a decision to make"))
    for enh, host in sorted(state.placed):
        if enh in by_id and by_id[enh].type is not CardType.ENHANCEMENT:
            out.append((f"placed[{enh}]", f"{enh!r} is not an enhancement"))
        if state.in_territory(host) is None:
            out.append((f"placed[{enh}]", f"{host!r} is not a character in a territory"))
    for i, event in enumerate(state.discards):
        if event.card not in by_id:
            out.append((f"discards[{i}].card", f"unknown card {event.card!r}"))
    for check in (_size_problems, _counter_problems, _battle_problems, _record_problems, _prompt_problems,
                  _reference_problems):
        out.extend(check(state, by_id))
    return out


def _player_range(state: State, value: int, where: str) -> list[tuple[str, str]]:
    return [] if 0 <= value < state.players else [(where, f"no player {value} (the game has {state.players})")]


def _size_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Input bounds (MAX_CARDS, MAX_NUMBER, MAX_BRIGADES, MAX_BATTLES, MAX_RECORDS)."""
    out: list[tuple[str, str]] = []
    if len(state.cards) > MAX_CARDS:
        out.append(("cards", f"at most MAX_CARDS = {MAX_CARDS} cards, found {len(state.cards)}"))
    for i, card in enumerate(state.cards):
        for name in ("strength", "toughness"):
            if abs(getattr(card, name)) > MAX_NUMBER:
                out.append((f"cards[{i}].{name}", f"must be between {-MAX_NUMBER} and {MAX_NUMBER}"))
        if card.stated_amount is not None and any(n > MAX_NUMBER for n in card.stated_amount):
            out.append((f"cards[{i}].stated_amount", f"numbers between 0 and {MAX_NUMBER}"))
        if len(card.brigades) > MAX_BRIGADES:
            out.append((f"cards[{i}].brigades", f"at most {MAX_BRIGADES} brigades"))
    if len(state.battles) > MAX_BATTLES:
        out.append(("battles", f"at most MAX_BATTLES = {MAX_BATTLES} battles on the stack"))
    if len(state.records) > MAX_RECORDS:
        out.append(("records", f"at most MAX_RECORDS = {MAX_RECORDS} play records"))
    return out


def _counter_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Counters in range: turn, battle and record numbering, side battle counts, winner."""
    out: list[tuple[str, str]] = []
    if state.turn < 1:
        out.append(("turn", "must be at least 1"))
    if state.battles_started < 0:
        out.append(("battles_started", "must not be negative"))
    for p, count in enumerate(state.side_battles):
        if count < 0:
            out.append((f"side_battles[{p}]", "must not be negative"))
    if state.next_battle < 1:
        out.append(("next_battle", "must be at least 1"))
    if state.next_record < 1:
        out.append(("next_record", "must be at least 1"))
    if state.winner is not None:
        out.extend(_player_range(state, state.winner, "winner"))
    return out


def _fighter_problems(state: State, fighter: Fighter, where: str, below: dict[int, int]) -> list[tuple[str, str]]:
    """A fighter's controller and origins; ``below``: battle id -> stack index of the battles it may come from."""
    out = _player_range(state, fighter.permanent, f"{where}.permanent")
    if not fighter.origins:
        out.append((f"{where}.origins", "a character in battle has at least one origin"))
    for o, origin in enumerate(fighter.origins):
        out.extend(_player_range(state, origin.player, f"{where}.origins[{o}].player"))
        if origin.kind is OriginKind.BATTLE:
            if origin.battle not in below:
                out.append((f"{where}.origins[{o}].battle", f"no battle {origin.battle} below this one on the stack"))
            if origin.side not in (0, 1):
                out.append((f"{where}.origins[{o}].side", "expected 0 or 1"))
    return out


def _battle_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Battle ids unique and numbered below next_battle; players, fighters and defeated cards valid."""
    out: list[tuple[str, str]] = []
    below: dict[int, int] = {}
    for b, battle in enumerate(state.battles):
        where = f"battles[{b}]"
        if battle.id in below:
            out.append((f"{where}.id", f"battle id {battle.id} is used twice"))
        elif not 1 <= battle.id < state.next_battle:
            out.append((f"{where}.id", f"must be between 1 and next_battle - 1 ({state.next_battle - 1})"))
        out.extend(_player_range(state, battle.last_player, f"{where}.last_player"))
        if battle.opened_by != -1 and not 1 <= battle.opened_by < state.next_record:
            out.append((f"{where}.opened_by", "expected -1 or the number of a play record"))
        for side, fighters in enumerate(battle.sides):
            for f, fighter in enumerate(fighters):
                out.extend(_fighter_problems(state, fighter, f"{where}.sides[{side}][{f}]", below))
        for d, card_id in enumerate(battle.defeated):
            if card_id not in by_id:
                out.append((f"{where}.defeated[{d}]", f"unknown card {card_id!r}"))
        below[battle.id] = b
    return out


def _record_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Play records: unique ids below next_record, players in range, cards and ``#n`` targets that exist; a
    numbers redirect names at most one card, and one while active (RED-RD-NUMBERS-TARGET: it is never interrupted,
    RED-RD-NUMBERS-NO-INTERRUPT, so never redirected to new targets); only an interruptible ability's record waits
    (pending or announced: RED-BASE-INTERRUPT, RED-BASE-SPECIAL-INITIATIVE)."""
    out: list[tuple[str, str]] = []
    ids = {r.id for r in state.records}
    seen: set[int] = set()
    for i, record in enumerate(state.records):
        where = f"records[{i}]"
        if record.id in seen:
            out.append((f"{where}.id", f"record id {record.id} is used twice"))
        elif not 1 <= record.id < state.next_record:
            out.append((f"{where}.id", f"must be between 1 and next_record - 1 ({state.next_record - 1})"))
        seen.add(record.id)
        out.extend(_player_range(state, record.player, f"{where}.player"))
        if record.carrier != -1:
            out.extend(_player_range(state, record.carrier, f"{where}.carrier"))
        for name in ("card", "on"):
            if getattr(record, name) not in by_id:
                out.append((f"{where}.{name}", f"unknown card {getattr(record, name)!r}"))
        for t, target in enumerate(record.targets):
            if target.startswith("#"):
                if not target[1:].isascii() or not target[1:].isdigit() or int(target[1:]) not in ids:
                    out.append((f"{where}.targets[{t}]", f"{target!r} is not a play record of this state"))
            elif target not in by_id:
                out.append((f"{where}.targets[{t}]", f"unknown card {target!r}"))
        if record.effect in (Effect.INTERRUPT, Effect.NEGATE, Effect.REDIRECT_ABILITY) and record.status in (
            RecordStatus.ACTIVE, RecordStatus.ANNOUNCED, RecordStatus.PENDING
        ) and not (record.targets and record.targets[0].startswith("#")):
            out.append((f"{where}.targets", f"a {record.effect.value} ability targets a play record '#n' first"))
        if record.effect is Effect.REDIRECT_NUMBERS and (
            len(record.targets) > 1 or any(t.startswith("#") for t in record.targets)
            or (record.status is RecordStatus.ACTIVE and not record.targets)
        ):
            out.append((f"{where}.targets", "a numbers redirect (redirect-numbers) names at most one card, and one while active"))
        if record.status in (RecordStatus.PENDING, RecordStatus.ANNOUNCED) and record.effect not in INTERRUPTIBLE:
            out.append((f"{where}.status", f"only the record of an ability an interrupt can hold (a discard, a status, "
                        f"a decrease) is {record.status.value}"))
        if not record.battle_path:
            out.append((f"{where}.battle_path", "names at least the battle it was played in"))
        for b, battle_id in enumerate(record.battle_path):
            if not 1 <= battle_id < state.next_battle:
                out.append((f"{where}.battle_path[{b}]", f"no battle {battle_id} was started"))
        out.extend(_undo_problems(state, record.undo, f"{where}.undo"))
        if any(abs(n) > MAX_NUMBER for n in record.amount):
            out.append((f"{where}.amount", f"numbers between {-MAX_NUMBER} and {MAX_NUMBER}"))
        out.extend(_lasting_problems(state, record, where))
    return out


def _lasting_problems(state: State, record: PlayRecord, where: str) -> list[tuple[str, str]]:
    """An ongoing redirect's end (RED-RD-UNTIL-END-OF-PHASE): only a numbers redirect has one, an active
    one lasts until the end of the current phase, and outside battle only those are kept."""
    out: list[tuple[str, str]] = []
    if record.lasts_until is not None and record.effect is not Effect.REDIRECT_NUMBERS:
        out.append((f"{where}.lasts_until", "only a numbers redirect (redirect-numbers) is ongoing"))
    elif record.lasts_until is not None and record.status is RecordStatus.ACTIVE:
        turn, phase = record.lasts_until
        if (turn, phase) != (state.turn, state.phase):
            out.append((f"{where}.lasts_until", f"an active redirect lasts until the end of the current phase "
                        f"(turn {state.turn}, {state.phase.value}), found turn {turn}, {phase.value}"))
    if not state.battles and not (record.effect is Effect.REDIRECT_NUMBERS and record.status is RecordStatus.ACTIVE):
        out.append((where, "outside battle the records hold only numbers redirects still in force"))
    return out


def _undo_problems(state: State, undo: Undo, where: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if undo.side not in (-1, 0, 1):
        out.append((f"{where}.side", "expected -1, 0 or 1"))
    for name in ("battle", "opened"):
        value = getattr(undo, name)
        if value != -1 and not 1 <= value < state.next_battle:
            out.append((f"{where}.{name}", f"expected -1 or a battle started ({state.next_battle - 1} so far)"))
    if undo.fighter is not None:
        fighter = undo.fighter
        out.extend(_player_range(state, fighter.permanent, f"{where}.fighter.permanent"))
        if not fighter.origins:
            out.append((f"{where}.fighter.origins", "a character in battle has at least one origin"))
        for o, origin in enumerate(fighter.origins):
            out.extend(_player_range(state, origin.player, f"{where}.fighter.origins[{o}].player"))
            if origin.side not in (-1, 0, 1):
                out.append((f"{where}.fighter.origins[{o}].side", "expected -1, 0 or 1"))
        if not state.has_card(fighter.card):
            out.append((f"{where}.fighter.card", f"unknown card {fighter.card!r}"))
        for e, enh in enumerate(fighter.enhancements):
            if not state.has_card(enh):
                out.append((f"{where}.fighter.enhancements[{e}]", f"unknown card {enh!r}"))
    return out


def _prompt_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """A prompt's record exists where its kind needs one; its cards exist."""
    prompt = state.prompt
    if prompt is None:
        return []
    out: list[tuple[str, str]] = []
    ids = {r.id for r in state.records}
    needs_record = prompt.kind in (PromptKind.CHOOSE_SIDES, PromptKind.SPECIAL_INITIATIVE)
    if (needs_record or prompt.record != -1) and prompt.record not in ids:
        wanted = "the number of a play record" if needs_record else "-1 or the number of a play record"
        out.append(("prompt.record", f"expected {wanted}, found {prompt.record} (records: {sorted(ids) or 'none'})"))
    for c, card_id in enumerate(prompt.cards):
        if card_id not in by_id:
            out.append((f"prompt.cards[{c}]", f"unknown card {card_id!r}"))
    if prompt.kind is PromptKind.CHOOSE_SIDES and len(prompt.cards) != 2:
        out.append(("prompt.cards", "choosing sides needs the two selected characters"))
    return out


def _reference_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Statuses, decreased abilities, discard events and searches name real cards and players."""
    out: list[tuple[str, str]] = []
    for card_id, _ in sorted(state.statuses, key=lambda s: (s[0], s[1].value)):
        if card_id not in by_id:
            out.append(("statuses", f"unknown card {card_id!r}"))
    for card_id in sorted(state.decreased):
        if card_id not in by_id:
            out.append(("decreased", f"unknown card {card_id!r}"))
    for i, event in enumerate(state.discards):
        out.extend(_player_range(state, event.pile, f"discards[{i}].pile"))
        out.extend(_player_range(state, event.controller, f"discards[{i}].controller"))
    for i, search in enumerate(state.searches):
        out.extend(_player_range(state, search.player, f"searches[{i}].player"))
        out.extend(_player_range(state, search.pile, f"searches[{i}].pile"))
        if search.target not in by_id:
            out.append((f"searches[{i}].target", f"unknown card {search.target!r}"))
    for enh, host in sorted(state.placed):
        if host not in by_id:
            out.append((f"placed[{enh}]", f"unknown card {host!r}"))
    return out
