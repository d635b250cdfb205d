"""New properties bite: each catches a hand-built bad transition (issue 16).

The bad states are constructed here from the clause statements, never by
editing the model.
"""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.actions import Pass
from cardrules.model.fftcg.state import Event, State, Step, replace
from cardrules.properties.fftcg_game import FftcgGame
from cardrules.properties.fftcg_invariants import deals_damage_once

FF = FftcgGame()


def _ff_blocked(step: Step) -> State:
    """A 3000 Pre-emptive Strike attacker a1 blocked by a 5000 blocker b1."""
    return State.from_json({
        "turn": 1, "turn_player": 0, "phase": "attack", "step": step.value,
        "players": [
            {"damage": 0, "forwards": [{"id": "a1", "name": "Lancer", "elements": ["wind"], "cost": 3,
                                        "power": 3000, "preemptive": True, "dull": True}]},
            {"damage": 0, "forwards": [{"id": "b1", "name": "Guard", "elements": ["earth"], "cost": 5,
                                        "power": 5000}]},
        ],
        "attack": {"attackers": ["a1"], "party": False, "declared": ["a1"], "blocked": True, "blocker": "b1"},
        "attacked": ["a1"],
    })


def _damage(state: State, fid: str, amount: int) -> State:
    forward = state.forward(fid)
    return state.with_forward(replace(forward, damage=forward.damage + amount))


@pytest.mark.clause("FF-BASE-PREEMPTIVE", "FF-BASE-BLOCKED-EXCHANGE")
def test_attacker_dealing_again_after_preemptive_strike_is_caught() -> None:
    # after the Pre-emptive Strike part: b1 has 3000 damage, logged as a1's
    before = _damage(_ff_blocked(Step.DAMAGE), "b1", 3000).log(Event("damage", ("a1",), "b1", 3000))
    before = replace(before, attack=replace(before.attack, attackers_dealt=True))
    # sound ordinary part: only the blocker deals
    good = _damage(before, "a1", 5000).log(Event("damage", ("b1",), "a1", 5000))
    assert deals_damage_once(FF, before, Pass(), good)
    # survivor (a): the attacker deals its 3000 again
    bad = _damage(good, "b1", 3000).log(Event("damage", ("a1",), "b1", 3000))
    assert not deals_damage_once(FF, before, Pass(), bad)


@pytest.mark.clause("FF-BASE-PREEMPTIVE")
def test_blocker_dealing_twice_and_unlogged_damage_are_caught() -> None:
    before = _damage(_ff_blocked(Step.DAMAGE), "a1", 5000).log(Event("damage", ("b1",), "a1", 5000))
    again = _damage(before, "a1", 5000).log(Event("damage", ("b1",), "a1", 5000))
    assert not deals_damage_once(FF, before, Pass(), again)
    silent = _damage(_ff_blocked(Step.DAMAGE), "b1", 3000)
    assert not deals_damage_once(FF, _ff_blocked(Step.DAMAGE), Pass(), silent)


@pytest.mark.clause("FF-PARTY-PREEMPTIVE-ALL")
def test_party_member_named_twice_in_one_part_is_caught() -> None:
    start = _ff_blocked(Step.DAMAGE)
    bad = _damage(start, "b1", 6000).log(Event("damage", ("a1",), "b1", 3000), Event("damage", ("a1",), "b1", 3000))
    assert not deals_damage_once(FF, start, Pass(), bad)
