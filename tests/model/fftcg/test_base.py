"""The base rules the party model relies on (ff_base.toml assumptions)."""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import State, Step

from .helpers import DEFAULT, assert_illegal, broken_ids, cfg, field_ids, fw, legal_texts, play, position


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_steps_in_order() -> None:
    state = position([fw("a1")], [fw("b1")], step=Step.PREPARATION)
    seen = [state.step]
    for text in ("pass", "attack a1", "pass", "block b1", "pass", "pass", "pass"):
        state = play(state, text)
        seen.append(state.step)
    assert seen == [
        Step.PREPARATION, Step.DECLARATION, Step.DECLARATION, Step.BLOCK, Step.BLOCK,
        Step.DAMAGE, Step.COMBAT_END, Step.DECLARATION,
    ]


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_no_pass_without_an_attack_in_declaration() -> None:
    state = position([fw("a1")], [fw("b1")])
    assert_illegal(state, "pass", "FF-BASE-ATTACK-STEPS")


@pytest.mark.clause("FF-BASE-ONE-ATTACK-AT-A-TIME")
def test_one_attack_at_a_time() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1")
    assert_illegal(state, "attack a2", "FF-BASE-ONE-ATTACK-AT-A-TIME")
    assert_illegal(state, "end-turn", "FF-BASE-ONE-ATTACK-AT-A-TIME")


@pytest.mark.clause("FF-BASE-CAN-ATTACK")
def test_who_can_attack() -> None:
    state = position(
        [fw("a1"), fw("a2", dull=True), fw("a3", since_start=False), fw("a4", since_start=False, haste=True)],
        [fw("b1")],
    )
    singles = [t for t in legal_texts(state) if t.startswith("attack") and len(t.split()) == 2]
    # a2 dull, a3 new without Haste; a1 and a4 (Haste) may attack
    assert singles == ["attack a1", "attack a4"]
    assert_illegal(state, "attack b1", "FF-BASE-CAN-ATTACK")  # not the turn player's
    assert_illegal(state, "attack a2", "FF-BASE-CAN-ATTACK")


@pytest.mark.clause("FF-BASE-ATTACK-DULLS", "FF-BASE-CAN-ATTACK")
def test_attacking_dulls_except_brave() -> None:
    state = play(position([fw("a1"), fw("a2", brave=True)], [fw("b1")]), "attack a1")
    assert state.forward("a1").dull
    state = play(state, "pass", "noblock", "pass", "pass", "pass", "attack a2")
    assert not state.forward("a2").dull
    state = play(state, "pass", "noblock", "pass", "pass", "pass")
    # a2 is active but has attacked this turn
    assert_illegal(state, "attack a2", "FF-BASE-CAN-ATTACK")


@pytest.mark.clause("FF-BASE-BLOCK")
def test_blocking_rules_for_a_single_attacker() -> None:
    state = play(
        position([fw("a1", unblockable_by_elements=frozenset({"ice"}))],
                 [fw("b1", "water"), fw("b2", "water", dull=True), fw("b3", "ice")]),
        "attack a1", "pass",
    )
    # b2 dull, b3 ice (a1 cannot be blocked by ice): only b1 may block
    assert legal_texts(state) == ["block b1", "noblock"]
    assert_illegal(state, "block b2", "FF-BASE-BLOCK")
    state = play(state, "block b1")
    assert not state.forward("b1").dull  # blocking does not dull
    assert_illegal(state, "block b1", "FF-BASE-BLOCK")  # one block only


@pytest.mark.clause("FF-BASE-BLOCK", "FF-BASE-ATTACK-DULLS")
def test_a_blocker_may_block_again_unless_blocking_dulls() -> None:
    # a1 (1000) attacks, b1 (5000) blocks: 1000 < 5000, b1 survives; 5000 >= 1000, a1 breaks.
    # Then a2 attacks. Blocking does not dull (ff-base-blocker-dulls = stays-active): b1 is
    # still active and may block a2 too. With the alternative reading b1 is dull: no block.
    def second_attack(config: RuleConfig) -> State:
        start = position([fw("a1", power=1000), fw("a2", power=1000)], [fw("b1", power=5000)])
        return play(start, "attack a1", "pass", "block b1", "pass", "pass", "pass", "attack a2", "pass", config=config)

    assert legal_texts(second_attack(DEFAULT)) == ["block b1", "noblock"]
    dulls = cfg(ff_base_blocker_dulls="dulls")
    state = second_attack(dulls)
    assert state.forward("b1").dull
    assert legal_texts(state, dulls) == ["noblock"]
    assert_illegal(state, "block b1", "FF-BASE-BLOCK", dulls)


@pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE")
def test_unblocked_single_attack_deals_one() -> None:
    state = play(position([fw("a1", power=9000)], [fw("b1")], damage=(0, 2)), "attack a1", "pass", "noblock", "pass", "pass")
    assert state.players[1].damage == 3  # 2 + 1


@pytest.mark.clause("FF-BASE-BLOCKED-EXCHANGE", "FF-BASE-BREAK-DAMAGE")
def test_single_attacker_and_blocker_exchange_power() -> None:
    state = play(position([fw("a1", power=5000)], [fw("b1", power=4000)]), "attack a1", "pass", "block b1", "pass", "pass")
    # 5000 >= 4000: b1 broken (credited to a1); 4000 < 5000: a1 keeps 4000 damage
    assert broken_ids(state, 1) == ["b1"]
    assert state.forward("a1").damage == 4000
    assert [(e.sources, e.target) for e in state.events if e.kind == "break"] == [(("a1",), "b1")]


@pytest.mark.clause("FF-BASE-BREAK-DAMAGE")
def test_break_at_exact_power_and_not_below_1000() -> None:
    state = play(position([fw("a1", power=7000)], [fw("b1", power=7000)]), "attack a1", "pass", "block b1", "pass", "pass")
    # 7000 >= 7000 both ways: both broken
    assert broken_ids(state, 0) == ["a1"] and broken_ids(state, 1) == ["b1"]
    small = play(position([fw("a1", power=9000)], [fw("b1", power=500)]), "attack a1", "pass", "block b1", "pass", "pass")
    # power 500 < 1000: 9000 damage does not break it
    assert field_ids(small, 1) == ["b1"]


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER")
def test_power_zero_is_broken_at_once() -> None:
    state = play(position([fw("a1"), fw("a2", power=0)], [fw("b1")]), "attack a1")
    assert broken_ids(state, 0) == ["a2"]
    assert [(e.sources, e.target) for e in state.events if e.kind == "break"] == [((), "a2")]


@pytest.mark.clause("FF-BASE-SEVEN-DAMAGE-LOSES")
def test_seven_damage_loses_and_the_game_stops() -> None:
    state = play(position([fw("a1")], [fw("b1")], damage=(0, 6)), "attack a1", "pass", "noblock", "pass", "pass")
    assert state.outcome is not None and state.outcome.winner == 0
    assert legal_texts(state) == []
    assert_illegal(state, "end-turn", "FF-BASE-SEVEN-DAMAGE-LOSES")


@pytest.mark.clause("FF-BASE-PREEMPTIVE")
def test_single_preemptive_attacker_breaks_blocker_first() -> None:
    state = play(position([fw("a1", power=5000, preemptive=True)], [fw("b1", power=5000)]),
                 "attack a1", "pass", "block b1", "pass")
    assert state.step is Step.PREEMPTIVE
    state = play(state, "pass", "pass")
    # 5000 >= 5000: b1 broken in the Pre-emptive part, deals nothing: a1 has 0 damage
    assert broken_ids(state, 1) == ["b1"] and state.forward("a1").damage == 0


@pytest.mark.clause("FF-BASE-PREEMPTIVE")
def test_both_preemptive_deal_together_once() -> None:
    state = play(position([fw("a1", power=5000, preemptive=True)], [fw("b1", power=3000, preemptive=True)]),
                 "attack a1", "pass", "block b1", "pass", "pass")
    # both in the Pre-emptive part: b1 broken, a1 has 3000; nothing more in the ordinary part
    assert state.step is Step.DAMAGE and state.forward("a1").damage == 3000
    state = play(state, "pass")
    assert state.step is Step.COMBAT_END and state.forward("a1").damage == 3000


@pytest.mark.clause("FF-BASE-END-OF-TURN")
def test_end_of_turn() -> None:
    state = play(position([fw("a1", power=5000)], [fw("b1", power=2000, dull=True), fw("b2", power=9000)]),
                 "attack a1", "pass", "block b2", "pass", "pass", "pass")
    # a1 broken (9000 >= 5000); b2 has 5000 damage
    assert state.forward("b2").damage == 5000
    state = play(state, "end-turn")
    assert state.turn_player == 1 and state.turn == 2 and state.step is Step.PREPARATION
    assert state.forward("b2").damage == 0  # damage removed
    assert not state.forward("b1").dull  # the new turn player's Forwards become active
    assert state.attacked == frozenset() and state.events == ()
    assert "attack b1 b2" in legal_texts(play(state, "pass"))
