"""The playground's session: positions opened, actions played, rulings shown, bad input refused in one line.

Expected values are worked out from the rules texts: a blocker's power is
divided among a blocked party's members in steps of 1000 (seed 003, "Parties
and Damage"), the party deals the sum of its members' power to the blocker, a
Forward with damage at least its power breaks; a side battle's survivors go
back to the battle they came from, or to their owner's territory (seed 000).
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import tomllib
from typing import Any

import pytest

from cardrules.oracle.playground.position import PlaygroundError, decode_position, encode_position
from cardrules.oracle.playground.session import act, act_json, scenarios, start, start_json
from tests.oracle.playground.positions import FIRE_PARTY
from tests.paths import REPO


NUMBERS = tomllib.loads((REPO / "specs" / "clauses" / "numbers" / "numbers.toml").read_text())["numbers"]


def play(view: dict[str, Any], *actions: str) -> dict[str, Any]:
    for action in actions:
        view = act(view, action)
    return view


def to_the_split() -> dict[str, Any]:
    return play(start("fftcg", "default", FIRE_PARTY), "attack a1 a2", "pass", "block b1", "pass")


@pytest.mark.clause("FF-BASE-PARTY-SPLIT", "FF-PARTY-SPLIT-THOUSANDS")
def test_a_5000_blocker_divides_its_damage_six_ways_between_a_party_of_two() -> None:
    view = to_the_split()
    # 5000 in steps of 1000 over two members: 5000/0, 4000/1000, ..., 0/5000
    assert view["legal"] == [f"split a1={5000 - k * 1000} a2={k * 1000}" for k in range(6)]
    assert view["board"]["attack"] == {"attackers": ["a1", "a2"], "party": True, "blocked": True, "blocker": "b1"}


@pytest.mark.clause("FF-PARTY-BLOCKED-SUM", "FF-BASE-BREAK-DAMAGE", "FF-PARTY-BREAK-CREDIT")
def test_the_split_3000_2000_breaks_both_members_and_the_partys_5000_breaks_the_blocker() -> None:
    view = act(to_the_split(), "split a1=3000 a2=2000")
    events = view["last"]["events"]
    assert "Stone Warden (b1) dealt 3000 damage to Fire Knight (a1)" in events
    assert "Stone Warden (b1) dealt 2000 damage to Fire Squire (a2)" in events
    assert "Stone Warden (b1) was broken, credited to Fire Knight (a1) and Fire Squire (a2)" in events
    assert {"Fire Knight (a1) was broken, credited to Stone Warden (b1)",
            "Fire Squire (a2) was broken, credited to Stone Warden (b1)"} <= set(events)
    players = view["board"]["players"]
    assert [f["id"] for f in players[0]["field"]] == [] and players[1]["field"] == []
    assert players[0]["break_zone"] == ["a1", "a2"] and players[1]["break_zone"] == ["b1"]


@pytest.mark.clause("FF-BASE-PARTY-SPLIT", "FF-PARTY-SPLIT-THOUSANDS")
def test_the_ruling_cites_the_split_rule_by_its_number() -> None:
    clauses = {c["id"]: c for c in act(to_the_split(), "split a1=5000 a2=0")["last"]["clauses"]}
    assert clauses["FF-PARTY-SPLIT-THOUSANDS"]["number"] == NUMBERS["FF-PARTY-SPLIT-THOUSANDS"]
    assert clauses["FF-BASE-PARTY-SPLIT"]["area"] == "ff-base"


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_an_unblocked_party_deals_one_damage_to_the_opponent() -> None:
    view = play(start("fftcg", "default", FIRE_PARTY), "attack a1 a2", "pass", "noblock", "pass", "pass")
    assert [p["damage"] for p in view["board"]["players"]] == [0, 1]
    assert view["last"]["events"][0] == "Fire Knight (a1) and Fire Squire (a2) dealt 1 point of damage to player 1"


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY",
                    "RED-SB-RESUME")
def test_a_side_battle_played_to_its_end_returns_each_survivor_where_it_came_from() -> None:
    reach = next(s for s in scenarios() if s["name"] == "redemption-side-battle-reach")
    view = play(start("redemption", "default", reach["position"]), "attack 1 h0", "block e1",
                "play sb0 on h0 -> e1 e2")
    if "decline" in view["legal"]:  # player 1 may answer the side battle card first; they let it resolve
        view = act(view, "decline")
    side = view["board"]["battles"][1]
    # both targets are player 1's, e1 in battle and e2 not: player 1 keeps e1, player 0 takes e2
    assert side["kind"] == "side" and [[f["card"] for f in fighters] for fighters in side["sides"]] == [["e2"], ["e1"]]
    view = act(view, "pass")  # e1 4/4 against e2 3/5: neither is defeated
    assert [b["kind"] for b in view["board"]["battles"]] == ["rescue"]
    assert [f["card"] for f in view["board"]["battles"][0]["sides"][1]] == ["e1"]
    assert "e2" in view["board"]["players"][1]["territory"]
    assert "e2: the side battle (level 2), player 0's side \u2192 player 1's territory" in view["last"]["events"]
    assert {"RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY"} <= {c["id"] for c in view["last"]["clauses"]}


@pytest.mark.infrastructure("the permalink's format, which other pages' links are written in")
def test_the_permalink_is_the_base64url_of_the_compact_sorted_state_json() -> None:
    view = start("fftcg", "party-disband-timing=after-damage-resolution", FIRE_PARTY)
    compact = json.dumps(view["position"], separators=(",", ":"), sort_keys=True).encode()
    fragment = base64.urlsafe_b64encode(compact).decode().rstrip("=")
    assert view["link"] == f"?game=fftcg&rules=party-disband-timing%3Dafter-damage-resolution#{fragment}"
    assert "=" not in fragment and decode_position(fragment) == view["position"]
    assert json.loads(start_json("fftcg", "default", encode_position(FIRE_PARTY)))["legal"] == view["legal"]


@pytest.mark.infrastructure("bad input to the playground is one line naming what and where")
@pytest.mark.parametrize(("game", "rules", "position", "expected"), [
    ("chess", "default", FIRE_PARTY, "game: unknown game 'chess'"),
    ("fftcg", "heal=previous", FIRE_PARTY, "rules: 'heal=previous' is a rule set of redemption, not of fftcg"),
    ("fftcg", "nonsense", FIRE_PARTY, "rules: rule set 'nonsense'"),
    ("fftcg", "default", {**FIRE_PARTY, "turn": -1}, "position: turn"),
])
def test_a_bad_game_rule_set_or_position_is_refused_in_one_line(game: str, rules: str, position: Any,
                                                                expected: str) -> None:
    with pytest.raises(PlaygroundError) as caught:
        start(game, rules, position)
    assert str(caught.value).startswith(expected) and "\n" not in str(caught.value)


@pytest.mark.clause("FF-BASE-BLOCK")
def test_an_illegal_action_is_an_error_the_page_shows() -> None:
    view = start("fftcg", "default", FIRE_PARTY)
    answer = json.loads(act_json(json.dumps(view), "block b1"))
    assert answer["error"].startswith("action 'block b1': ") and "\n" not in answer["error"]
    assert json.loads(start_json("fftcg", "default", "!!not-base64!!"))["error"].startswith("position: ")


@pytest.mark.infrastructure("the scenarios the page offers to start from")
def test_every_embedded_scenario_is_offered_under_its_rule_sets() -> None:
    offered = {s["name"]: s for s in scenarios()}
    on_disk = {p.stem for p in (REPO / "properties" / "scenarios").glob("*.json")}
    assert set(offered) == on_disk
    assert offered["fftcg-party-basics"]["rules"] == ["default", "party-disband-timing=after-damage-resolution",
                                                      "party-blocker-power-remainder=remainder-to-one"]
    for scenario in offered.values():
        assert start(scenario["game"], scenario["rules"][0], scenario["position"])["legal"]


@pytest.mark.infrastructure("the browser has only the standard library: the session must import nothing else")
def test_the_session_imports_only_the_standard_library_and_cardrules() -> None:
    code = ("import sys; before = set(sys.modules); import cardrules.oracle.playground.session as s; "
            f"s.act(s.start('fftcg', 'default', {FIRE_PARTY!r}), 'attack a1 a2'); "
            "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
            "print('\\n'.join(sorted(new - set(sys.stdlib_module_names))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert set(result.stdout.split()) <= {"cardrules", "__main__"}
