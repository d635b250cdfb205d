"""Forming parties: composition, timing and the cost of attacking (seed 003,
"Party Composition" and "Forming Parties"). Expected values are worked out by
hand from the clause text."""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.state import Step

from .helpers import assert_illegal, cfg, fw, legal_texts, play, position


@pytest.mark.clause("FF-PARTY-MIN-TWO")
def test_one_forward_is_a_single_attack_not_a_party() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1")
    assert state.attack is not None
    assert state.attack.party is False
    assert state.attack.attackers == ("a1",)


@pytest.mark.clause("FF-PARTY-MIN-TWO", "FF-PARTY-FORM-VALID")
def test_two_forwards_of_one_element_form_a_party() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1 a2")
    assert state.attack is not None
    assert state.attack.party is True
    assert state.attack.attackers == ("a1", "a2")


@pytest.mark.clause("FF-PARTY-NO-SIZE-LIMIT")
def test_every_subset_of_five_able_forwards_is_offered() -> None:
    five = [fw(f"a{i}") for i in range(1, 6)]
    texts = legal_texts(position(five, [fw("b1")]))
    parties = [t for t in texts if t.startswith("attack ") and len(t.split()) >= 3]
    # subsets of 5 Forwards with >= 2 members: 2**5 - 1 (empty) - 5 (singletons) = 26
    assert len(parties) == 26
    assert "attack a1 a2 a3 a4 a5" in parties
    state = play(position(five, [fw("b1")]), "attack a1 a2 a3 a4 a5")
    assert state.attack is not None and len(state.attack.attackers) == 5


@pytest.mark.clause("FF-PARTY-ALL-CAN-ATTACK", "FF-BASE-CAN-ATTACK")
@pytest.mark.parametrize(
    "member",
    [
        fw("a2", dull=True),  # dull: cannot attack
        fw("a2", since_start=False),  # arrived this turn, no Haste
    ],
    ids=["dull", "summoning-sick"],
)
def test_a_member_unable_to_attack_forbids_the_party(member: object) -> None:
    state = position([fw("a1"), member], [fw("b1")])  # type: ignore[list-item]
    assert_illegal(state, "attack a1 a2", "FF-PARTY-ALL-CAN-ATTACK")


@pytest.mark.clause("FF-PARTY-ALL-CAN-ATTACK", "FF-BASE-CAN-ATTACK")
def test_a_member_that_already_attacked_forbids_the_party() -> None:
    # a1 (Brave, stays active) attacks alone first; then {a1, a2} is not allowed
    state = play(position([fw("a1", brave=True), fw("a2")], [fw("b1")]), "attack a1", "pass", "noblock", "pass", "pass", "pass")
    # attack, to block step, no block, to damage, resolve (1 damage), leave combat end
    assert state.step is Step.DECLARATION and state.attack is None
    assert not state.forward("a1").dull
    assert_illegal(state, "attack a1 a2", "FF-PARTY-ALL-CAN-ATTACK")


@pytest.mark.clause("FF-PARTY-ALL-CAN-ATTACK", "FF-BASE-CAN-ATTACK")
def test_haste_lets_a_new_forward_join() -> None:
    state = position([fw("a1"), fw("a2", since_start=False, haste=True)], [fw("b1")])
    assert "attack a1 a2" in legal_texts(state)


@pytest.mark.clause("FF-PARTY-TWO-TYPES", "FF-PARTY-FORM-VALID", "FF-PARTY-ELEMENT")
def test_different_elements_without_p_icon_is_no_party() -> None:
    state = position([fw("a1", "fire"), fw("a2", "ice")], [fw("b1")])
    error = assert_illegal(state, "attack a1 a2", "FF-PARTY-TWO-TYPES")
    assert "FF-PARTY-FORM-VALID" in error.clause_ids


@pytest.mark.clause("FF-PARTY-ELEMENT", "FF-BASE-MULTI-ELEMENT")
def test_multi_element_members_with_one_common_element() -> None:
    # Fire/Ice, Ice, Ice/Wind: Ice is common to all three
    state = position([fw("a1", "fire/ice"), fw("a2", "ice"), fw("a3", "ice/wind")], [fw("b1")])
    assert "attack a1 a2 a3" in legal_texts(state)


@pytest.mark.clause("FF-PARTY-ELEMENT", "FF-BASE-MULTI-ELEMENT")
def test_pairwise_overlap_is_not_enough_by_default() -> None:
    # Fire/Ice, Ice/Wind, Wind/Fire: every pair overlaps, no element is in all three
    trio = [fw("a1", "fire/ice"), fw("a2", "ice/wind"), fw("a3", "wind/fire")]
    state = position(trio, [fw("b1")])
    assert_illegal(state, "attack a1 a2 a3", "FF-PARTY-ELEMENT")
    # the pairs are fine: {a1,a2} share Ice, {a2,a3} Wind, {a1,a3} Fire
    assert {"attack a1 a2", "attack a2 a3", "attack a1 a3"} <= set(legal_texts(state))
    # variant party-element-match = pairwise-overlap accepts the trio
    assert "attack a1 a2 a3" in legal_texts(state, cfg(party_element_match="pairwise-overlap"))


@pytest.mark.clause("FF-PARTY-P-ICON", "FF-BASE-P-ICON", "FF-PARTY-TWO-TYPES")
def test_p_icon_party_ignores_elements() -> None:
    state = position([fw("a1", "fire", p_icon=True), fw("a2", "ice", p_icon=True), fw("a3", "wind")], [fw("b1")])
    texts = legal_texts(state)
    assert "attack a1 a2" in texts  # both have the P icon
    assert "attack a1 a3" not in texts  # fire vs wind, a3 has no P icon
    assert_illegal(state, "attack a1 a2 a3", "FF-PARTY-P-ICON")


@pytest.mark.clause("FF-PARTY-FORM-DECLARATION")
@pytest.mark.parametrize("when", ["preparation", "during-an-attack", "combat-end"])
def test_a_party_is_formed_only_as_the_attack_declaration(when: str) -> None:
    start = position([fw("a1"), fw("a2"), fw("a3"), fw("a4")], [fw("b1")], step=Step.PREPARATION)
    if when == "during-an-attack":
        start = play(start, "pass", "attack a1")
    elif when == "combat-end":
        start = play(start, "pass", "attack a1", "pass", "noblock", "pass", "pass")
        assert start.step is Step.COMBAT_END
    assert_illegal(start, "attack a3 a4", "FF-PARTY-FORM-DECLARATION")


@pytest.mark.clause("FF-PARTY-DULL-ALL", "FF-BASE-ATTACK-DULLS")
def test_every_member_is_dulled() -> None:
    state = play(position([fw("a1"), fw("a2"), fw("a3")], [fw("b1")]), "attack a1 a2 a3")
    assert [state.forward(f).dull for f in ("a1", "a2", "a3")] == [True, True, True]
    assert state.attacked == frozenset({"a1", "a2", "a3"})


@pytest.mark.clause("FF-PARTY-DULL-ALL", "FF-BASE-ATTACK-DULLS")
def test_a_brave_member_stays_active_unless_the_literal_variant() -> None:
    start = position([fw("a1", brave=True), fw("a2")], [fw("b1")])
    state = play(start, "attack a1 a2")
    assert (state.forward("a1").dull, state.forward("a2").dull) == (False, True)
    literal = play(start, "attack a1 a2", config=cfg(party_brave_members="all-dull"))
    assert (literal.forward("a1").dull, literal.forward("a2").dull) == (True, True)
