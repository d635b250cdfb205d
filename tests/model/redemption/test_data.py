"""JSON form, action text and rule configuration: round trips and clear errors."""

from __future__ import annotations

import json

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.redemption.actions import parse
from cardrules.model.redemption.config import ConfigError, RuleConfig
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, game
from cardrules.model.redemption.scenario import evil


@pytest.mark.clause("RED-SB-SUSPEND")
def test_state_json_round_trip_mid_side_battle() -> None:
    s = act(game(3, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}}), "play sb0 on h0 -> e0 e1")
    data = json.loads(json.dumps(s.to_json()))
    assert load_state(data) == s
    assert data["battles"][1]["kind"] == "side"


@pytest.mark.infrastructure("the model's input formats (state JSON, action text), no rule clause")
@pytest.mark.parametrize(
    "mutate,where",
    [
        (lambda d: d["zones"][0].update(hand=7), "zones[0].hand"),
        (lambda d: d["battles"][0]["sides"][0][0].update(card=3), "battles[0].sides[0][0].card"),
        (lambda d: d.update(phase="lunch"), "phase"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["zones"][1]["territory"].append("h0"), "battles[0].sides[0][0].card"),  # h0 in two places
        (lambda d: d.pop("cards"), "cards"),
        (lambda d: d["cards"][0].update(owner=True), "cards[0].owner"),
        (lambda d: d.update(prompt=None), "prompt"),  # a battle on, and nobody to decide
    ],
)
def test_malformed_json_names_the_path(mutate, where: str) -> None:
    data = game(2).to_json()
    mutate(data)
    with pytest.raises(ScenarioError) as info:
        load_state(data)
    assert info.value.where.startswith(where) or where in info.value.where, info.value


@pytest.mark.infrastructure("the model's input formats (state JSON, action text), no rule clause")
@pytest.mark.parametrize(
    "text",
    ["draw", "next", "pass", "noblock", "decline", "discard", "put c1", "attack 1 a b", "block e", "play e on h",
     "play e on h -> #3", "play e on h -> x y", "sides x y"],
)
def test_action_text_round_trip(text: str) -> None:
    assert parse(text).text() == text


@pytest.mark.infrastructure("the model's input formats (state JSON, action text), no rule clause")
@pytest.mark.parametrize("text", ["", "fly", "draw 2", "attack x h", "play e h", "play e on h ->", "sides x x", "play e on h -> #x", "block e e"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(ScenarioError):
        parse(text)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_config_variants_and_errors() -> None:
    # RED-SB-RETURN-TO-TERRITORY: survivors go to their owner's territory unless the variant says
    # the permanent controller's
    assert RuleConfig().option("sb-return-territory") == "owner"
    variant = RuleConfig.of({"sb-return-territory": "permanent-controller"})
    assert variant.option("sb-return-territory") == "permanent-controller"
    with pytest.raises(ConfigError, match="unknown decision id"):
        RuleConfig.of({"no-such-decision": "x"})
    with pytest.raises(ConfigError, match="has no option"):
        RuleConfig.of({"sb-return-territory": "nobody"})
    # the seed's one side battle per turn has no other reading: two is a broken variant, not an option
    assert RuleConfig().option("sb-per-turn-limit") == "one"
    with pytest.raises(ConfigError, match="has no option 'two'"):
        RuleConfig.of({"sb-per-turn-limit": "two"})
    assert RuleConfig.of(broken=["two-side-battles-per-turn"]).is_broken("two-side-battles-per-turn")
    assert not RuleConfig().is_broken("two-side-battles-per-turn")
    with pytest.raises(ConfigError, match="unknown redemption broken variant 'party-split-in-hundreds'"):
        RuleConfig.of(broken=["party-split-in-hundreds"])
    with pytest.raises(ConfigError, match="not a variant the Redemption model implements"):
        RuleConfig.of({"sb-nested-battle-players": "main-battle"})
    with pytest.raises(ConfigError, match="heal version"):
        RuleConfig(heal_version="future")
    assert RuleConfig(heal_version="previous").heal_version == "previous"
