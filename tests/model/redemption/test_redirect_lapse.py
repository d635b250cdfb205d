"""Decision rd-lapse-reduction: when a numbers redirect ends with its phase, does its target get its
numbers back (lapse-ends-both, the default) or keep the reduction (reduction-stays)?

Expected values are worked out by hand from the rules: a numbers redirect moves the stated amount (at
most the printed numbers) from its target to the redirecting card until the end of the phase it was
used in; a character is defeated when the opposing total strength is at least its toughness; initiative
goes to the losing side, at a tie to the player who did not play the last card.

The position: p0's h 2/3 attacks, p1's e 3/5 blocks; p0 holds rn, a numbers redirect stating 2/0.
Turn 1: 3 >= 3, h is defeated; 2 < 5, e is not: p0 is losing and plays rn on h -> e: e 1/5, rn 2/0,
so h's side is 4 strength: 1 < 3 spares h, 4 < 5 spares e: a stalemate; p0 played last, so p1 passes.
Both go home; rn is discarded; the redirect lasts to the end of the battle phase.
- lapse-ends-both: from the discard phase on, e is 3/5 again.
- reduction-stays: e stays 1/5.
Turn 3 (p1's turn 2 passes with nothing to do): h attacks again and e blocks.
- lapse-ends-both: e's 3 >= 3 defeats h, 2 < 5 spares e: p1 wins; p0, losing, passes; h is discarded.
- reduction-stays: 1 < 3 and 2 < 5: a stalemate, and nobody is discarded.
"""

from __future__ import annotations

import json

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Effect, Outcome, Phase, State
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, acts

STAYS = RuleConfig.of({"rd-lapse-reduction": "reduction-stays"})


def after_the_battle_phase(config: RuleConfig) -> State:
    cards = [hero("h", 0, 2, 3), evil("e", 1, 3, 5),
             good_enh("rn", 0, ability=Effect.REDIRECT_NUMBERS, stated_amount=(2, 0))]
    s = position(cards, {0: {"territory": ["h"], "hand": ["rn"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e"], config)
    assert s.prompt is not None and s.prompt.player == 0
    s = act(s, "play rn on h -> e", config)
    assert numbers(s, "e", config) == (1, 5) and s.prompt is not None and s.prompt.player == 1
    s = act(s, "pass", config)
    assert s.battles == () and s.last_outcome is Outcome.STALEMATE and numbers(s, "e", config) == (1, 5)
    return act(s, "next", config)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
@pytest.mark.parametrize(("config", "e_numbers"), [(DEFAULT, (3, 5)), (STAYS, (1, 5))],
                         ids=["lapse-ends-both", "reduction-stays"])
def test_the_target_after_the_phase(config: RuleConfig, e_numbers: tuple[int, int]) -> None:
    s = after_the_battle_phase(config)
    assert s.phase is Phase.DISCARD and s.records == ()
    assert numbers(s, "e", config) == e_numbers
    assert load_state(json.loads(json.dumps(s.to_json()))) == s


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-BASE-DEFEAT")
@pytest.mark.parametrize(("config", "outcome", "h_discarded"), [
    (DEFAULT, Outcome.SIDE1_WINS, True), (STAYS, Outcome.STALEMATE, False),
], ids=["lapse-ends-both", "reduction-stays"])
def test_the_next_battle_between_them(config: RuleConfig, outcome: Outcome, h_discarded: bool) -> None:
    s = acts(after_the_battle_phase(config), ["next", "draw", "next", "next", "next", "next",
                                              "draw", "next", "next", "attack 1 h", "block e", "pass"], config)
    if h_discarded:
        s = act(s, "discard", config)
    assert s.turn == 3 and s.battles == () and s.last_outcome is outcome
    assert ("h" in s.zones[0].discard) is h_discarded
