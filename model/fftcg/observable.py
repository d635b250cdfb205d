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

from typing import Hashable

from cardrules.model.fftcg.state import State, Step

Observation = tuple[tuple[str, Hashable], ...]
"""``((field, value), ...)`` in a fixed field order; hashable, and JSON-able (values are tuples,
strings, numbers, booleans and ``None``)."""


def _decider(state: State) -> int:
    attack = state.attack
    if state.step is Step.BLOCK and attack is not None and attack.blocked is None:
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
