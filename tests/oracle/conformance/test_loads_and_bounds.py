"""Valid loads and the corruptions at a check's edge: the shape features that choose which explored states are
loaded, a won game loaded with no action, the states exactly at the model's input bounds, and the corruptions
that reach a check's boundary (a player index equal to the number of players, two cards trading places, a
reference moved to a card of the right type in the wrong place, a record reference in non-ASCII digits, a
record's status, a numbers redirect's one target repeated or dropped, a battle's prompt taken away)."""

from __future__ import annotations

import copy

import pytest

from cardrules.oracle.conformance.invalid import at_bounds, invalid_candidates
from cardrules.oracle.conformance.loads import choose_loads, load_features
from cardrules.oracle.conformance.targeted import load_positions
from cardrules.oracle.conformance.vectors import perft_from
from cardrules.properties.games import make_game
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.scenarios import load_scenarios

pytestmark = pytest.mark.infrastructure("the conformance suites' valid loads and invalid-state vectors")


def _start(name: str) -> dict:
    return copy.deepcopy(next(s for s in load_scenarios() if s.name == name).state)


def _in_battle(state: dict) -> dict:
    """redemption-plain-battle with a rescue of player 1 (attacker) on player 0 (defender) on the stack, the
    defender to block (a battle on always waits on some player's decision)."""
    state["battles"] = [{"id": 1, "kind": "rescue", "players": [1, 0], "sides": [[], []], "last_player": 1,
                         "opened_by": -1, "outcome": None, "mission": None, "defeated": []}]
    state["prompt"] = {"kind": "block", "player": 0, "record": -1, "cards": []}
    state["next_battle"] = 2
    state["active"] = 1
    return state


def test_each_player_of_a_battle_is_corrupted_up_to_the_number_of_players() -> None:
    state = _in_battle(_start("redemption-plain-battle"))
    found = invalid_candidates("redemption", "plain", [state])
    fields = {(c.field, c.change) for c in found if c.field.startswith("battles[].players")}
    # two players: index 2 is the first that is no player; the attacker (1) and the defender (0) are
    # separate fields, so a check that lets one of them reach 2 is caught
    assert ("battles[].players[0]", "+1") in fields  # 1 -> 2
    assert ("battles[].players[1]", "=players") in fields  # 0 -> 2
    assert ("battles[].players[1]", "=-1") in fields
    # the defender set to 1 is a battle of player 1 against themself: a candidate too, under its own field
    assert ("battles[].players[1]", "+1") in fields


def test_a_lost_soul_trading_places_with_a_character_is_one_problem() -> None:
    state = _start("redemption-plain-battle")
    found = invalid_candidates("redemption", "plain", [state])
    swaps = [c for c in found if c.change == "swapped"]
    # s1 (a Lost Soul in player 1's Land of Bondage) and f1 (a character in player 0's territory) trading
    # places: each is still in exactly one place, and each zone holds a card of the wrong type, two problems:
    # not a candidate; a Lost Soul trading with a card in a hand breaks only the Land of Bondage
    assert not any(c.field == "zones[].territory[]<->zones[].bondage[]" for c in swaps)
    assert any(c.field == "zones[].hand[]<->zones[].bondage[]" and "is not a lost-soul" in c.problem for c in swaps)


def test_an_enhancement_placed_on_a_character_in_a_hand_is_refused() -> None:
    state = _start("redemption-plain-battle")
    # player 0's enhancement g1 placed on h1, in player 0's territory: valid
    state["zones"][0]["hand"].remove("g1")
    state["placed"] = [["g1", "h1"]]
    moved = [c for c in invalid_candidates("redemption", "plain", [state])
             if c.field == "placed[][]" and c.change == "same-type-card"]
    # moved to k1, a character in player 1's hand: it is a character, but not in a territory
    assert any(c.state["placed"] == [["g1", "k1"]] and "not a character in a territory" in c.problem for c in moved)


def test_a_battle_without_a_prompt_is_refused() -> None:
    state = _in_battle(_start("redemption-plain-battle"))
    nulls = [c for c in invalid_candidates("redemption", "plain", [state]) if c.field == "prompt" and c.change == "=null"]
    # the defender's block decision taken away: a battle on that waits on no one
    assert [c.state["prompt"] for c in nulls] == [None]
    assert "decision to make" in nulls[0].problem
    # outside battle there is no prompt to take away
    assert not any(c.field == "prompt" for c in invalid_candidates("redemption", "plain", [_start("redemption-plain-battle")]))


def test_a_record_reference_in_arabic_indic_digits_is_refused() -> None:
    state = _in_battle(_start("redemption-plain-battle"))
    record = {"id": 1, "card": "x1", "player": 1, "on": "e1", "effect": "interrupt", "targets": ["#1"],
              "battle_path": [1], "status": "active", "carrier": -1, "amount": [0, 0], "lasts_until": None,
              "undo": {"fighter": None, "battle": -1, "side": -1, "status_added": False, "opened": -1}}
    state["records"] = [record]
    state["next_record"] = 2
    found = invalid_candidates("redemption", "plain", [state])
    digits = [c for c in found if c.change == "non-ascii-digits"]
    # "#\u0661" is digits to int() and str.isdigit(), but a record reference is '#' and ASCII digits
    assert [c.state["records"][0]["targets"] for c in digits] == [["#\u0661"]]
    # an interrupt with its one target dropped aims at no record: refused, where a check reading the first
    # target of an empty list would crash instead
    assert any(c.field == "records[].targets" and c.change == "dropped" for c in found)


