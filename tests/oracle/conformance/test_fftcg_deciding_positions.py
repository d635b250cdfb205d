"""Positions that make the FFTCG default suite decide what it used to cover without deciding: a party legal
only through the P icon, the split of a blocker whose power is no multiple of 1000 (2500, 5500), an unblocked
party hitting a defender below 6 damage, a party of three.

The suite is generated as ``cardrules conformance generate`` does (:func:`generate_suite` with its default
bounds and the targeted positions, seed 0), once for the module; every expected value below is derived by hand
from the clause statements (FF-PARTY-SPLIT-THOUSANDS with party-blocker-power-remainder = floor and
party-zero-share = zero-allowed, FF-PARTY-UNBLOCKED-ONE, FF-PARTY-ELEMENT / FF-PARTY-P-ICON, FF-BASE-CAN-ATTACK),
not read from the model's output."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any, Iterator

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.model.fftcg.validate import load_state
from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import make_plan
from cardrules.oracle.conformance.targeted import POSITIONS_DIR
from cardrules.properties.games import make_game

DEFAULT = make_plan("fftcg", {}, {})
NEW = {
    "p-icon": "conformance-fftcg-unblocked-party-at-five-then-p-icon-party",
    "2500": "conformance-fftcg-split-of-2500-then-brave-attacked",
    "5500": "conformance-fftcg-split-of-5500-then-newcomer",
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def vectors() -> list[dict[str, Any]]:
    """The FFTCG default suite's vectors, generated as the shipped command does (about 30 s)."""
    result = generate_suite(DEFAULT, seed=0)
    assert result.suite is not None and not result.uncovered
    return list(result.suite["vectors"])


def _steps(vectors: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any], list[str], dict[str, Any]]]:
    """(vector, state before, legal actions before, step) of every step of every play and refusal vector."""
    for vector in vectors:
        if vector["kind"] not in ("play", "refusal"):
            continue
        before, legal = vector["state"], vector["legal_actions"]
        for step in vector.get("steps", []):
            yield vector, before, legal, step
            before, legal = step["state"], step["legal_actions"]


def _forwards(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for p in state["players"] for f in p["forwards"]}


def _able(state: dict[str, Any]) -> list[dict[str, Any]]:
    """FF-BASE-CAN-ATTACK: the turn player's Forwards that are active, under control since the turn began or
    with Haste, and have not attacked this turn."""
    return [f for f in state["players"][state["turn_player"]]["forwards"]
            if not f["dull"] and (f["since_start"] or f["haste"]) and f["id"] not in state["attacked"]]


def _is_party(members: list[dict[str, Any]]) -> bool:
    """FF-PARTY-TWO-TYPES: an element party (FF-PARTY-ELEMENT: one element every member has) or a P icon party
    (FF-PARTY-P-ICON: every member has the P icon)."""
    return bool(set.intersection(*(set(m["elements"]) for m in members))) or all(m["p_icon"] for m in members)


def _p_icon_only_declarations(vectors: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any], list[str],
                                                                           dict[str, Any]]]:
    """Steps declaring a party whose members share no element (so it is a party only through the P icon)."""
    found = []
    for vector, before, legal, step in _steps(vectors):
        words = step["action"].split()
        if vector["kind"] == "play" and words[0] == "attack" and len(words) >= 3:
            members = [_forwards(before)[fid] for fid in words[1:]]
            if not set.intersection(*(set(m["elements"]) for m in members)):
                found.append((vector, before, legal, step))
    return found


@pytest.mark.infrastructure("the new positions are legal states the model loads")
def test_the_new_positions_load_with_the_models_validation() -> None:
    for name in NEW.values():
        data = json.loads((POSITIONS_DIR / f"{name}.json").read_text())
        assert data["name"] == name and data["game"] == "fftcg" and data["description"]
        load_state(data["state"])  # raises ScenarioError naming the problem


@pytest.mark.clause("FF-PARTY-P-ICON", "FF-PARTY-ELEMENT", "FF-PARTY-TWO-TYPES", "FF-PARTY-FORM-VALID",
                    "FF-PARTY-NO-SIZE-LIMIT")
