"""What one action did: the events in words, and the clauses whose model functions ran.

FFTCG keeps an event log in its state (``State.events``: damage, hits on a
player, breaks, Forwards removed, parties disbanded); the events of one action
are the entries it added (a new turn starts a new log). Redemption keeps no
log, so its events are read off the two positions: every card that changed
place, each battle that started, was decided or ended, statuses gained or lost,
the phase and the winner.

The clauses are those of every ``@implements`` function of the model that ran
while the step was computed (:func:`cardrules.oracle.trace.coverage.clauses_exercised`):
the rules the model consulted for this action, each with its citable number
(:mod:`cardrules.specs.catalogue.numbers`) and title.
"""

from __future__ import annotations

from typing import Any, Callable

from cardrules.oracle.trace.coverage import clauses_exercised
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers


def run_step(step: Callable[[], Any]) -> tuple[Any, list[dict[str, str]]]:
    """``step()``'s result and the clauses it applied, in citable-number order."""
    after, clause_ids = clauses_exercised(step)
    return after, clause_rows(clause_ids)


def clause_rows(clause_ids: frozenset[str] | set[str]) -> list[dict[str, str]]:
    """``id``, ``number``, ``title`` and ``area`` of each clause, by area then number."""
    catalogue, numbering = default_catalogue(), default_numbers()
    rows = []
    for clause_id in clause_ids:
        clause = catalogue.clause(clause_id)
        rows.append({"id": clause_id, "number": numbering.numbers.get(clause_id, ""), "title": clause.title,
                     "area": clause.area})
    return sorted(rows, key=lambda r: (r["area"], numbering.sort_key(r["id"]) if r["number"] else (0, 0), r["id"]))


# --- FFTCG -------------------------------------------------------------------------


def _forward_names(state: Any) -> dict[str, str]:
    names: dict[str, str] = {}
    for player in state.players:
        for forward in (*player.forwards, *player.break_zone):
            names[forward.id] = f"{forward.name} ({forward.id})"
    return names


def fftcg_events(before: Any, after: Any) -> list[str]:
    """The events the step from ``before`` to ``after`` logged, in words."""
    new = after.events[len(before.events):] if after.turn == before.turn else after.events
    names = {**_forward_names(before), **_forward_names(after)}

    def who(ids: tuple[str, ...]) -> str:
        return " and ".join(names.get(i, i) for i in ids) or "no one"

    lines = []
    for event in new:
        if event.kind == "damage":
            lines.append(f"{who(event.sources)} dealt {event.amount} damage to {names.get(event.target, event.target)}")
        elif event.kind == "hit":
            lines.append(f"{who(event.sources)} dealt {event.amount} point of damage to player {event.target[1:]}")
        elif event.kind == "break":
            credit = f", credited to {who(event.sources)}" if event.sources else ""
            lines.append(f"{names.get(event.target, event.target)} was broken{credit}")
        elif event.kind == "remove":
            lines.append(f"{names.get(event.target, event.target)} left the field")
        else:
            lines.append(f"the party of {who(event.sources)} disbanded")
    if after.outcome is not None and before.outcome is None:
        lines.append(f"player {after.outcome.winner} wins: the opponent has received seven damage")
    return lines


# --- Redemption ----------------------------------------------------------------------

ZONE_WORDS = {"hand": "hand", "deck": "deck", "territory": "territory", "discard": "discard pile",
              "bondage": "Land of Bondage", "redemption": "Land of Redemption"}


def _places(state: Any) -> dict[str, str]:
    """Card id -> where it is, in words."""
    places: dict[str, str] = {}
    for player, zones in enumerate(state.zones):
        for name, words in ZONE_WORDS.items():
            for card in getattr(zones, name):
                places[card] = f"player {player}'s {words}"
    for level, battle in enumerate(state.battles):
        kind = "side battle" if battle.kind.value == "side" else "battle"
        for side, fighters in enumerate(battle.sides):
            for fighter in fighters:
                where = f"the {kind} (level {level + 1}), player {battle.players[side]}'s side"
                places[fighter.card] = where
                for enhancement in fighter.enhancements:
                    places[enhancement] = f"on {fighter.card} in {where}"
    for enhancement, host in state.placed:
        places[enhancement] = f"on {host}"
    return places


def outcome_words(outcome: str, players: tuple[int, int]) -> str:
    """A battle's outcome (RED-BR-FOUR-OUTCOMES) in words: sides are named by their players."""
    if outcome.startswith("side"):
        return f"player {players[int(outcome[4])]}'s side wins"
    return outcome.replace("-", " ")


def _battle_lines(before: Any, after: Any) -> list[str]:
    lines = []
    for level in range(max(len(before.battles), len(after.battles))):
        old = before.battles[level] if level < len(before.battles) else None
        new = after.battles[level] if level < len(after.battles) else None
        name = f"level {level + 1}"
        if new is not None and (old is None or old.id != new.id):
            lines.append(f"a {new.kind.value} battle started ({name}): player {new.players[0]} against "
                         f"player {new.players[1]}")
        if new is not None and new.outcome is not None and (old is None or old.outcome != new.outcome):
            mission = f", mission {new.mission.value}" if new.mission is not None else ""
            lines.append(f"the battle at {name} is decided: {outcome_words(new.outcome.value, new.players)}{mission}")
        if old is not None and (new is None or old.id != new.id):
            lines.append(f"the {old.kind.value} battle at {name} ended")
    return lines


def redemption_events(before: Any, after: Any) -> list[str]:
    """What changed from ``before`` to ``after``, in words: battles, cards moved, statuses, phase, winner."""
    lines = _battle_lines(before, after)
    old, new = _places(before), _places(after)
    for card in sorted(set(old) | set(new)):
        if old.get(card) != new.get(card):
            lines.append(f"{card}: {old.get(card, 'nowhere')} \u2192 {new.get(card, 'out of play')}")
    for card, status in sorted((c, s.value) for c, s in after.statuses - before.statuses):
        lines.append(f"{card} is now {status}")
    for card, status in sorted((c, s.value) for c, s in before.statuses - after.statuses):
        lines.append(f"{card} is no longer {status}")
    if (after.turn, after.phase) != (before.turn, before.phase):
        lines.append(f"turn {after.turn}, player {after.active}: {after.phase.value} phase")
    if after.last_outcome is not None and before.last_outcome != after.last_outcome:
        lines.append(f"the main battle was resolved: {after.last_outcome.value}")
    if after.winner is not None and before.winner is None:
        lines.append(f"player {after.winner} wins")
    return lines
