"""Data forms: the state's JSON, the action text, the rule configuration."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.actions import Block, DeclareAttack, EndTurn, NoBlock, Pass, Remove, Split, parse_action
from cardrules.model.fftcg.config import RuleConfig, fftcg_decisions
from cardrules.model.fftcg.state import Forward, State
from cardrules.model.fftcg.validate import load_state

from .helpers import fw, play, position

pytestmark = pytest.mark.infrastructure("the model's input formats (state JSON, action text, rule configuration), no rule clause")


def sample() -> State:
    """A mid-attack state with a party, damage and events."""
    return play(
        position([fw("a1", "fire/ice", power=3000, p_icon=True), fw("a2", power=5000, unblockable_by_cost=4)],
                 [fw("b1", "water", power=7000, preemptive=True)]),
        "attack a1 a2", "pass", "block b1", "pass",
    )


def test_json_round_trip() -> None:
    state = sample()
    data = state.to_json()
    text = json.dumps(data, sort_keys=True)
    assert load_state(json.loads(text)) == state
    assert load_state(data).to_json() == data
    assert data["players"][0]["forwards"][0]["elements"] == ["fire", "ice"]
    assert data["attack"]["party"] is True and data["step"] == "damage-preemptive"


def test_minimal_json_defaults() -> None:
    data = {
        "turn_player": 0,
        "step": "attack-declaration",
        "players": [
            {"forwards": [{"id": "a1", "name": "A", "elements": ["fire"], "cost": 2, "power": 3000}]},
            {"forwards": []},
        ],
    }
    state = load_state(data)
    # omitted fields take their defaults: active, no damage, since the start of the turn, no keywords
    assert state.players[0].forwards[0] == Forward(id="a1", name="A", elements=frozenset({"fire"}), cost=2, power=3000)
    assert state.turn == 1 and state.attack is None and state.outcome is None


def _bad(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "path, value, where",
    [
        (["players", 1, "forwards", 0, "power"], "big", "players[1].forwards[0].power"),
        (["players", 0, "forwards", 1, "elements"], ["fire", "mud"], "players[0].forwards[1].elements[1]"),
        (["players", 0, "forwards", 0, "elements"], [], "players[0].forwards[0].elements"),
        (["players", 0, "forwards", 0, "colour"], "red", "players[0].forwards[0].colour"),
        (["players", 0, "forwards", 0, "name"], KeyError, "players[0].forwards[0].name"),
        (["players", 0, "forwards", 0, "dull"], 1, "players[0].forwards[0].dull"),
        (["players", 1, "forwards", 0, "id"], "a1", "players[1].forwards[0].id"),
        (["players", 1, "forwards", 0, "id"], "b 1", "players[1].forwards[0].id"),
        (["players", 1, "damage"], 9, "players[1].damage"),
        (["step"], "main-phase", "step"),
        (["turn_player"], 2, "turn_player"),
        (["attack", "attackers"], ["a2", "a1"], "attack.attackers"),
        (["attack", "blocker"], "a1", "attack.blocker"),
        (["attack", "party"], KeyError, "attack.party"),
        (["events", 0, "kind"], "explode", "events[0].kind"),
        (["outcome"], {"winner": 3, "reason": "seven-damage"}, "outcome.winner"),
        (["players"], [], "players"),
    ],
)
def test_malformed_json_names_the_path(path: list[Any], value: Any, where: str) -> None:
    data = sample().to_json()
    data["events"] = [{"kind": "remove", "sources": [], "target": "x", "amount": 0}]
    with pytest.raises(ScenarioError) as info:
        load_state(_bad(data, path, value))
    assert info.value.where == where, info.value


@pytest.mark.clause("FF-PARTY-MIN-TWO")
def test_party_of_one_is_malformed() -> None:
    data = sample().to_json()
    data["attack"]["attackers"] = ["a1"]
    with pytest.raises(ScenarioError) as info:
        load_state(data)
    assert info.value.where == "attack.party"


@pytest.mark.parametrize(
    "action, text",
    [
        (DeclareAttack(("a1",)), "attack a1"),
        (DeclareAttack(("a1", "a2", "a3")), "attack a1 a2 a3"),
        (Block("b1"), "block b1"),
        (NoBlock(), "noblock"),
        (Split((("a1", 3000), ("a2", 0))), "split a1=3000 a2=0"),
        (Remove("a2"), "remove a2"),
        (Pass(), "pass"),
        (EndTurn(), "end-turn"),
    ],
)
def test_action_text_round_trip(action: Any, text: str) -> None:
    assert str(action) == text
    assert parse_action(text) == action


def test_action_parser_canonicalises() -> None:
    assert parse_action("  attack   a3 a1 ") == DeclareAttack(("a1", "a3"))
    assert parse_action("split a2=0 a1=3000") == Split((("a1", 3000), ("a2", 0)))


@pytest.mark.parametrize(
    "text",
    ["", "fly a1", "attack", "attack a1 a1", "block", "block b1 b2", "noblock b1", "pass now",
     "split", "split a1", "split a1=-1000", "split a1=3k", "split a1=1000 a1=0", "remove a=1", "end-turn x"],
)
def test_bad_action_text(text: str) -> None:
    with pytest.raises(ScenarioError):
        parse_action(text)


def test_config_defaults_and_variants() -> None:
    decisions = fftcg_decisions()
    assert RuleConfig().to_json() == {d: decisions[d].chosen for d in sorted(decisions)}
    variant = RuleConfig.of({"party-last-member": "removed-from-combat", "party-zero-share": "zero-allowed"})
    # the second entry equals the chosen option and is dropped
    assert variant.overrides == (("party-last-member", "removed-from-combat"),)
    assert RuleConfig.from_json(variant.to_json()) == variant


@pytest.mark.parametrize(
    "choices, where",
    [({"party-no-such": "x"}, "config.party-no-such"), ({"party-last-member": "vanish"}, "config.party-last-member")],
)
def test_config_rejects_unknown_ids(choices: dict[str, str], where: str) -> None:
    with pytest.raises(ScenarioError) as info:
        RuleConfig.of(choices)
    assert info.value.where == where
    assert "known" in info.value.problem
