"""The Redemption extension points ``side-battle-allowed`` and ``numbers-redirect-expiry``: their defaults
play the catalogue's reading, and a proposal's answer changes play as its rule says.

Expected values are worked out by hand from the clause text; the positions are two embedded scenarios:

* ``redemption-side-battle-negated``: p0's Hero h0 2/5 attacks, p1 blocks with e1 4/4 (a stalemate), p1
  keeps e2 3/5 in territory and holds ng1 (a negate); p0 holds sb0 and sb0b (side battle cards).
* ``redemption-stated-numbers``: p0's Hero h 2/4 attacks, p1's e 8/8 blocks; p0 holds r3, a numbers
  redirect that states 3/3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardrules.model.redemption import redirect, side_battle
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.state import BattleKind, Effect, Phase, RecordStatus, State
from cardrules.model.redemption.turn import next_phase
from cardrules.model.redemption.validate import load_state
from cardrules.properties.scenarios import load_scenario
from tests.model.redemption.helpers import act
from tests.paths import REPO

SCENARIOS = REPO / "properties" / "scenarios"


def start(name: str) -> State:
    return load_state(load_scenario(Path(SCENARIOS / f"{name}.json")).state)


def plays(state: State, config: RuleConfig = DEFAULT) -> set[str]:
    return {a.text() for a in legal_actions(state, config)}


# --- side-battle-allowed ----------------------------------------------------------------------------


def negated_ones_given_back(state: State, player: int, config: RuleConfig) -> bool:
    """The rival reading of decision sb-initiated-when (negation-restores): one side battle a turn, not
    counting those whose card was negated after the side battle started."""
    negated = sum(1 for r in state.records if r.player == player and r.effect is Effect.SIDE_BATTLE
                  and r.status is RecordStatus.NEGATED and r.undo.opened >= 0)
    return state.side_battles[player] - negated < 1


GIVEN_BACK = RuleConfig(hooks=(("side-battle-allowed", negated_ones_given_back),))

# Case 4 (RED-SB-CONTROL-SAME-MIXED): p1 controls both, e1 in battle: p1 keeps e1, p0 takes e2. e2 3/5 and
# e1 4/4 neither defeat the other; on p0's pass the side battle ends, e1 returns to the main battle, e2 to
# p1's territory, and p1 (who did not play last) may answer: they negate sb0's ability (record #1).
# sb0 selects e1, p1's only character in the main battle, and p1 holds ng1, a negate they may play on e1:
# p1 first has special initiative against sb0 (decision sb-answer-before-start) and declines it.
STARTED = ["attack 1 h0", "block e1", "play sb0 on h0 -> e1 e2", "decline"]
NEGATED = [*STARTED, "pass", "play ng1 on e1 -> #1"]


def play_out(texts: list[str], config: RuleConfig) -> State:
    state = start("redemption-side-battle-negated")
    for text in texts:
        state = act(state, text, config)
    return state


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-NEGATE-CASCADE")
def test_a_negated_side_battle_still_uses_up_the_turn_by_default() -> None:
    # Decision sb-initiated-when = started-stays-counted: sb0's side battle started, so p0 has initiated
    # their one side battle of the turn even though sb0 is then negated; sb0b may only be played blank.
    state = play_out(NEGATED, DEFAULT)
    assert state.record(1).status is RecordStatus.NEGATED and state.side_battles == (1, 0)
    assert plays(state) == {"pass", "play sb0b on h0"}
    assert side_battle.restricted(state, 0, DEFAULT)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-NEGATE-CASCADE")
def test_a_rule_that_gives_a_negated_side_battle_back_allows_a_second() -> None:
    state = play_out(NEGATED, GIVEN_BACK)
    # sb0b may now select two characters: e1 (in the main battle) and e2 (back in p1's territory).
    assert plays(state, GIVEN_BACK) == {"pass", "play sb0b on h0 -> e1 e2"}
    second = act(state, "play sb0b on h0 -> e1 e2", GIVEN_BACK)
    # a second side battle on the stack above the rescue attempt (p1 has a Lost Soul), counted: p0 has
    # started two, one of them negated; case 4 again: p1 keeps e1, in battle, p0 takes e2
    assert [b.kind for b in second.battles] == [BattleKind.RESCUE, BattleKind.SIDE]
    assert [[f.card for f in side] for side in second.battles[-1].sides] == [["e2"], ["e1"]]
    assert second.side_battles == (2, 0)
    # the one given back is used again: no third
    assert side_battle.restricted(second, 0, GIVEN_BACK)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_the_rule_changes_nothing_while_the_side_battle_stands() -> None:
    # Before any negation both readings agree: p0 started one side battle, the restriction holds.
    for config in (DEFAULT, GIVEN_BACK):
        state = play_out([*STARTED, "pass"], config)
        assert state.side_battles == (1, 0)
        assert side_battle.restricted(state, 0, config)
        assert not side_battle.restricted(state, 1, config)  # p1 keeps their own allowance


# --- numbers-redirect-expiry ------------------------------------------------------------------------

# r3 on h moves 3/3 from e (RED-RD-NUMBERS-TRANSFER): h 5/7 against e 5/5, e is defeated; p1 completes its
# discard and the battle is over, still in the battle phase.
REDIRECTED = ["attack 1 h", "block e", "play r3 on h -> e", "pass", "discard"]


def to_end_of_turn(state: State, record: Any, config: RuleConfig) -> str:
    return "end-of-turn"


LASTS_TURN = RuleConfig(hooks=(("numbers-redirect-expiry", to_end_of_turn),))


def after_battle(config: RuleConfig) -> State:
    state = start("redemption-stated-numbers")
    for text in REDIRECTED:
        state = act(state, text, config)
    assert not state.battles and state.phase is Phase.BATTLE and state.prompt is None
    return state


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
def test_by_default_a_numbers_redirect_ends_with_its_phase() -> None:
    state = after_battle(DEFAULT)
    assert numbers(state, "e") == (5, 5)  # 8/8 less the 3/3 still moved: the battle phase goes on
    # the end of the battle phase (as the dispatcher ends it: expire, then the next phase)
    discard_phase = next_phase(redirect.expire(state, DEFAULT))
    assert discard_phase.phase is Phase.DISCARD
    assert discard_phase.records == () and numbers(discard_phase, "e") == (8, 8)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
def test_a_redirect_that_lasts_the_turn_goes_on_to_the_turns_end() -> None:
    state = after_battle(LASTS_TURN)
    discard_phase = next_phase(redirect.expire(state, LASTS_TURN))
    (record,) = discard_phase.records
    assert record.status is RecordStatus.ACTIVE and record.lasts_until == (1, Phase.DISCARD)
    assert numbers(discard_phase, "e", LASTS_TURN) == (5, 5)  # still 3/3 less through the discard phase
    assert load_state(discard_phase.to_json()) == discard_phase  # a position the state checks accept
    next_turn = next_phase(redirect.expire(discard_phase, LASTS_TURN))
    assert (next_turn.turn, next_turn.phase) == (2, Phase.DRAW)
    assert next_turn.records == () and numbers(next_turn, "e", LASTS_TURN) == (8, 8)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_the_expiry_is_asked_of_each_redirect_with_the_state_of_the_phase_that_ends() -> None:
    asked: list[tuple[str, tuple[int, Phase], str]] = []

    def noting(state: State, record: Any, config: RuleConfig) -> str:
        asked.append((state.phase.value, record.lasts_until, record.card))
        return "end-of-phase"

    config = RuleConfig(hooks=(("numbers-redirect-expiry", noting),))
    state = after_battle(config)
    ended = next_phase(redirect.expire(state, config))
    assert asked == [("battle", (1, Phase.BATTLE), "r3")] and ended.records == ()


# --- heal-window-attachments ------------------------------------------------------------------------

# redemption-heal-and-redirect: p0's h1 1/3 attacks, p1's e1 2/2 blocks; p0 plays rn (a numbers redirect)
# on h1, taking e1's numbers; p1's dc discards h1 (p0 declines to answer it), which opens h1's heal window
# (RED-HEAL-WINDOW), and p0 heals h1 with hl.
HEALED = ["attack 1 h1", "block e1", "play rn on h1 -> e1", "play dc on e1 -> h1", "decline", "heal h1 with hl"]


def heal_out(config: RuleConfig) -> State:
    state = start("redemption-heal-and-redirect")
    for text in HEALED:
        state = act(state, text, config)
    return state


def all_stay(state: State, fighter: Any, config: RuleConfig) -> tuple[str, ...]:
    return tuple(fighter.enhancements)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_by_default_a_character_healed_in_its_window_loses_its_enhancements() -> None:
    # Revised wording: h1 goes to the territory of p0, who has permanent control of it; the enhancement on it,
    # rn, goes to its owner's (p0's) discard pile (decision heal-window-attachments = to-discard), as does hl,
    # the healing enhancement, after use.
    state = heal_out(DEFAULT)
    assert "h1" in state.zones[0].territory
    assert state.zones[0].discard == frozenset({"rn", "hl"}) and state.placed == frozenset()


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_a_rule_that_keeps_the_enhancements_places_them_on_the_healed_character() -> None:
    config = RuleConfig(hooks=(("heal-window-attachments", all_stay),))
    state = heal_out(config)
    assert "h1" in state.zones[0].territory
    assert state.zones[0].discard == frozenset({"hl"}) and state.placed == frozenset({("rn", "h1")})
    assert load_state(state.to_json()) == state  # a position the state checks accept


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-RD-UNTIL-END-OF-PHASE")
def test_a_redirect_carried_on_goes_into_the_phase_the_turn_goes_to() -> None:
    # The phase a carried redirect names next is the one the dispatcher moves to: draw, upkeep,
    # preparation, battle, discard; after discard the turn ends and so does the redirect.
    from cardrules.model.redemption.turn import PHASE_ORDER

    assert redirect.FOLLOWING == dict(zip(PHASE_ORDER, PHASE_ORDER[1:]))
    assert Phase.DISCARD not in redirect.FOLLOWING
