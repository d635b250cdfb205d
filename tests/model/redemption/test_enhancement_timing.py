"""Decision red-base-enhancement-timing: only in battle with initiative (in-battle-own-character, the
default), or also outside battle, by the turn's player, on a matching character in their territory
(any-time)?

Expected values are worked out by hand from the base rules: an enhancement goes on a character of the
same alignment with a shared brigade and adds its numbers there; a Hero unblocked wins at once unless
its toughness is 0 (decision red-base-unblocked, hero-wins-at-once), and a Hero that wins a rescue
attempt rescues the Lost Soul; a character is defeated when the opposing total strength is at least its
toughness; at the end of a battle the enhancements on its characters are discarded.
"""

from __future__ import annotations

import json

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from cardrules.model.redemption.state import Effect, Mission, Outcome, Phase, State
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, acts, illegal, texts

ANY = RuleConfig.of({"red-base-enhancement-timing": "any-time"})


def _unblocked_start() -> State:
    """p0's h 1/0 may attack p1, who holds the Lost Soul s1 and has no character; p0 holds g 0/1."""
    cards = [hero("h", 0, 1, 0), good_enh("g", 0, 0, 1), soul("s1", 1)]
    return position(cards, {0: {"territory": ["h"], "hand": ["g"]}, 1: {"bondage": ["s1"]}}, 2)


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-BASE-TURN-PHASES")
def test_by_default_no_enhancement_outside_battle() -> None:
    s = _unblocked_start()
    assert texts(s) == ["attack 1 h", "next"]
    illegal(s, "play g on h", "RED-BASE-TURN-PHASES")


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-BASE-BLOCKING", "RED-BR-RESCUE-SUCCESS")
@pytest.mark.parametrize(("config", "mission"), [(DEFAULT, Mission.FAILURE), (ANY, Mission.SUCCESS)],
                         ids=["in-battle-own-character", "any-time"])
def test_an_enhancement_put_on_before_the_attack_counts_in_battle(config: RuleConfig, mission: Mission) -> None:
    """Unblocked, h 1/0 is resolved at once: toughness 0 loses the rescue. Under any-time p0 first puts
    g on h in its territory: h goes into battle 1/1 and the unblocked rescue succeeds, s1 rescued and g
    discarded with the battle's end."""
    s = _unblocked_start()
    if config is ANY:
        s = act(s, "play g on h", ANY)
        assert s.placed == frozenset({("g", "h")}) and s.zones[0].hand == frozenset()
        assert load_state(json.loads(json.dumps(s.to_json()))) == s
    s = acts(s, ["attack 1 h", "noblock"], config)
    assert s.last_mission is mission
    if config is ANY:
        assert s.zones[0].redemption == frozenset({"s1"}) and s.zones[0].discard == frozenset({"g"})
        assert s.zones[0].territory == frozenset({"h"}) and s.placed == frozenset()


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-BASE-CHARACTERS")
def test_any_time_only_matching_ability_less_enhancements_on_ones_own_characters() -> None:
    """p0 holds g (good, blue, 2/0), r (good, red, 2/0), sb (good, blue, a side battle ability) and x
    (evil, crimson, 2/0); p0 has the blue Hero h and the crimson Evil Character d in territory, p1 the
    blue Hero k. Only g on h and x on d match; r shares no brigade, sb has an ability, k is p1's."""
    cards = [hero("h", 0, 1, 5), evil("d", 0, 1, 5), hero("k", 1, 1, 5), good_enh("g", 0, 2, 0),
             good_enh("r", 0, 2, 0, brigades=("red",)), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             evil_enh("x", 0, 2, 0)]
    s = position(cards, {0: {"territory": ["h", "d"], "hand": ["g", "r", "sb", "x"]}, 1: {"territory": ["k"]}}, 2)
    plays = [t for t in texts(s, ANY) if t.startswith("play")]
    assert plays == ["play g on h", "play x on d"]
    illegal(s, "play r on h", "RED-BASE-ENHANCEMENTS", ANY)
    illegal(s, "play g on k", "RED-BASE-ENHANCEMENTS", ANY)


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-BASE-DEFEAT", "RED-BASE-INITIATIVE")
def test_any_time_in_battle_the_initiative_still_decides() -> None:
    """p0 puts g 4/0 on h 1/5 in its preparation phase, then in battle h (5/5) meets p1's e 1/5: 5 >= 5
    defeats e, 1 < 5 spares h. p0 is winning, so p1 (losing) holds initiative: p0 may not play y, and
    p1 passes: p0 wins the challenge, e is discarded and g goes to p0's discard pile."""
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), good_enh("g", 0, 4, 0), good_enh("y", 0, 1, 0)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["g", "y"]}, 1: {"territory": ["e"]}}, 2,
                 phase=Phase.PREPARATION)
    assert "play g on h" in texts(s, ANY)
    s = acts(s, ["play g on h", "next", "attack 1 h", "block e"], ANY)
    assert s.prompt is not None and s.prompt.player == 1 and texts(s, ANY) == ["pass"]
    s = act(s, "pass", ANY)
    assert s.prompt is not None and s.prompt.cards == ("e",)
    s = act(s, "discard", ANY)
    assert s.last_outcome is Outcome.SIDE0_WINS and s.zones[1].discard == frozenset({"e"})
    assert s.zones[0].discard == frozenset({"g"}) and s.zones[0].hand == frozenset({"y"})
