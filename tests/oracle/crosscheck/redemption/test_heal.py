"""The heal comparison: the heal encoding, handed only the raw position, against the
model's heal actions and their results.

Expected outcomes are read from the rule text by hand:
- RED-HEAL-AT-RESOLUTION / RED-BR-HEAL-WINDOW: a character Battle Resolution is about to discard
  may be healed by its controller; RED-HEAL-WINDOW-MEANS: with a means able to heal it (a
  healing enhancement of its alignment and brigade, or a Territory Class heal character,
  RED-HEAL-CHARACTER-TC); RED-HEAL-TO-PERMANENT-CONTROLLER (revised) / RED-HEAL-PREV-TO-OWNER
  (previous): where it goes.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption import heal as model_heal
from cardrules.model.redemption.actions import Heal
from cardrules.model.redemption.state import PromptKind, State
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.heal import crosscheck_heals
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.scenarios import load_scenarios
from cardrules.properties.games import make_game

pytestmark = pytest.mark.clause("RED-HEAL-AT-RESOLUTION", "RED-BR-HEAL-WINDOW", "RED-HEAL-WINDOW-MEANS",
                                "RED-HEAL-CHARACTER-TC", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")

SCENARIO = "redemption-heal-windows-taken"


def _scenario_game(rule_set_name: str):  # type: ignore[no-untyped-def]
    scenario = next(s for s in load_scenarios() if s.name == SCENARIO)
    rule_set = next(r for r in scenario.rule_sets if r.name == rule_set_name)
    game = make_game(scenario.game, rule_set)
    return game, game.state_from_json(scenario.state)


def _play_to_heal_window(game, root: State) -> State:  # type: ignore[no-untyped-def]
    """h0 (2/2) rescues, e1 (4/4) blocks, both pass: Battle Resolution is about to discard h0."""
    state = root
    for text in ("attack 1 h0", "block e1"):
        state = game.step(state, game.action_from_text(text))
    for _ in range(10):
        if state.prompt is not None and state.prompt.kind is PromptKind.HEAL_WINDOW:
            return state
        passes = [a for a in game.legal_actions(state) if a.text() == "pass"]
        state = game.step(state, passes[0])
    raise AssertionError("no heal window reached")


@pytest.fixture(autouse=True)
def _fresh_solvers() -> None:
    smt_redemption.clear_caches()


@pytest.mark.parametrize("rule_set, owner, home", [
    ("heal-revised", 0, 0), ("heal-previous", 0, 0),
    # h0 printed as player 1's card, fighting from player 0's territory: the revised wording sends
    # it to the permanent controller (player 0), the previous one to its owner (player 1)
    ("heal-revised", 1, 0), ("heal-previous", 1, 1),
])
def test_battle_resolution_window_heals_follow_the_text(rule_set: str, owner: int, home: int) -> None:
    """In h0's window its controller (player 0) may heal it with hl (good, blue like h0) or with
    hc (Territory Class, in player 0's territory); where a healed h0 goes depends on the wording."""
    game, root = _scenario_game(rule_set)
    data = root.to_json()
    for card in data["cards"]:
        if card["id"] == "h0":
            card["owner"] = owner
    root = game.state_from_json(data)
    state = _play_to_heal_window(game, root)
    assert state.prompt is not None and state.prompt.cards == ("h0",) and state.prompt.player == 0
    heals = sorted(a.text() for a in game.legal_actions(state) if isinstance(a, Heal))
    assert heals == ["heal h0 with hc", "heal h0 with hl"]
    after = game.step(state, Heal("h0", "hl"))
    assert "h0" in after.zones[home].territory
    assert crosscheck_heals(state, game.config) == []


def test_a_model_that_refuses_heals_in_the_resolution_window_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deliberately wrong model: a character whose discard is pending is not healable (the
    previous wording's 'earlier-only' reading applied to the revised one, which says 'being
    discarded', RED-HEAL-HEALABLE); the comparison must disagree on h0's window."""
    game, root = _scenario_game("heal-revised")
    state = _play_to_heal_window(game, root)
    monkeypatch.setattr(model_heal, "pending_discard_healable", lambda config: False)
    found = crosscheck_heals(state, game.config)
    assert {d.action for d in found if d.what == "heal-allowed"} == {
        "heal h0 with hc (player 0)", "heal h0 with hl (player 0)"}


def test_a_model_that_sends_a_healed_character_to_the_wrong_territory_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deliberately wrong model: a character healed in its window goes to the other player's
    territory; RED-HEAL-TO-PERMANENT-CONTROLLER says player 0's."""
    game, root = _scenario_game("heal-revised")
    state = _play_to_heal_window(game, root)
    monkeypatch.setattr(model_heal, "catalogue_destination", lambda s, fighter, config: 1 - fighter.permanent)
    found = crosscheck_heals(state, game.config)
    assert any(d.what == "heal-destination" for d in found)


@pytest.mark.parametrize("rule_set", ["heal-revised", "heal-previous"])
def test_the_heal_scenario_explored_has_no_disagreement_and_takes_heals(rule_set: str) -> None:
    game, root = _scenario_game(rule_set)
    result = explore(game, [root], [], Bounds(max_states=400, max_turns=1), progress=False)
    report = smt_redemption.crosscheck_many(result.states, game.config)
    assert report.disagreements == []
    assert report.decisions.get("heal-offered", 0) > 0 and report.decisions.get("heal-results", 0) > 0
    assert report.clauses.get("RED-HEAL-AT-RESOLUTION", 0) > 0
