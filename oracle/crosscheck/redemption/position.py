"""Raw facts of a model position for the Redemption encodings, and the encoding's log carried along
a play (see :mod:`specs.smt.redemption.position`).

The bridge reads off a :class:`State` only what a position shows as it is serialised: which card
sits in which list (a player's zone lists, a side of a battle, a fighter's enhancements), printed
owners, the battle records' players, the size of each Land of Bondage. It never reads the model's
bookkeeping (a fighter's ``permanent`` and ``origins``, ``State.in_any_battle``, control): z3
derives those. What a position cannot show (where a fighter came from, who has permanent control
of it) is the encoding's own :data:`Log`, advanced by z3 (:func:`advance`) from one position of
the play to the next; a position handed without history starts the log from its given fighters
(:func:`initial_log`: a scenario's starting position is its own input, written by its author).
The log (:class:`PlayLog`) also holds, per player, the side battles initiated this turn (counted by
the side battle encoding, never the model's ``side_battles``), per discard event of the turn,
who had permanent control of the character (never the event's ``controller``), and per play record
the turn and phase the card was played in (never the model's ``lasts_until``).
"""

from __future__ import annotations

from typing import Callable, Mapping

from cardrules.model.redemption.state import OriginKind, Phase, State
from cardrules.specs.smt.redemption import position as pos
from cardrules.specs.smt.redemption.common import NONE

Raw = tuple[tuple[str, int], ...]
"""A card's raw place (:func:`raw_card`) as a hashable key of cached z3 answers."""
Log = Mapping[str, tuple[tuple[int, pos.Entry], ...]]
"""Card -> (battle id, how it entered that battle), one per battle it is nested in, the last for
the battle it is in now."""


def raw_stack(state: State) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Each battle record's players (bottom first), and how many cards lie in each Land of Bondage."""
    return tuple(b.players for b in state.battles), tuple(len(z.bondage) for z in state.zones)


def raw_card(state: State, card_id: str, log: Log) -> dict[str, int]:
    """One card's raw place (see :class:`specs.smt.redemption.position.CardPos`), and the permanent
    controller the log holds for a fighter."""
    out = {"owner": state.card(card_id).owner, "where": pos.NOWHERE, "holder": NONE, "level": NONE,
           "raw_side": NONE, "logged_perm": NONE}
    for level, battle in enumerate(state.battles):
        for side, fighter in battle.fighters():
            if fighter.card == card_id:
                entries = log.get(card_id, ())
                out.update(where=pos.FIGHTING, level=level, raw_side=side,
                           logged_perm=entries[-1][1].perm if entries else NONE)
                return out
            if card_id in fighter.enhancements:
                out.update(where=pos.ON_FIGHTER, level=level)
                return out
    for player, zones in enumerate(state.zones):
        for where, name in enumerate(pos.PLAYER_LISTS):
            if card_id in getattr(zones, name):
                out.update(where=where, holder=player)
                return out
    return out


class PlayLog(dict[str, tuple[tuple[int, pos.Entry], ...]]):
    """The encoding's log of one position: per fighter its entries (a :data:`Log`), and per player how
    many side battles they have initiated this turn (:attr:`side_battles`), as the side battle encoding
    counted them along the play (its ``count_after``, RED-SB-ONCE-PER-TURN), never the model's counter."""

    side_battles: tuple[int, ...] = ()
    turn: int = -1
    discard_controllers: tuple[int, ...] | None = None
    """Per discard event of the turn (in order), the player with permanent control of the character
    when it was discarded: its log entry's (z3-derived) permanent controller in the position before."""
    played_in: Mapping[int, tuple[int, Phase]] | None = None
    """Per play record (by id), the turn and phase of the position the card was played from: when a
    redirect was used, from which the redirect encoding derives when it ends
    (RED-RD-UNTIL-END-OF-PHASE), never from the model's ``lasts_until``."""


SideBattleCounter = Callable[[State, Log, State], tuple[int, ...]]
"""``(before, before's log, after) -> side battles initiated per player this turn in after``, given by
the side battle bridge (:func:`oracle.crosscheck.redemption.side_battles.side_battle_counter`)."""


def side_battles_of(log: Log, state: State) -> tuple[int, ...]:
    """The side battles each player has initiated this turn, as the log holds them; a plain mapping
    (a position handed without history) holds none of its own, and the position's counter, written by
    its author, is its starting input."""
    held = getattr(log, "side_battles", ())
    return held if held else tuple(state.side_battles)


def discard_controllers_of(log: Log, state: State) -> tuple[int, ...]:
    """Who had permanent control of each character discarded this turn, as the log holds it; a plain
    mapping (a position handed without history) takes the position's events as its author wrote them."""
    held = getattr(log, "discard_controllers", None)
    return held if held is not None else tuple(e.controller for e in state.discards)


def played_in_of(log: Log, state: State) -> Mapping[int, tuple[int, Phase]]:
    """When each play record's card was played, as the log holds it; a plain mapping (a position
    handed without history) takes the position's records as its author wrote them: an ongoing
    redirect's ``lasts_until``, or else the position's own turn and phase."""
    held = getattr(log, "played_in", None)
    if held is not None:
        return held
    return {r.id: r.lasts_until or (state.turn, state.phase) for r in state.records}


