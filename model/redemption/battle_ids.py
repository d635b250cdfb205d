"""Battle ids when a turn may hold any number of main battles (decision ``red-base-battles-per-turn``
= many).

Battle ids are bookkeeping: players see none of them (:mod:`model.redemption.observable` leaves them
out). They only tell battles apart: a play record names the battles on the stack when it was played
(``battle_path``), an undo names the battle a character left or a side battle opened, and a fighter's
origins name the battle it came from. Under ``one`` a turn starts at most one main battle, so ids stay
small. Under ``many`` the same Heroes may challenge again and again, and counting ids up would make
every repeat a new position: no exploration of such a turn would end. So, as a main battle starts
under ``many`` (the stack is then empty), the ids still named anywhere in the state are renumbered
``1..k`` in their order, and the new battle gets ``k + 1``. Order and distinctness are kept, which is
all the rule modules read of an id.

Clause IDs: RED-BASE-RESCUE-OR-CHALLENGE (the battle started), RED-BASE-TURN-PHASES.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace
from cardrules.model.redemption.records import PlayRecord, Undo
from cardrules.model.redemption.pieces import Fighter
from cardrules.model.redemption.state import State
from cardrules.specs.catalogue.registry import implements


def _fighter_ids(fighter: Fighter | None) -> set[int]:
    if fighter is None:
        return set()
    return {o.battle for o in fighter.origins if o.battle != -1}


def named_ids(state: State) -> frozenset[int]:
    """Every battle id the state names outside its battle stack: records' battle paths, their undo
    data and the origins of the fighters an undo keeps."""
    out: set[int] = set()
    for record in state.records:
        out.update(record.battle_path)
        undo = record.undo
        out.update(i for i in (undo.battle, undo.opened) if i != -1)
        out |= _fighter_ids(undo.fighter)
        for fighter in undo.fighters:
            out |= _fighter_ids(fighter)
    return frozenset(out)


def _fighter(fighter: Fighter | None, new: dict[int, int]) -> Fighter | None:
    if fighter is None:
        return None
    origins = tuple(replace(o, battle=new[o.battle]) if o.battle != -1 else o for o in fighter.origins)
    return fighter if origins == fighter.origins else replace(fighter, origins=origins)


def _undo(undo: Undo, new: dict[int, int]) -> Undo:
    renamed = replace(
        undo,
        battle=new.get(undo.battle, undo.battle),
        opened=new.get(undo.opened, undo.opened),
        fighter=_fighter(undo.fighter, new),
        fighters=tuple(f for f in (_fighter(f, new) for f in undo.fighters) if f is not None),
    )
    return undo if renamed == undo else renamed


def _record(record: PlayRecord, new: dict[int, int]) -> PlayRecord:
    renamed = replace(record, battle_path=tuple(new[i] for i in record.battle_path), undo=_undo(record.undo, new))
    return record if renamed == record else renamed


@implements("RED-BASE-RESCUE-OR-CHALLENGE")
def renumbered_for_a_new_battle(state: State) -> State:
    """``state`` (with an empty battle stack) with the battle ids it still names renumbered ``1..k`` in
    their order and ``next_battle = k + 1``: the id the main battle about to start gets."""
    assert not state.battles, "battle ids are renumbered only between main battles"
    new = {old: i for i, old in enumerate(sorted(named_ids(state)), start=1)}
    records = tuple(_record(r, new) for r in state.records)
    return replace(state, records=records, next_battle=len(new) + 1)
