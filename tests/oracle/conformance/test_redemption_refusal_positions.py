"""The Redemption targeted positions of the conformance suites: the rescue that wins the game, side battle and
redirect refusals, and the invalid-state vectors.

What each position, targeted refusal and corruption exercises, with the expected values worked out by hand
from the rules text (seed-000 side battles, seed-001 heal and Battle Resolution, BASE-RULES.md) and the
clause catalogue, not read off the model."""

from __future__ import annotations

import copy
from typing import Any, Callable, Sequence

import pytest

from cardrules.oracle.conformance import targeted
from cardrules.oracle.conformance.invalid import _redemption_problems, corruptions, invalid_candidates
from cardrules.oracle.conformance.plan import make_plan
from cardrules.properties.scenarios import load_scenarios

from tests.oracle.conformance.redemption_positions import (
    PREVIOUS, REVISED, WINDOW, game_under, legal_texts, named_position, prompt_of, reach,
    refused_by,
)


# --- the rescue that wins the game -------------------------------------------------------


@pytest.mark.clause("RED-BASE-WIN-FIVE-SOULS", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL", "RED-BR-STEP4-DISCARD-RETURN")
def test_the_rescue_position_wins_on_the_fifth_soul_and_a_lost_rescue_leaves_the_soul_in_bondage() -> None:
    """Player 0 has four Lost Souls redeemed (r0-r3). h0 (2/4) unblocked: the Hero wins with access to ls1, the
    rescue succeeds (RED-BR-RESCUE-SUCCESS), ls1 is the fifth soul and player 0 wins (RED-BASE-WIN-FIVE-SOULS).
    h1 (1/1) alone blocked by e1 (1/3): e1's strength 1 reaches h1's toughness 1 and h1's strength 1 does not
    reach e1's toughness 3, so the Evil Character wins, the rescue fails (RED-BR-RESCUE-FAIL), ls1 stays in
    bondage, nobody has won; h1 is discarded and e1, not defeated, returns to player 1's territory
    (RED-BR-STEP4-DISCARD-RETURN)."""
    start = named_position("conformance-redemption-rescue-wins-game").state
    game = game_under(REVISED)
    won = game.state_to_json(reach(game, start, "attack 1 h0", "noblock"))
    assert won["winner"] == 0 and sorted(won["zones"][0]["redemption"]) == ["ls1", "r0", "r1", "r2", "r3"]
    assert game.is_terminal(reach(game, start, "attack 1 h0", "noblock"))
    lost = reach(game, start, "attack 1 h1", "block e1", "pass")
    # Battle Resolution's step 4: h1 is about to be discarded; player 0 holds no heal, so only the discard is left
    assert legal_texts(game, lost) == ["discard"]
    after = game.state_to_json(game.step(lost, game.action_from_text("discard")))
    assert after["winner"] is None and after["last_mission"] == "failure"
    assert after["zones"][1]["bondage"] == ["ls1"] and after["zones"][0]["redemption"] == ["r0", "r1", "r2", "r3"]
    assert after["zones"][0]["discard"] == ["h1"] and sorted(after["zones"][1]["territory"]) == ["e1"]


# --- side battle refusals ----------------------------------------------------------------


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_side_battle_card_refusals_are_derived_and_refused_for_their_clause() -> None:
    """In the heal-windows-taken scenario after 'attack 1 h0', 'block e1 e2', player 0 holds sb0 and may play it
    on h0 selecting two characters. Played without the two it selects, it has no legal target
    (RED-BASE-ENHANCEMENTS); 'use sb0' is how a player outside the battle uses it, and player 0 battles
    (RED-SB-SIDES-BATTLE-PLAYERS, sb-user-outside-battle = battling-players-only: the battling players play it on
    a character of theirs)."""
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-heal-windows-taken"]
    game = game_under(REVISED)
    state = reach(game, scenario.state, "attack 1 h0", "block e1 e2")
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: legal_texts(game, state)
    assert "play sb0 on h0 -> e1 e2" in legal()
    assert targeted.side_battle_without_its_two_characters(data, legal) == ["play sb0 on h0"]
    assert refused_by(game, state, "play sb0 on h0") == ("RED-BASE-ENHANCEMENTS",)
    used = targeted.side_battle_used_by_a_battling_player(data, legal)
    assert used[0] == "use sb0" and all(t.startswith("use sb0") for t in used) and len(used) == 2
    for text in used:
        assert refused_by(game, state, text) == ("RED-SB-SIDES-BATTLE-PLAYERS",)


# --- invalid-state vectors ---------------------------------------------------------------


@pytest.mark.infrastructure("invalid-state vectors: a reachable position with one consistency rule of the state broken")
def test_each_hand_made_corruption_of_a_reachable_position_is_exactly_one_problem_where_it_was_made() -> None:
    """Corruptions of the side battle window position, each breaking one consistency rule of the state: a card in
    two zones (ls1, in bondage, also in a hand), the prompt's player and the winner outside the two players, a
    record on an unknown card, a side battle between a player and themself. The model finds each as exactly one
    problem, at the corrupted place (or, for the duplicate, at the card's other place)."""
    start = named_position(WINDOW).state
    assert _redemption_problems(start) == []

    def corrupt(change: Callable[[dict[str, Any]], None]) -> list[tuple[str, str]] | None:
        data = copy.deepcopy(start)
        change(data)
        return _redemption_problems(data)

    cases: list[tuple[Callable[[dict[str, Any]], None], str]] = [
        (lambda d: d["zones"][0]["hand"].append("ls1"), "zones[1].bondage"),
        (lambda d: d["prompt"].__setitem__("player", 2), "prompt.player"),
        (lambda d: d.__setitem__("winner", 2), "winner"),
        (lambda d: d["records"][0].__setitem__("on", "zz"), "records[0].on"),
        (lambda d: d["battles"][1].__setitem__("players", [0, 0]), "battles[1].players"),
    ]
    for change, where in cases:
        found = corrupt(change)
        assert found is not None and len(found) == 1 and found[0][0] == where, (where, found)
    # the record numbered past next_record - 1 also leaves battle 2's opener naming no record: two problems, so
    # the generator keeps no invalid vector of that corruption (an engine would be blamed for either)
    assert len(corrupt(lambda d: d.__setitem__("next_record", 1)) or []) == 2


@pytest.mark.infrastructure("the generator's invalid-state candidates of a targeted position")
def test_the_invalid_candidates_of_a_position_each_have_one_problem_and_include_the_hand_made_ones() -> None:
    start = named_position(WINDOW).state
    found = invalid_candidates("redemption", WINDOW, [start])
    assert found and all(_redemption_problems(c.state) == [(c.where, c.problem)] for c in found)
    kinds = {(c.field, c.change, c.where) for c in found}
    # player 0 + 1 is player 1, a player of the game: no problem; -1 is none
    assert ("prompt.player", "=-1", "prompt.player") in kinds
    assert not any(c.field == "prompt.player" and c.change == "+1" for c in found)
    assert ("records[].on", "unknown-card", "records[0].on") in kinds
    assert not any(c.change == "-1" and c.field == "next_record" for c in found)
    assert sum(1 for _ in corruptions(start)) > len(found)


# --- redirect refusals -------------------------------------------------------------------


@pytest.mark.clause("RED-RD-ABILITY-TARGET", "RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE")
def test_redirect_refusals_are_derived_from_a_legal_redirect_and_refused_for_their_clause() -> None:
    """redirect-opposing scenario: player 1's do1 (discard an opposing character) targets h0 as ability #1,
    player 0's interrupt x0 is #2, so the next record would be #3; player 0 holds rb0, which redirects both.
    #3 is no ability yet, and e1 is a card, not an ability, though named like #1 (RED-RD-ABILITY-TARGET). The
    interrupted #1 redirected by player 0 must target a character opposing player 0 (RED-RD-TARGET-PERSPECTIVE):
    e1 only, so h0, player 0's own, is refused (RED-RD-NEW-TARGETS), and so is every card that is no character."""
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-redirect-opposing"]
    game = game_under(REVISED)
    state = reach(game, scenario.state, "attack 1 h0", "block e1", "play do1 on e1 -> h0", "play x0 on h0 -> #1")
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: legal_texts(game, state)
    assert "play rb0 on h0 -> #1 e1" in legal() and "play rb0 on h0 -> #1 h0" not in legal()
    assert targeted.redirect_of_an_ability_that_does_not_exist(data, legal) == ["play rb0 on h0 -> #3"]
    assert refused_by(game, state, "play rb0 on h0 -> #3") == ("RED-RD-ABILITY-TARGET",)
    assert targeted.redirect_of_an_ability_aimed_at_a_card_named_like_a_record(data, legal) == ["play rb0 on h0 -> e1"]
    assert refused_by(game, state, "play rb0 on h0 -> e1") == ("RED-RD-ABILITY-TARGET",)
    new_targets = targeted.redirect_to_an_illegal_new_target(data, legal)
    assert sorted(new_targets) == [f"play rb0 on h0 -> #1 {c}" for c in ("do1", "h0", "ls1", "rb0", "x0")]
    for text in new_targets:
        assert set(refused_by(game, state, text)) == {"RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE"}


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-BASE-INITIATIVE")
def test_a_heal_on_a_fighter_of_the_side_without_initiative_is_refused_and_the_revised_suite_has_it() -> None:
    """h0 (1/1) against the blocker ek2 (3/3): player 0 is losing and has initiative (RED-BASE-INITIATIVE). ek2's
    heal ability is player 1's to use, as the player of its side, so 'heal h0 with ek2' is refused naming the
    initiative (RED-HEAL-WINDOW: the controller uses a heal; RED-BASE-INITIATIVE), not h0's being unhealable. The
    revised suite from this position keeps that refusal at that state."""
    from cardrules.oracle.conformance.generate import generate_suite

    position = named_position("conformance-redemption-heal-by-a-fighter-without-initiative")
    game = game_under(REVISED)
    state = reach(game, position.state, "attack 1 h0", "block ek2")
    assert prompt_of(game, state) == ("play", 0) and legal_texts(game, state) == ["pass"]
    assert refused_by(game, state, "heal h0 with ek2") == ("RED-HEAL-WINDOW", "RED-BASE-INITIATIVE")
    result = generate_suite(make_plan("redemption", REVISED, {}), [], seed=0, positions=[position])
    assert result.suite is not None
    kept = [v for v in result.suite["vectors"] if v["kind"] == "refusal"
            and v["refuse"]["action"] == "heal h0 with ek2" and "RED-HEAL-WINDOW" in v["refuse"]["clauses"]]
    assert kept and all([s["action"] for s in v["steps"]] == ["attack 1 h0", "block ek2"] for v in kept)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER",
                    "RED-RD-NUMBERS-IN-BATTLE-ONLY")
