"""cardrules diff: behaviour differences between two rule sets, labelled, shortest, replayable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import run
from tests.paths import REPO

PROPOSALS = REPO / "docs" / "proposals"


def diff_json(*args: str) -> tuple[int, dict]:
    code, text = run("diff", *args, "--no-smt", "--json")
    return code, json.loads(text)


@pytest.fixture(scope="module")
def side_battle_limit(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict, Path]:
    traces = tmp_path_factory.mktemp("sb-traces")
    # two side battles a turn is no reading of the seed (no decision option): a proposal with code
    code, report = diff_json("default", str(PROPOSALS / "two-side-battles.toml"), "--allow-code", "--scenario",
                             "redemption-side-battles-3p", "--traces", str(traces))
    return code, report, traces


@pytest.fixture(scope="module")
def heal_revision(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict, Path]:
    traces = tmp_path_factory.mktemp("heal-traces")
    # The previous wording read with the heal window as unchanged text (redline-window), so that
    # both wordings open a window at the discard and play stays in lockstep up to the discard pile.
    code, report = diff_json("heal=previous,redline-window=unchanged", "heal=revised", "--scenario",
                             "redemption-heal-and-redirect", "--traces", str(traces))
    return code, report, traces


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_a_second_side_battle_per_turn_is_relaxed(side_battle_limit: tuple[int, dict, Path]) -> None:
    # Seed 000: a player initiates at most one side battle per turn. Allowing two
    # lets the same player's second side battle card take targets (relaxed); its
    # untargeted play, legal while the ability is blanked, is gone (tightened).
    code, report, _ = side_battle_limit
    assert code == 1 and report["differs"]
    (scenario,) = report["scenarios"]
    traces = {t["kind"]: t for t in scenario["traces"]}
    assert set(traces) == {"relaxed", "tightened"}
    relaxed = traces["relaxed"]
    assert relaxed["action"].startswith("play sb0b on h0 -> ")
    assert [s["action"] for s in relaxed["steps"]].count("play sb0 on h0 -> e1 e2") == 1
    assert (relaxed["a"]["legal"], relaxed["b"]["legal"]) == (False, True)
    assert relaxed["clause_ids"] == ["RED-SB-ONCE-PER-TURN"]
    assert report["clauses_touched"] == ["RED-SB-ONCE-PER-TURN"]
    broken = {(p["property"], p["broken_under"]) for p in report["properties"]}
    assert ("one-side-battle-per-player-per-turn", "B") in broken


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE")
def test_the_heal_revision_forbids_healing_from_the_discard_pile(
    heal_revision: tuple[int, dict, Path],
) -> None:
    code, report, _ = heal_revision
    assert code == 1
    traces = {t["kind"]: t for t in report["scenarios"][0]["traces"]}
    # With the window under both wordings, a heal in it puts h0 back in p0's territory under both: the two
    # results differ only in the turn's memory of discards (bookkeeping), which is no changed difference.
    assert set(traces) == {"tightened"}
    assert report["scenarios"][0]["parted_pairs"] > 0, "the bookkeeping-only pairs are still followed"
    tightened = traces["tightened"]
    # previous wording: outside battle, a character in its holder's discard pile may be healed
    assert tightened["action"].startswith("heal h0 ")
    last = tightened["steps"][-1]["state"]
    assert "h0" in last["zones"][0]["discard"]  # h0 was discarded in the battle and stays there
    assert (tightened["a"]["legal"], tightened["b"]["legal"]) == (True, False)
    assert tightened["clause_ids"] == ["RED-HEAL-NOT-IN-DISCARD-PILE"]  # the refusal under B cites it


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-PREV-HEALABLE")
def test_by_default_the_revision_adds_the_heal_window() -> None:
    # redline-window = inserted: under the previous wording p1's discard ability (dc on h0)
    # completes at once and h0 is in p0's pile; the revised wording first opens p0's heal window.
    code, report = diff_json("heal=previous", "heal=revised", "--scenario", "redemption-heal-and-redirect")
    assert code == 1
    changed = next(t for t in report["scenarios"][0]["traces"] if t["kind"] == "changed")  # the shortest first
    assert changed["action"] == "play dc on e1 -> h0"
    assert "h0" in changed["a"]["state"]["zones"][0]["discard"]
    assert "h0" not in changed["b"]["state"]["zones"][0]["discard"]
    assert changed["b"]["state"]["prompt"]["kind"] == "heal-window"
    assert "RED-HEAL-WINDOW" in changed["clause_ids"] and changed["decisive"]["how"] == "first-differing-call"
    assert changed["field"] == "decision"  # p0's heal window under B, p0's play under A


@pytest.mark.infrastructure("the diff command's traces and input errors")
def test_every_shortest_scenario_replays(side_battle_limit: tuple[int, dict, Path],
                                          heal_revision: tuple[int, dict, Path]) -> None:
    files = sorted(side_battle_limit[2].glob("*.json")) + sorted(heal_revision[2].glob("*.json"))
    assert len(files) >= 3
    for file in files:
        code, text = run("replay", str(file), "--allow-code")  # the side battle traces name a proposal with code
        assert code == 0 and "reproduced" in text, text


@pytest.mark.infrastructure("the diff command's traces and input errors")
def test_a_tampered_diff_trace_is_not_reproduced(side_battle_limit: tuple[int, dict, Path], tmp_path: Path) -> None:
    trace = json.loads(next(side_battle_limit[2].glob("*.relaxed.json")).read_text())
    trace["b"]["legal"] = False
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(trace))
    code, text = run("replay", str(tampered), "--allow-code")
    assert code == 1 and "NOT reproduced" in text


@pytest.mark.infrastructure("the diff command's traces and input errors")
def test_the_same_rules_named_twice_show_no_difference() -> None:
    # sb-restriction-scope's chosen option, named: the same rules as the default
    code, report = diff_json("default", "sb-restriction-scope=ability-blanked", "--scenario", "redemption-side-battles-3p")
    assert code == 0 and not report["differs"]
    assert report["scenarios"][0]["differences"] == {} and report["properties"] == []
    code, text = run("diff", "default", "sb-restriction-scope=ability-blanked", "--scenario", "redemption-side-battles-3p",
                     "--no-smt")
    assert "no difference found (complete within the turn bound (2 turn(s))" in text


@pytest.mark.infrastructure("the diff command's traces and input errors")
@pytest.mark.parametrize("args, message", [
    (("default", "default"), "--game"),
    (("heal=nope", "default"), "no version 'nope'"),
    (("heal=previous", "party-zero-share=each-hit-if-possible"), "different games"),
    (("default", "party-split-unit=hundreds"), "has no option 'hundreds'"),  # a broken variant is no option
    (("heal=previous,heal=revised", "default"), "given twice"),
    (("healing=previous", "default"), "neither a rule area nor a decision"),
])
def test_bad_rule_sets_are_bad_input(args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("diff", *args, "--no-smt")[0] == 3
    assert message in capsys.readouterr().err
