"""Readings of the attack protocol that some engines follow, as decision options (``ff_base.toml``):
``ff-removal-windows = not-in-declaration`` (nobody acts in Attack Declaration) and
``ff-attack-no-attacker-left = redeclare`` (an attack that lost every attacker returns play to Attack
Declaration at once), and the readings the catalogue rejects for the split of a 2500 blocker.

Expected values by hand from the option texts and the clauses they modify: FF-BASE-ATTACK-STEPS (the
steps; the Combat End Step ends each attack under the seed's timing), FF-PARTY-LEAVE-FIELD (a member
that leaves is out of the attack), FF-BASE-CAN-ATTACK (a Forward attacks once a turn, if active).
"""

from __future__ import annotations

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import Step

from .helpers import DEFAULT, assert_illegal, broken_ids, cfg, fw, legal_texts, play, position

NO_DECLARATION_WINDOW = cfg(ff_removal_windows="not-in-declaration")
REDECLARE = cfg(ff_attack_no_attacker_left="redeclare")


def removals(texts: list[str]) -> set[str]:
    return {t for t in texts if t.startswith("remove")}


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD")
def test_no_window_in_attack_declaration_only_the_pass_follows_a_declaration() -> None:
    start = position([fw("a1"), fw("a2")], [fw("b1", "water", 4000)])
    declared = play(start, "attack a1")
    # chosen reading: after the declaration any Forward may still leave the field
    assert removals(legal_texts(declared)) == {"remove a1", "remove a2", "remove b1"}
    declared = play(start, "attack a1", config=NO_DECLARATION_WINDOW)
    assert legal_texts(declared, NO_DECLARATION_WINDOW) == ["pass"]
    assert_illegal(declared, "remove a1", "FF-BASE-ATTACK-STEPS", NO_DECLARATION_WINDOW)
    blocking = play(declared, "pass", config=NO_DECLARATION_WINDOW)
    assert blocking.step is Step.BLOCK and blocking.attack is not None and blocking.attack.attackers == ("a1",)


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-END-OF-TURN")
def test_no_window_in_attack_declaration_before_an_attack_either() -> None:
    start = position([fw("a1")], [fw("b1", "water", 4000)])
    assert legal_texts(start, NO_DECLARATION_WINDOW) == ["attack a1", "end-turn"]
    assert "remove b1" in legal_texts(start)
    # the other windows stay: Attack Preparation, and Block Declaration once the block is declared
    preparation = position([fw("a1")], [fw("b1", "water", 4000)], step=Step.PREPARATION)
    assert removals(legal_texts(preparation, NO_DECLARATION_WINDOW)) == {"remove a1", "remove b1"}
    blocked = play(start, "attack a1", "pass", "block b1", config=NO_DECLARATION_WINDOW)
    assert removals(legal_texts(blocked, NO_DECLARATION_WINDOW)) == {"remove a1", "remove b1"}


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD", "FF-BASE-CAN-ATTACK")
def test_an_attack_that_lost_its_attacker_returns_to_declaration_under_redeclare() -> None:
    start = position([fw("a1"), fw("a2")], [fw("b1", "water", 4000)])
    # chosen reading (ends): the attack is over and play goes to the Combat End Step
    ended = play(start, "attack a1", "remove a1")
    assert ended.step is Step.COMBAT_END
    state = play(start, "attack a1", "remove a1", config=REDECLARE)
    assert state.step is Step.DECLARATION and state.attack is None
    assert broken_ids(state, 0) == ["a1"]
    # a2 has not attacked: the turn player may declare it, or end the turn
    assert legal_texts(state, REDECLARE)[:1] == ["attack a2"] and "end-turn" in legal_texts(state, REDECLARE)
    again = play(state, "attack a2", "pass", "noblock", "pass", "pass", config=REDECLARE)
    assert again.players[1].damage == 1  # the second attack is an ordinary one: unblocked, one damage


@pytest.mark.clause("FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO", "FF-BASE-CAN-ATTACK")
def test_a_party_emptied_in_block_declaration_returns_to_declaration() -> None:
    start = position([fw("a1"), fw("a2"), fw("a3")], [fw("b1", "water", 4000)])
    blocked = play(start, "attack a1 a2", "pass", "block b1", "remove a1", config=REDECLARE)
    assert blocked.attack is not None and blocked.attack.attackers == ("a2",)  # one left: not over yet
    state = play(blocked, "remove a2", config=REDECLARE)
    assert state.step is Step.DECLARATION and state.attack is None
    assert "attack a3" in legal_texts(state, REDECLARE)


