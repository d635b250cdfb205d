"""Decision red-base-unblocked: what happens when the opponent declines to block?

Expected values are worked out by hand from the base rules: a character is defeated when the opposing
side's total strength is at least its toughness (an empty side's total is 0); an empty side is beaten;
both sides beaten is mutual destruction; at a tie initiative goes to the battling player who did not
put in the last card (by default the defender, who declined to block, counts as having done so); a
rescue succeeds only on a Hero win.

The position: p0's h 1/0 attacks p1 (Lost Soul s1 in bondage); p0 holds g 0/1 (blue, matching h).
p1 does not block. h's toughness 0 is reached by the Evil side's 0: h is defeated, and the empty Evil
side is beaten too: mutual destruction.
- hero-wins-at-once (default): resolved at once: mutual destruction, the rescue fails, h is discarded
  (after p0's heal window), s1 stays in bondage.
- play-continues: p0, who did not put in the last card, has initiative at the tie and may play g on h:
  h 1/1 is no longer defeated (0 < 1), the Heroes win; p1, now losing, has nothing to play and passes:
  the rescue succeeds, s1 goes to p0's Land of Redemption, h returns to p0's territory and g is
  discarded.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import good_enh, hero, position, soul
from cardrules.model.redemption.state import Mission, Outcome, PromptKind, State
from tests.model.redemption.helpers import act, acts, texts

CONTINUES = RuleConfig.of({"red-base-unblocked": "play-continues"})


def start() -> State:
    cards = [hero("h", 0, 1, 0), good_enh("g", 0, 0, 1), soul("s1", 1)]
    return position(cards, {0: {"territory": ["h"], "hand": ["g"]}, 1: {"bondage": ["s1"]}}, 2)


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BR-FOUR-OUTCOMES", "RED-BR-RESCUE-FAIL")
def test_hero_wins_at_once_resolves_without_play() -> None:
    s = acts(start(), ["attack 1 h", "noblock"])
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 0, ("h",))
    s = act(s, "discard")
    assert (s.last_outcome, s.last_mission) == (Outcome.MUTUAL_DESTRUCTION, Mission.FAILURE)
    assert s.zones[0].discard == frozenset({"h"}) and s.zones[1].bondage == frozenset({"s1"})
    assert s.zones[0].hand == frozenset({"g"})


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BASE-INITIATIVE", "RED-BR-FOUR-OUTCOMES", "RED-BR-RESCUE-SUCCESS")
def test_play_continues_lets_the_hero_save_itself() -> None:
    s = acts(start(), ["attack 1 h", "noblock"], CONTINUES)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    assert texts(s, CONTINUES) == ["pass", "play g on h"]
    s = act(s, "play g on h", CONTINUES)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)
    assert texts(s, CONTINUES) == ["pass"]
    s = act(s, "pass", CONTINUES)
    assert (s.last_outcome, s.last_mission) == (Outcome.SIDE0_WINS, Mission.SUCCESS)
    assert s.zones[0].redemption == frozenset({"s1"}) and s.zones[0].territory == frozenset({"h"})
    assert s.zones[0].discard == frozenset({"g"}) and s.battles == ()


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BASE-INITIATIVE")
def test_play_continues_a_pass_at_once_gives_the_default_result() -> None:
    """Passing straight away resolves the same standing as the default: mutual destruction, h to discard."""
    s = acts(start(), ["attack 1 h", "noblock", "pass"], CONTINUES)
    s = act(s, "discard", CONTINUES)
    assert (s.last_outcome, s.last_mission) == (Outcome.MUTUAL_DESTRUCTION, Mission.FAILURE)
    assert s.zones[0].discard == frozenset({"h"})


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BR-RESCUE-SUCCESS")
@pytest.mark.parametrize("config", [DEFAULT, CONTINUES], ids=["hero-wins-at-once", "play-continues"])
def test_a_sturdy_unblocked_hero_rescues_under_both(config: RuleConfig) -> None:
    """h 1/1 facing nothing is not defeated: a Hero win; under play-continues p1, losing with no
    character in the battle, can only pass first."""
    cards = [hero("h", 0, 1, 1), soul("s1", 1)]
    s = acts(position(cards, {0: {"territory": ["h"]}, 1: {"bondage": ["s1"]}}, 2), ["attack 1 h", "noblock"], config)
    if config is CONTINUES:
        s = act(s, "pass", config)
    assert (s.last_outcome, s.last_mission) == (Outcome.SIDE0_WINS, Mission.SUCCESS)
    assert s.zones[0].redemption == frozenset({"s1"})
