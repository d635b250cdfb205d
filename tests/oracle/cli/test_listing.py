"""``cardrules list``: every listing as a table and as JSON; unknown names list the known ones."""

from __future__ import annotations

import json

import pytest
from cardrules.oracle.cli.listing import KINDS

from tests.cli import run


@pytest.mark.infrastructure("the listing commands' output")
@pytest.mark.parametrize("what", KINDS)
def test_every_listing_prints_a_header_and_valid_json(what: str) -> None:
    code, table = run("list", what)
    assert code == 0 and table.splitlines()[1].startswith("---")
    code, text = run("list", what, "--json")
    assert code == 0 and isinstance(json.loads(text), list) and json.loads(text)


@pytest.mark.clause("RED-SB-RESTRICT-AFTER", "RED-SB-NEGATE-CASCADE", "RED-SB-ONCE-PER-TURN")
def test_decisions_show_options_and_what_the_model_selects() -> None:
    _, text = run("list", "decisions", "--game", "redemption", "--json")
    decisions = {d["id"]: d for d in json.loads(text)}
    # the restriction after a side battle: blank the ability (chosen) or forbid the card; the model plays both
    scope = decisions["sb-restriction-scope"]
    assert scope["chosen"] == "ability-blanked" and scope["options"] == ["ability-blanked", "card-unplayable"]
    assert scope["model_selectable"] == ["ability-blanked", "card-unplayable"] and scope["rejected"] == []
    # undoing a negated side battle's resolution is a reading the model plays too
    assert decisions["sb-negate-resolution"]["model_selectable"] == ["keep-resolution", "undo-all"]
    # a reading recorded as the same play is not a variant the model selects
    assert decisions["sb-nested-battle-players"]["model_selectable"] == []
    # the seed says one side battle per turn: two is a rejected alternative (a broken variant), no option
    limit = decisions["sb-per-turn-limit"]
    assert (limit["options"], limit["model_selectable"], limit["rejected"]) == (["one"], [], ["two"])
    assert all(d["game"] == "redemption" for d in decisions.values())


@pytest.mark.infrastructure("the listing commands' output")
def test_scenarios_and_their_rule_sets_and_mutants() -> None:
    _, text = run("list", "rule-sets", "--scenario", "redemption-side-battles-3p", "--json")
    rows = json.loads(text)
    assert {r["scenario"] for r in rows} == {"redemption-side-battles-3p"}
    mutants = [r for r in rows if r["mutant"]]
    assert [m["name"] for m in mutants] == ["two-side-battles-per-turn"]
    assert mutants[0]["decisions"] == {} and mutants[0]["broken"] == ["two-side-battles-per-turn"]
    assert all(r["broken"] == [] for r in rows if not r["mutant"])


@pytest.mark.infrastructure("the listing commands' output")
def test_properties_say_which_have_a_z3_formula() -> None:
    _, text = run("list", "properties", "--game", "fftcg", "--json")
    props = {p["name"]: p for p in json.loads(text)}
    assert props["party-min-two"]["smt"] is True and "FF-PARTY-MIN-TWO" in props["party-min-two"]["clause_ids"]
    assert props["forwards-conserved"]["smt"] is False
    assert props["damage-in-thousands"]["kind"] == "smt"  # a property stated only in z3


@pytest.mark.infrastructure("the listing commands' output")
def test_unknown_names_list_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("list", "scenarios", "--game", "chess")[0] == 3
    assert "known: fftcg, redemption" in capsys.readouterr().err
    assert run("list", "rule-sets", "--scenario", "nope")[0] == 3
    assert "fftcg-party-basics" in capsys.readouterr().err
