"""Decision red-base-paralyzed-selected (RED-BASE-PARALYZED-NO-BATTLE): may a side battle ability put a
paralyzed character into its battle?

- cannot-be-selected (default): a paralyzed character enters no battle, whoever would send it in;
- may-be-selected: paralysis stops only its controller sending it in (attack, block); a side battle
  ability may still select it, and it fights there like any other character.

Expected values are worked out by hand from the clause text. Position: p0's Hero h0 1/5 fights p1's Evil
e0 1/5 (a stalemate, p1 blocked last: p0 has initiative with sb0, a side battle card it plays on h0); p1
keeps e1, an Evil Character 1/5, paralyzed, in its territory. The only two characters of one alignment
p0 can select are e0 and e1 (h0 is the only Hero).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, hero, position
from cardrules.model.redemption.state import BattleKind, State, Status
from tests.model.redemption.helpers import act, game, illegal, side_cards, texts

MAY = RuleConfig.of({"red-base-paralyzed-selected": "may-be-selected"})

pytestmark = pytest.mark.clause("RED-BASE-PARALYZED-NO-BATTLE", "RED-SB-TARGET-ZONES")


def paralyzed_e1() -> State:
    s = game(2, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}})
    return replace(s, statuses=s.statuses | {("e1", Status.PARALYZED)})


def test_by_default_a_paralyzed_character_cannot_be_selected() -> None:
    s = paralyzed_e1()
    # e1 cannot enter the side battle, so no pair of one alignment is left: sb0 may be played only blank.
    assert [t for t in texts(s) if t.startswith("play sb0")] == ["play sb0 on h0"]
    illegal(s, "play sb0 on h0 -> e0 e1", "RED-BASE-PARALYZED-NO-BATTLE")


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED", "RED-SB-SUSPEND")
def test_may_be_selected_puts_it_into_the_side_battle() -> None:
    s = paralyzed_e1()
    # e0 with e1 is now a legal pair, so sb0 must select it (it is played blank only when nothing may be selected)
    assert [t for t in texts(s, MAY) if t.startswith("play sb0")] == ["play sb0 on h0 -> e0 e1"]
    s = act(s, "play sb0 on h0 -> e0 e1", MAY)
    # p1 holds no interrupt or negate, so nobody answers first. Case 4: both are p1's, only e0 was in a
    # battle: p1 keeps e0, the other battling player p0 takes e1, still paralyzed.
    assert [b.kind for b in s.battles] == [BattleKind.CHALLENGE, BattleKind.SIDE]
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))
    assert s.has_status("e1", Status.PARALYZED) and s.side_battles == (1, 0)


@pytest.mark.clause("RED-BASE-BLOCKING")
@pytest.mark.parametrize("config", [RuleConfig(), MAY], ids=["cannot-be-selected", "may-be-selected"])
def test_its_controller_still_cannot_send_it_in(config: RuleConfig) -> None:
    # Under either reading a paralyzed character may not be sent in by its controller: p0's paralyzed
    # Hero h1 is not among the attackers (only h0 is), and p1's paralyzed e1 cannot block (only e0 can).
    cards = [hero("h0", 0, 1, 5), hero("h1", 0, 1, 5), evil("e0", 1, 1, 5), evil("e1", 1, 1, 5)]
    s = position(cards, {0: {"territory": ["h0", "h1"]}, 1: {"territory": ["e0", "e1"]}}, 2)
    s = replace(s, statuses=frozenset({("h1", Status.PARALYZED), ("e1", Status.PARALYZED)}))
    assert [t for t in texts(s, config) if t.startswith("attack")] == ["attack 1 h0"]
    s = act(s, "attack 1 h0", config)
    assert texts(s, config) == ["block e0", "noblock"]
