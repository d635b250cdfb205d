"""Small pure state edits shared by the rule modules (layer 1 of the model).

No rule decisions here, except the one base-rule edit two areas share:
drawing cards (the draw phase and end-of-battle draws).
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.redemption.state import (
    Battle, CardType, DiscardCause, DiscardEvent, Effect, Fighter, PlayRecord, RecordStatus, State, Zones,
)
from cardrules.specs.catalogue.registry import implements

ZONE_NAMES: tuple[str, ...] = ("hand", "deck", "territory", "discard", "bondage", "redemption")


def edit_zones(state: State, player: int, **changes: object) -> State:
    zones = list(state.zones)
    zones[player] = replace(zones[player], **changes)
    return replace(state, zones=tuple(zones))


def add_to(state: State, player: int, zone: str, card_id: str) -> State:
    current = getattr(state.zones[player], zone)
    if zone == "deck":
        return edit_zones(state, player, deck=(*current, card_id))
    return edit_zones(state, player, **{zone: current | {card_id}})


def remove_from(state: State, player: int, zone: str, card_id: str) -> State:
    current = getattr(state.zones[player], zone)
    if zone == "deck":
        return edit_zones(state, player, deck=tuple(c for c in current if c != card_id))
    return edit_zones(state, player, **{zone: current - {card_id}})


def set_battle(state: State, index: int, battle: Battle) -> State:
    battles = list(state.battles)
    battles[index] = battle
    return replace(state, battles=tuple(battles))


def battle_index(state: State, battle_id: int) -> int | None:
    for index, battle in enumerate(state.battles):
        if battle.id == battle_id:
            return index
    return None


def replace_fighter(state: State, card_id: str, fighter: Fighter) -> State:
    found = state.fighter(card_id)
    assert found is not None, card_id
    index, side, _ = found
    battle = state.battles[index]
    sides = list(battle.sides)
    sides[side] = tuple(fighter if f.card == card_id else f for f in sides[side])
    return set_battle(state, index, replace(battle, sides=(sides[0], sides[1])))


def remove_fighter(state: State, card_id: str) -> tuple[State, int, int, Fighter]:
    """Take a character out of its battle; returns the battle id and side it was on."""
    found = state.fighter(card_id)
    assert found is not None, card_id
    index, side, fighter = found
    battle = state.battles[index]
    sides = list(battle.sides)
    sides[side] = tuple(f for f in sides[side] if f.card != card_id)
    state = set_battle(state, index, replace(battle, sides=(sides[0], sides[1])))
    return state, battle.id, side, fighter


def add_fighter(state: State, battle_id: int, side: int, fighter: Fighter) -> State:
    index = battle_index(state, battle_id)
    assert index is not None, battle_id
    battle = state.battles[index]
    sides = list(battle.sides)
    sides[side] = (*sides[side], fighter)
    return set_battle(state, index, replace(battle, sides=(sides[0], sides[1])))


def discard_card(state: State, card_id: str) -> State:
    """Put a card into its owner's discard pile (it must already be out of every zone). There it is
    at face value: the statuses on it are gone (RED-HEAL-PREV-REGAINS speaks of what a character
    loses going back to face value in the pile; found by the heal cross-check)."""
    if card_id in {c for c, _ in state.statuses}:
        state = replace(state, statuses=frozenset(s for s in state.statuses if s[0] != card_id))
    return add_to(state, state.card(card_id).owner, "discard", card_id)


def discard_fighter(state: State, fighter: Fighter) -> State:
    """A character (already out of its battle) and its enhancements go to their owners' discard piles."""
    state = discard_card(state, fighter.card)
    for enh in fighter.enhancements:
        state = discard_card(state, enh)
    return state


def empty_zones(players: int) -> tuple[Zones, ...]:
    return tuple(Zones() for _ in range(players))


@implements("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
def lasting(record: PlayRecord) -> bool:
    """An ongoing redirect still in force: an active numbers redirect, which lasts to the end of
    the phase it was used in (RED-RD-UNTIL-END-OF-PHASE), past the end of its battle."""
    return record.effect is Effect.REDIRECT_NUMBERS and record.status is RecordStatus.ACTIVE


def set_record(state: State, record: PlayRecord) -> State:
    """Replace the play record with the same id."""
    return replace(state, records=tuple(record if r.id == record.id else r for r in state.records))


def leave_territory(state: State, player: int, card_id: str) -> tuple[State, tuple[str, ...]]:
    """Take a character out of ``player``'s territory, with the enhancements placed on it there."""
    state = remove_from(state, player, "territory", card_id)
    enhancements = tuple(sorted(e for e, host in state.placed if host == card_id))
    if enhancements:
        state = replace(state, placed=frozenset(p for p in state.placed if p[1] != card_id))
    return state, enhancements


def note_discard(state: State, fighter: Fighter, cause: DiscardCause, healed: bool = False) -> State:
    """Append a :class:`DiscardEvent` for a character discarded from battle (what discard triggers count)."""
    card = state.card(fighter.card)
    assert card.alignment is not None
    event = DiscardEvent(
        card=fighter.card,
        cause=cause,
        pile=card.owner,
        controller=fighter.permanent,
        alignment=card.alignment,
        brigades=card.brigades,
        enhancements=fighter.enhancements,
        healed=healed,
    )
    return replace(state, discards=(*state.discards, event))


def forget_discard(state: State, card_id: str) -> State:
    """Drop the last discard event of a card (its discard was undone by interrupt or negate)."""
    for i in range(len(state.discards) - 1, -1, -1):
        if state.discards[i].card == card_id:
            return replace(state, discards=state.discards[:i] + state.discards[i + 1 :])
    return state


@implements("RED-BASE-TURN-PHASES")
def draw_cards(state: State, player: int, count: int) -> State:
    """Draw from the top of the deck; a drawn Lost Soul goes straight to the
    drawer's Land of Bondage (RED-BASE-TURN-PHASES, model note)."""
    for _ in range(count):
        deck = state.zones[player].deck
        if not deck:
            break
        top = deck[0]
        state = edit_zones(state, player, deck=deck[1:])
        zone = "bondage" if state.card(top).type is CardType.LOST_SOUL else "hand"
        state = add_to(state, player, zone, top)
    return state
