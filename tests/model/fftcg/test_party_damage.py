"""Parties and damage, parties and abilities (seed 003). Expected values are
worked out by hand; the arithmetic is in the comments."""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import Step

from .helpers import assert_illegal, broken_ids, cfg, events, field_ids, fw, legal_texts, play, position


def blocked_party(mine, theirs, blocker="b1", config=None):  # type: ignore[no-untyped-def]
    """Declare a party of all of ``mine``, block with ``blocker``, enter damage resolution."""
    ids = " ".join(f.id for f in mine)
    kwargs = {"config": config} if config is not None else {}
    return play(position(mine, theirs), f"attack {ids}", "pass", f"block {blocker}", "pass", **kwargs)


# --- FF-PARTY-BLOCKED-SUM ---------------------------------------------------------


@pytest.mark.clause("FF-PARTY-BLOCKED-SUM", "FF-BASE-BREAK-DAMAGE")
def test_blocked_party_deals_the_sum_and_breaks_the_blocker() -> None:
    state = blocked_party([fw("a1", power=3000), fw("a2", power=5000)], [fw("b1", power=7000)])
    assert state.step is Step.DAMAGE
    state = play(state, "split a1=0 a2=7000")
    # 3000 + 5000 = 8000 >= 7000 toughness -> b1 broken; each member deals its own
    # power (party-damage-source = per-member, the default)
    assert events(state, "damage")[:2] == [(("a1",), "b1", 3000), (("a2",), "b1", 5000)]
    assert broken_ids(state, 1) == ["b1"]
    # b1 dealt all 7000 to a2 (power 5000): 7000 >= 5000 -> a2 broken; a1 took 0
    assert broken_ids(state, 0) == ["a2"]
    assert field_ids(state, 0) == ["a1"]


@pytest.mark.clause("FF-PARTY-BLOCKED-SUM")
def test_blocker_survives_a_smaller_sum() -> None:
    state = blocked_party([fw("a1", power=3000), fw("a2", power=3000)], [fw("b1", power=7000)])
    state = play(state, "split a1=3000 a2=4000")
    # 3000 + 3000 = 6000 < 7000 -> b1 stays, with 6000 damage
    assert field_ids(state, 1) == ["b1"]
    assert state.players[1].forwards[0].damage == 6000
    # 3000 >= 3000 and 4000 >= 3000: both members broken
    assert broken_ids(state, 0) == ["a1", "a2"]


@pytest.mark.clause("FF-PARTY-BLOCKED-SUM", "FF-PARTY-LEAVE-FIELD")
def test_blocker_that_left_takes_nothing_and_party_deals_nothing() -> None:
    start = play(position([fw("a1"), fw("a2")], [fw("b1")], damage=(0, 2)), "attack a1 a2", "pass", "block b1")
    state = play(start, "remove b1", "pass")
    assert state.step is Step.DAMAGE
    assert legal_texts(state) == ["pass"]  # no split: there is no blocker
    state = play(state, "pass")
    assert events(state, "damage") == [] and state.players[1].damage == 2
    # variant party-blocker-left = as-unblocked: one damage, 2 + 1 = 3
    variant = cfg(party_blocker_left="as-unblocked")
    assert play(start, "remove b1", "pass", "pass", config=variant).players[1].damage == 3


