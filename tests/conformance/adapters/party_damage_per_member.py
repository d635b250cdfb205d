"""A deliberately buggy adapter: the reference model, but an unblocked FFTCG party deals one damage
per member instead of exactly one (breaks FF-PARTY-UNBLOCKED-ONE). The runner must blame that clause."""

from __future__ import annotations

import sys
from dataclasses import replace

import cardrules.model.fftcg.turn as turn
from cardrules.model.fftcg.damage import check_loss
from cardrules.model.fftcg.state import Event, State
from cardrules.oracle.conformance.adapter import serve


def per_member(state: State) -> State:
    attack = state.attack
    assert attack is not None
    if not attack.attackers:
        return state
    hits = len(attack.attackers)
    player = state.players[state.defender]
    state = state.with_player(state.defender, replace(player, damage=player.damage + hits))
    return check_loss(state.log(Event("hit", attack.attackers, f"p{state.defender}", hits)))


turn.deal_unblocked_damage = per_member  # type: ignore[assignment]

if __name__ == "__main__":
    sys.exit(serve())
