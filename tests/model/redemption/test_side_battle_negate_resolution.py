"""Decision sb-negate-resolution (RED-SB-NEGATE-CASCADE): does negating a side battle card also undo its side
battle's own result?

- keep-resolution (default): only the interruptible effects of cards played during the side battle are
  negated; who was discarded or sent home by its resolution stays so;
- undo-all: the side battle is undone as if never fought: its fighters go back where they were selected
  from, with what they carried in, and the rest that was played on them goes to the discard pile.

Expected values are worked out by hand from the clause text. Base position (helpers.game): p0's Hero h0 1/5
fights p1's Evil e0 1/5: a stalemate, p1 blocked last, so p0 has initiative and plays sb0 (a side battle
card) on h0. A side battle card can be negated once its side battle is over and the battle it was played
in is being fought again (a negate targets an ability of the battle being fought); p1 holds ng1, a negate
it may play on e0.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero
from cardrules.model.redemption.state import Effect, RecordStatus, State
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, acts, game, side_cards

UNDO = RuleConfig.of({"sb-negate-resolution": "undo-all"})
BOTH = pytest.mark.parametrize("config", [RuleConfig(), UNDO], ids=["keep-resolution", "undo-all"])

pytestmark = pytest.mark.clause("RED-SB-NEGATE-CASCADE", "RED-BASE-NEGATE")


def defeated_in_side_battle(config: RuleConfig) -> State:
    """sb0 selects e1 (1/1) and e2 (4/4), both p1's, in p1's territory: case 3, p0 gives e1 to itself and
    e2 to p1. 4 >= 1: e1 is defeated; 1 < 4: e2 is not. p1 (with initiative: p0 used sb0) passes, p0's
    heal window for e1 (it fights on p0's side) closes unused: e1 goes to its owner p1's discard pile and
    e2, a survivor from no battle, to its owner p1's territory. The main battle resumes with p1 to play
    (p0 played sb0 there last), and p1 negates sb0."""
    cards = [evil("e1", 1, 1, 1), evil("e2", 1, 4, 4), evil_enh("ng1", 1, ability=Effect.NEGATE)]
    s = game(2, cards, {1: {"territory": ["e1", "e2"], "hand": ["ng1"]}}, config=config)
    s = acts(s, ["play sb0 on h0 -> e1 e2", "sides e1 e2", "pass", "discard"], config)
    assert len(s.battles) == 1 and "e1" in s.zones[1].discard and [d.card for d in s.discards] == ["e1"]
    return act(s, "play ng1 on e0 -> #1", config)


@BOTH
def test_a_character_the_side_battle_defeated(config: RuleConfig) -> None:
    s = defeated_in_side_battle(config)
    assert s.record(1).status is RecordStatus.NEGATED
    if config is UNDO:
        # Undone: e1 is back in p1's territory, where it was selected from, and its discard no longer counts.
        assert {"e1", "e2"} <= s.zones[1].territory and "e1" not in s.zones[1].discard and s.discards == ()
    else:
        # The resolution stands: e1 stays discarded (and counted), e2 at home.
        assert "e1" in s.zones[1].discard and "e2" in s.zones[1].territory and [d.card for d in s.discards] == ["e1"]
    assert load_state(s.to_json()) == s


def returned_to_battle(config: RuleConfig) -> State:
    """sb0 selects h0 (p0's, in the main battle, carrying sb0) and k (p0's Hero 1/5 in p0's territory): case
    4, p0 keeps h0, p1 takes k. In the side battle p1 (with initiative) plays gp1 (no ability) on k, p0 plays
    pad0 (no ability) on h0, p1 passes: 1 < 5 both ways, nobody is defeated. h0 came from the main battle:
    back to it on p0's side, keeping pad0; k goes to its owner p0's territory, gp1 to p1's discard pile.
    The main battle resumes with p1 to play, who negates sb0."""
    cards = [hero("k", 0, 1, 5), good_enh("pad0", 0), good_enh("gp1", 1), evil_enh("ng1", 1, ability=Effect.NEGATE)]
    s = game(2, cards, {0: {"territory": ["k"], "hand": ["pad0"]}, 1: {"hand": ["gp1", "ng1"]}}, config=config)
    s = act(s, "play sb0 on h0 -> h0 k", config)
    assert side_cards(s.battles[1].sides) == (("h0",), ("k",))
    s = acts(s, ["play gp1 on k", "play pad0 on h0", "pass"], config)
    assert len(s.battles) == 1 and s.battles[0].sides[0][0].enhancements == ("sb0", "pad0")
    return act(s, "play ng1 on e0 -> #1", config)


@BOTH
def test_a_survivor_that_went_back_to_its_battle(config: RuleConfig) -> None:
    s = returned_to_battle(config)
    h0 = s.battles[0].sides[0][0]
    assert "k" in s.zones[0].territory and "gp1" in s.zones[1].discard
    if config is UNDO:
        # Undone: h0 is in the main battle as it was when selected, with sb0 only; pad0, played on it in the
        # side battle, goes to p0's discard pile.
        assert (h0.card, h0.enhancements) == ("h0", ("sb0",)) and "pad0" in s.zones[0].discard
    else:
        assert (h0.card, h0.enhancements) == ("h0", ("sb0", "pad0"))
    assert load_state(s.to_json()) == s


@BOTH
def test_a_card_played_after_the_side_battle_stays(config: RuleConfig) -> None:
    # sb0 selects e0 (p1's, in the main battle) and e1 (p1's Evil 1/5, territory): it would take p1's only
    # character out of the main battle, so p1 (holding ng1) may answer first and declines. Case 4: p1 keeps
    # e0, p0 takes e1. 1 < 5 both ways; p1 (with initiative) passes: e0 goes back to the main battle on p1's
    # side, e1 to p1's territory. p1 then negates sb0 with ng1 played on e0. Undoing the side battle puts
    # e0 and e1 where they were selected from, which is where they are; ng1, played on e0 after the side
    # battle, stays on it under either reading.
    cards = [evil("e1", 1, 1, 5), evil_enh("ng1", 1, ability=Effect.NEGATE)]
    s = game(2, cards, {1: {"territory": ["e1"], "hand": ["ng1"]}}, config=config)
    s = acts(s, ["play sb0 on h0 -> e0 e1", "decline"], config)
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))
    s = acts(s, ["pass", "play ng1 on e0 -> #1"], config)
    assert s.record(1).status is RecordStatus.NEGATED
    assert side_cards(s.battles[0].sides) == (("h0",), ("e0",)) and s.battles[0].sides[1][0].enhancements == ("ng1",)
    assert "e1" in s.zones[1].territory and s.zones[1].discard == frozenset()