@pytest.mark.slow
def test_the_version_suites_keep_the_default_readings_plays_of_the_option_positions() -> None:
    """An engine that implements only the default readings must be checked on them too: each version suite keeps,
    from the three option positions, the plays whose outcome the tests above derive by hand (the window is the
    side player's; hx goes to player 0 under the revised wording, to its owner under the previous one; h's gain
    counts in the side battle), each as a play vector reaching the state the play reaches."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.targeted import KEPT_PLAYS

    names = ("conformance-redemption-heal-window-player", "conformance-redemption-window-heal-to-owner",
             "conformance-redemption-numbers-in-side-battle")
    for versions, expression in ((REVISED, "heal=revised"), (PREVIOUS, "heal=previous")):
        kept = [k for k in KEPT_PLAYS if k.rule_set == expression and k.position in names]
        assert len(kept) == (3 if expression == "heal=revised" else 2)
        result = generate_suite(make_plan("redemption", versions, {}), [], seed=0,
                                positions=[named_position(n) for n in names])
        assert result.suite is not None
        finals = {(v["scenario"], json.dumps(v["steps"][-1]["state"], sort_keys=True))
                  for v in result.suite["vectors"] if v["kind"] == "play"}
        game = game_under(versions)
        for play in kept:
            reached = game.state_to_json(reach(game, named_position(play.position).state, *play.actions))
            assert (play.position, json.dumps(reached, sort_keys=True)) in finals, play


