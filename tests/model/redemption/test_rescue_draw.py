"""Decision br-rescue-draw: a rescue attempt that ends in mutual destruction or a stalemate.

Expected values by hand from Battle Resolution: a rescue succeeds when the Heroes win and the defender
still holds a Lost Soul (RED-BR-RESCUE-SUCCESS), fails when the Evil side wins or there is no Lost Soul
(RED-BR-RESCUE-FAIL); the text says nothing of the two draws. Chosen not-success-is-failure: a draw is a
failure. undetermined: a draw is neither, and nothing that needs a success happens (no Lost Soul is
rescued) under either reading.

The position: p0's h0 attacks p1, who holds Lost Soul ls1 in bondage (a rescue attempt); p1's e0 blocks.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, hero, soul
from cardrules.model.redemption.state import Mission, Outcome, PromptKind
from tests.model.redemption.helpers import act, game

UNDETERMINED = RuleConfig.of({"br-rescue-draw": "undetermined"})
SOUL = {1: {"bondage": ["ls1"]}}


@pytest.mark.clause("RED-BR-RESCUE-FAIL", "RED-BR-MISSION-RESULT", "RED-BR-FOUR-OUTCOMES")
@pytest.mark.parametrize(("config", "mission"), [(RuleConfig(), Mission.FAILURE), (UNDETERMINED, Mission.UNDETERMINED)],
                         ids=["not-success-is-failure", "undetermined"])
def test_a_stalemate_rescue(config: RuleConfig, mission: Mission) -> None:
    """h0 1/5 against e0 1/5: neither is defeated, a stalemate; p0 passes, play ends, the battle resolves."""
    s = act(game(2, [soul("ls1", 1)], SOUL, config=config), "pass", config)
    assert s.battles == () and s.last_outcome is Outcome.STALEMATE and s.last_mission is mission
    assert s.zones[1].bondage == frozenset({"ls1"}) and s.zones[0].redemption == frozenset()


@pytest.mark.clause("RED-BR-RESCUE-FAIL", "RED-BR-MISSION-RESULT", "RED-BR-FOUR-OUTCOMES")
@pytest.mark.parametrize(("config", "mission"), [(RuleConfig(), Mission.FAILURE), (UNDETERMINED, Mission.UNDETERMINED)],
                         ids=["not-success-is-failure", "undetermined"])
def test_a_mutual_destruction_rescue(config: RuleConfig, mission: Mission) -> None:
    """h0 5/5 against e0 5/5: each defeats the other; the mission is settled in step 2, before the heal
    windows of step 4, where each player lets the discard complete; both go to their discard piles."""
    cards = [soul("ls1", 1), hero("h0", 0, 5, 5), evil("e0", 1, 5, 5)]
    s = act(game(2, cards, SOUL, config=config), "pass", config)
    assert s.battles[0].mission is mission
    while s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW:
        s = act(s, "discard", config)
    assert s.battles == () and s.last_outcome is Outcome.MUTUAL_DESTRUCTION and s.last_mission is mission
    assert "h0" in s.zones[0].discard and "e0" in s.zones[1].discard and s.zones[1].bondage == frozenset({"ls1"})


@pytest.mark.clause("RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
@pytest.mark.parametrize("config", [RuleConfig(), UNDETERMINED], ids=["not-success-is-failure", "undetermined"])
def test_a_win_and_a_loss_are_read_alike(config: RuleConfig) -> None:
    """h0 5/5 against e0 1/5: the Heroes win, ls1 is rescued (success); h0 1/5 against e0 5/5: the Evil side
    wins, a failure. The decision reads only the two draws."""
    won = act(game(2, [soul("ls1", 1), hero("h0", 0, 5, 5)], SOUL, config=config), "pass", config)
    assert won.last_outcome is Outcome.SIDE0_WINS and won.last_mission is Mission.SUCCESS
    assert won.zones[0].redemption == frozenset({"ls1"})
    lost = game(2, [soul("ls1", 1), evil("e0", 1, 5, 5)], SOUL, config=config)
    lost = act(lost, "pass", config)
    assert lost.last_outcome is Outcome.SIDE1_WINS and lost.last_mission is Mission.FAILURE