# --- FF-PARTY-SPLIT-THOUSANDS --------------------------------------------------


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def test_every_split_in_thousands_is_offered() -> None:
    state = blocked_party([fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=5000)])
    # 5000 = 5 units of 1000 over 2 members: a1 takes 5,4,3,2,1,0 units -> 6 splits
    assert legal_texts(state) == [
        "split a1=5000 a2=0", "split a1=4000 a2=1000", "split a1=3000 a2=2000",
        "split a1=2000 a2=3000", "split a1=1000 a2=4000", "split a1=0 a2=5000",
    ]


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_three_members_split_count() -> None:
    state = blocked_party([fw("a1", power=9000), fw("a2", power=9000), fw("a3", power=9000)], [fw("b1", power=3000)])
    # 3 units over 3 members: C(3 + 2, 2) = 10 ways
    assert len(legal_texts(state)) == 10


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
@pytest.mark.parametrize(
    "text",
    ["split a1=2500 a2=2500", "split a1=3000 a2=1000", "split a1=6000 a2=0", "split a1=5000", "pass"],
    ids=["not-thousands", "short", "too-much", "missing-member", "pass-without-split"],
)
def test_bad_splits_are_illegal(text: str) -> None:
    state = blocked_party([fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=5000)])
    assert_illegal(state, text, "FF-PARTY-SPLIT-THOUSANDS")


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_split_outside_damage_resolution_is_illegal() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")]), "attack a1 a2")
    assert_illegal(state, "split a1=5000 a2=0", "FF-PARTY-SPLIT-THOUSANDS")


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_power_not_a_multiple_of_1000_is_rounded_down() -> None:
    state = blocked_party([fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=2500)])
    # floor: 2500 -> 2000 divisible: 2 units over 2 members = 3 ways
    assert legal_texts(state) == ["split a1=2000 a2=0", "split a1=1000 a2=1000", "split a1=0 a2=2000"]
    state = play(state, "split a1=1000 a2=1000")
    assert [e for e in events(state, "damage") if e[0] == ("b1",)] == [(("b1",), "a1", 1000), (("b1",), "a2", 1000)]


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_blocker_below_1000_deals_nothing_to_a_party() -> None:
    state = blocked_party([fw("a1", power=2000), fw("a2", power=2000)], [fw("b1", power=500)])
    # 500 rounds down to 0: the only split is 0/0
    assert legal_texts(state) == ["split a1=0 a2=0"]
    state = play(state, "split a1=0 a2=0")
    # 2000 + 2000 = 4000 damage on a 500-power Forward: power < 1000, never broken by damage
    assert field_ids(state, 1) == ["b1"] and state.players[1].forwards[0].damage == 4000


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_remainder_to_one_variant() -> None:
    variant = cfg(party_blocker_power_remainder="remainder-to-one")
    state = blocked_party([fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=2500)], config=variant)
    # 2000 in thousands (3 ways) x the 500 going to a1 or a2 (2 ways) = 6
    assert sorted(legal_texts(state, variant)) == sorted([
        "split a1=2500 a2=0", "split a1=2000 a2=500", "split a1=1500 a2=1000",
        "split a1=1000 a2=1500", "split a1=500 a2=2000", "split a1=0 a2=2500",
    ])


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_zero_share_variants() -> None:
    mine, theirs = [fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=4000)]
    # default: 4 units over 2 = 5 ways, including 4000/0 and 0/4000
    assert len(legal_texts(blocked_party(mine, theirs))) == 5
    variant = cfg(party_zero_share="each-hit-if-possible")
    # each member at least 1000: 3000/1000, 2000/2000, 1000/3000
    assert legal_texts(blocked_party(mine, theirs, config=variant), variant) == [
        "split a1=3000 a2=1000", "split a1=2000 a2=2000", "split a1=1000 a2=3000",
    ]


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_hundreds_mutant_offers_splits_the_seed_forbids() -> None:
    mutant = RuleConfig.of(broken=["party-split-in-hundreds"])  # the broken variant, not an option
    state = blocked_party([fw("a1", power=9000), fw("a2", power=9000)], [fw("b1", power=1000)], config=mutant)
    # 1000 = 10 units of 100 over 2 members: 11 ways, 9 of them not in thousands
    texts = legal_texts(state, mutant)
    assert len(texts) == 11 and "split a1=500 a2=500" in texts


