"""``cardrules diff`` never gives a reassuring wrong answer: a proposal with nothing executable behind it,
an option the model cannot select, a truncated exploration, and a changed clause z3 does not encode are
each said, with an exit status that is never 0 for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardrules.model.fftcg.config as fftcg_config
import cardrules.model.redemption.config as redemption_config
from tests.cli import run_cli

pytestmark = pytest.mark.infrastructure("diff verdicts: text-only proposals, selectable options, bounds, z3 lines")

HEAD = 'format = "cardrules-proposal/1"\nid = "p"\ntitle = "t"\n'
PLAIN = ("--scenario", "redemption-plain-battle", "--quiet")
"""A small Redemption scenario (a few hundred states, well under a second)."""


def proposal(tmp_path: Path, body: str, name: str = "p.toml") -> str:
    path = tmp_path / name
    path.write_text(HEAD + body)
    return str(path)


TEXT_ONLY = ('game = "fftcg"\n[[clauses.changed]]\nid = "FF-PARTY-SPLIT-THOUSANDS"\n'
             'statement = "A blocker divides damage in increments of 500."\n')


def test_a_text_only_proposal_is_not_executable_and_undecided(tmp_path: Path) -> None:
    path = proposal(tmp_path, TEXT_ONLY)
    run = run_cli("diff", "default", path, "--scenario", "fftcg-party-basics", "--quiet")
    assert run.code == 4
    assert ("not executable: clauses FF-PARTY-SPLIT-THOUSANDS change in text only; nothing in play was compared"
            in run.out)
    assert "no difference found" not in run.out
    report = json.loads(run_cli("diff", "default", path, "--scenario", "fftcg-party-basics", "--quiet",
                                "--json").out)
    assert report["executable"] is False and report["text_only_clauses"] == ["FF-PARTY-SPLIT-THOUSANDS"]
    assert report["verdict"].startswith("not executable")


def test_proposal_check_warns_about_text_only_clauses(tmp_path: Path) -> None:
    path = proposal(tmp_path, TEXT_ONLY)
    run = run_cli("proposal", "check", path)
    assert run.code == 0 and "valid cardrules-proposal/1" in run.out
    assert "warning" in run.err and "FF-PARTY-SPLIT-THOUSANDS change in text only" in run.err
    run = run_cli("proposal", "check", path, "--json")
    assert run.code == 0 and json.loads(run.out)["text_only_clauses"] == ["FF-PARTY-SPLIT-THOUSANDS"]


MIXED = ('game = "redemption"\n[decisions]\nbr-discard-which = "losing-side-only"\n'
         '[[clauses.changed]]\nid = "RED-BR-STEP4-DISCARD-RETURN"\nstatement = "Only the losing side is discarded."\n'
         '[[clauses.changed]]\nid = "RED-BR-FOUR-OUTCOMES"\nstatement = "Reworded, nothing behind it."\n')


def test_a_mixed_proposal_is_diffed_and_lists_its_text_only_clause(tmp_path: Path) -> None:
    path = proposal(tmp_path, MIXED)
    run = run_cli("diff", "default", path, *PLAIN, "--no-smt")
    assert run.code == 0, run.out  # the decision is explored (this scenario shows no difference); not refused
    assert "changed in text only (not compared in play): RED-BR-FOUR-OUTCOMES\n" in run.out
    assert "redemption-plain-battle: no difference found (complete within the turn bound" in run.out
    check = run_cli("proposal", "check", path, "--json")
    assert check.code == 0 and json.loads(check.out)["text_only_clauses"] == ["RED-BR-FOUR-OUTCOMES"]


@pytest.mark.parametrize(("game", "decision", "option"), [
    ("redemption", "sb-initiated-when", "negation-restores"),
    ("fftcg", "ff-step-passing", "alternating-priority"),
])
def test_an_option_the_model_cannot_select_is_refused_by_check_and_diff_alike(
        tmp_path: Path, game: str, decision: str, option: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # both readings are selectable today: pretend each is recorded only
    monkeypatch.setattr(fftcg_config, "UNMODELLED_OPTIONS", frozenset({("ff-step-passing", "alternating-priority")}))
    monkeypatch.setattr(redemption_config, "MODELLED", {
        k: v for k, v in redemption_config.MODELLED.items() if k != "sb-initiated-when"})
    path = proposal(tmp_path, f'game = "{game}"\n[decisions]\n{decision} = "{option}"\n')
    says = f"decision {decision}: option '{option}' is recorded but not selectable in the model"
    for argv in (("proposal", "check", path), ("diff", "default", path, "--no-smt", "--quiet"),
                 ("diff", "default", f"{decision}={option}", "--no-smt", "--quiet")):
        run = run_cli(*argv)
        assert run.code == 3, argv
        assert says in run.err and "Traceback" not in run.err and len(run.err.strip().splitlines()) == 1


def test_a_truncated_run_with_no_difference_is_undecided_and_names_the_bound() -> None:
    run = run_cli("diff", "default", "br-discard-which=defeated-characters", *PLAIN, "--no-smt", "--max-states", "20")
    assert run.code == 4
    assert ("no difference found in what was explored; truncated at 20 states in scenario redemption-plain-battle"
            in run.out)
    assert "bounds: max 20 states, depth unbounded, 2 turn(s)" in run.out
    report = json.loads(run_cli("diff", "default", "br-discard-which=defeated-characters", *PLAIN, "--no-smt",
                                "--max-states", "20", "--json").out)
    (scenario,) = report["scenarios"]
    assert scenario["truncated"] and not scenario["complete"] and report["truncated"]
    assert scenario["bounds"] == {"max_states": 20, "max_depth": None, "max_turns": 2}
    assert scenario["exploration"].startswith("truncated at 20 states by the state bound")


def test_a_complete_run_with_no_difference_passes_and_prints_its_bounds() -> None:
    run = run_cli("diff", "default", "br-discard-which=defeated-characters", *PLAIN, "--no-smt")
    assert run.code == 0
    assert "no difference found (complete within the turn bound (2 turn(s))" in run.out
    assert "bounds: max 100,000 states, depth unbounded, 2 turn(s)" in run.out
    report = json.loads(run_cli("diff", "default", "br-discard-which=defeated-characters", *PLAIN, "--no-smt",
                                "--json").out)
    (scenario,) = report["scenarios"]
    assert (scenario["complete"], scenario["turn_bounded"], scenario["truncated"]) == (False, True, False)
    assert scenario["bounds"]["max_turns"] == 2 and not report["truncated"]


def test_a_changed_clause_without_a_z3_constraint_is_not_encoded(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import cardrules.specs.smt.situations as situations

    # only the battle-resolution area's z3 situation, to keep the test short
    monkeypatch.setattr(situations, "SITUATIONS", {"battle-resolution": situations.SITUATIONS["battle-resolution"]})
    path = proposal(tmp_path, MIXED)
    report = json.loads(run_cli("diff", "default", path, *PLAIN, "--json").out)
    entries = {(e["area"], e["rule_set"]): e for e in report["smt"]}
    under_b = entries[("battle-resolution", "B")]
    assert under_b["verdict"] == "not-encoded" and "RED-BR-FOUR-OUTCOMES" in under_b["reason"]
    assert entries[("battle-resolution", "A")]["verdict"] != "not-encoded"
    assert report["smt_note"] == ""


def test_an_fftcg_change_gets_a_z3_line(tmp_path: Path) -> None:
    body = ('game = "fftcg"\n[decisions]\nparty-zero-share = "each-hit-if-possible"\n'
            '[[clauses.changed]]\nid = "FF-PARTY-SPLIT-THOUSANDS"\nstatement = "Each member is hit if possible."\n')
    run = run_cli("diff", "default", proposal(tmp_path, body), "--scenario", "fftcg-party-basics", "--quiet",
                  "--max-states", "50")
    assert "smt party under B: not-encoded (area party has no z3 encoding; the proposal changes " \
           "FF-PARTY-SPLIT-THOUSANDS)" in run.out
    assert "smt: no z3 area for this change" in run.out
    assert run.code in (1, 4)  # a difference within 50 states, or undecided: never a pass


def test_a_changed_clause_whose_code_never_ran_is_named() -> None:
    from tests.paths import REPO

    # no healing in the plain battle: the heal-to-owner hook and the clauses it answers never run
    run = run_cli("diff", "default", str(REPO / "docs" / "proposals" / "heal-to-owner.toml"), "--allow-code",
                  *PLAIN, "--no-smt")
    assert ("changed but never exercised (their code never ran in the exploration): RED-HEAL-PREV-TO-OWNER, "
            "RED-HEAL-TO-PERMANENT-CONTROLLER") in run.out
