"""The observable state form: every explored state's projection validates with its schema, and a
hand-written position projects to what a player at the table sees (derived by hand from the rules)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from cardrules.model.fftcg.observable import observable_json
from cardrules.model.fftcg.validate import load_state
from cardrules.oracle.conformance.formats.observable import observable_schema
from cardrules.oracle.conformance.profiles import comparable, observable_of

from .test_formats_support import explored


@pytest.mark.infrastructure("the observable state form's schema covers every state the model reaches")
@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_every_explored_state_projects_to_a_valid_observable_form(game: str) -> None:
    validator = jsonschema.Draft202012Validator(observable_schema(game))
    states = explored(game).states
    assert states
    for state in states:
        shown = observable_of(game, state)
        errors = sorted(validator.iter_errors(shown), key=lambda e: list(e.path))
        assert not errors, (errors[0].json_path, errors[0].message)


def _forward(fid: str, power: int, *, damage: int = 0, dull: bool = False, **extra: Any) -> dict[str, Any]:
    return {"id": fid, "name": fid.upper(), "elements": ["fire"], "cost": 3, "power": power, "p_icon": False,
            "dull": dull, "damage": damage, "since_start": True, "haste": False, "brave": False,
            "preemptive": False, "unblockable_by_cost": None, "unblockable_by_elements": [], **extra}


POSITION = {
    "turn": 2, "turn_player": 1, "phase": "attack", "step": "block-declaration",
    "players": [
        {"damage": 3, "forwards": [_forward("a2", 4000, damage=1000), _forward("a1", 5000)],
         "break_zone": [_forward("a0", 2000)]},
        {"damage": 0, "forwards": [_forward("b2", 3000, dull=True), _forward("b1", 7000, dull=True)],
         "break_zone": []},
    ],
    "attack": {"attackers": ["b1", "b2"], "party": True, "declared": ["b1", "b2"], "declared_preemptive": False,
               "blocked": None, "blocker": None, "attackers_dealt": False, "blocker_dealt": False},
    "attacked": ["b1", "b2"],
    "events": [{"kind": "break", "sources": ["b1"], "target": "a0", "amount": 0},
               {"kind": "damage", "sources": ["b1"], "target": "a2", "amount": 1000}],
    "outcome": None,
}


@pytest.mark.clause("FF-BASE-BLOCK", "FF-BASE-ATTACK-DULLS", "FF-BASE-BREAK-DAMAGE", "FF-PARTY-DISBAND-MEANING")
def test_a_party_attack_awaiting_the_block_shows_what_the_players_see() -> None:
    shown = observable_json(load_state(POSITION))
    # player 1's party of b1 and b2 attacks (both dulled); player 0, the defender, decides whether to
    # block; a0 was broken earlier this turn and a2 took 1000 damage (shown on a2, not as an event); who
    # was credited with the break and what the model keeps about the attack are not shown
    forward = {"elements": ["fire"], "cost": 3, "p_icon": False, "haste": False, "brave": False,
               "preemptive": False, "unblockable_by_cost": None, "unblockable_by_elements": []}
    assert shown == {
        "winner": None, "turn": 2, "turn_player": 1, "step": "block-declaration", "decider": 0,
        "players": [
            {"damage": 3, "break_zone": ["a0"], "field": [
                {"id": "a1", "name": "A1", "power": 5000, "damage": 0, "dull": False, **forward},
                {"id": "a2", "name": "A2", "power": 4000, "damage": 1000, "dull": False, **forward}]},
            {"damage": 0, "break_zone": [], "field": [
                {"id": "b1", "name": "B1", "power": 7000, "damage": 0, "dull": True, **forward},
                {"id": "b2", "name": "B2", "power": 3000, "damage": 0, "dull": True, **forward}]},
        ],
        "attack": {"attackers": ["b1", "b2"], "party": True, "blocked": None, "blocker": None},
        "events": [{"event": "forward-broken", "forward": "a0"}],
    }


@pytest.mark.clause("FF-BASE-SEVEN-DAMAGE-LOSES")
def test_once_a_player_has_lost_the_step_decider_and_attack_are_not_compared() -> None:
    over = {"winner": 1, "turn": 3, "step": "damage-resolution", "decider": 0, "attack": None, "players": []}
    assert comparable("fftcg", "observable", over) == {"winner": 1, "turn": 3, "players": []}
    going = {**over, "winner": None}
    assert comparable("fftcg", "observable", going) == going
