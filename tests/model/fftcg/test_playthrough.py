"""A golden playthrough: legal actions, action and events at every step.

The expected text was checked by hand against the rules:
a1 (Fire 3000) + a2 (Fire 5000) attack as a party into b1 (Water 7000);
each member deals its own power (3000 and 5000, party-damage-source = per-member);
3000 + 5000 = 8000 >= 7000 -> b1 broken, credited to a1 and a2 (FF-PARTY-BREAK-CREDIT);
b1's 7000 all go to a2: 7000 >= 5000 -> a2 broken, leaving a1 alone -> the party
disbands (FF-PARTY-DISBAND-UNDER-TWO). Then a3 attacks unblocked: 6 + 1 = 7 -> player 1 loses.
"""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.trace import playthrough

from .helpers import fw, position

ACTIONS = [
    "attack a1 a2", "pass", "block b1", "pass", "split a1=0 a2=7000", "pass",
    "attack a3", "pass", "noblock", "pass", "pass",
]

EXPECTED = """\
turn 1, player 0, attack-declaration | damage 0-6
  legal: attack a1 | attack a2 | attack a3 | attack a1 a2 | remove a1 | remove a2 | remove a3 | remove b1 | end-turn
  > attack a1 a2
turn 1, player 0, attack-declaration | damage 0-6
  legal: remove a1 | remove a2 | remove a3 | remove b1 | pass
  > pass
turn 1, player 0, block-declaration | damage 0-6
  legal: block b1 | noblock
  > block b1
turn 1, player 0, block-declaration | damage 0-6
  legal: remove a1 | remove a2 | remove a3 | remove b1 | pass
  > pass
turn 1, player 0, damage-resolution | damage 0-6
  legal: split a1=7000 a2=0 | split a1=6000 a2=1000 | split a1=5000 a2=2000 | split a1=4000 a2=3000 | split a1=3000 a2=4000 | split a1=2000 a2=5000 | split a1=1000 a2=6000 | split a1=0 a2=7000
  > split a1=0 a2=7000
  event: damage a1 -> b1 3000
  event: damage a2 -> b1 5000
  event: damage b1 -> a2 7000
  event: break a2 by b1
  event: break b1 by a1+a2
  event: disband a1
turn 1, player 0, combat-end | damage 0-6
  legal: remove a1 | remove a3 | pass
  > pass
turn 1, player 0, attack-declaration | damage 0-6
  legal: attack a3 | remove a1 | remove a3 | end-turn
  > attack a3
turn 1, player 0, attack-declaration | damage 0-6
  legal: remove a1 | remove a3 | pass
  > pass
turn 1, player 0, block-declaration | damage 0-6
  legal: noblock
  > noblock
turn 1, player 0, block-declaration | damage 0-6
  legal: remove a1 | remove a3 | pass
  > pass
turn 1, player 0, damage-resolution | damage 0-6
  legal: pass
  > pass
  event: hit a3 -> p1 1
turn 1, player 0, damage-resolution | damage 0-7 | player 0 wins
  legal:
"""


@pytest.mark.clause(
    "FF-PARTY-BLOCKED-SUM", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-BREAK-CREDIT",
    "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-DISBAND-COMBAT-END", "FF-BASE-SEVEN-DAMAGE-LOSES",
)
def test_golden_playthrough() -> None:
    start = position(
        [fw("a1", power=3000), fw("a2", power=5000), fw("a3", "ice", power=2000)],
        [fw("b1", "water", power=7000)],
        damage=(0, 6),
    )
    assert playthrough(start, ACTIONS).splitlines() == EXPECTED.splitlines()
