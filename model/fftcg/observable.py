"""What the rules make visible in an FFTCG position: the part of a state two rule sets are compared on.

:func:`observe` projects a :class:`~cardrules.model.fftcg.state.State` onto what the players can see
and act on, and leaves out the model's bookkeeping. ``cardrules diff`` calls a step "changed" only
when the two rule sets' successors differ here; successors that differ in bookkeeping alone are
explored further but are not a difference.

Kept (each a named field, in this order):

* ``outcome``: the winner once a player has received seven damage (FF-BASE-SEVEN-DAMAGE-LOSES);
* ``turn``, ``turn player``;
* ``decision``: the step of the attack phase (FF-BASE-ATTACK-STEPS) and whose choice it is: the
  defending player while a block may still be declared (FF-BASE-BLOCK), the turn player otherwise
  (a blocked party's split, FF-BASE-PARTY-SPLIT, shows in ``attack``);
* ``P<n> damage``: the points of damage each player has received (FF-BASE-UNBLOCKED-DAMAGE);
* ``P<n> field``: each player's Forwards on the field, as a set (the rules give the field no
  order), each with its damage this turn (FF-BASE-BREAK-DAMAGE) and whether it is dull
  (FF-BASE-ATTACK-DULLS);
* ``P<n> break zone``: the Forwards broken or removed, as a set;
* ``attack``: the attack in progress (FF-BASE-ONE-ATTACK-AT-A-TIME): the attacking Forwards,
  whether they form a party (FF-PARTY-DISBAND-MEANING), whether it was blocked and by which
  Forward.

Left out, as bookkeeping: the Forwards' printed data (the same under both rule sets), the event
log, which Forwards have attacked this turn and whether each is under its controller's control since
the start of the turn (both follow from the play shown; the legal actions are compared on their
own), the Forwards declared at the start of the attack, and which side has already dealt its
combat damage.
"""

from __future__ import annotations

import json
from typing import Any, Hashable

from cardrules.model.fftcg.state import Event, Forward, State, Step
from cardrules.specs.catalogue.registry import implements

Observation = tuple[tuple[str, Hashable], ...]
"""``((field, value), ...)`` in a fixed field order; hashable, and JSON-able (values are tuples,
strings, numbers, booleans and ``None``)."""


def _decider(state: State) -> int:
    attack = state.attack
    if state.step is Step.BLOCK and attack is not None and attack.blocked is None:
        return state.defender
    if state.passed:  # ff-step-passing = alternating-priority: the turn player has passed
        return state.defender
    return state.turn_player


def observe(state: State) -> Observation:
    """The observable projection of ``state`` (see the module docstring for each field and its clause)."""
    fields: list[tuple[str, Hashable]] = [
        ("outcome", state.outcome.winner if state.outcome is not None else None),
        ("turn", state.turn),
        ("turn player", state.turn_player),
        ("decision", (state.step.value, _decider(state))),
    ]
    for index, player in enumerate(state.players):
        fields += [
            (f"P{index} damage", player.damage),
            (f"P{index} field", tuple(sorted((f.id, f.damage, f.dull) for f in player.forwards))),
            (f"P{index} break zone", tuple(sorted(f.id for f in player.break_zone))),
        ]
    attack = state.attack
    fields.append(("attack", None if attack is None
                   else (attack.attackers, attack.party, attack.blocked, attack.blocker)))
    return tuple(fields)


OBSERVABLE_STEPS = {
    Step.PREPARATION: "attack-preparation",
    Step.DECLARATION: "attack-declaration",
    Step.BLOCK: "block-declaration",
    Step.PREEMPTIVE: "damage-resolution",
    Step.DAMAGE: "damage-resolution",
    Step.COMBAT_END: "combat-end",
}
"""The step as players name it (FF-BASE-ATTACK-STEPS): the model's separate Pre-emptive Strike part of
Damage Resolution is Damage Resolution to a player."""


