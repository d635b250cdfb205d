"""Command-line input that used to run without end or answer the wrong question."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import run
from tests.paths import REPO


@pytest.mark.infrastructure("the command line's limits and input errors")
@pytest.mark.parametrize("args", [
    ("explore", "fftcg-party-basics", "--max-turns", str(10**30)),
    ("explore", "fftcg-party-basics", "--max-states", "50000001"),
    ("explore", "fftcg-party-basics", "--max-depth", "10001"),
    ("verify", "--examples", str(10**30)),
    ("verify", "--examples", "9" * 5000),
    ("smt", "crosscheck", "--states", str(10**30)),
    ("smt", "bmc", "--property", "party-min-two", "--depth", str(10**30)),
])
def test_every_numeric_option_has_a_maximum(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as usage:
        run(*args)
    assert usage.value.code == 2
    err = capsys.readouterr().err
    assert "maximum" in err or "too long" in err


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_max_states_one_explores_exactly_the_start() -> None:
    code, text = run("explore", "fftcg-party-basics", "--max-states", "1", "--quiet", "--json")
    summary = json.loads(text)
    assert summary["states"] == 1 and summary["complete"] is False


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_an_empty_clause_id_is_not_a_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("clauses", "")[0] == 3
    assert "no clause ''" in capsys.readouterr().err


@pytest.mark.clause("FF-PARTY-MIN-TWO")
def test_a_clause_outside_the_filters_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("clauses", "FF-PARTY-MIN-TWO", "--game", "redemption")[0] == 3
    assert "does not match the filters" in capsys.readouterr().err
    assert run("clauses", "FF-PARTY-MIN-TWO", "--game", "fftcg")[0] == 0


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_verify_that_selects_nothing_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("verify", "--scenario", "redemption-plain-battle", "--engine", "smt", "--quiet")
    assert code == 3
    assert "nothing was checked" in capsys.readouterr().err
    code, _ = run("verify", "--scenario", "redemption-plain-battle", "--decision",
                  "party-zero-share=each-hit-if-possible", "--quiet")
    assert code == 3


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_trace_with_a_catalogue_missing_an_area_is_an_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    source = REPO / "specs" / "clauses"
    for file in source.glob("*.toml"):
        if file.name != "redirect.toml":
            shutil.copy(file, tmp_path / file.name)
    assert run("--catalogue", str(tmp_path), "trace", "--no-tests")[0] == 3
    err = capsys.readouterr().err
    assert "link to clauses this catalogue does not have" in err and "RED-RD-" in err


def _user_scenario(tmp_path: Path, **changes: object) -> Path:
    source = REPO / "properties" / "scenarios" / "fftcg-party-basics.json"
    data = json.loads(source.read_text())
    data.update(changes)
    path = tmp_path / "my-party.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_a_users_scenario_file_is_verified_explored_and_diffed(tmp_path) -> None:
    path = _user_scenario(tmp_path, name="my-party")
    code, text = run("verify", "--scenario-file", str(path), "--engine", "explore", "--no-mutants", "--quiet")
    assert code == 0 and "my-party" in text and "fftcg-party-basics" not in text
    code, text = run("explore", "--scenario-file", str(path), "--quiet")
    assert code == 0 and text.startswith("my-party / default:")
    code, text = run("diff", "default", "party-blocker-power-remainder=remainder-to-one", "--scenario-file", str(path),
                     "--no-smt")
    assert code == 1 and "my-party: " in text


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_a_mutant_expecting_an_unknown_property_is_bad_input(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _user_scenario(tmp_path, name="my-party", mutants=[
        {"name": "broken", "broken": ["party-split-in-hundreds"], "expect_violated": ["no-such-property"]}])
    assert run("verify", "--scenario-file", str(path), "--quiet")[0] == 3
    err = capsys.readouterr().err
    assert "my-party.json: mutant broken: expect_violated names 'no-such-property'" in err


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_a_rule_set_cannot_select_a_broken_variant(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    # broken variants are for mutants only: a scenario's rule set naming one is bad input
    path = _user_scenario(tmp_path, name="my-party", rule_sets=[{"name": "x", "broken": ["party-split-in-hundreds"]}])
    assert run("verify", "--scenario-file", str(path), "--quiet")[0] == 3
    assert "my-party.json: rule_sets[0].broken: unknown field" in capsys.readouterr().err
    # and a mutant naming another game's broken variant names it
    path = _user_scenario(tmp_path, name="my-party", mutants=[
        {"name": "m", "broken": ["two-side-battles-per-turn"], "expect_violated": ["party-min-two"]}])
    assert run("verify", "--scenario-file", str(path), "--quiet")[0] == 3
    assert "mutants[0].broken: unknown fftcg broken variant 'two-side-battles-per-turn'" in capsys.readouterr().err


@pytest.mark.infrastructure("the command line's limits and input errors")
def test_a_bad_users_file_is_an_error_about_that_file_only(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _user_scenario(tmp_path, name="my-party", bounds=[])
    assert run("verify", "--scenario-file", str(path), "--quiet")[0] == 3
    assert "my-party.json" in capsys.readouterr().err
    assert run("list", "scenarios")[0] == 0  # the embedded scenarios are unaffected


@pytest.mark.clause("RED-HEAL-PREV-HEALABLE")
def test_smt_refuses_decisions_it_does_not_read_or_of_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("smt", "consistency", "--area", "heal", "--version", "previous",
               "--decision", "redline-healable=both-old")[0] == 3
    assert "does not implement redline-healable=both-old" in capsys.readouterr().err
    assert run("smt", "vacuity", "--area", "heal", "--decision", "party-zero-share=each-hit-if-possible")[0] == 3
    assert "a fftcg decision; area heal is redemption" in capsys.readouterr().err
