"""Undoing a whole side battle when its card is negated (decision ``sb-negate-resolution`` = undo-all).

Under the chosen reading (keep-resolution) negating a side battle card negates the interruptible effects
of the cards played during its side battle (RED-SB-NEGATE-CASCADE, :func:`model.redemption.abilities.negate`)
and its resolution stands. Under undo-all the side battle is undone as if it had never been fought: each of
its two fighters goes back to where it was selected from (a battle still on the stack, on the side it
fought on; a territory; the hand it was taken from), carrying the enhancements it carried in and those
played on it since the side battle ended; the cards played on it in the side battle go to their owners'
discard piles, and a discard of it the side battle's resolution made is no longer counted. For that the side battle card's play
record keeps the two fighters as the side battle began (:attr:`~.records.Undo.fighters`, recorded only under
undo-all, :func:`snapshot`).
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.ops import (
    add_fighter, add_to, battle_index, discard_card, edit_zones, forget_discard, remove_fighter, remove_from,
)
from cardrules.model.redemption.state import Battle, Fighter, OriginKind, PlayRecord, State
from cardrules.specs.catalogue.registry import implements


def undoes_resolution(config: RuleConfig) -> bool:
    """Decision ``sb-negate-resolution``: whether negating a side battle card undoes its whole side battle."""
    return config.option("sb-negate-resolution") == "undo-all"


def snapshot(record: PlayRecord, battle: Battle, config: RuleConfig) -> PlayRecord:
    """``record`` (the side battle card's) remembering the fighters of the side battle ``battle`` it just
    opened, under undo-all; unchanged under keep-resolution (its JSON form stays as it was)."""
    if not undoes_resolution(config):
        return record
    return replace(record, undo=replace(record.undo, fighters=tuple(f for _, f in battle.fighters())))


def _take_out(state: State, card_id: str) -> tuple[State, tuple[str, ...]]:
    """Take ``card_id`` out of wherever it is now; returns it and the cards that were on it."""
    if state.fighter(card_id) is not None:
        state, _, _, now = remove_fighter(state, card_id)
        return state, now.enhancements
    for player, zones in enumerate(state.zones):
        if card_id in zones.territory:
            on = tuple(sorted(e for e, host in state.placed if host == card_id))
            state = replace(state, placed=frozenset(p for p in state.placed if p[1] != card_id))
            return remove_from(state, player, "territory", card_id), on
        if card_id in zones.discard:
            return forget_discard(remove_from(state, player, "discard", card_id), card_id), ()
        if card_id in zones.hand:
            return remove_from(state, player, "hand", card_id), ()
    return state, ()


def _recover(state: State, card_id: str, on: tuple[str, ...]) -> tuple[State, bool]:
    """Whether ``card_id`` (an enhancement the fighter carried in) can go back on it: it is still on it
    (``on``) or lies in its owner's discard pile (taken out of it)."""
    if card_id in on:
        return state, True
    owner = state.card(card_id).owner
    if card_id in state.zones[owner].discard:
        return edit_zones(state, owner, discard=state.zones[owner].discard - {card_id}), True
    return state, False


@implements("RED-SB-NEGATE-CASCADE", "RED-BASE-NEGATE")
def undo_side_battle(state: State, record: PlayRecord) -> State:
    """Put the fighters of the side battle of ``record`` (a negated side battle card, its fighters kept
    under undo-all) back where they were selected from, as they were then (see the module docstring)."""
    played = {r.card for r in state.records if record.undo.opened in r.battle_path}
    for fighter in record.undo.fighters:
        state, on = _take_out(state, fighter.card)
        kept: list[str] = []
        for enh in fighter.enhancements:
            state, back = _recover(state, enh, on)
            if back:
                kept.append(enh)
        for enh in on:
            if enh in played and enh not in kept:
                state = discard_card(state, enh)
            elif enh not in kept:
                kept.append(enh)  # played on it after the side battle, in the battle it went back to
        state = _put_back(state, replace(fighter, enhancements=tuple(kept)))
    return state


def _put_back(state: State, fighter: Fighter) -> State:
    origin = fighter.origin
    if origin.kind is OriginKind.BATTLE and battle_index(state, origin.battle) is not None:
        return add_fighter(state, origin.battle, origin.side, replace(fighter, origins=fighter.origins[:-1]))
    if origin.kind is OriginKind.HAND:
        return add_to(state, origin.player, "hand", fighter.card)
    home = origin.player if origin.kind is OriginKind.TERRITORY else fighter.permanent
    state = add_to(state, home, "territory", fighter.card)
    return replace(state, placed=state.placed | {(e, fighter.card) for e in fighter.enhancements})
