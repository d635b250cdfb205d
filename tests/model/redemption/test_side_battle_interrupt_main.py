"""Decision sb-interrupt-main-battle (RED-SB-NO-INTERRUPT-FROM-SUSPENDED): once a side battle is over, only
abilities 'in the main battle' can be targeted by an interrupt. With side battles nested, is that the
battle that resumes (resumed-battle, default) or the turn's main battle (bottom-battle)?

Expected values are worked out by hand from the clause text. Position (helpers.game): p0's Hero h0 1/5 fights
p1's Evil e0 1/5 in the main battle, p0 has initiative and plays sb0 on h0 selecting h1 (p0's Hero 1/5, p0's
territory) and k1 (p1's Hero 1/5, p1's territory): case 2, each keeps their own, a side battle B1 of h1
against k1. p0 used the card, so p1 has initiative there: p1 poisons h1 with pz (good, blue, on k1; record
#2), p0 plays pad0 (no ability) on h1, and p1 plays sb1 on k1 selecting e1 and e2 (p1's Evil Characters
1/5, p1's territory): case 3, p1 gives e1 to p0 and e2 to itself, a side battle B2 on top of B1. 1 < 5 both
ways in B2: p0 (with initiative, p1 used sb1) passes, nobody is defeated, e1 and e2 go home and B1 resumes
with p0 to play (p1 played sb1 last there). p0 holds int0, an interrupt (good, blue) it may play on h1.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, good_enh, hero
from cardrules.model.redemption.state import BattleKind, Effect, State
from tests.model.redemption.helpers import acts, game, texts

BOTTOM = RuleConfig.of({"sb-interrupt-main-battle": "bottom-battle"})
BOTH = pytest.mark.parametrize("config", [RuleConfig(), BOTTOM], ids=["resumed-battle", "bottom-battle"])

pytestmark = pytest.mark.clause("RED-SB-NO-INTERRUPT-FROM-SUSPENDED", "RED-BASE-INTERRUPT")


def poisoned_in_b1(config: RuleConfig) -> State:
    cards = [hero("h1", 0, 1, 5), hero("k1", 1, 1, 5), evil("e1", 1, 1, 5), evil("e2", 1, 1, 5),
             good_enh("pz", 1, ability=Effect.POISON), good_enh("pad0", 0), good_enh("sb1", 1, ability=Effect.SIDE_BATTLE),
             good_enh("int0", 0, ability=Effect.INTERRUPT)]
    zones = {0: {"territory": ["h1"], "hand": ["pad0", "int0"]}, 1: {"territory": ["k1", "e1", "e2"], "hand": ["pz", "sb1"]}}
    s = game(2, cards, zones, config=config)
    return acts(s, ["play sb0 on h0 -> h1 k1", "play pz on k1 -> h1"], config)


@BOTH
def test_before_any_side_battle_is_over_the_side_battle_s_abilities_are_targetable(config: RuleConfig) -> None:
    # B1 is being fought and nothing above it has ended: its poison (#2) is an ability of the battle being
    # fought, targetable under both readings.
    s = poisoned_in_b1(config)
    assert "play int0 on h1 -> #2" in texts(s, config)


@BOTH
def test_after_the_nested_side_battle_is_over(config: RuleConfig) -> None:
    s = acts(poisoned_in_b1(config), ["play pad0 on h1", "play sb1 on k1 -> e1 e2", "sides e1 e2", "pass"], config)
    assert [b.kind for b in s.battles] == [BattleKind.CHALLENGE, BattleKind.SIDE]
    assert s.prompt is not None and s.prompt.player == 0
    plays = [t for t in texts(s, config) if t.startswith("play int0")]
    # resumed-battle: B1 resumed, and #2 is one of its abilities: still targetable. bottom-battle: only the
    # main battle's abilities may be targeted once a side battle is over, and those are not in B1: int0 has
    # nothing to target and may only be played blank.
    assert plays == (["play int0 on h1"] if config is BOTTOM else ["play int0 on h1 -> #2"])
