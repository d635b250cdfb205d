"""Interrupting (and so redirecting) a side battle ability before its side battle starts, and a heal ability.

Expected values are worked out by hand from the clause text. Base position (helpers.game): p0's Hero h0
1/5 fights p1's Evil e0 1/5; neither defeats the other (a stalemate) and p1 blocked last, so p0 has
initiative and holds sb0, a side battle enhancement (good, blue) it plays on h0. Added here: p1 keeps the
Evil Characters e1 and e2 (1/5) in its territory and holds int1 (an interrupt, evil, crimson, so it may be
played on e0); p0 holds pad0, an enhancement with no ability.

Why p1 may answer sb0: sb0 selecting e0 takes e0, p1's only character in the main battle, out of it, so an
opponent's ability would leave p1 with no character in that battle (RED-BASE-SPECIAL-INITIATIVE, decision
sb-answer-before-start = special-initiative): p1 may first play one interrupt or negate of it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption import side_battle
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh
from cardrules.model.redemption.state import BattleKind, Effect, PromptKind, RecordStatus, State, Status
from tests.model.redemption.helpers import act, acts, game, side_cards

E = Effect
DEFAULT = RuleConfig()


def texts(state: State, config: RuleConfig = DEFAULT) -> list[str]:
    return [a.text() for a in legal_actions(state, config)]


def answered(config: RuleConfig = DEFAULT, answer: str = "int1", more: tuple[str, ...] = ()) -> State:
    """p0 plays sb0 on h0 selecting e0 (in the main battle) and e1 (p1's territory)."""
    hand = [answer, *more]
    answers = [evil_enh("int1", 1, ability=E.INTERRUPT), evil_enh("ng1", 1, ability=E.NEGATE),
               evil_enh("rd1", 1, ability=E.REDIRECT_ABILITY)]
    cards = [evil("e1", 1, 1, 5), evil("e2", 1, 1, 5), good_enh("pad0", 0), *(c for c in answers if c.id in hand)]
    s = game(2, cards, {0: {"hand": ["pad0"]}, 1: {"territory": ["e1", "e2"], "hand": hand}}, config=config)
    return act(s, "play sb0 on h0 -> e0 e1", config)


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE", "RED-BASE-INTERRUPT", "RED-SB-SUSPEND", "RED-SB-ONCE-PER-TURN")
def test_a_side_battle_card_interrupted_before_it_starts_starts_nothing() -> None:
    s = answered()
    # p1 has special initiative against sb0 (record #1): decline, or interrupt it with int1 on e0.
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.record) == (
        PromptKind.SPECIAL_INITIATIVE, 1, 1)
    assert texts(s) == ["decline", "play int1 on e0 -> #1"]
    assert len(s.battles) == 1  # nothing has started yet
    s = act(s, "play int1 on e0 -> #1")
    # Interrupted: sb0 is pending, no side battle was started, e0 still fights h0 and e1 is still at home.
    assert s.record(1).status is RecordStatus.PENDING
    assert [b.kind for b in s.battles] == [BattleKind.CHALLENGE]
    assert side_cards(s.battles[0].sides) == (("h0",), ("e0",))
    assert "e1" in s.zones[1].territory
    # It started nothing, so p0 has initiated no side battle (decision sb-initiated-when = started-stays-counted).
    assert s.side_battles == (0, 0) and not side_battle.restricted(s, 0, DEFAULT)
    # Still a stalemate, and p1 played last: p0 has initiative.
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND")
def test_declined_the_side_battle_starts() -> None:
    s = act(answered(), "decline")
    # Case 4 (RED-SB-CONTROL-SAME-MIXED): p1 controls e0 (in battle) and e1 (not): p1 keeps e0, p0 takes e1.
    assert [b.kind for b in s.battles] == [BattleKind.CHALLENGE, BattleKind.SIDE]
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))
    assert s.side_battles == (1, 0) and s.record(1).status is RecordStatus.ACTIVE