def _forward_json(forward: Forward) -> dict[str, Any]:
    """A Forward as players see it: its printed data and its damage and dull/active status."""
    return {
        "id": forward.id, "name": forward.name, "elements": sorted(forward.elements), "cost": forward.cost,
        "power": forward.power, "p_icon": forward.p_icon, "haste": forward.haste, "brave": forward.brave,
        "preemptive": forward.preemptive, "unblockable_by_cost": forward.unblockable_by_cost,
        "unblockable_by_elements": sorted(forward.unblockable_by_elements),
        "damage": forward.damage, "dull": forward.dull,
    }


def _event_json(event: Event) -> dict[str, Any] | None:
    """A rule event a player sees: damage to a player, a Forward broken or removed, a party disbanded.
    Damage to a Forward shows in that Forward's ``damage``; who is credited with a break is left out."""
    if event.kind == "hit":
        return {"event": "player-damaged", "player": int(event.target[1:]), "amount": event.amount}
    if event.kind == "break":
        return {"event": "forward-broken", "forward": event.target}
    if event.kind == "remove":
        return {"event": "forward-removed", "forward": event.target}
    if event.kind == "disband":
        return {"event": "party-disbanded", "members": sorted(event.sources)}
    return None


def _event_key(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True)


@implements("FF-BASE-ATTACK-STEPS", "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-DISBAND-MEANING")
def observable_json(state: State) -> dict[str, Any]:
    """What the players see of ``state``, as JSON (the ``observable`` conformance profile).

    Fields:

    * ``winner``: the player who won once the other received seven damage (FF-BASE-SEVEN-DAMAGE-LOSES),
      ``null`` while play goes on;
    * ``turn``, ``turn_player``;
    * ``step``: the step of the attack phase (FF-BASE-ATTACK-STEPS), Damage Resolution as one step;
    * ``decider``: whose choice it is (the defender while a block may be declared, FF-BASE-BLOCK, and,
      under ``ff-step-passing = alternating-priority``, once the turn player has passed);
    * ``players``: per player, ``damage`` received (FF-BASE-UNBLOCKED-DAMAGE), ``field``: the Forwards
      on the field, sorted by id as the rules give the field no order, each with its printed data, its
      damage this turn (FF-BASE-BREAK-DAMAGE) and ``dull`` (FF-BASE-ATTACK-DULLS), and ``break_zone``:
      the ids of the Forwards broken or removed, sorted;
    * ``attack``: the attack in progress (FF-BASE-ONE-ATTACK-AT-A-TIME), ``null`` between attacks: its
      ``attackers`` (sorted), ``party`` (whether they still form a party, FF-PARTY-DISBAND-MEANING),
      ``blocked`` (``null`` before the block is declared) and ``blocker``;
    * ``events``: this turn's rule events a player sees, sorted (the rules order none of them):
      ``player-damaged``, ``forward-broken`` (FF-BASE-BREAK-DAMAGE), ``forward-removed``,
      ``party-disbanded`` (FF-PARTY-DISBAND-UNDER-TWO, FF-PARTY-DISBAND-COMBAT-END).

    Left out, as the model's bookkeeping: the Forwards declared at the start of the attack, whether
    Pre-emptive Strike was declared, which side has dealt its damage, which Forwards attacked this turn
    and since when each is controlled (the legal actions show both), who is credited with a break, and
    damage events to Forwards (shown by the Forwards' damage).
    """
    attack = state.attack
    events = [e for e in (_event_json(event) for event in state.events) if e is not None]
    return {
        "winner": state.outcome.winner if state.outcome is not None else None,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "step": OBSERVABLE_STEPS[state.step],
        "decider": _decider(state),
        "players": [
            {"damage": player.damage,
             "field": [_forward_json(f) for f in sorted(player.forwards, key=lambda f: f.id)],
             "break_zone": sorted(f.id for f in player.break_zone)}
            for player in state.players
        ],
        "attack": None if attack is None else {
            "attackers": sorted(attack.attackers), "party": attack.party,
            "blocked": attack.blocked, "blocker": attack.blocker,
        },
        "events": sorted(events, key=_event_key),
    }
