"""The Redemption targeted positions, derivations and invalid vectors (issue 10, suite quality): what each
position, targeted refusal and corruption exercises, with the expected values worked out by hand from the rules
text (seed-000 side battles, seed-001 heal and Battle Resolution, BASE-RULES.md) and the clause catalogue, not
read off the model."""

from __future__ import annotations

import copy
from typing import Any, Callable, Sequence

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.oracle.conformance import targeted
from cardrules.oracle.conformance.candidates import explore_scenario, targeted_candidates
from cardrules.oracle.conformance.invalid import _redemption_problems, corruptions, invalid_candidates
from cardrules.oracle.conformance.plan import clauses_for, make_plan
from cardrules.oracle.conformance.targeted import load_positions
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import load_scenarios

REVISED: dict[str, tuple[str, ...]] = {"heal": ("revised",)}
PREVIOUS: dict[str, tuple[str, ...]] = {"heal": ("previous",)}


def _position(name: str) -> Any:
    [found] = [p for p in load_positions() if p.name == name]
    return found


def _game(versions: dict[str, tuple[str, ...]], decisions: dict[str, str] | None = None) -> Any:
    return make_game("redemption", make_plan("redemption", versions, decisions or {}).spec)


def _reach(game: Any, start: Any, *actions: str) -> Any:
    state = game.state_from_json(start)
    for text in actions:
        state = game.step(state, game.action_from_text(text))
    return state


def _legal(game: Any, state: Any) -> list[str]:
    return sorted(game.action_text(a) for a in game.legal_actions(state))


def _refused_by(game: Any, state: Any, text: str) -> tuple[str, ...]:
    with pytest.raises(IllegalAction) as refused:
        game.step(state, game.action_from_text(text))
    return tuple(refused.value.clause_ids)


def _heals(game: Any, state: Any) -> list[str]:
    return [t for t in _legal(game, state) if t.startswith("heal ")]


# --- the rescue that wins the game -------------------------------------------------------