@pytest.mark.clause("RED-BASE-NEGATE", "RED-BASE-SPECIAL-INITIATIVE", "RED-SB-ONCE-PER-TURN")
def test_a_side_battle_card_negated_before_it_starts_starts_nothing() -> None:
    s = answered(answer="ng1")
    assert texts(s) == ["decline", "play ng1 on e0 -> #1"]
    s = act(s, "play ng1 on e0 -> #1")
    assert s.record(1).status is RecordStatus.NEGATED and len(s.battles) == 1
    assert s.side_battles == (0, 0)


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND")
def test_no_answer_in_hand_or_reading_never_the_side_battle_starts_at_once() -> None:
    # p1 holding only rd1 (a redirect, no interrupt or negate) could only decline: no prompt is offered.
    s = answered(answer="rd1")
    assert len(s.battles) == 2 and s.side_battles == (1, 0)
    # Under sb-answer-before-start = never nobody may answer a side battle ability before it starts.
    never = RuleConfig.of({"sb-answer-before-start": "never"})
    s = answered(never)
    assert len(s.battles) == 2 and s.side_battles == (1, 0)
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-SB-ONCE-PER-TURN", "RED-SB-CONTROL-SAME-MIXED")
def test_an_interrupted_side_battle_reactivates_when_play_would_end() -> None:
    s = act(answered(), "play int1 on e0 -> #1")
    # p0 passes: sb0 is still on h0 in the battle and e0, e1 may still be selected, so it reactivates
    # (decision red-base-interrupt-reactivation = when-play-would-end) and the side battle starts now.
    s = act(s, "pass")
    assert [b.kind for b in s.battles] == [BattleKind.CHALLENGE, BattleKind.SIDE]
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))
    assert s.side_battles == (1, 0)
    never = RuleConfig.of({"red-base-interrupt-reactivation": "never"})
    s = acts(answered(never), ["play int1 on e0 -> #1", "pass"], never)
    # Never reactivating: on the pass sb0 fizzles and starts nothing; play goes on in the main battle
    # (a pass with an ability pending gives it its chance first), p0 still has initiative.
    assert s.record(1).status is RecordStatus.FIZZLED and len(s.battles) == 1
    assert s.side_battles == (0, 0) and s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)


def redirected(config: RuleConfig = DEFAULT) -> State:
    """sb0 interrupted; p0 plays pad0 (a stalemate, p0 played last: p1 has initiative); p1 redirects sb0
    with rd1 to e1 and e2, both in p1's territory (new targets from p1's side, RED-RD-TARGET-PERSPECTIVE)."""
    s = acts(answered(config, more=("rd1",)), ["play int1 on e0 -> #1", "play pad0 on h0"], config)
    assert s.prompt is not None and s.prompt.player == 1
    assert "play rd1 on e0 -> #1 e1 e2" in texts(s, config)
    return act(s, "play rd1 on e0 -> #1 e1 e2", config)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-RD-CARRIER-CHANGES", "RED-RD-ONLY-INTERRUPTED", "RED-SB-CONTROL-SAME-UNMIXED")
def test_a_redirected_side_battle_is_initiated_by_the_redirecting_player() -> None:
    s = redirected()
    sb0 = s.record(1)
    # Still played by p0, now carried out by p1 with the new pair.
    assert (sb0.player, sb0.carried_by, sb0.targets) == (0, 1, ("e1", "e2"))
    # Decision sb-redirected-initiator = redirecting-player: p1 initiated it; p0's allowance is untouched.
    assert s.side_battles == (0, 1)
    assert side_battle.restricted(s, 1, DEFAULT) and not side_battle.restricted(s, 0, DEFAULT)
    # Case 3 (RED-SB-CONTROL-SAME-UNMIXED): p1 controls e1 and e2, neither in a battle: the player who used
    # the ability chooses; decision sb-redirected-user = original-user: that is p0, who played sb0.
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (
        PromptKind.CHOOSE_SIDES, 0, ("e1", "e2"))


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-OUTSIDERS")
def test_the_other_readings_of_a_redirected_side_battle() -> None:
    config = RuleConfig.of({"sb-redirected-initiator": "original-user", "sb-redirected-user": "redirecting-player"})
    s = redirected(config)
    # original-user: counted against p0, who played the card; redirecting-player: p1 assigns the sides.
    assert s.side_battles == (1, 0)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.CHOOSE_SIDES, 1)
    s = act(s, "sides e2 e1", config)
    assert side_cards(s.battles[-1].sides) == (("e2",), ("e1",))