# --- FF-PARTY-UNBLOCKED-ONE -----------------------------------------------------


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE")
def test_unblocked_party_deals_exactly_one_damage() -> None:
    mine = [fw("a1", power=9000), fw("a2", power=9000), fw("a3", power=9000)]
    state = play(position(mine, [fw("b1")], damage=(0, 3)), "attack a1 a2 a3", "pass", "noblock", "pass", "pass")
    # three members, 27000 power in all: still 3 + 1 = 4 damage
    assert state.players[1].damage == 4
    assert events(state, "hit") == [(("a1", "a2", "a3"), "p1", 1)]


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-SEVEN-DAMAGE-LOSES")
def test_unblocked_party_can_win_the_game() -> None:
    state = play(position([fw("a1"), fw("a2")], [fw("b1")], damage=(0, 6)), "attack a1 a2", "pass", "noblock", "pass", "pass")
    # 6 + 1 = 7 -> player 1 loses
    assert state.players[1].damage == 7
    assert state.outcome is not None and state.outcome.winner == 0
    assert legal_texts(state) == []


# --- FF-PARTY-PREEMPTIVE-ALL ------------------------------------------------------


@pytest.mark.clause("FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-PREEMPTIVE")
def test_party_where_all_have_preemptive_strikes_first() -> None:
    mine = [fw("a1", power=3000, preemptive=True), fw("a2", power=2000, preemptive=True)]
    state = blocked_party(mine, [fw("b1", power=4000)])
    assert state.step is Step.PREEMPTIVE
    assert legal_texts(state) == ["pass"]  # the blocker has no Pre-emptive Strike: no split now
    state = play(state, "pass")
    # 3000 + 2000 = 5000 >= 4000: b1 broken before it deals any damage
    assert broken_ids(state, 1) == ["b1"]
    assert state.step is Step.DAMAGE and legal_texts(state) == ["pass"]
    state = play(state, "pass")
    assert [f.damage for f in state.players[0].forwards] == [0, 0]
    assert [e for e in events(state, "damage") if e[0] == ("b1",)] == []


@pytest.mark.clause("FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-PREEMPTIVE")
def test_one_member_without_preemptive_means_ordinary_damage() -> None:
    mine = [fw("a1", power=3000, preemptive=True), fw("a2", power=2000)]
    state = blocked_party(mine, [fw("b1", power=4000)])
    assert state.step is Step.DAMAGE  # no Pre-emptive Strike part
    state = play(state, "split a1=0 a2=4000")
    # simultaneous: b1 takes 5000 >= 4000 (broken); a2 takes 4000 >= 2000 (broken)
    assert broken_ids(state, 1) == ["b1"] and broken_ids(state, 0) == ["a2"]


@pytest.mark.clause("FF-PARTY-PREEMPTIVE-ALL", "FF-PARTY-LEAVE-FIELD")
def test_preemptive_is_judged_on_current_members_by_default() -> None:
    mine = [fw("a1", power=3000, preemptive=True), fw("a2", power=3000, preemptive=True), fw("a3", power=2000)]
    declared = play(position(mine, [fw("b1", power=4000)]), "attack a1 a2 a3", "pass", "block b1", "remove a3")
    # a3 (no Pre-emptive Strike) left; a1 and a2 both have it -> the party has it now
    assert play(declared, "pass").step is Step.PREEMPTIVE
    # variant at-formation: a3 was a member at formation -> no Pre-emptive Strike
    variant = cfg(party_preemptive_members="at-formation")
    assert play(declared, "pass", config=variant).step is Step.DAMAGE


