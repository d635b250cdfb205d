"""What the rules make visible in a Redemption position: the part of a state two rule sets are compared on.

:func:`observe` projects a :class:`~cardrules.model.redemption.state.State` onto what the players can
see and act on, and leaves out the model's bookkeeping. ``cardrules diff`` calls a step "changed" only
when the two rule sets' successors differ here; successors that differ in bookkeeping alone are
explored further but are not a difference.

Kept (each a named field, in this order):

* ``winner``: the player who has won (RED-BASE-WIN-FIVE-SOULS), ``None`` while play goes on;
* ``turn``, ``active``, ``phase``: whose turn it is and in which phase (RED-BASE-TURN-PHASES);
* ``decision``: whose decision it is and of what kind: the prompt's kind and player
  (block, play, choose sides, special initiative, heal window: RED-BASE-BLOCKING,
  RED-BASE-INITIATIVE, RED-HEAL-WINDOW), with the characters it is about (the two selected
  characters, or those about to be discarded), or ``("phase-action", active player)`` when the
  turn's player acts;
* ``P<n> hand``, ``P<n> deck``, ``P<n> territory``, ``P<n> discard``, ``P<n> bondage``,
  ``P<n> redemption``: each player's zones and what is in them (RED-BASE-CHARACTERS); only the deck
  has an order the rules give (its top card is drawn first), every other zone is a set;
* ``battle <n>``: each battle on the stack, bottom (the turn's main battle) first: its kind
  (rescue, challenge, side battle: RED-BASE-RESCUE-OR-CHALLENGE), its two battling players, on each
  side the characters with the player who has permanent control of each
  (RED-BR-RETURN-PERMANENT-CONTROLLER) and the enhancements on them (RED-BASE-ENHANCEMENTS, as a
  set), its outcome (RED-BR-FOUR-OUTCOMES) and mission result once decided, and the characters its
  outcome is about to discard (RED-BASE-DEFEAT);
* ``statuses``: the statuses cards have (RED-BASE-STATUSES);
* ``decreased``: characters whose special ability is decreased until healed;
* ``placed``: enhancements on characters in a territory;
* ``last outcome``: the outcome and mission result of the last main battle resolved.

Left out, as bookkeeping: the cards' printed data (the same under both rule sets), play record ids
and the records themselves, battle ids, who played the last card (it decides initiative, which
shows in ``decision``), the side battle that opened a battle, the per-turn counters (main and side
battles started), the next ids, the turn's memory of discards and pile searches, and the order in
which the model keeps the cards of a set-like zone.
"""

from __future__ import annotations

from typing import Any, Hashable

from cardrules.model.redemption.jsonform import to_jsonable
from cardrules.model.redemption.state import Battle, State
from cardrules.specs.catalogue.registry import implements

Observation = tuple[tuple[str, Hashable], ...]
"""``((field, value), ...)`` in a fixed field order; hashable, and JSON-able (values are tuples,
strings, numbers and ``None``)."""

ZONE_NAMES = ("hand", "deck", "territory", "discard", "bondage", "redemption")


def _battle(battle: Battle) -> Hashable:
    sides = tuple(
        tuple(sorted((f.card, f.permanent, tuple(sorted(f.enhancements))) for f in fighters))
        for fighters in battle.sides
    )
    return (battle.kind.value, battle.players, sides,
            battle.outcome.value if battle.outcome is not None else None,
            battle.mission.value if battle.mission is not None else None,
            tuple(sorted(battle.defeated)))


def _decision(state: State) -> Hashable:
    prompt = state.prompt
    if prompt is None:
        return ("phase-action", state.active, ())
    return (prompt.kind.value, prompt.player, tuple(sorted(prompt.cards)))


def observe(state: State) -> Observation:
    """The observable projection of ``state`` (see the module docstring for each field and its clause)."""
    fields: list[tuple[str, Hashable]] = [
        ("winner", state.winner),
        ("turn", state.turn),
        ("active", state.active),
        ("phase", state.phase.value),
        ("decision", _decision(state)),
    ]
    for player, zones in enumerate(state.zones):
        for name in ZONE_NAMES:
            cards = getattr(zones, name)
            fields.append((f"P{player} {name}", tuple(cards) if name == "deck" else tuple(sorted(cards))))
    fields += [(f"battle {level}", _battle(battle)) for level, battle in enumerate(state.battles)]
    fields += [
        ("statuses", tuple(sorted((card, status.value) for card, status in state.statuses))),
        ("decreased", tuple(sorted(state.decreased))),
        ("placed", tuple(sorted(state.placed))),
        ("last outcome", (state.last_outcome.value if state.last_outcome is not None else None,
                          state.last_mission.value if state.last_mission is not None else None)),
    ]
    return tuple(fields)


