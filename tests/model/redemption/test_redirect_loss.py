"""Decision rd-numbers-loss-lasting: when the card whose numbers were redirected leaves battle, is the
gain lost only while it is out (while-out, the default) or for good (lost-for-good)?

Expected values are worked out by hand from the rules: a numbers redirect moves the stated amount (at
most the printed numbers) from its target to the redirecting card and lasts to the end of the phase; a
character is defeated when the opposing total strength is at least its toughness; initiative goes to
the losing side, at a tie to the player who did not play the last card; a side battle survivor taken
from a territory goes back to its owner's territory.

The position: p0 has h 3/5 and k 1/5 in territory and sb (side battle), rn (numbers redirect stating
0/2) and j 0/1 in hand; p1 has e 2/6 in territory and sb1 (side battle) in hand.
1. h attacks, e blocks: 3 < 6 and 2 < 5, a stalemate; e came in last, so p0 has initiative.
2. p0 plays sb on h -> j k, j on p0's side, k on p1's: a side battle j 0/1 against k 1/5.
3. p0 plays rn on j -> k: 0/2 moves, k is 1/3. 0 < 3 and 1 < 3: stalemate; p0 played last, so p1 has
   initiative, has nothing to play there and passes. Nobody is defeated: j and k go back to p0's
   territory and rn is discarded. k has left battle.
   - while-out: the redirect goes on to the end of the battle phase; k is still 1/3.
   - lost-for-good: the redirect ended when k left battle; k is 1/5 again.
4. The main battle resumes at its stalemate; p0 played its last card (sb), so p1 has initiative and
   plays sb1 on e -> h k: a side battle h 3/5 against k.
   - while-out: 3 >= k's 3, k is defeated; 1 < 5, h is not: k's battle controller p1 gets the heal
     window and lets the discard complete: k goes to p0's discard pile.
   - lost-for-good: 3 < 5 and 1 < 5: a stalemate; p1 played last, so p0 has initiative.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Effect, PromptKind, RecordStatus, State
from tests.model.redemption.helpers import act, acts

FOR_GOOD = RuleConfig.of({"rd-numbers-loss-lasting": "lost-for-good"})


def after_first_side_battle(config: RuleConfig) -> State:
    cards = [hero("h", 0, 3, 5), hero("k", 0, 1, 5), evil("e", 1, 2, 6), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             good_enh("rn", 0, ability=Effect.REDIRECT_NUMBERS, stated_amount=(0, 2)), hero("j", 0, 0, 1),
             evil_enh("sb1", 1, ability=Effect.SIDE_BATTLE)]
    s = position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "rn", "j"]},
                         1: {"territory": ["e"], "hand": ["sb1"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "play sb on h -> j k", "sides j k", "play rn on j -> k"], config)
    assert numbers(s, "k", config) == (1, 3)
    return act(s, "pass", config)


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-UNTIL-END-OF-PHASE")
@pytest.mark.parametrize(("config", "status", "k_numbers"), [
    (DEFAULT, RecordStatus.ACTIVE, (1, 3)), (FOR_GOOD, RecordStatus.EXPIRED, (1, 5)),
], ids=["while-out", "lost-for-good"])
def test_the_redirect_after_its_target_left_battle(config: RuleConfig, status: RecordStatus,
                                                   k_numbers: tuple[int, int]) -> None:
    s = after_first_side_battle(config)
    assert len(s.battles) == 1 and {"j", "k"} <= s.zones[0].territory and "rn" in s.zones[0].discard
    assert s.record(2).card == "rn" and s.record(2).status is status
    assert numbers(s, "k", config) == k_numbers


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-ONGOING", "RED-BASE-DEFEAT")
def test_while_out_the_reduction_follows_k_into_the_next_battle() -> None:
    s = act(after_first_side_battle(DEFAULT), "play sb1 on e -> h k")
    assert numbers(s, "k") == (1, 3)
    s = act(s, "pass")
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 1, ("k",))
    s = act(s, "discard")
    assert "k" in s.zones[0].discard and "k" not in s.zones[0].territory


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-BASE-INITIATIVE")
def test_lost_for_good_k_comes_back_whole() -> None:
    s = act(after_first_side_battle(FOR_GOOD), "play sb1 on e -> h k", FOR_GOOD)
    assert numbers(s, "k", FOR_GOOD) == (1, 5)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    s = act(s, "pass", FOR_GOOD)
    assert len(s.battles) == 1 and "k" in s.zones[0].territory