def healing(config: RuleConfig = DEFAULT) -> State:
    """h0 is poisoned; p0 plays hl0 (a heal, good, blue) on h0 healing h0 (a healable character in the
    battle): the poison goes (RED-HEAL-CLEARS-STATUS). Tie, p0 played last: p1 has initiative."""
    cards = [good_enh("hl0", 0, ability=E.HEAL), evil_enh("int1", 1, ability=E.INTERRUPT),
             evil_enh("rd1", 1, ability=E.REDIRECT_ABILITY)]
    s = game(2, cards, {0: {"hand": ["hl0"]}, 1: {"hand": ["int1", "rd1"]}}, config=config)
    s = replace(s, statuses=frozenset({("h0", Status.POISONED)}))
    return act(s, "play hl0 on h0 -> h0", config)


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-TARGETS-HEALED")
def test_a_heal_ability_is_interrupted_and_reactivates() -> None:
    s = healing()
    assert not s.has_status("h0", Status.POISONED) and s.record(1).status is RecordStatus.ACTIVE
    assert "play int1 on e0 -> #1" in texts(s)
    s = act(s, "play int1 on e0 -> #1")
    # The interrupt undoes the heal: h0 is poisoned again; the heal is pending.
    assert s.has_status("h0", Status.POISONED) and s.record(1).status is RecordStatus.PENDING
    # Tie, p1 played last: p0 passes; hl0 is still on h0 and h0 still healable: the heal acts again.
    s = act(s, "pass")
    assert not s.has_status("h0", Status.POISONED) and s.record(1).status is RecordStatus.ACTIVE


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-RD-ONLY-INTERRUPTED")
def test_an_interrupted_heal_that_never_reactivates_leaves_its_target_poisoned() -> None:
    never = RuleConfig.of({"red-base-interrupt-reactivation": "never"})
    s = acts(healing(never), ["play int1 on e0 -> #1", "pass"], never)
    # Never reactivating, the heal fizzles on the pass: h0 stays poisoned, the battle goes on.
    assert s.record(1).status is RecordStatus.FIZZLED and s.has_status("h0", Status.POISONED)
    assert len(s.battles) == 1


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-RD-ONLY-INTERRUPTED", "RED-RD-CARRIER-CHANGES")
def test_an_interrupted_heal_is_redirected() -> None:
    s = act(healing(), "play int1 on e0 -> #1")
    # Tie, p1 played last: p0 has initiative and plays sb0 blank (no second Hero or Evil Character to
    # pair with: nothing to select). Tie, p0 played last: p1 has initiative.
    s = act(s, "play sb0 on h0")
    # From p1's side (RED-RD-TARGET-PERSPECTIVE) the heal's new target is a healable character in the
    # battle: only h0, poisoned again, its old target (RED-RD-SAME-TARGET-ALLOWED).
    assert [t for t in texts(s) if t.startswith("play rd1")] == ["play rd1 on e0 -> #1 h0"]
    s = act(s, "play rd1 on e0 -> #1 h0")
    # Redirected: still p0's card, carried out by p1, at once: h0 is healed again.
    heal = s.record(1)
    assert (heal.player, heal.carried_by, heal.status) == (0, 1, RecordStatus.ACTIVE)
    assert not s.has_status("h0", Status.POISONED)


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-SB-SUSPEND", "RED-SB-ONCE-PER-TURN")
def test_broken_variants_of_the_new_rules() -> None:
    starts = RuleConfig.of(broken=["interrupted-side-battle-starts"])
    s = act(answered(starts), "play int1 on e0 -> #1", starts)
    assert s.record(1).status is RecordStatus.PENDING and len(s.battles) == 2  # wrong on purpose
    stays = RuleConfig.of(broken=["interrupted-heal-stays"])
    s = act(healing(stays), "play int1 on e0 -> #1", stays)
    assert s.record(1).status is RecordStatus.PENDING and not s.has_status("h0", Status.POISONED)
    uncounted = RuleConfig.of(broken=["redirected-side-battle-uncounted"])
    assert redirected(uncounted).side_battles == (0, 0)
    no_choice = RuleConfig.of(broken=["redirected-side-battle-no-choice"])
    s = redirected(no_choice)
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY and len(s.battles) == 2