@pytest.mark.clause("RED-BASE-WIN-FIVE-SOULS", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL", "RED-BR-STEP4-DISCARD-RETURN")
def test_the_rescue_position_wins_on_the_fifth_soul_and_a_lost_rescue_leaves_the_soul_in_bondage() -> None:
    """Player 0 has four Lost Souls redeemed (r0-r3). h0 (2/4) unblocked: the Hero wins with access to ls1, the
    rescue succeeds (RED-BR-RESCUE-SUCCESS), ls1 is the fifth soul and player 0 wins (RED-BASE-WIN-FIVE-SOULS).
    h1 (1/1) alone blocked by e1 (1/3): e1's strength 1 reaches h1's toughness 1 and h1's strength 1 does not
    reach e1's toughness 3, so the Evil Character wins, the rescue fails (RED-BR-RESCUE-FAIL), ls1 stays in
    bondage, nobody has won; h1 is discarded and e1, not defeated, returns to player 1's territory
    (RED-BR-STEP4-DISCARD-RETURN)."""
    start = _position("conformance-redemption-rescue-wins-game").state
    game = _game(REVISED)
    won = game.state_to_json(_reach(game, start, "attack 1 h0", "noblock"))
    assert won["winner"] == 0 and sorted(won["zones"][0]["redemption"]) == ["ls1", "r0", "r1", "r2", "r3"]
    assert game.is_terminal(_reach(game, start, "attack 1 h0", "noblock"))
    lost = _reach(game, start, "attack 1 h1", "block e1", "pass")
    # Battle Resolution's step 4: h1 is about to be discarded; player 0 holds no heal, so only the discard is left
    assert _legal(game, lost) == ["discard"]
    after = game.state_to_json(game.step(lost, game.action_from_text("discard")))
    assert after["winner"] is None and after["last_mission"] == "failure"
    assert after["zones"][1]["bondage"] == ["ls1"] and after["zones"][0]["redemption"] == ["r0", "r1", "r2", "r3"]
    assert after["zones"][0]["discard"] == ["h1"] and sorted(after["zones"][1]["territory"]) == ["e1"]


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
    start = _position(ACROSS).state
    expected = {
        ("revised", ""): ["heal h0 with hb"],
        ("revised", "heal-territory-whose=any-territory"): ["heal g1 with hb", "heal h0 with hb"],
        ("previous", ""): ["heal h0 with hb"],
        ("previous", "prev-pile-owner=any-pile"): ["heal g2 with hb", "heal h0 with hb"],
    }
    for (version, option), heals in expected.items():
        decisions = dict([option.split("=")]) if option else {}
        game = _game({"heal": (version,)}, decisions)
        assert _heals(game, game.state_from_json(start)) == heals, (version, option)

    game = _game(PREVIOUS, {"prev-pile-owner": "any-pile"})
    healed = game.state_to_json(_reach(game, start, "heal g2 with hb"))
    assert sorted(healed["zones"][1]["territory"]) == ["e1", "g1", "g2"] and healed["zones"][1]["discard"] == []
    assert healed["zones"][0]["territory"] == ["h0"] and healed["zones"][0]["discard"] == ["hb"]
    game = _game(REVISED, {"heal-territory-whose": "any-territory"})
    healed = game.state_to_json(_reach(game, start, "heal g1 with hb"))
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
    start = _position(ACROSS).state
    revised = _game(REVISED)
    state = revised.state_from_json(start)
    assert _refused_by(revised, state, "heal ls1 with hb") == ("RED-HEAL-ONLY-CHARACTERS",)
    assert _refused_by(revised, state, "heal e1 with hb") == ("RED-HEAL-HEALABLE",)
    assert _refused_by(revised, state, "heal g2 with hb") == ("RED-HEAL-NOT-IN-DISCARD-PILE",)
    assert _refused_by(revised, state, "heal g1 with hb") == ("RED-HEAL-ENH-ON-MATCHING-BRIGADE",)
    previous = _game(PREVIOUS)
    state = previous.state_from_json(start)
    assert _refused_by(previous, state, "heal e1 with hb") == ("RED-HEAL-PREV-HEALABLE",)
    assert _refused_by(previous, state, "heal g1 with hb") == ("RED-HEAL-PREV-ENH-TWO-WAYS",)
    assert "RED-HEAL-PREV-PILE-SAME-CHARACTER" in _refused_by(previous, state, "heal g2 with hb")


@pytest.mark.clause("RED-HEAL-ONLY-CHARACTERS", "RED-HEAL-HEALABLE", "RED-HEAL-NOT-IN-DISCARD-PILE",
                    "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def test_the_derivations_aim_the_heal_refusals_of_the_revised_suite_at_the_start_of_the_across_position() -> None:
    """The derivations turn the one legal heal, 'heal h0 with hb', into the refusals above: the first card that
    is not a character other than hb is ls1; the other characters as targets are e1, g1 and g2; the generator
    keeps, for each clause, the refusal the model blames on it, at the start state (the shallowest)."""
    start = _position(ACROSS).state
    game = _game(REVISED)
    state = game.state_from_json(start)
    legal: Callable[[], Sequence[str]] = lambda: _legal(game, state)
    assert targeted.legal_heal_aimed_at_a_non_character(start, legal) == ["heal ls1 with hb"]
    variants = targeted.heal_variants(start, legal)
    assert {"heal e1 with hb", "heal g1 with hb", "heal g2 with hb"} <= set(variants)
    assert "heal h0 with hb" not in variants and len(variants) <= targeted.HEAL_VARIANTS_PER_STATE

    plan = make_plan("redemption", REVISED, {})
    in_force = frozenset(clauses_for(plan))
    graph = explore_scenario(_position(ACROSS), plan, None, in_force)
    aimed = {f.split(":")[1]: (c.source, c.action) for c in targeted_candidates(0, graph, in_force)
             for f in c.features if f.startswith("targeted:")}
    assert aimed["RED-HEAL-ONLY-CHARACTERS"] == (0, "heal ls1 with hb")
    assert aimed["RED-HEAL-HEALABLE"] == (0, "heal e1 with hb")
    assert aimed["RED-HEAL-NOT-IN-DISCARD-PILE"] == (0, "heal g2 with hb")
    assert aimed["RED-HEAL-ENH-ON-MATCHING-BRIGADE"] == (0, "heal g1 with hb")


# --- the heal window of a side battle ----------------------------------------------------

WINDOW = "conformance-redemption-heal-in-side-battle-window"


@pytest.mark.clause("RED-HEAL-AT-RESOLUTION", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-SB-RETURN-TO-BATTLE",
                    "RED-HEAL-WINDOW-MEANS", "RED-SB-RESUME")
def test_a_fighter_healed_in_a_side_battles_window_goes_home_or_back_to_its_battle_under_the_option() -> None:
    """e2 (player 1's, fighting on player 0's side) lost the side battle; player 0 may heal it with the Territory
    Class hc (hl is blue and hg green, e2 crimson: neither can heal it, RED-HEAL-WINDOW-MEANS). Healed, it goes
    to the territory of player 1, who has permanent control (RED-HEAL-TO-PERMANENT-CONTROLLER), the side battle
    ends and the rescue resumes with h0 against e1 (RED-SB-RESUME); under sb-healed-fighter-destination =
    back-to-previous-battle it goes back to battle 1, beside e1, where it came from (RED-SB-RETURN-TO-BATTLE)."""
    start = _position(WINDOW).state
    game = _game(REVISED)
    state = game.state_from_json(start)
    assert _legal(game, state) == ["discard", "heal e2 with hc"]
    assert _refused_by(game, state, "heal e2 with hl") == ("RED-HEAL-WINDOW-MEANS",)
    assert _refused_by(game, state, "heal e2 with hg") == ("RED-HEAL-WINDOW-MEANS",)
    home = game.state_to_json(_reach(game, start, "heal e2 with hc"))
    assert home["zones"][1]["territory"] == ["e2"] and len(home["battles"]) == 1
    assert [[f["card"] for f in side] for side in home["battles"][0]["sides"]] == [["h0"], ["e1"]]
    game = _game(REVISED, {"sb-healed-fighter-destination": "back-to-previous-battle"})
    back = game.state_to_json(_reach(game, start, "heal e2 with hc"))
    assert back["zones"][1]["territory"] == [] and len(back["battles"]) == 1
    assert sorted(f["card"] for f in back["battles"][0]["sides"][1]) == ["e1", "e2"]


# --- side battle refusals ----------------------------------------------------------------


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_side_battle_card_refusals_are_derived_and_refused_for_their_clause() -> None:
    """In the heal-windows-taken scenario after 'attack 1 h0', 'block e1 e2', player 0 holds sb0 and may play it
    on h0 selecting two characters. Played without the two it selects, it has no legal target
    (RED-BASE-ENHANCEMENTS); 'use sb0' is how a player outside the battle uses it, and player 0 battles
    (RED-SB-SIDES-BATTLE-PLAYERS, sb-user-outside-battle = battling-players-only: the battling players play it on
    a character of theirs)."""
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-heal-windows-taken"]
    game = _game(REVISED)
    state = _reach(game, scenario.state, "attack 1 h0", "block e1 e2")
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: _legal(game, state)
    assert "play sb0 on h0 -> e1 e2" in legal()
    assert targeted.side_battle_without_its_two_characters(data, legal) == ["play sb0 on h0"]
    assert _refused_by(game, state, "play sb0 on h0") == ("RED-BASE-ENHANCEMENTS",)
    used = targeted.side_battle_used_by_a_battling_player(data, legal)
    assert used[0] == "use sb0" and all(t.startswith("use sb0") for t in used) and len(used) == 2
    for text in used:
        assert _refused_by(game, state, text) == ("RED-SB-SIDES-BATTLE-PLAYERS",)


# --- invalid-state vectors ---------------------------------------------------------------


@pytest.mark.infrastructure("invalid-state vectors: a reachable position with one consistency rule of the state broken")
def test_each_hand_made_corruption_of_a_reachable_position_is_exactly_one_problem_where_it_was_made() -> None:
    """Corruptions of the side battle window position, each breaking one consistency rule of the state: a card in
    two zones (ls1, in bondage, also in a hand), the prompt's player and the winner outside the two players, a
    record on an unknown card, a side battle between a player and themself. The model finds each as exactly one
    problem, at the corrupted place (or, for the duplicate, at the card's other place)."""
    start = _position(WINDOW).state
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
    start = _position(WINDOW).state
    found = invalid_candidates("redemption", WINDOW, [start])
    assert found and all(_redemption_problems(c.state) == [(c.where, c.problem)] for c in found)
    kinds = {(c.field, c.change, c.where) for c in found}
    # player 0 + 1 is player 1, a player of the game: no problem; -1 is none
    assert ("prompt.player", "=-1", "prompt.player") in kinds
    assert not any(c.field == "prompt.player" and c.change == "+1" for c in found)
    assert ("records[].on", "unknown-card", "records[0].on") in kinds
    assert not any(c.change == "-1" and c.field == "next_record" for c in found)
    assert sum(1 for _ in corruptions(start)) > len(found)


# --- the positions that give three option suites a difference ----------------------------


def _prompt(game: Any, state: Any) -> tuple[str, int]:
    prompt = game.state_to_json(state)["prompt"]
    return prompt["kind"], prompt["player"]


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-SB-CONTROL-SAME-UNMIXED")
def test_the_heal_window_of_a_discard_goes_to_the_side_player_or_to_the_permanent_controller() -> None:
    """e1, player 1's, fights on player 0's side of the side battle. Discarded by player 1's dx1 (once player 0
    declines special initiative), its controller gets the heal window (RED-HEAL-WINDOW): the player of its side,
    player 0, who can heal it with the Territory Class hc; under heal-window-player = permanent-controller player
    1, whose Territory Class ek can heal it."""
    start = _position("conformance-redemption-heal-window-player").state
    moves = ("play dx1 on e2 -> e1", "decline")
    game = _game(REVISED)
    window = _reach(game, start, *moves)
    assert _prompt(game, window) == ("heal-window", 0) and _heals(game, window) == ["heal e1 with hc"]
    game = _game(REVISED, {"heal-window-player": "permanent-controller"})
    window = _reach(game, start, *moves)
    assert _prompt(game, window) == ("heal-window", 1) and _heals(game, window) == ["heal e1 with ek"]


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER", "RED-BR-HEAL-WINDOW")
def test_a_character_healed_in_its_window_goes_to_its_owner_only_under_the_previous_wording_read_broadly() -> None:
    """hx, owned by player 1 and under player 0's permanent control, loses to e1 (4 against toughness 1) and is
    healed by hc in Battle Resolution's window: revised, to player 0's territory (RED-HEAL-TO-PERMANENT-CONTROLLER);
    previous, to its owner's, player 1's (RED-HEAL-PREV-TO-OWNER, prev-owner-scope = every-healed-discard), or to
    player 0's under prev-owner-scope = pile-only."""
    start = _position("conformance-redemption-window-heal-to-owner").state
    moves = ("attack 1 hx", "block e1", "pass", "heal hx with hc")
    homes = {}
    for name, versions, decisions in (("revised", REVISED, {}), ("previous", PREVIOUS, {}),
                                      ("pile-only", PREVIOUS, {"prev-owner-scope": "pile-only"})):
        game = _game(versions, decisions)
        after = game.state_to_json(_reach(game, start, *moves))
        homes[name] = next(p for p, zones in enumerate(after["zones"]) if "hx" in zones["territory"])
    assert homes == {"revised": 0, "previous": 1, "pile-only": 0}


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-TRANSFER", "RED-SB-CONTROL-SAME-UNMIXED")
def test_redirected_numbers_count_in_a_side_battle_only_under_the_default_reading() -> None:
    """rn on h takes e's 8/8 (h with rn 10/12, RED-RD-NUMBERS-TRANSFER); player 1 then sets h against k (4/3) in
    a side battle, player 0 keeping h. With the gain (target-in-any-battle) h deals 10 to k's toughness 3 and
    takes 4 against 12: h's side wins. Without it (same-battle-only: e waits in the rescue below), h is 2/4: k's
    4 defeats it and h's 2 does not reach 3: k's side wins, and player 0, losing, has initiative."""
    start = _position("conformance-redemption-numbers-in-side-battle").state
    moves = ("attack 1 h", "block e", "play rn on h -> e", "play sb1 on e -> h k")
    outcome = {}
    for option in ("target-in-any-battle", "same-battle-only"):
        game = _game(REVISED, {"rd-numbers-which-battle": option})
        side = _reach(game, start, *moves)
        outcome[option] = (_prompt(game, side), game.state_to_json(_reach(game, start, *moves, "pass"))["battles"][-1]["outcome"])
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
        result = generate_suite(make_plan("redemption", versions, decisions), [], seed=0, positions=[_position(name)])
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
    position = _position("conformance-redemption-rescue-wins-game")
    [play] = kept_plays(position.name, expression)
    game = _game({}, {"br-discard-which": "losing-side-only"})
    after = game.state_to_json(_reach(game, position.state, *play.actions))
    assert sorted(after["zones"][0]["discard"]) == ["ds0", "h1"] and after["zones"][1]["discard"] == ["e1"]
    assert after["last_outcome"] == "mutual-destruction" and after["zones"][1]["bondage"] == ["ls1"]
    plan = make_plan("redemption", {}, {"br-discard-which": "losing-side-only"})
    graph = explore_scenario(position, plan, None, frozenset(clauses_for(plan)))
    assert list(kept_play_edges(graph, expression).values()) == [f"kept:{position.name}:0"]


# --- redirect refusals -------------------------------------------------------------------


@pytest.mark.clause("RED-RD-ABILITY-TARGET", "RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE")
def test_redirect_refusals_are_derived_from_a_legal_redirect_and_refused_for_their_clause() -> None:
    """redirect-opposing scenario: player 1's do1 (discard an opposing character) targets h0 as ability #1,
    player 0's interrupt x0 is #2, so the next record would be #3; player 0 holds rb0, which redirects both.
    #3 is no ability yet, and e1 is a card, not an ability, though named like #1 (RED-RD-ABILITY-TARGET). The
    interrupted #1 redirected by player 0 must target a character opposing player 0 (RED-RD-TARGET-PERSPECTIVE):
    e1 only, so h0, player 0's own, is refused (RED-RD-NEW-TARGETS), and so is every card that is no character."""
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-redirect-opposing"]
    game = _game(REVISED)
    state = _reach(game, scenario.state, "attack 1 h0", "block e1", "play do1 on e1 -> h0", "play x0 on h0 -> #1")
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: _legal(game, state)
    assert "play rb0 on h0 -> #1 e1" in legal() and "play rb0 on h0 -> #1 h0" not in legal()
    assert targeted.redirect_of_an_ability_that_does_not_exist(data, legal) == ["play rb0 on h0 -> #3"]
    assert _refused_by(game, state, "play rb0 on h0 -> #3") == ("RED-RD-ABILITY-TARGET",)
    assert targeted.redirect_of_an_ability_aimed_at_a_card_named_like_a_record(data, legal) == ["play rb0 on h0 -> e1"]
    assert _refused_by(game, state, "play rb0 on h0 -> e1") == ("RED-RD-ABILITY-TARGET",)
    new_targets = targeted.redirect_to_an_illegal_new_target(data, legal)
    assert sorted(new_targets) == [f"play rb0 on h0 -> #1 {c}" for c in ("do1", "h0", "ls1", "rb0", "x0")]
    for text in new_targets:
        assert set(_refused_by(game, state, text)) == {"RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE"}


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-BASE-INITIATIVE")
def test_a_heal_on_a_fighter_of_the_side_without_initiative_is_refused_and_the_revised_suite_has_it() -> None:
    """h0 (1/1) against the blocker ek2 (3/3): player 0 is losing and has initiative (RED-BASE-INITIATIVE). ek2's
    heal ability is player 1's to use, as the player of its side, so 'heal h0 with ek2' is refused naming the
    initiative (RED-HEAL-WINDOW: the controller uses a heal; RED-BASE-INITIATIVE), not h0's being unhealable. The
    revised suite from this position keeps that refusal at that state."""
    from cardrules.oracle.conformance.generate import generate_suite

    position = _position("conformance-redemption-heal-by-a-fighter-without-initiative")
    game = _game(REVISED)
    state = _reach(game, position.state, "attack 1 h0", "block ek2")
    assert _prompt(game, state) == ("play", 0) and _legal(game, state) == ["pass"]
    assert _refused_by(game, state, "heal h0 with ek2") == ("RED-HEAL-WINDOW", "RED-BASE-INITIATIVE")
    result = generate_suite(make_plan("redemption", REVISED, {}), [], seed=0, positions=[position])
    assert result.suite is not None
    kept = [v for v in result.suite["vectors"] if v["kind"] == "refusal"
            and v["refuse"]["action"] == "heal h0 with ek2" and "RED-HEAL-WINDOW" in v["refuse"]["clauses"]]
    assert kept and all([s["action"] for s in v["steps"]] == ["attack 1 h0", "block ek2"] for v in kept)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER",
                    "RED-RD-NUMBERS-IN-BATTLE-ONLY")
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
                                positions=[_position(n) for n in names])
        assert result.suite is not None
        finals = {(v["scenario"], json.dumps(v["steps"][-1]["state"], sort_keys=True))
                  for v in result.suite["vectors"] if v["kind"] == "play"}
        game = _game(versions)
        for play in kept:
            reached = game.state_to_json(_reach(game, _position(play.position).state, *play.actions))
            assert (play.position, json.dumps(reached, sort_keys=True)) in finals, play


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
    start = _position("conformance-redemption-redirect-after-a-redirect").state
    game = _game(REVISED)
    state = _reach(game, start, *AFTER_A_REDIRECT)
    data = game.state_to_json(state)
    [rn] = [r for r in data["records"] if r["card"] == "rn"]
    assert (rn["id"], rn["targets"], rn["amount"]) == (3, ["h0"], [1, 3])
    assert _prompt(game, state) == ("play", 0)
    assert [t for t in _legal(game, state) if t.startswith("play rb0")] == [
        "play rb0 on h0 -> #1", "play rb0 on h0 -> #1 e2", "play rb0 on h0 -> #2"]
    assert set(_refused_by(game, state, "play rb0 on h0 -> #3")) == {"RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE"}
    legal: Callable[[], Sequence[str]] = lambda: _legal(game, state)
    assert targeted.redirect_of_both_aimed_at_a_redirect(data, legal) == ["play rb0 on h0 -> #3"]
    derived = targeted.redirect_of_both_with_new_targets_not_interrupted(data, legal)
    assert derived == ["play rb0 on h0 -> #2 e2", "play rb0 on h0 -> #3 e2"]
    for text in derived:
        assert _refused_by(game, state, text) == ("RED-RD-ONLY-INTERRUPTED",)
    after = game.state_to_json(_reach(game, start, *AFTER_A_REDIRECT, "play rb0 on h0 -> #1 e2"))
    split = {r["effect"]: r for r in after["records"] if r["card"] == "rb0" and r["effect"] != "redirect-both"}
    assert (split["redirect-numbers"]["targets"], split["redirect-numbers"]["amount"]) == (["do1"], [2, 2])
    assert split["redirect-ability"]["targets"] == ["#1", "e2"]


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER", "RED-RD-BOTH-IS-TWO", "RED-RD-NEW-TARGETS", "RED-RD-ONLY-INTERRUPTED")
def test_the_version_suites_keep_the_redirect_after_a_redirect_and_its_refusals() -> None:
    """Each version suite from the position alone keeps the two plays above (KEPT_PLAYS) as play vectors reaching
    the states they reach, and refuses rb0 on rn's record (RED-RD-NEW-TARGETS) and with a new target on a record
    not interrupted (RED-RD-ONLY-INTERRUPTED)."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.targeted import kept_plays

    position = _position("conformance-redemption-redirect-after-a-redirect")
    for versions, expression in ((REVISED, "heal=revised"), (PREVIOUS, "heal=previous")):
        kept = kept_plays(position.name, expression)
        assert [k.actions[-1] for k in kept] == ["play rn on h0 -> h0", "play rb0 on h0 -> #1 e2"]
        result = generate_suite(make_plan("redemption", versions, {}), [], seed=0, positions=[position])
        assert result.suite is not None
        vectors = result.suite["vectors"]
        finals = {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in vectors if v["kind"] == "play"}
        game = _game(versions)
        for play in kept:
            assert json.dumps(game.state_to_json(_reach(game, position.state, *play.actions)), sort_keys=True) in finals
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
    start = _position("conformance-redemption-interrupt-an-earlier-discard").state
    for versions in (REVISED, PREVIOUS):
        game = _game(versions)
        before = game.state_to_json(_reach(game, start, *EARLIER_DISCARD[:-1]))
        assert [d["card"] for d in before["discards"]] == ["e4", "h1"]
        after = game.state_to_json(_reach(game, start, *EARLIER_DISCARD))
        assert [d["card"] for d in after["discards"]] == ["h1"]
        assert after["zones"][1]["discard"] == [] and after["zones"][0]["discard"] == ["h1"]
        assert sorted(f["card"] for f in after["battles"][-1]["sides"][1]) == ["e3", "e4"]
        assert [(r["id"], r["status"]) for r in after["records"] if r["id"] in (1, 2)] == [(1, "pending"), (2, "active")]


@pytest.mark.clause("RED-BASE-INTERRUPT")
def test_the_version_suites_keep_the_interrupt_of_the_earlier_discard() -> None:
    """Each version suite from the position alone keeps the interrupt above (KEPT_PLAYS) as a play vector ending in
    the state derived there."""
    import json

    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.targeted import kept_plays

    position = _position("conformance-redemption-interrupt-an-earlier-discard")
    for versions, expression in ((REVISED, "heal=revised"), (PREVIOUS, "heal=previous")):
        [kept] = kept_plays(position.name, expression)
        assert kept.actions == EARLIER_DISCARD
        result = generate_suite(make_plan("redemption", versions, {}), [], seed=0, positions=[position])
        assert result.suite is not None
        finals = {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in result.suite["vectors"] if v["kind"] == "play"}
        game = _game(versions)
        assert json.dumps(game.state_to_json(_reach(game, position.state, *EARLIER_DISCARD)), sort_keys=True) in finals


# --- undoing decreases, and reactivating pending abilities (rbkill) -----------------------

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
    start = _position("conformance-redemption-interrupt-two-decreases").state
    for versions in (REVISED, PREVIOUS):
        game = _game(versions)
        seen = [game.state_to_json(_reach(game, start, *TWO_DECREASES[:n])) for n in range(3, 8)]
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
    start = _position("conformance-redemption-reactivate-in-a-side-battle").state
    for versions in (REVISED, PREVIOUS):
        game = _game(versions)
        opened = game.state_to_json(_reach(game, start, *SIDE_BATTLE_REACTIVATION[:3]))
        assert [[[f["card"] for f in side] for side in b["sides"]] for b in opened["battles"]] == [[[], ["e"]],
                                                                                                    [["h"], ["k"]]]
        assert opened["prompt"]["player"] == 0
        interrupted = game.state_to_json(_reach(game, start, *SIDE_BATTLE_REACTIVATION[:5]))
        assert interrupted["decreased"] == [] and _statuses(interrupted)[1] == (2, "pending")
        after = game.state_to_json(_reach(game, start, *SIDE_BATTLE_REACTIVATION))
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
    start = _position("conformance-redemption-reactivate-into-a-heal-window").state
    assert _statuses(start) == [(1, "pending"), (2, "active"), (3, "pending"), (4, "active")]
    assert [(r["card"], r["targets"]) for r in start["records"]] == [("d0", ["e2"]), ("x1", ["#1"]), ("dc0", ["e1"]),
                                                                     ("x2", ["#3"])]
    assert start["decreased"] == [] and start["prompt"]["player"] == 0 and start["zones"][1]["hand"] == ["hl1"]
    game = _game(REVISED)
    end = _reach(game, start, *INTO_A_HEAL_WINDOW)
    after = game.state_to_json(end)
    assert after["prompt"] == {"kind": "heal-window", "player": 1, "record": 1, "cards": ["e2"]}
    assert after["decreased"] == [] and _statuses(after) == [(1, "announced"), (2, "active"), (3, "pending"),
                                                             (4, "active")]
    assert _legal(game, end) == ["discard", "heal e2 with hl1"]


@pytest.mark.clause("RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-BLOCKING")
def test_three_heroes_attack_together_and_three_evil_characters_block_together() -> None:
    """Player 0 sends h0, h1 and h2 against player 1, who has ls1 in bondage: a rescue attempt; player 1 blocks
    with e0, e1 and e2 (RED-BASE-BLOCKING). Each side's total strength 3 reaches each opposing toughness 2: a
    mutual destruction, and player 0 has initiative (player 1 blocked last)."""
    start = _position("conformance-redemption-band-of-three").state
    game = _game(REVISED)
    assert "attack 1 h0 h1 h2" in _legal(game, game.state_from_json(start))
    blocking = _reach(game, start, "attack 1 h0 h1 h2")
    assert "block e0 e1 e2" in _legal(game, blocking)
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
    game = _game(REVISED)
    state = game.state_from_json(_position("conformance-redemption-band-of-three").state)
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: _legal(game, state)
    assert targeted.attack_on_the_attacking_player(data, legal) == ["attack 0 h0"]
    assert targeted.attack_on_a_player_not_in_the_game(data, legal) == ["attack 2 h0"]
    for text in ("attack 0 h0", "attack 2 h0", "attack 0 h0 h1 h2", "attack 2 h0 h1 h2"):
        assert _refused_by(game, state, text) == ("RED-BASE-RESCUE-OR-CHALLENGE",)
    played = _reach(game, _position("conformance-redemption-interrupt-two-decreases").state, "attack 1 h0", "block e1 e2")
    legal_played: Callable[[], Sequence[str]] = lambda: _legal(game, played)
    derived = targeted.play_of_a_card_not_in_the_game(game.state_to_json(played), legal_played)
    assert derived == ["play dc0x on h0 -> e1"]
    assert _refused_by(game, played, "play dc0x on h0 -> e1") == ("RED-BASE-ENHANCEMENTS",)


@pytest.mark.clause("RED-RD-ABILITY-TARGET", "RED-RD-BOTH-IS-TWO")
def test_a_redirect_with_its_targets_given_the_other_way_round_is_refused() -> None:
    """redirect-opposing scenario after do1 (#1) and the interrupt x0 (#2): 'play rb0 on h0 -> #1 e1' redirects
    ability #1 to e1. Given as '-> e1 #1' it names a card where the ability '#n' goes (RED-RD-ABILITY-TARGET), and it
    is not among the legal actions; a side battle's pair, by contrast, is unordered (the same play either way)."""
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-redirect-opposing"]
    game = _game(REVISED)
    state = _reach(game, scenario.state, "attack 1 h0", "block e1", "play do1 on e1 -> h0", "play x0 on h0 -> #1")
    data = game.state_to_json(state)
    legal: Callable[[], Sequence[str]] = lambda: _legal(game, state)
    assert targeted.redirect_with_its_targets_reversed(data, legal) == ["play rb0 on h0 -> e1 #1"]
    assert "play rb0 on h0 -> e1 #1" not in legal()
    assert _refused_by(game, state, "play rb0 on h0 -> e1 #1") == ("RED-RD-ABILITY-TARGET",)
    start = _position("conformance-redemption-reactivate-in-a-side-battle").state
    either = [game.state_to_json(_reach(game, start, "attack 1 h", "block e", f"play sb1 on e -> {pair}"))
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
    start = _position("conformance-redemption-redirect-to-a-card-named-before-a-record").state
    for versions in (REVISED, PREVIOUS):
        game = _game(versions)
        before = _reach(game, start, *BEFORE_A_RECORD[:-1])
        assert "play ra0 on h0 -> #1 !e1" in _legal(game, before)
        assert _refused_by(game, before, "play ra0 on h0 -> !e1 #1") == ("RED-RD-ABILITY-TARGET",)
        end = _reach(game, start, *BEFORE_A_RECORD)
        after = game.state_to_json(end)
        assert [(r["id"], r["targets"], r["status"]) for r in after["records"]] == [
            (1, ["!e1"], "announced"), (2, ["#1"], "active"), (3, ["#1", "!e1"], "active")]
        assert after["prompt"] == {"kind": "special-initiative", "player": 1, "record": 1, "cards": []}
        assert _legal(game, end) == ["decline"]


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-RD-ABILITY-TARGET", "RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-BLOCKING")
def test_the_version_suites_keep_the_rbkill_plays_and_refusals() -> None:
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
        game = _game(versions)
        for name, actions in plays.items():
            kept = kept_plays(name, expression)
            if name.endswith("heal-window") and expression == "heal=previous":
                assert kept == []
                continue
            assert [k.actions for k in kept] == [actions]
            position = _position(name)
            result = generate_suite(make_plan("redemption", versions, {}), [], seed=0, positions=[position])
            assert result.suite is not None
            vectors = result.suite["vectors"]
            finals = {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in vectors if v["kind"] == "play"}
            assert json.dumps(game.state_to_json(_reach(game, position.state, *actions)), sort_keys=True) in finals
            if name.endswith("band-of-three"):
                refused = {v["refuse"]["action"]: v["refuse"]["clauses"] for v in vectors if v["kind"] == "refusal"}
                assert refused["attack 0 h0"] == refused["attack 2 h0"] == ["RED-BASE-RESCUE-OR-CHALLENGE"]


@pytest.mark.clause("RED-HEAL-CLEARS-STATUS")
def test_a_heal_clears_both_statuses_of_a_poisoned_and_paralyzed_character() -> None:
    """RED-HEAL-CLEARS-STATUS: after a heal the character has none of poisoned, diseased or paralyzed, so e2,
    both poisoned and paralyzed, has no status left after `heal e2 with hc`, under both wordings; the position
    is loaded with its two statuses (the state format allows any set of them)."""
    position = _position("conformance-redemption-heal-clears-two-statuses")
    assert sorted(position.state["statuses"]) == [["e2", "paralyzed"], ["e2", "poisoned"]]
    for versions in (REVISED, PREVIOUS):
        game = _game(versions)
        healed = _reach(game, position.state, "heal e2 with hc")
        assert game.state_to_json(healed)["statuses"] == []


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
    start = _position(PAUSED).state
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
        game = _game({"heal": version}, dict(options))
        state = game.state_from_json(start)
        assert _prompt(game, state) == ("play", 0)
        assert _legal(game, state) == actions, (version, options)


@pytest.mark.clause("RED-HEAL-TARGETS-HEALED", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-INSTANT", "RED-BASE-INITIATIVE")
def test_healing_the_paused_battles_fighter_ends_its_poison_and_leaves_both_battles_as_they_were() -> None:
    """'heal h0 with hm' heals h0 once (RED-HEAL-INSTANT): its poison goes and pz1's ongoing poison ends
    (RED-HEAL-CLEARS-STATUS); h0 stays in the paused rescue with sb0, e1 with pz1 opposite, the side battle goes on
    unchanged (a status changes no numbers), so player 0, still losing it, keeps the initiative and has nothing
    left to heal."""
    start = _position(PAUSED).state
    for versions in (REVISED, PREVIOUS):
        game = _game(versions)
        state = _reach(game, start, "heal h0 with hm")
        after = game.state_to_json(state)
        assert after["statuses"] == []
        assert [(r["card"], r["status"]) for r in after["records"]] == [("pz1", "ended"), ("sb0", "active")]
        assert [[(f["card"], f["enhancements"]) for f in side] for side in after["battles"][0]["sides"]] == [
            [("h0", ["sb0"])], [("e1", ["pz1"])]]
        assert [[f["card"] for f in side] for side in after["battles"][1]["sides"]] == [["hm"], ["g1"]]
        assert _prompt(game, state) == ("play", 0)
        assert [t for t in _legal(game, state) if t.startswith("heal h0")] == []


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
    position = _position(PAUSED)
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
        game = _game(versions)
        reached = json.dumps(game.state_to_json(_reach(game, position.state, *kept.actions)), sort_keys=True)
        assert reached in {json.dumps(v["steps"][-1]["state"], sort_keys=True) for v in vectors if v["kind"] == "play"}