def _battle_json(battle: Battle) -> dict[str, Any]:
    return {
        "kind": battle.kind.value,
        "players": list(battle.players),
        "sides": [[{"card": f.card, "controller": f.permanent, "enhancements": sorted(f.enhancements)}
                   for f in sorted(fighters, key=lambda f: f.card)] for fighters in battle.sides],
        "outcome": battle.outcome.value if battle.outcome is not None else None,
        "mission": battle.mission.value if battle.mission is not None else None,
        "defeated": sorted(battle.defeated),
    }


def _decision_json(state: State) -> dict[str, Any]:
    prompt = state.prompt
    if prompt is None:
        return {"kind": "phase-action", "player": state.active, "cards": []}
    return {"kind": prompt.kind.value, "player": prompt.player, "cards": sorted(prompt.cards)}


@implements("RED-BASE-TURN-PHASES", "RED-BASE-WIN-FIVE-SOULS", "RED-BR-RETURN-PERMANENT-CONTROLLER")
def observable_json(state: State) -> dict[str, Any]:
    """What the players see of ``state``, as JSON (the ``observable`` conformance profile).

    Fields:

    * ``winner``: the player who has won (RED-BASE-WIN-FIVE-SOULS), ``null`` while play goes on;
    * ``turn``, ``active``, ``phase``: whose turn and which phase (RED-BASE-TURN-PHASES);
    * ``decision``: ``kind``, ``player`` and the ``cards`` it is about (sorted): a prompt (block, play,
      choose sides, special initiative, heal window: RED-BASE-BLOCKING, RED-BASE-INITIATIVE,
      RED-HEAL-WINDOW) or ``phase-action`` when the turn's player acts;
    * ``cards``: every card's printed data, sorted by id (the same object as in the full state);
    * ``players``: per player the zones ``hand``, ``deck``, ``territory``, ``discard``, ``bondage``,
      ``redemption`` (RED-BASE-CHARACTERS); the deck keeps its order (its top card is drawn first),
      every other zone is sorted, as the rules give it no order;
    * ``battles``: the battles on the stack, the turn's main battle first: ``kind``
      (RED-BASE-RESCUE-OR-CHALLENGE; a side battle, RED-SB-SUSPEND), ``players``, ``sides`` (each
      fighter with the player who has permanent control of it, RED-BR-RETURN-PERMANENT-CONTROLLER, and
      its enhancements, RED-BASE-ENHANCEMENTS), ``outcome`` (RED-BR-FOUR-OUTCOMES), ``mission``
      (RED-BR-MISSION-RESULT) and ``defeated``: the characters it is about to discard (RED-BASE-DEFEAT);
    * ``statuses``: ``[card, status]`` pairs (RED-BASE-STATUSES); ``decreased``: characters whose
      ability is decreased until healed (RED-HEAL-RESTORES-DECREASE); ``placed``: enhancements on
      characters in a territory;
    * ``last_outcome``: the outcome and mission result of the last main battle resolved;
    * ``events``: the characters discarded this turn (``character-discarded``, with the pile's owner
      and whether the discard was healed in its heal window, RED-HEAL-WINDOW), sorted.

    Left out, as the model's bookkeeping: play record ids and the records, battle ids, who played
    last (initiative shows in ``decision``), the side battle that opened a battle, the per-turn
    counters, the next ids, pile searches, what a discarded character carried, and the order in which
    the model keeps a set-like zone.
    """
    return {
        "winner": state.winner,
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase.value,
        "decision": _decision_json(state),
        "cards": [to_jsonable(card) for card in sorted(state.cards, key=lambda c: c.id)],
        "players": [
            {name: list(getattr(zones, name)) if name == "deck" else sorted(getattr(zones, name))
             for name in ZONE_NAMES}
            for zones in state.zones
        ],
        "battles": [_battle_json(battle) for battle in state.battles],
        "statuses": sorted([card, status.value] for card, status in state.statuses),
        "decreased": sorted(state.decreased),
        "placed": sorted([a, b] for a, b in state.placed),
        "last_outcome": {
            "outcome": state.last_outcome.value if state.last_outcome is not None else None,
            "mission": state.last_mission.value if state.last_mission is not None else None,
        },
        "events": sorted(({"event": "character-discarded", "card": d.card, "pile": d.pile, "healed": d.healed}
                          for d in state.discards), key=lambda e: (e["card"], e["pile"], e["healed"])),
    }
