"""Comparisons per clause: what the cross-check counts, what ``trace`` shows and ``trace --strict``
refuses, and that a state the encoding does not cover is a failure, not a skipped state.

Expected values by hand: an FFTCG position in Attack Declaration with no attack in progress
where the turn player can only end the turn or attack; an attack declaration is built by the
z3 function tagged FF-PARTY-FORM-DECLARATION (``specs.smt.fftcg.actions.declare_attack``), so
every comparison of a declaration counts for it, and a comparison of ending the turn
(FF-BASE-END-OF-TURN) never does.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cardrules.model.fftcg.actions import DeclareAttack, EndTurn
from cardrules.model.fftcg.config import DEFAULT
from cardrules.model.fftcg.engine import legal_actions
from cardrules.model.fftcg.state import Attack, State, Step
from cardrules.model.fftcg.validate import load_state
from cardrules.oracle.crosscheck.counts import COUNTS_PATH, load_counts
from cardrules.oracle.crosscheck.fftcg import crosscheck_many
from cardrules.properties.scenarios import load_scenarios
from cardrules.specs.catalogue import CATALOGUE_DIR, load

from tests.cli import run


def _root() -> State:
    scenario = next(s for s in load_scenarios() if s.name == "fftcg-preemptive-blocker-survives")
    return load_state(scenario.state)


@pytest.mark.clause("FF-PARTY-FORM-DECLARATION", "FF-BASE-END-OF-TURN")
def test_each_compared_pair_counts_for_the_clauses_of_its_action_kind() -> None:
    root = _root()
    legal = legal_actions(root, DEFAULT)
    declarations = [a for a in legal if isinstance(a, DeclareAttack)]
    assert declarations and EndTurn() in legal
    report = crosscheck_many([root], DEFAULT)
    assert report.disagreements == [] and report.out_of_scope == []
    # one comparison per legal action; each declaration counts for the declaration clauses
    assert report.clauses["FF-PARTY-FORM-DECLARATION"] == len(declarations)
    assert report.clauses["FF-BASE-END-OF-TURN"] == 1  # only the end-of-turn pair builds that constraint


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_a_state_the_encoding_does_not_cover_is_a_failure_with_a_message(tmp_path: Path) -> None:
    # an attack in progress in Attack Preparation: no rule lets an attack be in progress there
    # (the mutant that declared attacks in the wrong step), so the state is out of scope
    root = _root()
    bad = State(players=root.players, turn_player=0, step=Step.PREPARATION, turn=root.turn,
                attack=Attack(attackers=("a1",), party=False, declared=("a1",), declared_preemptive=False),
                attacked=frozenset({"a1"}), events=(), outcome=None)
    report = crosscheck_many([bad], DEFAULT)
    assert report.states == 0 and len(report.out_of_scope) == 1
    assert "not settled" in report.out_of_scope[0] or "invariant" in report.out_of_scope[0]
    # a rule set the battle fragment's encoding does not read: not compared is a failure (exit 1), not a note
    result = subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", "smt", "crosscheck", "--quiet", "--game",
                             "redemption", "--scenario", "redemption-plain-battle", "--decision", "sb-restriction-scope=card-unplayable",
                             "--states", "3"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "NOT COMPARED: the encoding does not read decision 'sb-restriction-scope'" in result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.clause("RED-HEAL-WINDOW")
def test_trace_strict_passes_on_the_shipped_catalogue() -> None:
    result = subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", "trace", "--strict"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert " 0 never compared" in result.stdout


def _catalogue_without_heal_excuse(tmp_path: Path) -> Path:
    """A copy of the catalogue with RED-HEAL-PURPOSE's crosscheck excuse removed."""
    copy = tmp_path / "clauses"
    shutil.copytree(CATALOGUE_DIR, copy)
    heal = copy / "heal.toml"
    text = heal.read_text()
    key = 'id = "RED-HEAL-PURPOSE"\n'
    start = text.index(key) + len(key)
    assert text[start:].startswith("crosscheck_excuse = ")
    end = text.index("\n", start) + 1
    heal.write_text(text[:start] + text[end:])
    return copy


@pytest.mark.clause("RED-HEAL-PURPOSE")
def test_trace_strict_fails_and_lists_the_clause_when_its_excuse_is_removed(tmp_path: Path) -> None:
    catalogue = _catalogue_without_heal_excuse(tmp_path)
    assert load(catalogue).clause("RED-HEAL-PURPOSE").crosscheck_excuse == ""
    counts = load_counts()
    assert counts.get("RED-HEAL-PURPOSE", 0) == 0  # implied by the healable clauses: never decides alone
    shipped = subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", "trace", "--no-tests", "--strict",
                              "--area", "heal"], capture_output=True, text=True, timeout=300)
    assert "RED-HEAL-PURPOSE: encoded in z3 but compared 0 times" not in shipped.stderr
    result = subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", "--catalogue", str(catalogue), "trace",
                             "--no-tests", "--strict", "--area", "heal"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "RED-HEAL-PURPOSE: encoded in z3 but compared 0 times" in result.stderr
    assert " 0 never compared" not in result.stdout


@pytest.mark.clause("RED-HEAL-PURPOSE")
def test_an_excuse_must_say_why(tmp_path: Path) -> None:
    catalogue = _catalogue_without_heal_excuse(tmp_path)
    heal = catalogue / "heal.toml"
    text = heal.read_text()
    heal.write_text(text.replace('id = "RED-HEAL-PURPOSE"\n', 'id = "RED-HEAL-PURPOSE"\ncrosscheck_excuse = "n/a"\n', 1))
    code, _ = run("--catalogue", str(catalogue), "clauses")
    assert code == 3


@pytest.mark.clause("FF-BASE-PREEMPTIVE")
def test_the_checked_in_counts_are_current_for_a_scenario() -> None:
    """Regenerating one run of the counts file gives the counts it holds (``cardrules smt crosscheck
    --game all --states all --write-counts oracle/crosscheck/counts.json`` rewrites them all)."""
    data = json.loads(COUNTS_PATH.read_text())
    asked = data["command"].split("--states ")[1].split()[0] if "--states " in data["command"] else "all"
    label = "fftcg-preemptive-blocker-survives / default"
    stored = next(r for r in data["runs"] if r["run"].startswith(label))
    # this scenario's whole exploration is small (1,216 states): with a whole-exploration file, run it whole
    ask = "all" if asked == "all" else str(min(int(asked), 40))
    code, out = run("smt", "crosscheck", "--quiet", "--json", "--scenario", "fftcg-preemptive-blocker-survives",
                    "--states", ask)
    assert code == 0
    fresh = next(r for r in json.loads(out) if "run" in r and r["run"].startswith(label))
    if ask == asked:
        assert fresh["states"] == stored["states"] and fresh["clauses"] == stored["clauses"]
    else:  # a prefix of the exploration: never more comparisons than the file's run
        assert set(fresh["clauses"]) <= set(stored["clauses"])
        assert all(fresh["clauses"][c] <= stored["clauses"][c] for c in fresh["clauses"])
