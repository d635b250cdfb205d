"""The split-in-500s proposal (``docs/proposals/split-in-500s.toml``): a blocker divides its damage among
a party in steps of 500 through the ``blocker-split-unit`` extension point, and ``cardrules diff`` shows
what that changes.

Expected values by hand. Scenario fftcg-blocker-of-5500: a party of 3000 (a1) and 2500 (a2) blocked by
a 5500 Forward. Today (FF-PARTY-SPLIT-THOUSANDS, party-blocker-power-remainder = floor) the blocker
divides 5000 in thousands, six ways, and the 500 left reaches no one; so 3000/2000 is legal and
3000/2500 is not, and no split breaks both members (that needs 3000 + 2500 = 5500). In steps of 500
the whole 5500 is divided, twelve ways: 3000/2500 becomes legal (relaxed), breaking both members
(FF-BASE-BREAK-DAMAGE), and every split totalling 5000 is refused (tightened).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cardrules.model.fftcg.actions import parse_action
from cardrules.model.fftcg.config import DEFAULT
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import State
from cardrules.model.fftcg.validate import load_state
from cardrules.oracle.rulechange.proposals import load_proposal
from cardrules.properties.scenarios import load_scenarios

from tests.cli import run
from tests.paths import REPO

PROPOSAL = REPO / "docs" / "proposals" / "split-in-500s.toml"
pytestmark = pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")


def _shares(action: str) -> list[int]:
    return [int(word.split("=")[1]) for word in action.split()[1:]]


def _blocked() -> State:
    scenario = next(s for s in load_scenarios() if s.name == "fftcg-blocker-of-5500")
    state = load_state(scenario.state)
    for text in ("attack a1 a2", "pass", "block b1", "pass"):
        state = step(state, parse_action(text), DEFAULT)
    return state


def test_the_proposal_is_valid_and_answers_the_split_unit_point(capsys: pytest.CaptureFixture[str]) -> None:
    proposal = load_proposal(PROPOSAL, allow_code=True)
    assert [name for name, _ in proposal.hooks] == ["blocker-split-unit"]
    code, text = run("proposal", "check", str(PROPOSAL), "--allow-code")
    assert code == 0 and "blocker-split-unit" in text and "FF-PARTY-SPLIT-THOUSANDS" in text
    assert run("proposal", "check", str(PROPOSAL))[0] == 3  # code runs only when allowed
    assert "--allow-code" in capsys.readouterr().err


def test_under_the_proposal_a_5500_blocker_can_break_both_members() -> None:
    config = replace(DEFAULT, hooks=load_proposal(PROPOSAL, allow_code=True).hooks)
    state = _blocked()
    today = [str(a) for a in legal_actions(state, DEFAULT) if str(a).startswith("split")]
    proposed = [str(a) for a in legal_actions(state, config) if str(a).startswith("split")]
    assert len(today) == 6 and {sum(_shares(a)) for a in today} == {5000}
    assert len(proposed) == 12 and {sum(_shares(a)) for a in proposed} == {5500}
    assert all(share % 500 == 0 for a in proposed for share in _shares(a))
    after = step(state, parse_action("split a1=3000 a2=2500"), config)
    assert sorted(f.id for f in after.players[0].break_zone) == ["a1", "a2"]
    assert [f.id for f in after.players[1].break_zone] == ["b1"]


def test_diff_shows_the_split_relaxed_and_tightened(tmp_path: Path) -> None:
    code, text = run("diff", "default", str(PROPOSAL), "--allow-code", "--no-smt", "--scenario",
                     "fftcg-blocker-of-5500", "--json", "--traces", str(tmp_path))
    report = json.loads(text)
    assert code == 1 and report["differs"]
    assert set(report["clauses_touched"]) == {"FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT"}
    (scenario,) = report["scenarios"]
    traces = {t["kind"]: t for t in scenario["traces"]}
    assert set(traces) == {"relaxed", "tightened"}
    for kind, total, legal in (("relaxed", 5500, (False, True)), ("tightened", 5000, (True, False))):
        trace = traces[kind]
        assert [s["action"] for s in trace["steps"]] == ["attack a1 a2", "pass", "block b1", "pass"]
        assert trace["action"].startswith("split ") and sum(_shares(trace["action"])) == total
        assert (trace["a"]["legal"], trace["b"]["legal"]) == legal
