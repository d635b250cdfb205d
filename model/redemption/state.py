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
:class:`Effect` set. Heal and redirect add the per-turn memory the
previous heal wording needs (:class:`DiscardEvent`: what a character was and
what was on it when discarded), pile searches (:class:`Search`), decreased
abilities, and enhancements placed on characters in a territory; a
numbers redirect card's stated amount (``Card.stated_amount``, ``[strength, toughness]`` or
``null``) and the end of an ongoing redirect (``PlayRecord.lasts_until``) may be left out
of older JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardrules.model.redemption.jsonform import OMIT_AT_DEFAULT, to_jsonable

from cardrules.model.redemption.pieces import (
    MAX_BATTLES, MAX_BRIGADES, MAX_CARDS, MAX_NUMBER, MAX_PLAYERS, MAX_RECORDS, MIN_PLAYERS, HEAL_EFFECTS, HELD, INTERRUPTIBLE, Alignment, Battle, BattleKind, Card, CardType, Effect, Fighter, Mission, Origin, OriginKind, Outcome, Phase, Status, Zones,
)
from cardrules.model.redemption.records import (
    DiscardCause, DiscardEvent, PlayRecord, Prompt, PromptKind, RecordStatus, Search, Undo,
)

__all__ = [
    "MAX_BATTLES", "MAX_BRIGADES", "MAX_CARDS", "MAX_NUMBER", "MAX_PLAYERS", "MAX_RECORDS", "MIN_PLAYERS", "HEAL_EFFECTS", "HELD", "INTERRUPTIBLE", "Alignment", "Battle", "BattleKind", "Card", "CardType", "Effect", "Fighter", "Mission", "Origin", "OriginKind", "Outcome", "Phase", "Status", "Zones", "DiscardCause", "DiscardEvent", "PlayRecord", "Prompt", "PromptKind", "RecordStatus", "Search", "Undo", "State", "all_locations",
]
"""The state and every piece it is made of: importers of the state need no other module."""


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
    passed: bool = field(default=False, metadata=OMIT_AT_DEFAULT)
    """The player with initiative has just passed and the other battling player is asked to play
    (decision ``red-base-pass-ends`` = both-pass; always false under one-pass)."""
    reduced: tuple[tuple[str, int, int], ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    """``(card, strength, toughness)`` a numbers redirect that has ended took from a card for good, in
    the order they ended (decision ``rd-lapse-reduction`` = reduction-stays; always empty under
    lapse-ends-both)."""

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
