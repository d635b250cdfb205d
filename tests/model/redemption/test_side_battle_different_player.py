"""Decision sb-different-player: in control case 2 (RED-SB-CONTROL-ONE-INSIDER), is 'a different player'
anyone other than the first battling player (anyone-else, the default), or only a player outside the
battle (outsiders-only)?

Expected values are worked out by hand from the seed's four control cases. Base position (helpers.game):
p0's Hero h0 (1/5) fights p1's Evil Character e0 (1/5); p0 has initiative and holds sb0, a side battle
card it plays on h0.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, hero
from cardrules.model.redemption.state import PromptKind, State
from tests.model.redemption.helpers import act, game, side_cards, texts

OUTSIDERS_ONLY = RuleConfig.of({"sb-different-player": "outsiders-only"})

pytestmark = pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER", "RED-SB-SIDES-BATTLE-PLAYERS")


def one_of_each() -> State:
    """p0 selects its own h0 (fighting on p0's side) and p1's Hero k1 (1/5, in p1's territory): one
    character of each battling player."""
    return game(2, [hero("k1", 1, 1, 5)], {1: {"territory": ["k1"]}})


def test_anyone_else_each_battling_player_keeps_their_own() -> None:
    # Default: k1's controller p1 is 'a different player' than p0, so case 2 applies: p0 keeps h0,
    # the other battling player (p1) takes k1. No choice is asked.
    s = act(one_of_each(), "play sb0 on h0 -> h0 k1")
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    assert side_cards(s.battles[1].sides) == (("h0",), ("k1",))


def test_outsiders_only_leaves_the_pair_to_the_user() -> None:
    # outsiders-only: p1 is in the battle, so k1 is not 'controlled by a different player'; case 1 needs
    # both outside, cases 3 and 4 need one controller: no case fixes the sides, and the option gives
    # them to the user, p0, who may even hand h0 to p1.
    s = act(one_of_each(), "play sb0 on h0 -> h0 k1", OUTSIDERS_ONLY)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.CHOOSE_SIDES, 0)
    assert texts(s, OUTSIDERS_ONLY) == ["sides h0 k1", "sides k1 h0"]
    swapped = act(s, "sides k1 h0", OUTSIDERS_ONLY)
    # 'sides X Y': the first battling player (p0) gets X
    assert swapped.battles[1].players == (0, 1)
    assert side_cards(swapped.battles[1].sides) == (("k1",), ("h0",))
    kept = act(s, "sides h0 k1", OUTSIDERS_ONLY)
    assert side_cards(kept.battles[1].sides) == (("h0",), ("k1",))


@pytest.mark.parametrize("config", [RuleConfig(), OUTSIDERS_ONLY], ids=["anyone-else", "outsiders-only"])
def test_an_outsiders_character_is_case_2_under_both_readings(config: RuleConfig) -> None:
    # 3 players: p1's e1 (territory) and y of p2, who is outside the battle. 'A different player' is p2
    # under either reading: p1 keeps e1 (side 1), the other battling player p0 takes y (side 0).
    cards = [evil("e1", 1, 1, 5), evil("y", 2, 1, 5)]
    s = game(3, cards, {1: {"territory": ["e1"]}, 2: {"territory": ["y"]}}, config=config)
    s = act(s, "play sb0 on h0 -> e1 y", config)
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    assert side_cards(s.battles[1].sides) == (("y",), ("e1",))