def test_a_party_sharing_no_element_is_accepted_through_the_p_icon_and_listed_with_exactly_the_valid_parties(
        vectors: list[dict[str, Any]]) -> None:
    """p1 Fire/Water, p2 Ice/Water, p3 Fire/Ice, all with the P icon: no element common to the three, so the three
    are a party only as a P icon party; it is accepted (the step's state has the party attacking). The listing
    before it holds, of the attack declarations, exactly the groups of able Forwards that are an element party or
    a P icon party: the Earth n1 without the P icon joins none."""
    found = _p_icon_only_declarations(vectors)
    assert found, "no play vector declares a party whose members share no element"
    for vector, before, legal, step in found:
        members = [_forwards(before)[fid] for fid in step["action"].split()[1:]]
        assert all(m["p_icon"] for m in members)
        attack = step["state"]["attack"]
        assert attack["party"] is True and attack["attackers"] == step["action"].split()[1:]
    vector, before, legal, step = next(f for f in found if f[0]["scenario"] == NEW["p-icon"])
    assert step["action"] == "attack p1 p2 p3"
    able = _able(before)
    assert sorted(f["id"] for f in able) == ["n1", "p1", "p2", "p3"]
    expected = {"attack " + " ".join(sorted(f["id"] for f in group))
                for size in range(1, len(able) + 1) for group in combinations(able, size)
                if size == 1 or _is_party(list(group))}
    assert {a for a in legal if a.startswith("attack ")} == expected
    assert "attack n1 p1" not in legal and "attack n1 p1 p2 p3" not in legal


@pytest.mark.clause("FF-PARTY-ELEMENT", "FF-PARTY-P-ICON", "FF-PARTY-TWO-TYPES", "FF-PARTY-FORM-VALID")
def test_the_model_refuses_a_group_with_no_common_element_and_not_all_p_icon_naming_the_party_clauses(
        vectors: list[dict[str, Any]]) -> None:
    """At the state where p1 p2 p3 attack, n1 (Earth, no P icon) with p1 (Fire/Water, P icon) share no element
    and do not all have the P icon: neither an element party nor a P icon party, refused naming the clauses of
    both kinds of party."""
    _, before, _, _ = next(f for f in _p_icon_only_declarations(vectors) if f[0]["scenario"] == NEW["p-icon"])
    game = make_game("fftcg", DEFAULT.spec)
    state = game.state_from_json(before)
    for text in ("attack n1 p1", "attack n1 p1 p2 p3"):
        with pytest.raises(IllegalAction) as refused:
            game.step(state, game.action_from_text(text))
        assert set(refused.value.clause_ids) == {"FF-PARTY-FORM-VALID", "FF-PARTY-TWO-TYPES", "FF-PARTY-ELEMENT",
                                                 "FF-PARTY-P-ICON"}


@pytest.mark.clause("FF-PARTY-ELEMENT", "FF-PARTY-P-ICON")
def test_some_refusal_vector_refuses_a_group_with_no_common_element_and_no_p_icon(
        vectors: list[dict[str, Any]]) -> None:
    """The targeted refusal (targeted_fftcg.party_without_a_common_element): two Forwards that may each attack,
    share no element and are not both P-icon Forwards, declared as one party, are refused citing the element rule."""
    refusals = [v for v in vectors if v["kind"] == "refusal" and "FF-PARTY-ELEMENT" in v["refuse"]["clauses"]]
    assert refusals
    for vector in refusals:
        words = vector["refuse"]["action"].split(" ")
        assert words[0] == "attack" and len(words) >= 3


