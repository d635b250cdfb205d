"""The Redemption targeted positions of the conformance suites: a redirect after a redirect, an interrupt of
the earlier of two discards, undone decreases and reactivated abilities.

What each position, targeted refusal and corruption exercises, with the expected values worked out by hand
from the rules text (seed-000 side battles, seed-001 heal and Battle Resolution, BASE-RULES.md) and the
clause catalogue, not read off the model."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import pytest

from cardrules.oracle.conformance import targeted
from cardrules.oracle.conformance.plan import make_plan
from cardrules.properties.scenarios import load_scenarios

from tests.oracle.conformance.redemption_positions import (
    PREVIOUS, REVISED, game_under, legal_texts, named_position, prompt_of, reach,
    refused_by,
)


# --- a redirect after a redirect ---------------------------------------------------------

AFTER_A_REDIRECT = ("attack 1 h0", "block e2", "play do1 on e2 -> h0", "play x0 on h0 -> #1", "play rn on h0 -> h0")


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER", "RED-RD-BOTH-IS-TWO", "RED-RD-NEW-TARGETS", "RED-RD-ONLY-INTERRUPTED",
                    "RED-BASE-INTERRUPT", "RED-BASE-INITIATIVE")
def test_a_redirect_of_both_after_a_numbers_redirect_may_take_only_records_that_are_no_redirect() -> None:
    """h0 3/3 beats e2 2/2, so player 1 has the initiative and plays do1 (2/2) on e2 against h0: e2's side is 4/4,
    h0 now loses and player 0 interrupts do1 (#1 pending, RED-BASE-INTERRUPT; x0 is #2). rn states 1/3 and h0
    prints 3/3: 1 strength and 3 toughness move from h0 to rn (RED-RD-NUMBERS-TRANSFER, each number at most the
    printed one), rn sitting on h0, so player 0's side is still 3/3 against 4/4 and player 0 keeps the initiative.
    rb0 then redirects the numbers of a record's card: do1's (#1) or x0's (#2), not rn's own redirect (#3,
    RED-RD-NEW-TARGETS); its ability part only the interrupted #1 (RED-RD-ONLY-INTERRUPTED): #2 and #3 with a new
    target are refused for that. Played with the new target e2, rb0 is two redirects of #1 (RED-RD-BOTH-IS-TWO):
    the numbers part takes do1's printed 2/2 (no amount stated, rd-amount = all-numbers), though e2's id ends in 2."""
    start = named_position("conformance-redemption-redirect-after-a-redirect").state
    game = game_under(REVISED)
    state = reach(game, start, *AFTER_A_REDIRECT)
    data = game.state_to_json(state)
    [rn] = [r for r in data["records"] if r["card"] == "rn"]
    assert (rn["id"], rn["targets"], rn["amount"]) == (3, ["h0"], [1, 3])
    assert prompt_of(game, state) == ("play", 0)
    assert [t for t in legal_texts(game, state) if t.startswith("play rb0")] == [
        "play rb0 on h0 -> #1", "play rb0 on h0 -> #1 e2", "play rb0 on h0 -> #2"]
    assert set(refused_by(game, state, "play rb0 on h0 -> #3")) == {"RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE"}
    legal: Callable[[], Sequence[str]] = lambda: legal_texts(game, state)
    assert targeted.redirect_of_both_aimed_at_a_redirect(data, legal) == ["play rb0 on h0 -> #3"]
    derived = targeted.redirect_of_both_with_new_targets_not_interrupted(data, legal)
    assert derived == ["play rb0 on h0 -> #2 e2", "play rb0 on h0 -> #3 e2"]
    for text in derived:
        assert refused_by(game, state, text) == ("RED-RD-ONLY-INTERRUPTED",)
    after = game.state_to_json(reach(game, start, *AFTER_A_REDIRECT, "play rb0 on h0 -> #1 e2"))
    split = {r["effect"]: r for r in after["records"] if r["card"] == "rb0" and r["effect"] != "redirect-both"}
    assert (split["redirect-numbers"]["targets"], split["redirect-numbers"]["amount"]) == (["do1"], [2, 2])
    assert split["redirect-ability"]["targets"] == ["#1", "e2"]


@pytest.mark.slow
@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER", "RED-RD-BOTH-IS-TWO", "RED-RD-NEW-TARGETS", "RED-RD-ONLY-INTERRUPTED")
def test_the_version_suites_keep_the_redirect_after_a_redirect_and_its_refusals() -> None:
    """Each version suite from the position alone keeps the two plays above (KEPT_PLAYS) as play vectors reaching
    the states they reach, and refuses rb0 on rn's record (RED-RD-NEW-TARGETS) and with a new target on a record
    not interrupted (RED-RD-ONLY-INTERRUPTED)."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.targeted import kept_plays

    position = named_position("conformance-redemption-redirect-after-a-redirect")
    for versions, expression in ((REVISED, "heal=revised"), (PREVIOUS, "heal=previous")):
        kept = kept_plays(position.name, expression)
        assert [k.actions[-1] for k in kept] == ["play rn on h0 -> h0", "play rb0 on h0 -> #1 e2"]
        result = generate_suite(make_plan("redemption", versions, {}), [], seed=0, positions=[position])
        assert result.suite is not None
        vectors = result.suite["vectors"]
        finals = {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in vectors if v["kind"] == "play"}
        game = game_under(versions)
        for play in kept:
            assert json.dumps(game.state_to_json(reach(game, position.state, *play.actions)), sort_keys=True) in finals
        refused = {(v["refuse"]["action"], tuple(sorted(v["refuse"]["clauses"]))) for v in vectors if v["kind"] == "refusal"}
        assert ("play rb0 on h0 -> #3", ("RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE")) in refused
        assert any(a.startswith("play rb0 on h0 -> #") and len(a.split(" ")) == 7 and c == ("RED-RD-ONLY-INTERRUPTED",)
                   for a, c in refused)


# --- an interrupt of the earlier of two discards -----------------------------------------

EARLIER_DISCARD = ("attack 1 h0 h1", "block e3 e4", "play d0 on h0 -> e4", "play d1 on e3 -> h1", "play x1 on e3 -> #1")


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-BASE-ENHANCEMENTS")
def test_interrupting_the_earlier_of_two_discards_undoes_that_discard_only() -> None:
    """d0 (#1) discards e4 from the battle, then d1 (#2) discards h1: both are in their owners' discard piles, each
    with its discard on record, e4's first. x1 interrupts #1 while it is in effect: its effect is undone and it is
    left pending (RED-BASE-INTERRUPT), so e4 is back on player 1's side and out of the pile, and the record of
    discards holds h1's alone; #2 is untouched (h1 stays discarded)."""
    start = named_position("conformance-redemption-interrupt-an-earlier-discard").state
    for versions in (REVISED, PREVIOUS):
        game = game_under(versions)
        before = game.state_to_json(reach(game, start, *EARLIER_DISCARD[:-1]))
        assert [d["card"] for d in before["discards"]] == ["e4", "h1"]
        after = game.state_to_json(reach(game, start, *EARLIER_DISCARD))
        assert [d["card"] for d in after["discards"]] == ["h1"]
        assert after["zones"][1]["discard"] == [] and after["zones"][0]["discard"] == ["h1"]
        assert sorted(f["card"] for f in after["battles"][-1]["sides"][1]) == ["e3", "e4"]
        assert [(r["id"], r["status"]) for r in after["records"] if r["id"] in (1, 2)] == [(1, "pending"), (2, "active")]


@pytest.mark.slow
@pytest.mark.clause("RED-BASE-INTERRUPT")
def test_the_version_suites_keep_the_interrupt_of_the_earlier_discard() -> None:
    """Each version suite from the position alone keeps the interrupt above (KEPT_PLAYS) as a play vector ending in
    the state derived there."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.targeted import kept_plays

    position = named_position("conformance-redemption-interrupt-an-earlier-discard")
    for versions, expression in ((REVISED, "heal=revised"), (PREVIOUS, "heal=previous")):
        [kept] = kept_plays(position.name, expression)
        assert kept.actions == EARLIER_DISCARD
        result = generate_suite(make_plan("redemption", versions, {}), [], seed=0, positions=[position])
        assert result.suite is not None
        finals = {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in result.suite["vectors"] if v["kind"] == "play"}
        game = game_under(versions)
        assert json.dumps(game.state_to_json(reach(game, position.state, *EARLIER_DISCARD)), sort_keys=True) in finals


# --- undoing decreases, and reactivating pending abilities ------------------------------

TWO_DECREASES = ("attack 1 h0", "block e1 e2", "play dc0 on h0 -> e1", "play x1 on e1 -> #1", "play dc1 on h0 -> e2",
                 "play x2 on e2 -> #3", "pass")


def _statuses(data: Any) -> list[tuple[int, str]]:
    return [(r["id"], r["status"]) for r in data["records"]]


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-BASE-INITIATIVE", "RED-HEAL-RESTORES-DECREASE")
def test_undoing_a_decrease_restores_what_was_there_and_both_pending_decreases_reactivate_at_the_pass() -> None:
    """h0 (4/4) against e1 and e2 (2/2 each): h0's strength 4 reaches both toughnesses, their total 4 reaches h0's
    toughness 4, a mutual destruction that no 0/0 card changes, so the initiative alternates from player 0 (player
    1 blocked last; RED-BASE-INITIATIVE). e1 starts decreased. dc0 decreases e1 again (#1): nothing changes; x1
    interrupts #1 (RED-BASE-INTERRUPT: its effect undone, as if it had not happened): e1 was decreased before it,
    so it stays decreased. dc1 decreases e2 (#3); x2 interrupts #3: e2 is no longer decreased. Player 0 passes:
    #1 and #3 are pending, their cards dc0 and dc1 still on h0 in the battle and e1, e2 still in it, so both
    reactivate: e1 and e2 decreased, every record in effect, and player 0 still has initiative (the last card was
    x2, player 1's)."""
    start = named_position("conformance-redemption-interrupt-two-decreases").state
    for versions in (REVISED, PREVIOUS):
        game = game_under(versions)
        seen = [game.state_to_json(reach(game, start, *TWO_DECREASES[:n])) for n in range(3, 8)]
        assert [d["decreased"] for d in seen] == [["e1"], ["e1"], ["e1", "e2"], ["e1"], ["e1", "e2"]]
        assert [d["prompt"]["player"] for d in seen] == [1, 0, 1, 0, 0]
        assert _statuses(seen[1]) == [(1, "pending"), (2, "active")]
        assert _statuses(seen[3]) == [(1, "pending"), (2, "active"), (3, "pending"), (4, "active")]
        assert _statuses(seen[4]) == [(1, "active"), (2, "active"), (3, "active"), (4, "active")]


SIDE_BATTLE_REACTIVATION = ("attack 1 h", "block e", "play sb1 on e -> h k", "play dc0 on h -> k", "play x1 on k -> #2",
                            "pass")


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-SB-CONTROL-SAME-UNMIXED", "RED-BASE-INITIATIVE")
def test_a_decrease_interrupted_in_a_side_battle_reactivates_there_at_the_pass() -> None:
    """h (8/8) against e (2/4): h wins, so player 1, losing, plays sb1 on e selecting h and k, both player 0's:
    player 0 keeps h, player 1 controls k (RED-SB-CONTROL-SAME-UNMIXED), and the rescue waits below the side battle
    (battle 1 keeps only e, battle 2 has h against k). h and k (8/8 each) destroy each other: player 0, who did not
    play the last card, has initiative. dc0 on h decreases k (#2); x1 on k interrupts it: k no longer decreased. At
    player 0's pass dc0 is still on h in the side battle being fought and k still in it, so #2 reactivates: k is
    decreased again."""
    start = named_position("conformance-redemption-reactivate-in-a-side-battle").state
    for versions in (REVISED, PREVIOUS):
        game = game_under(versions)
        opened = game.state_to_json(reach(game, start, *SIDE_BATTLE_REACTIVATION[:3]))
        assert [[[f["card"] for f in side] for side in b["sides"]] for b in opened["battles"]] == [[[], ["e"]],
                                                                                                    [["h"], ["k"]]]
        assert opened["prompt"]["player"] == 0
        interrupted = game.state_to_json(reach(game, start, *SIDE_BATTLE_REACTIVATION[:5]))
        assert interrupted["decreased"] == [] and _statuses(interrupted)[1] == (2, "pending")
        after = game.state_to_json(reach(game, start, *SIDE_BATTLE_REACTIVATION))
        assert after["decreased"] == ["k"] and _statuses(after) == [(1, "active"), (2, "active"), (3, "active")]


INTO_A_HEAL_WINDOW = ("pass",)


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-HEAL-WINDOW", "RED-BASE-INITIATIVE")
def test_a_discard_reactivated_into_a_heal_window_leaves_the_next_pending_ability_waiting() -> None:
    """Revised wording. The position: h0 (4/4, carrying d0 and dc0) against e1 and e2 (2/2 each); d0's discard of e2
    (#1) and dc0's decrease of e1 (#3) are both interrupted (pending), e2 is back in battle and e1 not decreased;
    player 1 still holds hl1, a heal; player 0 has initiative. At player 0's pass #1 reactivates first (d0 still on
    h0, e2 in battle): its discard of e2 waits for player 1's heal (RED-HEAL-WINDOW), a decision to answer before
    anything else, so #3 stays pending and e1 is not decreased; the only answers are to let the discard complete
    or heal e2 with hl1. (The position's suite is the revised wording's: it is written for the window.)"""
    start = named_position("conformance-redemption-reactivate-into-a-heal-window").state
    assert _statuses(start) == [(1, "pending"), (2, "active"), (3, "pending"), (4, "active")]
    assert [(r["card"], r["targets"]) for r in start["records"]] == [("d0", ["e2"]), ("x1", ["#1"]), ("dc0", ["e1"]),
                                                                     ("x2", ["#3"])]
    assert start["decreased"] == [] and start["prompt"]["player"] == 0 and start["zones"][1]["hand"] == ["hl1"]
    game = game_under(REVISED)
    end = reach(game, start, *INTO_A_HEAL_WINDOW)
    after = game.state_to_json(end)
    assert after["prompt"] == {"kind": "heal-window", "player": 1, "record": 1, "cards": ["e2"]}
    assert after["decreased"] == [] and _statuses(after) == [(1, "announced"), (2, "active"), (3, "pending"),
                                                             (4, "active")]
    assert legal_texts(game, end) == ["discard", "heal e2 with hl1"]


@pytest.mark.clause("RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-BLOCKING")
def test_three_heroes_attack_together_and_three_evil_characters_block_together() -> None:
    """Player 0 sends h0, h1 and h2 against player 1, who has ls1 in bondage: a rescue attempt; player 1 blocks
    with e0, e1 and e2 (RED-BASE-BLOCKING). Each side's total strength 3 reaches each opposing toughness 2: a
    mutual destruction, and player 0 has initiative (player 1 blocked last)."""
    start = named_position("conformance-redemption-band-of-three").state
    game = game_under(REVISED)
    assert "attack 1 h0 h1 h2" in legal_texts(game, game.state_from_json(start))
    blocking = reach(game, start, "attack 1 h0 h1 h2")
    assert "block e0 e1 e2" in legal_texts(game, blocking)
    after = game.state_to_json(game.step(blocking, game.action_from_text("block e0 e1 e2")))
    assert after["battles"][0]["kind"] == "rescue"
    assert [[f["card"] for f in side] for side in after["battles"][0]["sides"]] == [["h0", "h1", "h2"], ["e0", "e1", "e2"]]
    assert after["zones"][0]["territory"] == [] and after["zones"][1]["territory"] == []
    assert after["prompt"] == {"kind": "play", "player": 0, "record": -1, "cards": []}


@pytest.mark.clause("RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-ENHANCEMENTS")
def test_attacks_on_no_opponent_and_plays_of_a_card_no_one_has_are_derived_and_refused() -> None:
    """Players are numbered 0 and 1. The first legal attack of the band position, 'attack 1 h0', re-aimed at
    player 0, the attacker, or at player 2, who is not in the game: neither is an opponent
    (RED-BASE-RESCUE-OR-CHALLENGE). In the two-decreases position after the block, the first legal play
    'play dc0 on h0 -> e1' with a card no one has, dc0x: no enhancement in player 0's hand (RED-BASE-ENHANCEMENTS)."""
    game = game_under(REVISED)
    state = game.state_from_json(named_position("conformance-redemption-band-of-three").state)
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: legal_texts(game, state)
    assert targeted.attack_on_the_attacking_player(data, legal) == ["attack 0 h0"]
    assert targeted.attack_on_a_player_not_in_the_game(data, legal) == ["attack 2 h0"]
    for text in ("attack 0 h0", "attack 2 h0", "attack 0 h0 h1 h2", "attack 2 h0 h1 h2"):
        assert refused_by(game, state, text) == ("RED-BASE-RESCUE-OR-CHALLENGE",)
    played = reach(game, named_position("conformance-redemption-interrupt-two-decreases").state, "attack 1 h0", "block e1 e2")
    legal_played: Callable[[], Sequence[str]] = lambda: legal_texts(game, played)
    derived = targeted.play_of_a_card_not_in_the_game(game.state_to_json(played), legal_played)
    assert derived == ["play dc0x on h0 -> e1"]
    assert refused_by(game, played, "play dc0x on h0 -> e1") == ("RED-BASE-ENHANCEMENTS",)


@pytest.mark.clause("RED-RD-ABILITY-TARGET", "RED-RD-BOTH-IS-TWO")
def test_a_redirect_with_its_targets_given_the_other_way_round_is_refused() -> None:
    """redirect-opposing scenario after do1 (#1) and the interrupt x0 (#2): 'play rb0 on h0 -> #1 e1' redirects
    ability #1 to e1. Given as '-> e1 #1' it names a card where the ability '#n' goes (RED-RD-ABILITY-TARGET), and it
    is not among the legal actions; a side battle's pair, by contrast, is unordered (the same play either way)."""
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-redirect-opposing"]
    game = game_under(REVISED)
    state = reach(game, scenario.state, "attack 1 h0", "block e1", "play do1 on e1 -> h0", "play x0 on h0 -> #1")
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: legal_texts(game, state)
    assert targeted.redirect_with_its_targets_reversed(data, legal) == ["play rb0 on h0 -> e1 #1"]
    assert "play rb0 on h0 -> e1 #1" not in legal()
    assert refused_by(game, state, "play rb0 on h0 -> e1 #1") == ("RED-RD-ABILITY-TARGET",)
    start = named_position("conformance-redemption-reactivate-in-a-side-battle").state
    either = [game.state_to_json(reach(game, start, "attack 1 h", "block e", f"play sb1 on e -> {pair}"))
              for pair in ("h k", "k h")]
    assert either[0] == either[1]


BEFORE_A_RECORD = ("attack 1 h0", "block !e1", "play do1 on !e1 -> h0", "play x0 on h0 -> #1", "play ra0 on h0 -> #1 !e1")


@pytest.mark.clause("RED-RD-ABILITY-TARGET", "RED-RD-TARGET-PERSPECTIVE", "RED-BASE-SPECIAL-INITIATIVE")
def test_a_redirect_keeps_its_targets_in_order_when_the_new_target_sorts_before_the_record() -> None:
    """h0 (3/3) beats !e1 (2/2), so player 1, losing, plays do1 (+1/+2) on !e1 discarding h0 (#1); h0 is player 0's
    only character, so player 0 answers under special initiative: x0 interrupts #1 (RED-BASE-SPECIAL-INITIATIVE).
    !e1 is now 3/4: h0's 3 does not reach 4, !e1's 3 reaches h0's 3, so player 0 is losing and plays ra0
    redirecting #1 to !e1, the one character opposing player 0 (RED-RD-TARGET-PERSPECTIVE). The record of ra0
    keeps '#1 !e1' in that order; do1's record now targets !e1, announced, and player 1, left with no other
    character, gets special initiative against it, with nothing to answer but decline. Given the other way round,
    '-> !e1 #1' names a card where the ability goes (RED-RD-ABILITY-TARGET)."""
    start = named_position("conformance-redemption-redirect-to-a-card-named-before-a-record").state
    for versions in (REVISED, PREVIOUS):
        game = game_under(versions)
        before = reach(game, start, *BEFORE_A_RECORD[:-1])
        assert "play ra0 on h0 -> #1 !e1" in legal_texts(game, before)
        assert refused_by(game, before, "play ra0 on h0 -> !e1 #1") == ("RED-RD-ABILITY-TARGET",)
        end = reach(game, start, *BEFORE_A_RECORD)
        after = game.state_to_json(end)
        assert [(r["id"], r["targets"], r["status"]) for r in after["records"]] == [
            (1, ["!e1"], "announced"), (2, ["#1"], "active"), (3, ["#1", "!e1"], "active")]
        assert after["prompt"] == {"kind": "special-initiative", "player": 1, "record": 1, "cards": []}
        assert legal_texts(game, end) == ["decline"]


@pytest.mark.slow
@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-RD-ABILITY-TARGET", "RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-BLOCKING")
def test_the_version_suites_keep_the_decrease_and_redirect_plays_and_their_refusals() -> None:
    """The suite of each version from each new position alone keeps its plays (KEPT_PLAYS) as play vectors ending
    in the states derived above (the heal window one under the revised wording only, the wording whose window the
    position opens), and the attack refusals of the band position."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.targeted import kept_plays

    plays = {
        "conformance-redemption-interrupt-two-decreases": TWO_DECREASES,
        "conformance-redemption-reactivate-in-a-side-battle": SIDE_BATTLE_REACTIVATION,
        "conformance-redemption-reactivate-into-a-heal-window": INTO_A_HEAL_WINDOW,
        "conformance-redemption-redirect-to-a-card-named-before-a-record": BEFORE_A_RECORD,
        "conformance-redemption-band-of-three": ("attack 1 h0 h1 h2", "block e0 e1 e2"),
    }
    for versions, expression in ((REVISED, "heal=revised"), (PREVIOUS, "heal=previous")):
        game = game_under(versions)
        for name, actions in plays.items():
            kept = kept_plays(name, expression)
            if name.endswith("heal-window") and expression == "heal=previous":
                assert kept == []
                continue
            assert [k.actions for k in kept] == [actions]
            position = named_position(name)
            result = generate_suite(make_plan("redemption", versions, {}), [], seed=0, positions=[position])
            assert result.suite is not None
            vectors = result.suite["vectors"]
            finals = {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in vectors if v["kind"] == "play"}
            assert json.dumps(game.state_to_json(reach(game, position.state, *actions)), sort_keys=True) in finals
            if name.endswith("band-of-three"):
                refused = {v["refuse"]["action"]: v["refuse"]["clauses"] for v in vectors if v["kind"] == "refusal"}
                assert refused["attack 0 h0"] == refused["attack 2 h0"] == ["RED-BASE-RESCUE-OR-CHALLENGE"]


@pytest.mark.clause("RED-HEAL-CLEARS-STATUS")
def test_a_heal_clears_both_statuses_of_a_poisoned_and_paralyzed_character() -> None:
    """RED-HEAL-CLEARS-STATUS: after a heal the character has none of poisoned, diseased or paralyzed, so e2,
    both poisoned and paralyzed, has no status left after `heal e2 with hc`, under both wordings; the position
    is loaded with its two statuses (the state format allows any set of them)."""
    position = named_position("conformance-redemption-heal-clears-two-statuses")
    assert sorted(position.state["statuses"]) == [["e2", "paralyzed"], ["e2", "poisoned"]]
    for versions in (REVISED, PREVIOUS):
        game = game_under(versions)
        healed = reach(game, position.state, "heal e2 with hc")
        assert game.state_to_json(healed)["statuses"] == []


