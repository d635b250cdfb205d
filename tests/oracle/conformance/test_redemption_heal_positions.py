"""The Redemption targeted positions of the conformance suites: heals across territories and discard piles, in
a side battle's window, the positions that give three option suites a difference, and a heal on a fighter of
the paused battle.

What each position, targeted refusal and corruption exercises, with the expected values worked out by hand
from the rules text (seed-000 side battles, seed-001 heal and Battle Resolution, BASE-RULES.md) and the
clause catalogue, not read off the model."""

from __future__ import annotations

from typing import Callable, Sequence

import pytest

from cardrules.oracle.conformance import targeted
from cardrules.oracle.conformance.candidates import explore_scenario, targeted_candidates
from cardrules.oracle.conformance.plan import clauses_for, make_plan

from tests.oracle.conformance.redemption_positions import (
    PREVIOUS, REVISED, WINDOW, game_under, heal_texts, legal_texts, named_position, prompt_of, reach,
    refused_by,
)


# --- heals across territories and piles --------------------------------------------------

ACROSS = "conformance-redemption-heal-across-territories"


@pytest.mark.clause("RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-ENH-PHASES", "RED-HEAL-PREV-ENH-TWO-WAYS",
                    "RED-HEAL-PREV-TO-OWNER", "RED-HEAL-CLEARS-STATUS")
def test_a_healing_enhancement_reaches_the_other_players_character_only_under_the_options_and_heals_it_home() -> None:
    """Discard phase, player 0 holds hb (blue heal). Revised: 'a character of matching brigade in territory',
    whose territory read as the holder's (heal-territory-whose = own-territory): h0 only; any-territory adds g1
    (blue, poisoned, player 1's territory), which stays in player 1's territory without its poison. Previous:
    'in the holder's territory' or 'in the holder's discard pile': h0 only (g2 lies in player 1's pile);
    prev-pile-owner = any-pile adds g2, discarded this turn, which the heal moves to its owner's (player 1's)
    territory (RED-HEAL-PREV-TO-OWNER); hb, used, goes to player 0's discard pile."""
    start = named_position(ACROSS).state
    expected = {
        ("revised", ""): ["heal h0 with hb"],
        ("revised", "heal-territory-whose=any-territory"): ["heal g1 with hb", "heal h0 with hb"],
        ("previous", ""): ["heal h0 with hb"],
        ("previous", "prev-pile-owner=any-pile"): ["heal g2 with hb", "heal h0 with hb"],
    }
    for (version, option), heals in expected.items():
        decisions = dict([option.split("=")]) if option else {}
        game = game_under({"heal": (version,)}, decisions)
        assert heal_texts(game, game.state_from_json(start)) == heals, (version, option)

    game = game_under(PREVIOUS, {"prev-pile-owner": "any-pile"})
    healed = game.state_to_json(reach(game, start, "heal g2 with hb"))
    assert sorted(healed["zones"][1]["territory"]) == ["e1", "g1", "g2"] and healed["zones"][1]["discard"] == []
    assert healed["zones"][0]["territory"] == ["h0"] and healed["zones"][0]["discard"] == ["hb"]
    game = game_under(REVISED, {"heal-territory-whose": "any-territory"})
    healed = game.state_to_json(reach(game, start, "heal g1 with hb"))
    assert sorted(healed["zones"][1]["territory"]) == ["e1", "g1"] and healed["statuses"] == [["h0", "poisoned"]]


@pytest.mark.clause("RED-HEAL-ONLY-CHARACTERS", "RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE",
                    "RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-PREV-ENH-TWO-WAYS",
                    "RED-HEAL-PREV-PILE-SAME-CHARACTER")