SPLITS = {
    # FF-PARTY-SPLIT-THOUSANDS: shares are multiples of 1000; party-blocker-power-remainder = floor: the largest
    # multiple of 1000 not above the power is divided, the rest dealt to no one; party-zero-share = zero-allowed.
    2500: {"split a1=2000 a2=0", "split a1=1000 a2=1000", "split a1=0 a2=2000"},
    5500: {"split a1=5000 a2=0", "split a1=4000 a2=1000", "split a1=3000 a2=2000", "split a1=2000 a2=3000",
           "split a1=1000 a2=4000", "split a1=0 a2=5000"},
}


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", "FF-PARTY-BLOCKED-SUM")
@pytest.mark.parametrize("power", sorted(SPLITS))
def test_a_vector_splits_the_damage_of_a_blocker_whose_power_is_no_multiple_of_1000(
        vectors: list[dict[str, Any]], power: int) -> None:
    """A blocker of 2500 (5500) against the party a1 a2 divides 2000 (5000) in thousands: the legal actions before
    the split are exactly those splits (nothing else may be done in Damage Resolution), and the split taken puts
    each share on its member and the party's summed power on the blocker."""
    found = []
    for vector, before, legal, step in _steps(vectors):
        attack = before["attack"]
        if step["action"].startswith("split ") and attack and _forwards(before)[attack["blocker"]]["power"] == power:
            found.append((vector, before, legal, step))
    assert found, f"no vector splits the damage of a {power} blocker"
    for vector, before, legal, step in found:
        attackers = before["attack"]["attackers"]
        shares = {word.split("=")[0]: int(word.split("=")[1]) for word in step["action"].split()[1:]}
        assert sorted(shares) == attackers and all(share % 1000 == 0 for share in shares.values())
        assert sum(shares.values()) == power // 1000 * 1000
        if attackers == ["a1", "a2"]:
            assert sorted(legal) == sorted(SPLITS[power])
        after, was = _forwards(step["state"]), _forwards(before)
        for fid, share in shares.items():
            if fid in after:
                assert after[fid]["damage"] == was[fid]["damage"] + share
            else:  # broken: damage at least its power (FF-BASE-BREAK-DAMAGE)
                assert was[fid]["damage"] + share >= was[fid]["power"]
        new_events = step["state"]["events"][len(before["events"]):]
        dealt = [e for e in new_events if e["kind"] == "damage" and e["target"] == before["attack"]["blocker"]]
        assert sum(e["amount"] for e in dealt) == sum(was[fid]["power"] for fid in attackers)
    assert any(v["scenario"] == NEW[str(power)] for v, *_ in found)


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE", "FF-BASE-SEVEN-DAMAGE-LOSES")
def test_an_unblocked_party_hits_a_defender_at_five_damage_for_exactly_one(vectors: list[dict[str, Any]]) -> None:
    """FF-PARTY-UNBLOCKED-ONE: the unblocked party a1 a2 deals one point in all: the defender at 5 goes to 6 (one
    per member would be 7, a lost game) and the game goes on."""
    found = []
    for vector, before, legal, step in _steps(vectors):
        attack = before["attack"]
        if (step["action"] == "pass" and before["step"] == "damage-resolution" and attack and attack["party"]
                and attack["blocked"] is False and len(attack["attackers"]) >= 2):
            defender = 1 - before["turn_player"]
            if before["players"][defender]["damage"] <= 5:
                found.append((before["players"][defender]["damage"], step["state"]["players"][defender]["damage"],
                              step["state"]["outcome"], vector["scenario"]))
    assert found, "no vector shows an unblocked party hitting a defender at 5 damage or less"
    assert all(after == was + 1 and outcome is None for was, after, outcome, _ in found)
    assert (5, 6, None, NEW["p-icon"]) in found


@pytest.mark.clause("FF-PARTY-NO-SIZE-LIMIT", "FF-PARTY-MIN-TWO", "FF-PARTY-DULL-ALL")
def test_a_party_of_three_is_declared_in_a_play_vector(vectors: list[dict[str, Any]]) -> None:
    """A declaration of three Forwards makes a party of three attacking, each member dulled (none has Brave)."""
    threes = [(before, step) for vector, before, _, step in _steps(vectors)
              if vector["kind"] == "play" and step["action"].startswith("attack ") and len(step["action"].split()) == 4]
    assert threes
    for before, step in threes:
        members = step["action"].split()[1:]
        attack = step["state"]["attack"]
        assert attack["party"] is True and attack["attackers"] == members
        assert all(_forwards(step["state"])[fid]["dull"] for fid in members if not _forwards(before)[fid]["brave"])