@pytest.mark.clause("FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-PREEMPTIVE", "FF-PARTY-BREAK-CREDIT")
def test_blocker_preemptive_breaks_members_before_they_deal_damage() -> None:
    mine = [fw("a1", power=1000), fw("a2", power=2000), fw("a3", power=3000), fw("a4", power=3000)]
    state = blocked_party(mine, [fw("b1", power=4000, preemptive=True)])
    assert state.step is Step.PREEMPTIVE
    state = play(state, "split a1=1000 a2=3000 a3=0 a4=0")
    # 1000 >= 1000 and 3000 >= 2000: a1, a2 broken, they leave the party
    assert broken_ids(state, 0) == ["a1", "a2"]
    assert state.attack is not None and state.attack.attackers == ("a3", "a4") and state.attack.party
    assert legal_texts(state) == ["pass"]  # b1 already dealt its damage
    after = play(state, "pass")
    # survivors deal 3000 + 3000 = 6000 >= 4000: b1 broken, credited to a3 and a4 only
    assert events(after, "damage")[-2:] == [(("a3",), "b1", 3000), (("a4",), "b1", 3000)]
    assert (("a3", "a4"), "b1", 0) in events(after, "break")
    variant = cfg(party_preemptive_broken_member="all-declared")
    other = play(blocked_party(mine, [fw("b1", power=4000, preemptive=True)], config=variant),
                 "split a1=1000 a2=3000 a3=0 a4=0", "pass", config=variant)
    assert (("a1", "a2", "a3", "a4"), "b1", 0) in events(other, "break")
    # the seed's 'even if some have not dealt any damage': a1 and a2 are credited
    # with the break although no damage of theirs reached b1
    assert {e[0] for e in events(other, "damage") if e[1] == "b1"} == {("a3",), ("a4",)}


# --- FF-PARTY-BLOCK-ANY-MEMBER --------------------------------------------------


@pytest.mark.clause("FF-PARTY-BLOCK-ANY-MEMBER", "FF-BASE-BLOCK")
def test_a_blocker_allowed_against_one_member_may_block_the_party() -> None:
    mine = [fw("a1", unblockable_by_cost=3), fw("a2")]
    theirs = [fw("b1", cost=5)]
    # alone, a1 cannot be blocked by b1 (cost 5 >= 3)
    single = play(position(mine, theirs), "attack a1", "pass")
    assert legal_texts(single) == ["noblock"]
    assert_illegal(single, "block b1", "FF-BASE-BLOCK")
    # in a party with a2 (no restriction) it can
    party = play(position(mine, theirs), "attack a1 a2", "pass")
    assert legal_texts(party) == ["block b1", "noblock"]


@pytest.mark.clause("FF-PARTY-BLOCK-ANY-MEMBER")
def test_a_blocker_excluded_by_every_member_may_not_block() -> None:
    mine = [fw("a1", unblockable_by_cost=3), fw("a2", unblockable_by_elements=frozenset({"water"}))]
    theirs = [fw("b1", "water", cost=5), fw("b2", "water", cost=2), fw("b3", "ice", cost=4)]
    state = play(position(mine, theirs), "attack a1 a2", "pass")
    # b1: cost 5 >= 3 excluded by a1, water excluded by a2 -> cannot block
    # b2: cost 2 < 3, a1 allows it -> can block; b3: ice, a2 allows it -> can block
    assert legal_texts(state) == ["block b2", "block b3", "noblock"]
    assert_illegal(state, "block b1", "FF-PARTY-BLOCK-ANY-MEMBER")


# --- FF-PARTY-BREAK-CREDIT --------------------------------------------------------


@pytest.mark.clause("FF-PARTY-BREAK-CREDIT", "FF-BASE-BREAK-DAMAGE")
def test_every_member_is_credited_even_if_not_needed() -> None:
    state = blocked_party([fw("a1", power=8000), fw("a2", power=1000)], [fw("b1", power=7000)])
    state = play(state, "split a1=7000 a2=0")
    # a1's 8000 alone >= 7000; a2's 1000 was not needed, still credited
    assert (("a1", "a2"), "b1", 0) in events(state, "break")
    # b1 dealt 7000 to a1 (8000): survives. It is the source credited for nothing.
    assert field_ids(state, 0) == ["a1", "a2"]