def test_each_heal_refusal_of_the_across_position_names_the_clause_its_reason_comes_from() -> None:
    """At the start of the position, by the rules text: ls1 is a Lost Soul, not a character
    (RED-HEAL-ONLY-CHARACTERS); e1 has no status and was not discarded, so it is not healable (RED-HEAL-HEALABLE;
    RED-HEAL-PREV-HEALABLE under the previous wording); revised: g2 lies in a discard pile
    (RED-HEAL-NOT-IN-DISCARD-PILE) and g1 is in the other player's territory (RED-HEAL-ENH-ON-MATCHING-BRIGADE,
    own-territory); previous: g1 is in neither of the two places the enhancement may go
    (RED-HEAL-PREV-ENH-TWO-WAYS) and g2 is in another player's pile (RED-HEAL-PREV-PILE-SAME-CHARACTER)."""
    start = named_position(ACROSS).state
    revised = game_under(REVISED)
    state = revised.state_from_json(start)
    assert refused_by(revised, state, "heal ls1 with hb") == ("RED-HEAL-ONLY-CHARACTERS",)
    assert refused_by(revised, state, "heal e1 with hb") == ("RED-HEAL-HEALABLE",)
    assert refused_by(revised, state, "heal g2 with hb") == ("RED-HEAL-NOT-IN-DISCARD-PILE",)
    assert refused_by(revised, state, "heal g1 with hb") == ("RED-HEAL-ENH-ON-MATCHING-BRIGADE",)
    previous = game_under(PREVIOUS)
    state = previous.state_from_json(start)
    assert refused_by(previous, state, "heal e1 with hb") == ("RED-HEAL-PREV-HEALABLE",)
    assert refused_by(previous, state, "heal g1 with hb") == ("RED-HEAL-PREV-ENH-TWO-WAYS",)
    assert "RED-HEAL-PREV-PILE-SAME-CHARACTER" in refused_by(previous, state, "heal g2 with hb")


