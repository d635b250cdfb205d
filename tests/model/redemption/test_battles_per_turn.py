"""Decision red-base-battles-per-turn: may the turn's player start one main battle in a battle phase
(one, the default), or any number, one after another (many)?

Expected values are worked out by hand from the base rules: a Hero sent against an opponent with a
Lost Soul in bondage makes a rescue attempt; an unblocked Hero wins at once and rescues the Lost Soul;
a character is defeated when the opposing side's total strength is at least its toughness; a numbers
redirect moves its stated amount from its target to the redirecting card until the end of the phase it
was used in, and the target stays reduced while the redirect lasts.
"""

from __future__ import annotations

import json

import pytest

from cardrules.model.redemption.battle_ids import named_ids
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.scenario import evil, good_enh, hero, position, soul
from cardrules.model.redemption.state import Effect, Outcome, Phase, State
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, acts, illegal, texts
from tests.oracle.crosscheck.redemption.option_checks import explored

MANY = RuleConfig.of({"red-base-battles-per-turn": "many"})


def _stalemate_start() -> State:
    """p0's h 1/5 against p1's e 1/5, p1 holding the Lost Soul s1: 1 < 5 both ways, a stalemate."""
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), soul("s1", 1)]
    return position(cards, {0: {"territory": ["h"]}, 1: {"territory": ["e"], "bondage": ["s1"]}}, 2)


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-BASE-MUTUAL-STALEMATE")
def test_one_battle_a_turn_by_default() -> None:
    """After the stalemate only the end of the phase is left, and a second attack is refused."""
    s = acts(_stalemate_start(), ["attack 1 h", "block e", "pass"])
    assert s.last_outcome is Outcome.STALEMATE and s.phase is Phase.BATTLE
    assert texts(s) == ["next"]
    illegal(s, "attack 1 h", "RED-BASE-TURN-PHASES")


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-MUTUAL-STALEMATE")
def test_many_the_same_hero_may_attack_again() -> None:
    """Under many, h, back in its territory after the stalemate, may attack again; a second stalemate
    leaves the very same position, so repeating it makes nothing new."""
    once = acts(_stalemate_start(), ["attack 1 h", "block e", "pass"], MANY)
    assert texts(once, MANY) == ["attack 1 h", "next"]
    twice = acts(once, ["attack 1 h", "block e", "pass"], MANY)
    assert twice == once


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-BASE-RESCUE-OR-CHALLENGE", "RED-BR-RESCUE-SUCCESS")
@pytest.mark.parametrize(("config", "rescued"), [(DEFAULT, 1), (MANY, 2)], ids=["one", "many"])
def test_rescues_in_one_turn(config: RuleConfig, rescued: int) -> None:
    """p0's h 3/3 against p1, who has two Lost Souls and no character to block with: each unblocked
    rescue attempt succeeds. One battle rescues one soul; under many a second attempt rescues the other."""
    cards = [hero("h", 0, 3, 3), soul("s1", 1), soul("s2", 1)]
    s = position(cards, {0: {"territory": ["h"]}, 1: {"bondage": ["s1", "s2"]}}, 2)
    s = acts(s, ["attack 1 h", "noblock"], config)
    assert len(s.zones[0].redemption) == 1 and s.zones[0].territory == frozenset({"h"})
    if config is MANY:
        s = acts(s, ["attack 1 h", "noblock"], config)
    else:
        illegal(s, "attack 1 h", "RED-BASE-TURN-PHASES", config)
    assert len(s.zones[0].redemption) == rescued
    assert len(s.zones[1].bondage) == 2 - rescued


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING", "RED-BASE-DEFEAT")
def test_many_a_redirect_lasts_into_the_next_battle_of_its_phase() -> None:
    """p0's h 2/3 attacks, p1's e 3/5 blocks; 3 >= 3 would defeat h, so p0 plays rn (a numbers redirect of
    2/0) on h taking from e: e 1/5, and the battle ends in a stalemate. The redirect lasts to the end of
    the battle phase. Under many h attacks again in that phase and e blocks, still 1/5: 1 < 3 and 2 < 5,
    a stalemate again, where e at 3/5 would have defeated h. The redirect's record keeps its battle (id 1)
    and the new battle is the second one named (id 2)."""
    cards = [hero("h", 0, 2, 3), evil("e", 1, 3, 5), good_enh("rn", 0, ability=Effect.REDIRECT_NUMBERS, stated_amount=(2, 0))]
    s = position(cards, {0: {"territory": ["h"], "hand": ["rn"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "play rn on h -> e", "pass"], MANY)
    assert s.last_outcome is Outcome.STALEMATE and s.zones[0].discard == frozenset({"rn"})
    s = acts(s, ["attack 1 h", "block e"], MANY)
    assert numbers(s, "e", MANY) == (1, 5) and numbers(s, "h", MANY) == (2, 3)
    assert [b.id for b in s.battles] == [2] and named_ids(s) == {1}
    assert load_state(json.loads(json.dumps(s.to_json()))) == s
    s = act(s, "pass", MANY)
    assert s.last_outcome is Outcome.STALEMATE and s.zones[0].territory == frozenset({"h"})
    s = act(s, "next", MANY)
    assert numbers(s, "e", MANY) == (3, 5)


@pytest.mark.clause("RED-BASE-TURN-PHASES")
def test_many_a_turn_of_repeated_battles_is_explored_to_its_end() -> None:
    """The repeated stalemates of h and e come back to positions already seen (battle ids are renumbered
    as each battle starts), so the turn's exploration ends; it holds more positions than under one (the
    second attack and its blocks). Nothing outlives a battle here, so every battle is battle 1."""
    one, many = explored(_stalemate_start(), DEFAULT), explored(_stalemate_start(), MANY)
    assert len(many) > len(one)
    assert {b.id for s in many for b in s.battles} == {1} and max(s.next_battle for s in many) == 2