@pytest.mark.clause("FF-PARTY-BREAK-CREDIT")
def test_damage_source_variants() -> None:
    mine, theirs = [fw("a1", power=3000), fw("a2", power=5000)], [fw("b1", power=7000)]
    each = play(blocked_party(mine, theirs), "split a1=0 a2=7000")
    # per member (default): a1 deals 3000 and a2 deals 5000 (3000 + 5000 = 8000)
    assert events(each, "damage")[:2] == [(("a1",), "b1", 3000), (("a2",), "b1", 5000)]
    assert (("a1", "a2"), "b1", 0) in events(each, "break")
    variant = cfg(party_damage_source="party-as-one-source")
    one = play(blocked_party(mine, theirs, config=variant), "split a1=0 a2=7000", config=variant)
    # one source: a single 8000 damage event from both members
    assert events(one, "damage")[0] == (("a1", "a2"), "b1", 8000)
    assert (("a1", "a2"), "b1", 0) in events(one, "break")


@pytest.mark.clause("FF-PARTY-BLOCKED-SUM", "FF-PARTY-LEAVE-FIELD", "FF-PARTY-SPLIT-THOUSANDS")
def test_a_member_that_left_adds_its_power_only_under_declared_members() -> None:
    """a1 3000, a2 2000 and a3 2000 attack as a party, b1 6000 blocks, then a3 is removed.

    Chosen ``party-sum-members = current-members``: the party is a1 and a2 (FF-PARTY-LEAVE-FIELD), they
    deal 3000 + 2000 = 5000 < 6000 and b1 survives. ``declared-members``: a3's last known 2000 counts
    too, 7000 >= 6000 breaks b1. Either way b1's 6000 is split among the members still there (a1, a2)."""
    mine = [fw("a1", power=3000), fw("a2", power=2000), fw("a3", power=2000)]
    blocked = play(position(mine, [fw("b1", power=6000)]), "attack a1 a2 a3", "pass", "block b1", "remove a3", "pass")
    assert legal_texts(blocked)[0] == "split a1=6000 a2=0" and "split a1=0 a2=6000" in legal_texts(blocked)
    current = play(blocked, "split a1=0 a2=6000")
    assert broken_ids(current, 1) == [] and current.players[1].forwards[0].damage == 5000
    assert broken_ids(current, 0) == ["a3", "a2"]
    declared = cfg(party_sum_members="declared-members")
    assert legal_texts(blocked, declared) == legal_texts(blocked)
    after = play(blocked, "split a1=0 a2=6000", config=declared)
    assert broken_ids(after, 1) == ["b1"] and broken_ids(after, 0) == ["a3", "a2"]
    assert (("a1", "a2"), "b1", 0) in events(after, "break")  # credited to the members still attacking


@pytest.mark.clause("FF-PARTY-BLOCKED-SUM", "FF-PARTY-DISBAND-UNDER-TWO")
def test_declared_members_counts_only_while_the_party_exists() -> None:
    """a1 3000 and a2 2000 attack as a party, b1 4000 blocks, a2 is removed: one member is left, the
    party no longer exists (FF-PARTY-DISBAND-UNDER-TWO) and a1 fights b1 alone. a1's 3000 < 4000 under
    either reading: a2's power is not added to an attacker that is no party any more."""
    mine = [fw("a1", power=3000), fw("a2", power=2000)]
    for config in (cfg(), cfg(party_sum_members="declared-members")):
        state = play(position(mine, [fw("b1", power=4000)]), "attack a1 a2", "pass", "block b1", "remove a2",
                     config=config)
        assert state.attack is not None and state.attack.party is False
        state = play(state, "pass", "pass", config=config)
        # a1 takes 4000 >= 3000 (broken); b1 takes 3000 only
        assert state.step is Step.COMBAT_END and broken_ids(state, 0) == ["a2", "a1"]
        assert broken_ids(state, 1) == [] and state.players[1].forwards[0].damage == 3000