@pytest.mark.clause("FF-PARTY-DISBAND-UNDER-TWO", "FF-BASE-CAN-ATTACK", "FF-BASE-ATTACK-DULLS")
def test_the_last_member_withdrawn_from_combat_has_still_attacked_this_turn() -> None:
    # party-last-member = removed-from-combat: removing a1 leaves the attack with no attacker, while a2
    # stays on the field; under redeclare play is back in Attack Declaration, but a2 is dull and has
    # attacked this turn, so it cannot be declared again (the declaration is not undone)
    config = cfg(ff_attack_no_attacker_left="redeclare", party_last_member="removed-from-combat")
    start = position([fw("a1"), fw("a2"), fw("a3")], [fw("b1", "water", 4000)])
    state = play(start, "attack a1 a2", "remove a1", config=config)
    assert state.step is Step.DECLARATION and state.attack is None
    assert state.players[0].forward("a2") is not None and state.players[0].forward("a2").dull  # type: ignore[union-attr]
    assert "attack a2" not in legal_texts(state, config) and "attack a3" in legal_texts(state, config)


@pytest.mark.clause("FF-PARTY-DISBAND-COMBAT-END", "FF-BASE-ATTACK-STEPS")
def test_redeclare_and_ends_agree_without_a_combat_end_step() -> None:
    # under party-disband-timing = after-damage-resolution an attack already ends in Attack Declaration
    start = position([fw("a1"), fw("a2")], [fw("b1", "water", 4000)])
    timing = {"party-disband-timing": "after-damage-resolution"}
    ends = play(start, "attack a1", "remove a1", config=RuleConfig.of(timing))
    again = play(start, "attack a1", "remove a1", config=RuleConfig.of({**timing, "ff-attack-no-attacker-left": "redeclare"}))
    assert ends == again and again.step is Step.DECLARATION


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
@pytest.mark.parametrize(("decision", "rejected"), [("party-blocker-power-remainder", "nothing-if-indivisible"),
                                                    ("party-blocker-power-remainder", "round-up"),
                                                    ("party-blocker-power-remainder", "steps-of-500"),
                                                    ("ff-attack-no-attacker-left", "undo-declaration")])
def test_engine_behaviours_judged_no_reading_are_refused_with_the_reason(decision: str, rejected: str) -> None:
    with pytest.raises(ScenarioError) as info:
        RuleConfig.of({decision: rejected})
    assert "rejects as no reading of the text" in str(info.value)


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def test_a_2500_blocker_splits_2000_in_thousands_and_the_500_reaches_no_one() -> None:
    start = position([fw("a1", power=2000), fw("a2", power=2000)], [fw("b1", "earth", 2500)])
    state = play(start, "attack a1 a2", "pass", "block b1", "pass")
    assert [t for t in legal_texts(state) if t.startswith("split")] == [
        "split a1=2000 a2=0", "split a1=1000 a2=1000", "split a1=0 a2=2000"]
    after = play(state, "split a1=1000 a2=1000")
    assert [f.damage for f in after.players[0].forwards] == [1000, 1000]  # 2000 dealt in all, not 2500
    assert DEFAULT.option("party-blocker-power-remainder") == "floor"