def test_an_ongoing_numbers_redirect_outside_battle_must_be_active() -> None:
    state = _start("redemption-plain-battle")
    state["records"] = [{"id": 1, "card": "x1", "player": 1, "on": "e1", "effect": "redirect-numbers",
                         "targets": ["e1"], "battle_path": [1], "status": "active", "carrier": -1,
                         "amount": [1, 1], "lasts_until": [1, "battle"],
                         "undo": {"fighter": None, "battle": -1, "side": -1, "status_added": False, "opened": -1}}]
    state["zones"][1]["hand"].remove("x1")
    state["zones"][1]["discard"].append("x1")
    state["next_record"] = 2
    state["next_battle"] = 2
    found = {c.change: c for c in invalid_candidates("redemption", "plain", [state]) if c.field == "records[].status"}
    # outside battle only numbers redirects still in force are kept: an expired one is refused
    assert "outside battle" in found["=expired"].problem
    # a numbers redirect names one card: its target list with the first item repeated, or (active) dropped,
    # is refused
    lists = {c.change: c for c in invalid_candidates("redemption", "plain", [state]) if c.field == "records[].targets"}
    assert lists["duplicate"].state["records"][0]["targets"] == ["e1", "e1"]
    assert lists["dropped"].state["records"][0]["targets"] == []
    assert all("names at most one card" in lists[change].problem for change in ("duplicate", "dropped"))


def test_a_state_at_each_input_bound_of_the_model_is_valid() -> None:
    state = _start("redemption-stated-numbers")
    bounds = {bound: changed for bound, _, changed in at_bounds("redemption", [state])}
    assert {"strength", "toughness", "stated_amount", "brigades", "cards"} <= set(bounds)
    assert bounds["strength"]["cards"][0]["strength"] == 99
    assert bounds["toughness"]["cards"][-1]["toughness"] == -99
    assert len(bounds["cards"]["cards"]) == 100
    assert max(len(c["brigades"]) for c in bounds["brigades"]["cards"]) == 12
    # one past the bound is past a limit of the model, no rule: no invalid candidate rests on it
    past = copy.deepcopy(bounds["strength"])
    past["cards"][0]["strength"] = 100
    assert not any(c.field == "cards[].strength" for c in invalid_candidates("redemption", "x", [past]))


def test_load_features_read_a_states_shape() -> None:
    state = _in_battle(_start("redemption-plain-battle"))
    features = load_features(state)
    # the defender is player 0, the attacker player 1: positions of the pair are kept
    assert {"battles[].players[0]=1", "battles[].players[1]=0", "battles[].kind=rescue"} <= features
    assert "zones[].territory#len=3" in features
    # card ids are not shape: no feature names f1
    assert not any("f1" in f for f in features)
    outside = load_features(_start("redemption-plain-battle"))
    assert "outside-battle:records#len=0" in outside and "records#len=0" not in outside


def test_choose_loads_keeps_only_states_that_add_a_feature() -> None:
    start = _start("redemption-plain-battle")
    same_shape = copy.deepcopy(start)
    same_shape["turn"] = 2  # turn 1 and 2 are both features: turn=2 is new
    repeat = copy.deepcopy(start)
    battle = _in_battle(copy.deepcopy(start))
    chosen = choose_loads([[start, same_shape, repeat, battle]], [(0, 0)])
    assert (0, 1) in chosen and (0, 3) in chosen and (0, 2) not in chosen


def test_a_won_game_is_a_valid_load_with_no_action() -> None:
    position = next(p for p in load_positions() if p.name == "conformance-redemption-rescue-wins-game")
    game = make_game("redemption", position.rule_sets[0])
    explored = explore(game, [game.state_from_json(position.state)], [], Bounds(max_states=position.max_states, max_turns=position.max_turns),
                       keep_edges=False, progress=False)
    won = next(s for s in explored.states if s.winner is not None)
    vector = perft_from(game, won, position.name, frozenset(), 1, "won")
    # the fifth Lost Soul rescued: player 0 has won, and nothing is left to do (RED-BASE-WIN-FIVE-SOULS)
    assert vector is not None and vector["state"]["winner"] == 0
    assert (vector["nodes"], vector["divide"]) == ([0], {})
    # asked for more depth, it still counts one level: no action, so no longer sequence either
    assert perft_from(game, won, position.name, frozenset(), 3, "won")["nodes"] == [0]
    # a scenario's start with no action gives no perft vector: nothing to count from the start
    assert perft_from(game, won, position.name, frozenset(), 1) is None
