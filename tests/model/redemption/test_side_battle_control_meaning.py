"""Decision sb-control-meaning: in the control cases, is a fighter 'controlled by' the player of the
side it fights on, or by its permanent controller?

Base position (helpers.game, three players): p0's Hero h0 (1/5) fights p1's Evil e0 (1/5); stalemate,
p0 has initiative and holds sb0, a side battle enhancement it plays on h0. Here h0 fights on p0's side
but its permanent controller is p2 (as after an earlier side battle handed p2's character to p0); xa is
p2's Hero in p2's territory. Expected values are worked out by hand from the control cases.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import hero
from cardrules.model.redemption.state import PromptKind, State
from tests.model.redemption.helpers import act, game, side_cards

PERMANENT = RuleConfig.of({"sb-control-meaning": "permanent-controller"})


def handed_over(config: RuleConfig) -> State:
    s = game(3, [hero("xa", 2, 1, 5)], {2: {"territory": ["xa"]}}, config=config)
    main = s.battles[0]
    h0 = replace(main.sides[0][0], permanent=2)
    return replace(s, battles=(replace(main, sides=((h0,), main.sides[1])),))


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_by_default_the_side_a_fighter_fights_on_is_its_control() -> None:
    # h0 fights on p0's side, so p0 (a battling player) controls it; xa is p2's, a different
    # player: case 2, p0 keeps h0 and the other battling player p1 takes xa. No choice to make.
    s = act(handed_over(RuleConfig()), "play sb0 on h0 -> h0 xa")
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    assert side_cards(s.battles[1].sides) == (("h0",), ("xa",))


@pytest.mark.clause("RED-SB-CONTROL-OUTSIDERS", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_permanent_controller_reading_makes_both_outsiders_and_the_user_chooses() -> None:
    # Read as permanent control, h0 and xa are both p2's, a player outside the battle: case 1,
    # the user p0 decides which battling player takes which.
    s = act(handed_over(PERMANENT), "play sb0 on h0 -> h0 xa", PERMANENT)
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES and s.prompt.player == 0
    s = act(s, "sides xa h0", PERMANENT)
    assert side_cards(s.battles[1].sides) == (("xa",), ("h0",))
