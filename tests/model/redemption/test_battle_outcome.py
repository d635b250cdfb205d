"""Decision br-outcome-several-characters: with several characters on a side, when is the side beaten?

Expected values are worked out by hand from the rules: a character is defeated when the opposing
side's total strength is at least its toughness; one side beaten is a win for the other, both beaten
is mutual destruction, neither is a stalemate; initiative goes to the losing side, and at a tie to the
battling player who did not place the last card (the blocker counts as having done so); a rescue
succeeds only when the Hero side wins with the defender still holding a Lost Soul.

The position: p0's h1 3/2 and h2 1/5 attack p1, who holds Lost Soul s1; p1's e 3/3 blocks.
Heroes total 3 + 1 = 4 >= 3: e is defeated. e's 3 >= 2: h1 is defeated; 3 < 5: h2 is not.
- all-defeated (default): the Hero side still has h2, so it is not beaten; the Evil side is:
  the Heroes win. p1, losing, has initiative; when p1 passes, the rescue succeeds and s1 goes to
  p0's Land of Redemption.
- any-defeated: h1 down beats the Hero side too, so both sides are beaten: mutual destruction. At a
  tie p0 (who did not place the last card, the blocker e) has initiative; when p0 passes the rescue
  fails and s1 stays in p1's Land of Bondage.
Under both readings h1 and e are discarded (each is defeated) and h2 returns to p0's territory.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import evil, hero, position, soul
from cardrules.model.redemption.state import Mission, Outcome, PromptKind, State
from tests.model.redemption.helpers import act, acts

ANY = RuleConfig.of({"br-outcome-several-characters": "any-defeated"})


def blocked(config: RuleConfig) -> State:
    cards = [hero("h1", 0, 3, 2), hero("h2", 0, 1, 5), evil("e", 1, 3, 3), soul("s1", 1)]
    s = position(cards, {0: {"territory": ["h1", "h2"]}, 1: {"territory": ["e"], "bondage": ["s1"]}}, 2)
    return acts(s, ["attack 1 h1 h2", "block e"], config)


def resolve(s: State, config: RuleConfig) -> State:
    """Pass, then let both heal windows (p0 for h1, p1 for e) close unused."""
    s = act(s, "pass", config)
    for player, cards in ((0, ("h1",)), (1, ("e",))):
        assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (
            PromptKind.HEAL_WINDOW, player, cards)
        s = act(s, "discard", config)
    return s


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-INITIATIVE", "RED-BR-RESCUE-SUCCESS")
def test_all_defeated_one_hero_standing_wins_the_rescue() -> None:
    s = blocked(DEFAULT)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)
    s = resolve(s, DEFAULT)
    assert (s.last_outcome, s.last_mission) == (Outcome.SIDE0_WINS, Mission.SUCCESS)
    assert s.zones[0].redemption == frozenset({"s1"}) and s.zones[1].bondage == frozenset()
    assert s.zones[0].discard == frozenset({"h1"}) and s.zones[1].discard == frozenset({"e"})
    assert s.zones[0].territory == frozenset({"h2"})


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-INITIATIVE", "RED-BR-RESCUE-FAIL",
                    "RED-BASE-MUTUAL-STALEMATE")
def test_any_defeated_one_hero_down_is_mutual_destruction() -> None:
    s = blocked(ANY)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    s = resolve(s, ANY)
    assert (s.last_outcome, s.last_mission) == (Outcome.MUTUAL_DESTRUCTION, Mission.FAILURE)
    assert s.zones[0].redemption == frozenset() and s.zones[1].bondage == frozenset({"s1"})
    assert s.zones[0].discard == frozenset({"h1"}) and s.zones[1].discard == frozenset({"e"})
    assert s.zones[0].territory == frozenset({"h2"})


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-DEFEAT")
@pytest.mark.parametrize("config", [DEFAULT, ANY], ids=["all-defeated", "any-defeated"])
def test_an_unblocked_hero_wins_under_both_readings(config: RuleConfig) -> None:
    """h 1/1 attacks, p1 does not block: the Evil side is empty, hence beaten; h, facing no
    strength, is not defeated: the Heroes win and rescue s1 whichever reading."""
    cards = [hero("h", 0, 1, 1), evil("e", 1, 3, 3), soul("s1", 1)]
    s = position(cards, {0: {"territory": ["h"]}, 1: {"territory": ["e"], "bondage": ["s1"]}}, 2)
    s = acts(s, ["attack 1 h", "noblock"], config)
    assert (s.last_outcome, s.last_mission) == (Outcome.SIDE0_WINS, Mission.SUCCESS)
    assert s.zones[0].redemption == frozenset({"s1"})