IN_DAMAGE = cfg(ff_removal_windows="also-in-damage")


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-BLOCKED-SUM")
def test_a_member_may_leave_inside_damage_resolution_only_under_also_in_damage() -> None:
    """a1 5000 and a2 3000 attack as a party, b1 6000 blocks; Damage Resolution opens on b1's split.

    Chosen ``outside-damage``: Damage Resolution has no window, only the split may follow, and it breaks
    b1 (5000 + 3000 >= 6000). ``also-in-damage``: a1 may leave before the damage; the party is then one
    Forward, so no party (FF-PARTY-DISBAND-UNDER-TWO) and no split: a2 alone deals 3000 to b1 and takes
    its 6000, so a2 breaks and b1 survives."""
    start = position([fw("a1", power=5000), fw("a2", power=3000)], [fw("b1", power=6000)])
    damage = play(start, "attack a1 a2", "pass", "block b1", "pass")
    assert damage.step is Step.DAMAGE
    assert removals(legal_texts(damage)) == set()
    assert_illegal(damage, "remove a1", "FF-BASE-ATTACK-STEPS")
    assert removals(legal_texts(damage, IN_DAMAGE)) == {"remove a1", "remove a2", "remove b1"}
    left = play(damage, "remove a1", config=IN_DAMAGE)
    assert left.step is Step.DAMAGE and left.attack is not None and left.attack.party is False
    assert legal_texts(left, IN_DAMAGE) == ["remove a2", "remove b1", "pass"]
    after = play(left, "pass", config=IN_DAMAGE)
    assert broken_ids(after, 0) == ["a1", "a2"] and broken_ids(after, 1) == []
    assert after.players[1].forwards[0].damage == 3000


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-PREEMPTIVE", "FF-PARTY-LEAVE-FIELD")
def test_a_blocker_may_leave_between_the_two_parts_under_also_in_damage() -> None:
    """a1 5000 with Pre-emptive Strike attacks alone, b1 6000 blocks: the Pre-emptive part is a1's (5000
    to b1, not enough). Under ``also-in-damage`` b1 may then be removed in the ordinary part before it
    deals its damage: with the chosen ``party-blocker-left = no-damage`` the attack deals nothing more,
    so a1 survives (by default b1 deals its 6000 and a1 breaks)."""
    start = position([fw("a1", preemptive=True)], [fw("b1", power=6000)])
    first = play(start, "attack a1", "pass", "block b1", "pass", "pass")
    assert first.step is Step.DAMAGE and first.players[1].forwards[0].damage == 5000
    assert broken_ids(play(first, "pass"), 0) == ["a1"]
    gone = play(first, "remove b1", "pass", config=IN_DAMAGE)
    assert broken_ids(gone, 0) == [] and broken_ids(gone, 1) == ["b1"] and gone.players[1].damage == 0


ALTERNATING = cfg(ff_step_passing="alternating-priority")


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-END-OF-TURN")
def test_under_alternating_priority_each_player_passes_and_an_action_starts_the_passing_over() -> None:
    """``ff-step-passing = alternating-priority``: a step with priority ends when the turn player and then
    the other player pass; after the turn player's pass the other player holds priority (so the turn
    player may not end the turn), and any action in between makes both pass again."""
    start = position([fw("a1"), fw("a2")], [fw("b1", "water", 4000)], step=Step.PREPARATION)
    assert play(start, "pass").step is Step.DECLARATION  # chosen: one pass for both
    handed = play(start, "pass", config=ALTERNATING)
    assert handed.step is Step.PREPARATION and handed.passed
    assert_illegal(handed, "end-turn", "FF-BASE-ATTACK-STEPS", ALTERNATING)
    assert play(handed, "pass", config=ALTERNATING).step is Step.DECLARATION
    removed = play(handed, "remove a2", config=ALTERNATING)
    assert not removed.passed and "end-turn" in legal_texts(removed, ALTERNATING)
    assert play(removed, "pass", config=ALTERNATING).step is Step.PREPARATION
    assert play(removed, "pass", "pass", config=ALTERNATING).step is Step.DECLARATION


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-UNBLOCKED-DAMAGE", "FF-PARTY-UNBLOCKED-ONE")
def test_an_unblocked_attack_under_alternating_priority_needs_two_passes_per_window() -> None:
    """The same unblocked attack of a1 under each reading: Attack Declaration, Block Declaration and the
    Combat End Step each take two passes under alternating priority, Damage Resolution (no window under
    the chosen removal windows) one; the result is the same, one damage to player 1."""
    start = position([fw("a1")], [fw("b1", "water", 4000)])
    chosen = play(start, "attack a1", "pass", "noblock", "pass", "pass")
    assert chosen.step is Step.COMBAT_END and chosen.players[1].damage == 1
    alternating = play(start, "attack a1", "pass", "pass", "noblock", "pass", "pass", "pass", config=ALTERNATING)
    assert alternating.step is Step.COMBAT_END and alternating.players[1].damage == 1
    assert play(alternating, "pass", config=ALTERNATING).step is Step.COMBAT_END
    assert play(alternating, "pass", "pass", config=ALTERNATING).step is Step.DECLARATION