def _played_in(before: State, log: Log, after: State) -> dict[int, tuple[int, Phase]]:
    """The log's play times of ``after``: records ``before`` had keep theirs; a record new in
    ``after`` was played from ``before``, in its turn and phase."""
    held = played_in_of(log, before)
    return {r.id: held.get(r.id, (before.turn, before.phase)) for r in after.records}


def _discard_controllers(before: State, log: Log, after: State) -> tuple[int, ...]:
    """The log's discard controllers of ``after``: the events ``before`` already had keep theirs; a new
    event's is the discarded fighter's permanent controller in ``log`` (``pos.NONE`` if the log has no
    entry for it, which no comparison then accepts)."""
    held = discard_controllers_of(log, before)
    kept = 0
    while (kept < min(len(before.discards), len(after.discards))
           and before.discards[kept].card == after.discards[kept].card):
        kept += 1
    out = list(held[:kept])
    for event in after.discards[kept:]:
        entries = log.get(event.card, ())
        out.append(entries[-1][1].perm if entries else NONE)
    return tuple(out)


def initial_log(state: State) -> PlayLog:
    """The log of a position handed without history: its fighters as the position gives them, and
    its side battle counters as its author wrote them (a starting position's input)."""
    log = PlayLog()
    log.side_battles, log.turn = tuple(state.side_battles), state.turn
    log.discard_controllers = tuple(e.controller for e in state.discards)
    log.played_in = played_in_of({}, state)
    for battle in state.battles:
        for _, fighter in battle.fighters():
            entries: list[tuple[int, pos.Entry]] = []
            entered = battle.id
            for origin in reversed(fighter.origins):
                if origin.kind is OriginKind.BATTLE:
                    below = [b.id for b in state.battles]
                    paused = below.index(entered) - 1 >= 0 and below[below.index(entered) - 1] == origin.battle
                    entry = pos.Entry(pos.SB_PAUSED if paused else pos.SB_LOWER, origin.player, fighter.permanent,
                                      origin.side, origin.battle)
                else:
                    zone = pos.SB_TERRITORY if origin.kind is OriginKind.TERRITORY else pos.SB_HAND
                    entry = pos.Entry(zone, origin.player, fighter.permanent, 0)
                entries.append((entered, entry))
                entered = origin.battle
            log[fighter.card] = tuple(reversed(entries))
    return log


def advance(before: State, log: Log, after: State) -> dict[str, tuple[tuple[int, pos.Entry], ...]]:
    """The log of ``after``, one step of the play from ``before``: a fighter still in a battle it
    had entered keeps its entries up to that battle (a side battle's survivor back in its previous
    battle drops the side battle's); a character new to a battle gets the entry z3 derives from
    its raw place in ``before`` (:func:`specs.smt.redemption.position.entry_of`), after its entries
    of the battle it came from."""
    players, bondage = raw_stack(before)
    on_stack = {b.id for b in after.battles}
    # a character out of every battle keeps its entries of battles still on the stack: an
    # interrupt that undoes its discard puts it back as it was (RED-BASE-INTERRUPT)
    out: dict[str, tuple[tuple[int, pos.Entry], ...]] = {
        card: kept for card, entries in log.items() if (kept := tuple(e for e in entries if e[0] in on_stack))}
    for battle in after.battles:
        for _, fighter in battle.fighters():
            card = fighter.card
            entries = log.get(card, ())
            here = [i for i, (battle_id, _) in enumerate(entries) if battle_id == battle.id]
            if here:
                out[card] = entries[:here[0] + 1]
                continue
            raw = raw_card(before, card, log)
            zone, ctrl, perm, side = pos.entry_values(raw, players, bondage)
            came_from = before.battles[raw["level"]].id if raw["where"] == pos.FIGHTING else -1
            prefix = entries if raw["where"] == pos.FIGHTING else ()
            out[card] = (*prefix, (battle.id, pos.Entry(zone, ctrl, perm, side, came_from)))
    return out


def entry(log: Log, card_id: str) -> pos.Entry:
    """How a fighter entered the battle it is in, as the log holds it."""
    entries = log.get(card_id)
    if not entries:
        raise KeyError(f"the encoding's log has no entry for fighter {card_id}")
    return entries[-1][1]


class Logs:
    """The encoding's log of every position of one exploration, carried from its first position
    along the model's steps (:meth:`record` after each step; :meth:`of` before checking a
    position). A position no recorded step reached is taken as a starting position. ``count``
    advances the side battle counters (without it they only reset with the turn: for checks that
    read no side battle)."""

    def __init__(self, count: SideBattleCounter | None = None) -> None:
        self.count = count
        self.by_state: dict[State, PlayLog] = {}
        self.starts = 0
        """Positions taken as starting positions (their log from their own fighters)."""

    def of(self, state: State) -> PlayLog:
        found = self.by_state.get(state)
        if found is None:
            self.starts += 1
            found = self.by_state[state] = initial_log(state)
        return found

    def record(self, before: State, after: State) -> None:
        if after not in self.by_state:
            log = self.of(before)
            new = PlayLog(advance(before, log, after))
            new.turn = after.turn
            new.discard_controllers = _discard_controllers(before, log, after)
            new.played_in = _played_in(before, log, after)
            if self.count is not None:
                new.side_battles = self.count(before, log, after)
            else:
                new.side_battles = side_battles_of(log, before) if after.turn == before.turn else (0,) * after.players
            self.by_state[after] = new
