"""cardrules diff by default: the embedded scenarios and the small scope, classes of change with their
decisive clause, each shortest scenario replayed under both rule sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli import run
from tests.paths import REPO

pytestmark = pytest.mark.slow  # each default diff explores every scenario and the 360 start positions of 'small'


def _classes(report: dict[str, Any]) -> list[dict[str, Any]]:
    return report["classes"]


@pytest.fixture(scope="module")
def heal_default(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], Path]:
    traces = tmp_path_factory.mktemp("heal-default")
    code, text = run("diff", "heal=previous", "heal=revised", "--json", "--quiet", "--traces", str(traces))
    return code, json.loads(text), traces


def _trace_file(trace: dict[str, Any], tmp: Path, name: str) -> str:
    path = tmp / name
    path.write_text(json.dumps(trace))
    return str(path)


def _territory_of(state: dict[str, Any], card: str) -> int | None:
    found = [p for p, zones in enumerate(state["zones"]) if card in zones["territory"]]
    return found[0] if found else None


def _owner(trace: dict[str, Any], card: str) -> int:
    return next(c["owner"] for c in trace["initial_state"]["cards"] if c["id"] == card)


@pytest.mark.clause("RED-HEAL-PREV-TO-OWNER", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_the_default_diff_of_the_heal_revision_shows_where_a_healed_character_goes(
        heal_default: tuple[int, dict[str, Any], Path], tmp_path: Path) -> None:
    # Previous wording: a healed character goes to its owner's territory; revised: to the territory of
    # the player with permanent control. A scope position where they are different players shows it.
    code, report, _ = heal_default
    assert code == 1
    destination = [c for c in _classes(report) if c["kind"] == "changed" and c["action_kind"] == "heal"
                   and c["decisive"]["a"] == ["RED-HEAL-PREV-TO-OWNER"]
                   and c["decisive"]["b"] == ["RED-HEAL-TO-PERMANENT-CONTROLLER"]]
    assert len(destination) >= 1, [(c["kind"], c["action_kind"], c["decisive_text"]) for c in _classes(report)]
    trace = destination[0]["shortest"]["trace"]
    card = trace["action"].split()[1]  # heal CARD with HEALER
    under_a, under_b = _territory_of(trace["a"]["state"], card), _territory_of(trace["b"]["state"], card)
    assert under_a == _owner(trace, card)
    assert under_b is not None and under_b != under_a
    assert destination[0]["field"].endswith("territory")
    replay_code, text = run("replay", _trace_file(trace, tmp_path, "destination.json"))
    assert replay_code == 0 and "reproduced" in text


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE")
def test_the_default_diff_of_the_heal_revision_shows_the_discard_pile_refusal(
        heal_default: tuple[int, dict[str, Any], Path], tmp_path: Path) -> None:
    # Revised wording: a character in a discard pile cannot be healed; the previous wording allowed it.
    _, report, _ = heal_default
    pile = [c for c in _classes(report) if c["kind"] == "tightened" and c["action_kind"] == "heal"
            and c["decisive"]["clauses"] == ["RED-HEAL-NOT-IN-DISCARD-PILE"] and c["decisive"]["how"] == "refusal"]
    assert len(pile) == 1
    trace = pile[0]["shortest"]["trace"]
    card = trace["action"].split()[1]
    last = trace["steps"][-1]
    state = last.get("state", last.get("state_b"))
    assert any(card in zones["discard"] for zones in state["zones"])
    assert (trace["a"]["legal"], trace["b"]["legal"]) == (True, False)
    replay_code, text = run("replay", _trace_file(trace, tmp_path, "pile.json"))
    assert replay_code == 0 and "reproduced" in text


@pytest.mark.infrastructure("diff's scope section: positions, states and completeness per scope")
def test_the_default_diff_explores_the_small_scope(heal_default: tuple[int, dict[str, Any], Path]) -> None:
    _, report, traces = heal_default
    (scope,) = report["scopes"]
    assert scope["scope"] == "small" and scope["positions"] > 0 and scope["states"] >= scope["positions"]
    assert scope["complete"] is False and scope["truncated_positions"] == []  # within the scope's 1-turn bound
    assert all("complete" in s for s in report["scenarios"])
    written = sorted(p.name for p in traces.iterdir())
    assert written and all(run("replay", str(traces / name))[0] == 0 for name in written[:6])


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_heal_to_owner_shows_its_difference_in_the_small_scope() -> None:
    # The proposal sends a healed character to its owner instead of its permanent controller: a scope
    # position where p1 owns a Hero p0 controls shows it; the embedded scenarios never do.
    code, text = run("diff", "default", str(REPO / "docs" / "proposals" / "heal-to-owner.toml"), "--allow-code",
                     "--json", "--quiet", "--no-smt")
    report = json.loads(text)
    assert code == 1
    (found,) = [c for c in report["classes"] if not c["follow_on"]]
    assert (found["kind"], found["action_kind"]) == ("changed", "heal")
    assert found["by_source"] == {"scope small": found["count"]}
    trace = found["shortest"]["trace"]
    card = trace["action"].split()[1]
    assert _territory_of(trace["b"]["state"], card) == _owner(trace, card)
    assert _territory_of(trace["a"]["state"], card) != _owner(trace, card)
