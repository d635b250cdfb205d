"""Leaving the party and disbanding (seed 003, "Party Composition" and
"Disbanding Parties"). Expected values worked out by hand."""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.state import Step

from .helpers import cfg, events, field_ids, broken_ids, fw, legal_texts, play, position


@pytest.mark.clause("FF-PARTY-LEAVE-FIELD", "FF-PARTY-BLOCKED-SUM")
def test_a_member_that_leaves_no_longer_counts() -> None:
    mine = [fw("a1", power=3000), fw("a2", power=3000), fw("a3", power=4000)]
    state = play(position(mine, [fw("b1", power=7000)]), "attack a1 a2 a3", "pass", "block b1", "remove a3")
    assert state.attack is not None and state.attack.attackers == ("a1", "a2") and state.attack.party
    state = play(state, "pass")
    # the split names only a1 and a2
    assert "split a1=7000 a2=0" in legal_texts(state)
    state = play(state, "split a1=7000 a2=0")
    # 3000 + 3000 = 6000 < 7000 (a3's 4000 no longer counts): b1 survives
    assert field_ids(state, 1) == ["b1"] and state.players[1].forwards[0].damage == 6000


@pytest.mark.clause("FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-DISBAND-MEANING", "FF-PARTY-LEAVE-FIELD")
def test_party_of_two_disbands_when_one_leaves() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1 a2", "remove a2")
    assert state.attack is not None
    assert state.attack.party is False and state.attack.attackers == ("a1",)
    assert events(state, "disband") == [(("a1",), "", 0)]


@pytest.mark.clause("FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-DISBAND-MEANING")
def test_last_member_fights_alone_without_a_split() -> None:
    start = play(position([fw("a1", power=6000), fw("a2")], [fw("b1", power=5000)]), "attack a1 a2", "pass", "block b1")
    state = play(start, "remove a2", "pass")
    # no party any more: b1 deals its full power to a1, no split to choose
    assert legal_texts(state) == ["pass"]
    state = play(state, "pass")
    # a1 6000 >= 5000: b1 broken; b1 5000 < 6000: a1 survives with 5000 damage
    assert broken_ids(state, 1) == ["b1"]
    assert state.forward("a1").damage == 5000


@pytest.mark.clause("FF-PARTY-DISBAND-UNDER-TWO")
def test_last_member_variants_when_unblocked() -> None:
    start = play(position([fw("a1"), fw("a2")], [fw("b1")], damage=(0, 1)), "attack a1 a2", "pass", "noblock", "remove a2")
    # continues alone: one damage, 1 + 1 = 2
    assert play(start, "pass", "pass").players[1].damage == 2
    variant = cfg(party_last_member="removed-from-combat")
    other = play(position([fw("a1"), fw("a2")], [fw("b1")], damage=(0, 1)),
                 "attack a1 a2", "pass", "noblock", "remove a2", config=variant)
    assert other.attack is not None and other.attack.attackers == ()
    # a1 stopped attacking: the attack is over (straight to Combat End), no damage: still 1
    assert other.step is Step.COMBAT_END
    assert play(other, "pass", config=variant).players[1].damage == 1
    assert other.forward("a1").dull


@pytest.mark.clause("FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-LEAVE-FIELD")
def test_removing_every_attacker_ends_the_attack() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1 a2", "remove a1", "remove a2")
    # no attacker left in the Attack Declaration step: straight to Combat End
    assert state.step is Step.COMBAT_END
    assert legal_texts(state) == ["remove b1", "pass"]


@pytest.mark.clause("FF-PARTY-DISBAND-COMBAT-END", "FF-PARTY-DISBAND-MEANING", "FF-BASE-ATTACK-STEPS")
def test_party_disbands_in_combat_end() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1 a2", "pass", "noblock", "pass")
    assert state.step is Step.DAMAGE and state.attack is not None and state.attack.party
    state = play(state, "pass")
    assert state.step is Step.COMBAT_END
    assert state.attack is not None and state.attack.party is False
    assert events(state, "disband") == [(("a1", "a2"), "", 0)]
    state = play(state, "pass")
    assert state.step is Step.DECLARATION and state.attack is None


@pytest.mark.clause("FF-PARTY-DISBAND-COMBAT-END")
def test_cr_timing_variant_has_no_combat_end_step() -> None:
    variant = cfg(party_disband_timing="after-damage-resolution")
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1 a2", "pass", "noblock", "pass", "pass",
                 config=variant)
    assert state.step is Step.DECLARATION and state.attack is None
    assert events(state, "disband") == [(("a1", "a2"), "", 0)]


@pytest.mark.clause("FF-PARTY-DISBAND-COMBAT-END", "FF-PARTY-DULL-ALL", "FF-PARTY-DISBAND-MEANING")
def test_under_the_card_state_reading_only_a_party_of_active_members_disbands_at_combat_end() -> None:
    """Unblocked parties reach the Combat End Step. Chosen ``party-active-meaning = still-exists``: every
    party disbands there. ``members-active-state``: a1 and a2 were dulled by attacking (FF-PARTY-DULL-ALL),
    so their party is not 'active' and does not disband; a3 and a4 have Brave and stay active (chosen
    ``party-brave-members``), so theirs disbands under both readings."""
    card_state = cfg(party_active_meaning="members-active-state")
    mine = [fw("a1"), fw("a2"), fw("a3", brave=True), fw("a4", brave=True)]
    for config, dull_party_disbands in ((cfg(), True), (card_state, False)):
        dull = play(position(mine, [fw("b1", "water", 4000)]), "attack a1 a2", "pass", "noblock", "pass", "pass",
                    config=config)
        assert dull.step is Step.COMBAT_END and dull.attack is not None
        assert dull.attack.party is not dull_party_disbands
        assert bool(events(dull, "disband")) is dull_party_disbands
        brave = play(position(mine, [fw("b1", "water", 4000)]), "attack a3 a4", "pass", "noblock", "pass", "pass",
                     config=config)
        assert brave.attack is not None and brave.attack.party is False and events(brave, "disband")
