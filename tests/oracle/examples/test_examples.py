"""The examples in the players' words: one per clause at least, each replayed on the model.

Every example stores its game, rule set, position (the state JSON), action and
what follows; replaying it on the model must give the same narration and the
same final state (or the same refusal). The rulings asserted by hand below are
worked out from the rules text, not from the model.
"""

from __future__ import annotations

import pytest

from cardrules.oracle.examples import examples_for, stored_examples
from cardrules.oracle.examples.generate import example_id, outcome, seats_from_one
from cardrules.properties.games import make_game
from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
from cardrules.specs.catalogue import default_catalogue


def _replay(example: dict, rules: str | None = None) -> dict:
    """The state JSON after playing the example's actions (under ``rules`` if given)."""
    model = make_game(example["game"], parse_rule_set_expression(rules or example["rules"]).spec)
    state = model.state_from_json(example["state"])
    for text in example["actions"]:
        state = model.step(state, model.action_from_text(text))
    return model.state_to_json(state)


def _only(clause_id: str, kind: str = "play") -> dict:
    found = [e for e in examples_for(clause_id) if e["kind"] == kind]
    assert found, f"no {kind} example of {clause_id}"
    return found[0]


@pytest.mark.infrastructure("the examples cover the catalogue")
def test_every_clause_has_an_example_superseded_ones_too() -> None:
    clauses = default_catalogue().clauses
    assert len(clauses) == 128
    missing = [c.id for c in clauses if not examples_for(c.id)]
    assert missing == []
    superseded = [c for c in clauses if c.versions == ("previous",)]
    assert superseded and all(any("heal=previous" in e["rules"] for e in examples_for(c.id)) for c in superseded)


@pytest.mark.infrastructure("the stored examples are what the model gives")
def test_every_example_replays_to_the_ruling_it_shows() -> None:
    for example in stored_examples():
        again = outcome(example["game"], example["rules"], example["state"], example["actions"])
        shown = {k: example[k] for k in again}
        assert again == shown, example["id"]
        assert example["id"] == example_id(example["game"], example["rules"], example["state"], example["actions"])


@pytest.mark.infrastructure("an example is written for players")
def test_examples_speak_of_players_from_one_and_cite_clauses_in_force() -> None:
    for example in stored_examples():
        text = " ".join((example["position"], example["event"], example["ruling"]))
        assert "Player 0" not in text and "player 0" not in text, example["id"]
        assert "{" not in text and "None" not in text, example["id"]
        assert example["clauses"], example["id"]
    assert seats_from_one("player 0 must answer; player 2 has") == "Player 1 must answer; Player 3 has"


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_an_unblocked_party_deals_its_opponent_one_damage_in_all() -> None:
    """Seed 003: a party nobody blocks deals one point of damage, whatever its size and power."""
    example = _only("FF-PARTY-UNBLOCKED-ONE")
    attack = example["state"]["attack"]
    assert attack["party"] and len(attack["attackers"]) >= 2 and attack["blocked"] is False
    defender = 1 - example["state"]["turn_player"]
    before = example["state"]["players"][defender]["damage"]
    after = _replay(example)
    assert after["players"][defender]["damage"] == before + 1
    assert f"Player {defender + 1} receives 1 point of damage" in example["ruling"]


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-BLOCKED-SUM")
def test_a_blocker_splits_its_power_among_the_members_in_thousands() -> None:
    """Seed 003: the blocker's controller divides its power among the members in steps of 1000; the
    party deals the blocker the sum of its members' powers. A 2500 blocker can place 2000 of it."""
    example = _only("FF-PARTY-SPLIT-THOUSANDS")
    state = example["state"]
    blocker = state["attack"]["blocker"]
    power = next(f["power"] for f in state["players"][1 - state["turn_player"]]["forwards"] if f["id"] == blocker)
    shares = [int(word.split("=")[1]) for word in example["actions"][0].split()[1:]]
    assert all(share % 1000 == 0 for share in shares)
    assert sum(shares) == power - power % 1000
    members = [f for f in state["players"][state["turn_player"]]["forwards"] if f["id"] in state["attack"]["attackers"]]
    after = _replay(example)
    broken = {f["id"] for p in after["players"] for f in p.get("break_zone", [])}
    assert (blocker in broken) == (sum(f["power"] for f in members) >= power)
    assert "divides" in example["event"]


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_a_healed_character_goes_to_its_permanent_controller_under_the_revised_wording() -> None:
    """Seed 001: the revised wording puts a character healed while being discarded into the territory
    of the player with permanent control of it; the previous wording into its owner's."""
    example = _only("RED-HEAL-TO-PERMANENT-CONTROLLER")
    target = example["actions"][0].split()[1]
    owner = next(c["owner"] for c in example["state"]["cards"] if c["id"] == target)
    fighter = next(f for b in example["state"]["battles"] for side in b["sides"] for f in side if f["card"] == target)
    controller = fighter["permanent"]
    assert owner != controller  # the example shows the difference
    revised = _replay(example)
    assert target in revised["zones"][controller]["territory"]
    assert target not in revised["zones"][owner]["territory"]
    previous = _only("RED-HEAL-PREV-TO-OWNER")
    healed = previous["actions"][0].split()[1]
    owner_then = next(c["owner"] for c in previous["state"]["cards"] if c["id"] == healed)
    assert healed in _replay(previous)["zones"][owner_then]["territory"]
    assert f"owned by Player {owner + 1})" in example["position"]


@pytest.mark.clause("RED-SB-CONTROL-OUTSIDERS")
def test_the_user_chooses_sides_when_neither_battling_player_controls_the_characters() -> None:
    """Seed 000, case 1: neither selected character is controlled by a battling player, so the player who
    used the side battle ability decides which battling player gets which character."""
    example = _only("RED-SB-CONTROL-OUTSIDERS")
    words = example["actions"][0].split()
    assert words[0] == "use"
    user = next(i for i, z in enumerate(example["state"]["zones"]) if words[1] in z["hand"])
    battling = example["state"]["battles"][-1]["players"]
    assert user not in battling
    for card in words[3:5]:
        assert not any(card in example["state"]["zones"][p]["territory"] for p in battling)
    after = _replay(example)
    assert after["prompt"]["kind"] == "choose-sides" and after["prompt"]["player"] == user


@pytest.mark.clause("RED-HEAL-ONLY-CHARACTERS")
def test_a_heal_aimed_at_a_card_that_is_no_character_is_refused() -> None:
    """Seed 001: only a character can be the target of a heal."""
    example = _only("RED-HEAL-ONLY-CHARACTERS", "refusal")
    target = example["actions"][0].split()[1]
    assert next(c["type"] for c in example["state"]["cards"] if c["id"] == target) != "character"
    assert "RED-HEAL-ONLY-CHARACTERS" in example["refused_by"]
    assert example["ruling"].startswith("Not allowed")
