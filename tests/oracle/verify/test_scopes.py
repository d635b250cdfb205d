"""``verify --scope`` and ``explore --scope``: every position of a scope checked, a failure naming its position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.oracle.verify.rows import Row
from cardrules.oracle.verify.scopes import fold
from cardrules.properties.scopes import enumerate_positions, load_scope
from tests.cli import run_cli
from tests.properties.scopes.tiny import FF_TINY, RED_TINY, write

pytestmark = pytest.mark.infrastructure("the --scope option of verify and explore")


def test_verify_scope_checks_every_position_and_says_how_many(tmp_path: Path) -> None:
    path = write(tmp_path, RED_TINY)
    result = run_cli("verify", "--scope", str(path), "--quiet", "--jobs", "1")
    assert result.code == 0, result.err
    assert f"scope redemption {path}: 10 positions, " in result.out  # 10: counted by hand in test_enumerate
    assert "tiny (10 positions)" in result.out
    data = json.loads(run_cli("verify", "--scope", str(path), "--quiet", "--jobs", "1", "--json").out)
    (scope,) = data["scopes"]
    assert scope["positions"] == 10 and scope["states"] >= 10
    assert scope["scope"]["name"] == "tiny" and scope["scope"]["bounds"]["max_states_per_position"] == 500
    assert {r["engine"] for r in scope["rows"]} == {"explore"} and scope["failing_positions"] == []
    assert all(r["verdict"] in ("holds", "holds-bounded") for r in scope["rows"])


def test_explore_scope_explores_every_position_and_one_alone(tmp_path: Path) -> None:
    path = write(tmp_path, FF_TINY)
    result = run_cli("explore", "--scope", str(path), "--quiet", "--json")
    assert result.code == 0, result.err
    (scope,) = json.loads(result.out)["scopes"]
    assert scope["positions"] == 20 and scope["truncated_positions"] == [] and scope["violations"] == {}
    alone = run_cli("explore", "--scope", str(path), "tiny#20", "--quiet", "--json")
    assert alone.code == 0 and json.loads(alone.out)["scenario"] == "tiny#20"
    missing = run_cli("explore", "--scope", str(path), "tiny#21", "--quiet")
    assert missing.code == 3 and "tiny#1 to tiny#20" in missing.err


def test_explore_scope_takes_a_rule_set_expression_of_the_scope_game(tmp_path: Path) -> None:
    path = write(tmp_path, RED_TINY)
    result = run_cli("explore", "--scope", str(path), "--rule-set", "heal=previous", "--quiet", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["scopes"][0]["rule_set"]["versions"] == {"heal": ["previous"]}
    other = run_cli("explore", "--scope", str(path), "--rule-set", "party-blocker-power-remainder=remainder-to-one",
                    "--quiet")
    assert other.code == 3 and "has no fftcg scope" in other.err


def test_a_failing_position_is_named_with_its_state(tmp_path: Path) -> None:
    scope = load_scope(str(write(tmp_path, RED_TINY)), "redemption")
    positions = enumerate_positions(scope)
    rows = [Row("some-property", p.name, "default", "explore", "holds", 7, 0.1) for p in positions]
    rows[3] = Row("some-property", "tiny#4", "default", "explore", "violated", 7, 0.1, (), ["1. attack"],
                  {"initial_state": positions[3].state})
    folded = fold(scope, positions, rows)
    (row,) = folded.rows
    assert (row.verdict, row.scenario, row.states) == ("violated", "tiny#4", 70)
    assert any(f"cardrules explore --scope {scope.source} tiny#4" in line for line in row.counterexample)
    (failing,) = folded.to_json()["failing_positions"]
    assert failing["position"] == "tiny#4" and failing["state"] == positions[3].state
    assert row.trace is not None and row.trace["position"] == "tiny#4"
