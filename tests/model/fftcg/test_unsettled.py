"""Loading a position the rules' state-based checks would still change is refused (decision
``ff-unsettled-position``: refuse), and so is an attack of two or more Forwards that is no party before
the Combat End Step.

The state form records a position between actions, and the rules break a Forward of power 0 or less
(FF-BASE-BREAK-ZERO-POWER) or one of power 1000 or more whose damage reaches its power
(FF-BASE-BREAK-DAMAGE), and end the game for a player with 7 damage (FF-BASE-SEVEN-DAMAGE-LOSES), before
anyone acts: so a position with one of them unapplied is refused, naming the Forward or player and the
clause. The expected paths and numbers below are read off each hand-written position.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import Step
from cardrules.model.fftcg.validate import load_state
from cardrules.specs.catalogue import default_catalogue

from .helpers import fw, play, position


def _forward(forward_id: str, power: int, damage: int = 0) -> dict[str, Any]:
    return {"id": forward_id, "name": forward_id.upper(), "elements": ["fire"], "cost": 3, "power": power,
            "damage": damage}


def _position(mine: list[dict[str, Any]], theirs: list[dict[str, Any]], *, damage: tuple[int, int] = (0, 0),
              outcome: dict[str, Any] | None = None, break_zone: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "turn_player": 0,
        "step": "attack-declaration",
        "players": [{"damage": damage[0], "forwards": mine, "break_zone": break_zone or []},
                    {"damage": damage[1], "forwards": theirs}],
        "outcome": outcome,
    }


def _refused(data: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_state(data)
    return info.value


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER")
@pytest.mark.parametrize("power", [0, -500])
def test_a_forward_of_power_zero_or_less_on_the_field_is_refused_on_load(power: int) -> None:
    error = _refused(_position([_forward("a1", 5000)], [_forward("b1", 3000), _forward("b2", power)]))
    # player 1's second Forward, b2, would be broken before anyone acts
    assert error.where == "players[1].forwards[1]"
    assert "b2" in error.problem and f"power {power}" in error.problem
    assert "FF-BASE-BREAK-ZERO-POWER" in error.problem and "ff-unsettled-position" in error.problem


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER", "FF-BASE-BREAK-DAMAGE")
def test_the_same_forwards_load_where_no_check_applies() -> None:
    # power 1: above 0; power 500 with 9000 damage: damage breaks only power 1000 or more;
    # 4000 with 3999 damage: below its power; power 0 in the Break Zone: not on the field
    state = load_state(_position([_forward("a1", 1), _forward("a2", 500, damage=9000)],
                                      [_forward("b1", 4000, damage=3999)], break_zone=[_forward("z1", 0)]))
    assert [f.id for f in state.players[0].forwards] == ["a1", "a2"]
    assert state.players[0].break_zone[0].power == 0


@pytest.mark.clause("FF-BASE-BREAK-DAMAGE")
def test_a_forward_whose_damage_reaches_its_power_is_refused_on_load() -> None:
    error = _refused(_position([_forward("a1", 4000, damage=4000)], [_forward("b1", 3000)]))
    assert error.where == "players[0].forwards[0]"
    assert "a1" in error.problem and "damage 4000" in error.problem and "FF-BASE-BREAK-DAMAGE" in error.problem


@pytest.mark.clause("FF-BASE-SEVEN-DAMAGE-LOSES")
def test_a_player_at_seven_damage_with_no_outcome_is_refused_and_a_finished_game_loads() -> None:
    error = _refused(_position([_forward("a1", 5000)], [_forward("b1", 3000)], damage=(0, 7)))
    assert error.where == "players[1].damage"
    assert "player 1" in error.problem and "7 damage" in error.problem
    assert "FF-BASE-SEVEN-DAMAGE-LOSES" in error.problem
    # the same 7 damage where the game has ended (player 0 won) is a position the rules let stand
    done = load_state(_position([_forward("a1", 5000)], [_forward("b1", 3000)], damage=(0, 7),
                                     outcome={"winner": 0, "reason": "seven-damage"}))
    assert done.outcome is not None and done.outcome.winner == 0
    # and so is the end of a game played to it: 6 damage, one unblocked attack
    played = play(position([fw("a1")], [fw("b1")], damage=(0, 6)), "attack a1", "pass", "noblock", "pass", "pass")
    assert played.players[1].damage == 7 and load_state(played.to_json()) == played


@pytest.mark.clause("FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-PARTY-DISBAND-COMBAT-END")
def test_two_attackers_without_a_party_load_only_in_the_combat_end_step() -> None:
    party = play(position([fw("a1"), fw("a2")], [fw("b1", power=1000)]), "attack a1 a2")
    assert party.step is Step.DECLARATION and party.attack is not None and party.attack.party
    data = party.to_json()
    data["attack"]["party"] = False
    error = _refused(data)
    assert error.where == "attack.attackers"
    assert "a1, a2" in error.problem and "FF-BASE-ONE-ATTACK-AT-A-TIME" in error.problem
    # unblocked, one damage; in the Combat End Step the party has disbanded and both Forwards still attack
    ended = play(party, "pass", "noblock", "pass", "pass")
    assert ended.step is Step.COMBAT_END and ended.attack is not None
    assert ended.attack.attackers == ("a1", "a2") and not ended.attack.party
    assert load_state(ended.to_json()) == ended


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER")
def test_the_decision_is_recorded_with_its_rejected_alternatives_and_none_is_selectable() -> None:
    clause, decision = default_catalogue().decisions["ff-unsettled-position"]
    assert clause.id == "FF-BASE-BREAK-ZERO-POWER" and decision.chosen == "refuse"
    assert [o.id for o in decision.options] == ["refuse"]
    assert {o.id for o in decision.rejected} == {"settle-on-load", "accept-as-given"}
    with pytest.raises(ScenarioError, match="rejects as no reading"):
        RuleConfig.of({"ff-unsettled-position": "settle-on-load"})


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER")
def test_the_refusal_holds_when_only_the_load_module_is_imported() -> None:
    """The load applies the state-based checks of :mod:`model.fftcg.damage` itself; importing only
    :mod:`model.fftcg.validate`, in a fresh interpreter, must still refuse a Forward of power 0."""
    import json
    import subprocess
    import sys

    data = _position([_forward("a1", 5000)], [_forward("b1", 0)])
    program = ("import json, sys\n"
               "from cardrules.model.errors import ScenarioError\n"
               "from cardrules.model.fftcg.validate import load_state\n"
               "try:\n"
               "    load_state(json.loads(sys.argv[1]))\n"
               "except ScenarioError as error:\n"
               "    print('refused', error.where)\n"
               "else:\n"
               "    print('loaded')\n")
    run = subprocess.run([sys.executable, "-c", program, json.dumps(data)], capture_output=True, text=True,
                         check=True)
    assert run.stdout.strip() == "refused players[1].forwards[0]"