@pytest.mark.clause("RED-HEAL-ONLY-CHARACTERS", "RED-HEAL-HEALABLE", "RED-HEAL-NOT-IN-DISCARD-PILE",
                    "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def test_the_derivations_aim_the_heal_refusals_of_the_revised_suite_at_the_start_of_the_across_position() -> None:
    """The derivations turn the one legal heal, 'heal h0 with hb', into the refusals above: the first card that
    is not a character other than hb is ls1; the other characters as targets are e1, g1 and g2; the generator
    keeps, for each clause, the refusal the model blames on it, at the start state (the shallowest)."""
    start = named_position(ACROSS).state
    game = game_under(REVISED)
    state = game.state_from_json(start)
    legal: Callable[[], Sequence[str]] = lambda: legal_texts(game, state)
    assert targeted.legal_heal_aimed_at_a_non_character(start, legal) == ["heal ls1 with hb"]
    variants = targeted.heal_variants(start, legal)
    assert {"heal e1 with hb", "heal g1 with hb", "heal g2 with hb"} <= set(variants)
    assert "heal h0 with hb" not in variants and len(variants) <= targeted.HEAL_VARIANTS_PER_STATE

    plan = make_plan("redemption", REVISED, {})
    in_force = frozenset(clauses_for(plan))
    graph = explore_scenario(named_position(ACROSS), plan, None, in_force)
    aimed = {f.split(":")[1]: (c.source, c.action) for c in targeted_candidates(0, graph, in_force)
             for f in c.features if f.startswith("targeted:")}
    assert aimed["RED-HEAL-ONLY-CHARACTERS"] == (0, "heal ls1 with hb")
    assert aimed["RED-HEAL-HEALABLE"] == (0, "heal e1 with hb")
    assert aimed["RED-HEAL-NOT-IN-DISCARD-PILE"] == (0, "heal g2 with hb")
    assert aimed["RED-HEAL-ENH-ON-MATCHING-BRIGADE"] == (0, "heal g1 with hb")


# --- the heal window of a side battle ----------------------------------------------------



@pytest.mark.clause("RED-HEAL-AT-RESOLUTION", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-SB-RETURN-TO-BATTLE",
                    "RED-HEAL-WINDOW-MEANS", "RED-SB-RESUME")
def test_a_fighter_healed_in_a_side_battles_window_goes_home_or_back_to_its_battle_under_the_option() -> None:
    """e2 (player 1's, fighting on player 0's side) lost the side battle; player 0 may heal it with the Territory
    Class hc (hl is blue and hg green, e2 crimson: neither can heal it, RED-HEAL-WINDOW-MEANS). Healed, it goes
    to the territory of player 1, who has permanent control (RED-HEAL-TO-PERMANENT-CONTROLLER), the side battle
    ends and the rescue resumes with h0 against e1 (RED-SB-RESUME); under sb-healed-fighter-destination =
    back-to-previous-battle it goes back to battle 1, beside e1, where it came from (RED-SB-RETURN-TO-BATTLE)."""
    start = named_position(WINDOW).state
    game = game_under(REVISED)
    state = game.state_from_json(start)
    assert legal_texts(game, state) == ["discard", "heal e2 with hc"]
    assert refused_by(game, state, "heal e2 with hl") == ("RED-HEAL-WINDOW-MEANS",)
    assert refused_by(game, state, "heal e2 with hg") == ("RED-HEAL-WINDOW-MEANS",)
    home = game.state_to_json(reach(game, start, "heal e2 with hc"))
    assert home["zones"][1]["territory"] == ["e2"] and len(home["battles"]) == 1
    assert [[f["card"] for f in side] for side in home["battles"][0]["sides"]] == [["h0"], ["e1"]]
    game = game_under(REVISED, {"sb-healed-fighter-destination": "back-to-previous-battle"})
    back = game.state_to_json(reach(game, start, "heal e2 with hc"))
    assert back["zones"][1]["territory"] == [] and len(back["battles"]) == 1
    assert sorted(f["card"] for f in back["battles"][0]["sides"][1]) == ["e1", "e2"]


# --- the positions that give three option suites a difference ----------------------------


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-SB-CONTROL-SAME-UNMIXED")
def test_the_heal_window_of_a_discard_goes_to_the_side_player_or_to_the_permanent_controller() -> None:
    """e1, player 1's, fights on player 0's side of the side battle. Discarded by player 1's dx1 (once player 0
    declines special initiative), its controller gets the heal window (RED-HEAL-WINDOW): the player of its side,
    player 0, who can heal it with the Territory Class hc; under heal-window-player = permanent-controller player
    1, whose Territory Class ek can heal it."""
    start = named_position("conformance-redemption-heal-window-player").state
    moves = ("play dx1 on e2 -> e1", "decline")
    game = game_under(REVISED)
    window = reach(game, start, *moves)
    assert prompt_of(game, window) == ("heal-window", 0) and heal_texts(game, window) == ["heal e1 with hc"]
    game = game_under(REVISED, {"heal-window-player": "permanent-controller"})
    window = reach(game, start, *moves)
    assert prompt_of(game, window) == ("heal-window", 1) and heal_texts(game, window) == ["heal e1 with ek"]


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER", "RED-BR-HEAL-WINDOW")
def test_a_character_healed_in_its_window_goes_to_its_owner_only_under_the_previous_wording_read_broadly() -> None:
    """hx, owned by player 1 and under player 0's permanent control, loses to e1 (4 against toughness 1) and is
    healed by hc in Battle Resolution's window: revised, to player 0's territory (RED-HEAL-TO-PERMANENT-CONTROLLER);
    previous, to its owner's, player 1's (RED-HEAL-PREV-TO-OWNER, prev-owner-scope = every-healed-discard), or to
    player 0's under prev-owner-scope = pile-only."""
    start = named_position("conformance-redemption-window-heal-to-owner").state
    moves = ("attack 1 hx", "block e1", "pass", "heal hx with hc")
    homes = {}
    for name, versions, decisions in (("revised", REVISED, {}), ("previous", PREVIOUS, {}),
                                      ("pile-only", PREVIOUS, {"prev-owner-scope": "pile-only"})):
        game = game_under(versions, decisions)
        after = game.state_to_json(reach(game, start, *moves))
        homes[name] = next(p for p, zones in enumerate(after["zones"]) if "hx" in zones["territory"])
    assert homes == {"revised": 0, "previous": 1, "pile-only": 0}


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-TRANSFER", "RED-SB-CONTROL-SAME-UNMIXED")
def test_redirected_numbers_count_in_a_side_battle_only_under_the_default_reading() -> None:
    """rn on h takes e's 8/8 (h with rn 10/12, RED-RD-NUMBERS-TRANSFER); player 1 then sets h against k (4/3) in
    a side battle, player 0 keeping h. With the gain (target-in-any-battle) h deals 10 to k's toughness 3 and
    takes 4 against 12: h's side wins. Without it (same-battle-only: e waits in the rescue below), h is 2/4: k's
    4 defeats it and h's 2 does not reach 3: k's side wins, and player 0, losing, has initiative."""
    start = named_position("conformance-redemption-numbers-in-side-battle").state
    moves = ("attack 1 h", "block e", "play rn on h -> e", "play sb1 on e -> h k")
    outcome = {}
    for option in ("target-in-any-battle", "same-battle-only"):
        game = game_under(REVISED, {"rd-numbers-which-battle": option})
        side = reach(game, start, *moves)
        outcome[option] = (prompt_of(game, side), game.state_to_json(reach(game, start, *moves, "pass"))["battles"][-1]["outcome"])
    assert outcome == {"target-in-any-battle": (("play", 1), "side0-wins"),
                       "same-battle-only": (("play", 0), "side1-wins")}


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-PREV-TO-OWNER", "RED-RD-NUMBERS-IN-BATTLE-ONLY")
def test_each_of_the_three_option_suites_is_written_from_its_position_alone_and_steps_through_the_difference() -> None:
    """From its position alone, each option suite that the scenarios left skipped now differs from its base and
    keeps a vector through the play that shows the difference; the reference model passes every vector."""
    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.runner import run_vector
    from cardrules.oracle.mutation.checks import InProcessAdapter

    cases = (
        ("conformance-redemption-heal-window-player", REVISED, {"heal-window-player": "permanent-controller"}, "decline"),
        ("conformance-redemption-window-heal-to-owner", PREVIOUS, {"prev-owner-scope": "pile-only"}, "heal hx with hc"),
        ("conformance-redemption-numbers-in-side-battle", {}, {"rd-numbers-which-battle": "same-battle-only"},
         "play sb1 on e -> h k"),
    )
    for name, versions, decisions, decisive in cases:
        result = generate_suite(make_plan("redemption", versions, decisions), [], seed=0, positions=[named_position(name)])
        assert result.suite is not None, (name, result.skipped)
        through = [v for v in result.suite["vectors"] if v["kind"] == "play"
                   and any(s["action"] == decisive for s in v["steps"])]
        assert through, name
        assert all(run_vector(InProcessAdapter(), result.suite, v, 60).verdict == "pass"  # type: ignore[arg-type]
                   for v in result.suite["vectors"])


@pytest.mark.clause("RED-BR-STEP4-DISCARD-RETURN", "RED-BASE-MUTUAL-STALEMATE")
def test_a_mutual_destruction_discards_both_sides_under_losing_side_only_and_its_suite_keeps_the_play() -> None:
    """h1 with ds0 is 3/1 against e1 1/3: each strength reaches the other's toughness, a mutual destruction
    (RED-BASE-MUTUAL-STALEMATE). Under br-discard-which = losing-side-only both sides lost, so both are discarded
    after their heal windows (neither player can heal): h1 (with ds0) to player 0's pile, e1 to player 1's. The
    option suite keeps that play (KEPT_PLAYS), the only mutual destruction it would otherwise not step through."""
    from cardrules.oracle.conformance.candidates import kept_play_edges
    from cardrules.oracle.conformance.targeted import kept_plays

    expression = "br-discard-which=losing-side-only"
    position = named_position("conformance-redemption-rescue-wins-game")
    [play] = kept_plays(position.name, expression)
    game = game_under({}, {"br-discard-which": "losing-side-only"})
    after = game.state_to_json(reach(game, position.state, *play.actions))
    assert sorted(after["zones"][0]["discard"]) == ["ds0", "h1"] and after["zones"][1]["discard"] == ["e1"]
    assert after["last_outcome"] == "mutual-destruction" and after["zones"][1]["bondage"] == ["ls1"]
    plan = make_plan("redemption", {}, {"br-discard-which": "losing-side-only"})
    graph = explore_scenario(position, plan, None, frozenset(clauses_for(plan)))
    assert list(kept_play_edges(graph, expression).values()) == [f"kept:{position.name}:0"]


# --- a heal in a side battle on a fighter of the paused battle ---------------------------

PAUSED = "conformance-redemption-heal-a-fighter-of-the-paused-battle"


@pytest.mark.clause("RED-HEAL-TARGETS-HEALED", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-ENH-TWO-WAYS",
                    "RED-BASE-INITIATIVE")
def test_a_heal_used_in_a_side_battle_reaches_the_paused_battles_fighters_only_under_the_default_reading() -> None:
    """hm (1/1) fights g1 (3/3) in player 0's side battle above the rescue of h0 against e1: g1's 3 reaches hm's
    toughness 1, hm's 1 does not reach g1's 3, so player 0 is losing and holds initiative (RED-BASE-INITIATIVE).
    hm's heal ability targets a healable character (RED-HEAL-TARGETS-HEALED): h0, poisoned by pz1, fights in the
    paused battle, so 'heal h0 with hm' is legal when a heal used in battle reaches every battle on the stack
    (heal-in-battle-targets = battles-on-stack, the default) and not when it reaches the battle being fought only
    (active-battle: hm and g1 have no status, no heal at all). Under the previous wording e0 (discarded by a game
    rule earlier this turn, in player 0's pile) and e3 (by an ability, in player 1's pile) are healable by hm too
    (RED-HEAL-PREV-HEALABLE), whichever battle reading; player 0's hz (evil, crimson, matching both) may go the pile
    way in battle under prev-two-ways-in-battle = in-battle-too only on a character in the holder's own pile, e0
    (prev-pile-owner = holder-only), and on e3 too under any-pile (RED-HEAL-PREV-ENH-TWO-WAYS)."""
    start = named_position(PAUSED).state
    expected = {
        (REVISED["heal"], ()): ["heal h0 with hm", "pass"],
        (REVISED["heal"], (("heal-in-battle-targets", "active-battle"),)): ["pass"],
        (PREVIOUS["heal"], ()): ["heal e0 with hm", "heal e3 with hm", "heal h0 with hm", "pass"],
        (PREVIOUS["heal"], (("heal-in-battle-targets", "active-battle"),)): ["heal e0 with hm", "heal e3 with hm", "pass"],
        (PREVIOUS["heal"], (("prev-two-ways-in-battle", "in-battle-too"),)):
            ["heal e0 with hm", "heal e0 with hz", "heal e3 with hm", "heal h0 with hm", "pass"],
        (PREVIOUS["heal"], (("prev-pile-owner", "any-pile"), ("prev-two-ways-in-battle", "in-battle-too"))):
            ["heal e0 with hm", "heal e0 with hz", "heal e3 with hm", "heal e3 with hz", "heal h0 with hm", "pass"],
    }
    for (version, options), actions in expected.items():
        game = game_under({"heal": version}, dict(options))
        state = game.state_from_json(start)
        assert prompt_of(game, state) == ("play", 0)
        assert legal_texts(game, state) == actions, (version, options)


@pytest.mark.clause("RED-HEAL-TARGETS-HEALED", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-INSTANT", "RED-BASE-INITIATIVE")
def test_healing_the_paused_battles_fighter_ends_its_poison_and_leaves_both_battles_as_they_were() -> None:
    """'heal h0 with hm' heals h0 once (RED-HEAL-INSTANT): its poison goes and pz1's ongoing poison ends
    (RED-HEAL-CLEARS-STATUS); h0 stays in the paused rescue with sb0, e1 with pz1 opposite, the side battle goes on
    unchanged (a status changes no numbers), so player 0, still losing it, keeps the initiative and has nothing
    left to heal."""
    start = named_position(PAUSED).state
    for versions in (REVISED, PREVIOUS):
        game = game_under(versions)
        state = reach(game, start, "heal h0 with hm")
        after = game.state_to_json(state)
        assert after["statuses"] == []
        assert [(r["card"], r["status"]) for r in after["records"]] == [("pz1", "ended"), ("sb0", "active")]
        assert [[(f["card"], f["enhancements"]) for f in side] for side in after["battles"][0]["sides"]] == [
            [("h0", ["sb0"])], [("e1", ["pz1"])]]
        assert [[f["card"] for f in side] for side in after["battles"][1]["sides"]] == [["hm"], ["g1"]]
        assert prompt_of(game, state) == ("play", 0)
        assert [t for t in legal_texts(game, state) if t.startswith("heal h0")] == []


@pytest.mark.clause("RED-HEAL-TARGETS-HEALED", "RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-CLEARS-STATUS")
def test_the_suites_from_the_paused_battle_position_check_its_heals_and_the_active_battle_suite_is_written() -> None:
    """heal-in-battle-targets = active-battle is a selectable option with a suite per heal wording; from this
    position alone it differs from its base (the start lists no heal). Every suite has the position's perft vector,
    whose divide names the start's actions derived above, and each version suite keeps the heal of h0 (KEPT_PLAYS)
    as a play vector; the reference model passes every vector of the option suites."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.plan import default_plans
    from cardrules.oracle.conformance.runner import run_vector
    from cardrules.oracle.conformance.targeted import kept_plays
    from cardrules.oracle.mutation.checks import InProcessAdapter

    ids = {p.id for p in default_plans("redemption")}
    assert {"redemption-heal-revised+heal-in-battle-targets-active-battle",
            "redemption-heal-previous+heal-in-battle-targets-active-battle"} <= ids
    position = named_position(PAUSED)
    cases = (
        (REVISED, {}, ["heal h0 with hm", "pass"]),
        (PREVIOUS, {}, ["heal e0 with hm", "heal e3 with hm", "heal h0 with hm", "pass"]),
        (REVISED, {"heal-in-battle-targets": "active-battle"}, ["pass"]),
        (PREVIOUS, {"heal-in-battle-targets": "active-battle"}, ["heal e0 with hm", "heal e3 with hm", "pass"]),
        (PREVIOUS, {"prev-two-ways-in-battle": "in-battle-too"},
         ["heal e0 with hm", "heal e0 with hz", "heal e3 with hm", "heal h0 with hm", "pass"]),
    )
    for versions, decisions, start_actions in cases:
        plan = make_plan("redemption", versions, decisions)
        result = generate_suite(plan, [], seed=0, positions=[position])
        assert result.suite is not None, (plan.id, result.skipped)
        vectors = result.suite["vectors"]
        [perft] = [v for v in vectors if v["kind"] == "perft" and v["scenario"] == PAUSED and "later" not in v["narrative"]]
        assert sorted(perft["divide"]) == start_actions, plan.id
        if decisions:
            assert all(run_vector(InProcessAdapter(), result.suite, v, 60).verdict == "pass"  # type: ignore[arg-type]
                       for v in vectors), plan.id
            continue
        [kept] = kept_plays(PAUSED, plan.expression)
        game = game_under(versions)
        reached = json.dumps(game.state_to_json(reach(game, position.state, *kept.actions)), sort_keys=True)
        assert reached in {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in vectors if v["kind"] == "play"}

