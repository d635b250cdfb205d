"""The refusal table: read from the model's source, it names catalogue clauses only, and every refusal the
model raises while exploring the scenarios (and every refusal vector of the suites) is one of its rows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardrules.oracle.conformance.formats.refusals import (
    Refusal, UnreadableRefusal, _rows_of, find_row, refusal_table, table_json, table_text,
)
from cardrules.specs.catalogue import default_catalogue

from .test_formats_support import explored, generated_suites

pytestmark = pytest.mark.infrastructure("the conformance formats for implementers")


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_every_row_names_clauses_of_its_game_and_a_readable_reason(game: str) -> None:
    of_game = {c.id for c in default_catalogue().select(game=game)}
    rows = refusal_table(game)
    assert len(rows) >= (15 if game == "fftcg" else 40)
    for row in rows:
        assert row.clauses and set(row.clauses) <= of_game, row
        assert row.reason and row.module.startswith(f"model/{game}/") and row.function
    assert len(table_json(game)["refusals"]) == len(rows)
    assert table_text(game).count("\n    reason: ") == len(rows)


@pytest.mark.clause("FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", "FF-BASE-BLOCK")
def test_the_fftcg_table_holds_the_refusals_of_the_rules_text() -> None:
    """Worked out from the rules: a finished game refuses everything (seven damage loses); a split whose
    shares are not in thousands breaks the party split rule; a dull Forward cannot block."""
    rows = refusal_table("fftcg")
    assert find_row("fftcg", "the game is over (player 1 won)", ("FF-BASE-SEVEN-DAMAGE-LOSES",)) is not None
    assert find_row("fftcg", "b1 is dull", ("FF-BASE-BLOCK",)) is not None
    assert find_row("fftcg", "b1 is dull", ("FF-PARTY-SPLIT-THOUSANDS",)) is None
    splits = [r for r in rows if r.clauses == ("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")]
    assert len(splits) == 1 and "multiples of" in splits[0].reason


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BASE-INITIATIVE", "RED-BASE-SPECIAL-INITIATIVE",
                    "RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE")
def test_clauses_chosen_by_a_condition_or_a_lookup_give_one_row_per_choice() -> None:
    rows = refusal_table("redemption")
    moment = [r for r in rows if r.function == "_wrong_moment" and "decision first" in r.reason]
    assert {r.clauses for r in moment} >= {("RED-BASE-BLOCKING",), ("RED-BASE-INITIATIVE",),
                                           ("RED-BASE-SPECIAL-INITIATIVE",)}
    assert all("PromptKind." in r.when for r in moment)
    healable = [r for r in rows if r.reason == "{action.target} is not healable"]
    assert {r.clauses for r in healable} == {("RED-HEAL-HEALABLE",), ("RED-HEAL-PREV-HEALABLE",)}


def test_a_refusal_whose_clauses_are_not_literal_is_reported_not_skipped() -> None:
    source = "def f(x, ids):\n    raise IllegalAction(x, 'no', compute(ids))\n"
    with pytest.raises(UnreadableRefusal, match="not literal"):
        list(_rows_of("fftcg", "model/fftcg/x.py", ast.parse(source)))
    helper = ("def _no(action, reason, *ids):\n    return IllegalAction(str(action), reason, tuple(ids))\n"
              "def g(a):\n    if a:\n        return _no(a, f'{a} is bad', 'FF-BASE-BLOCK')\n")
    assert list(_rows_of("fftcg", "m.py", ast.parse(helper))) == [
        Refusal("fftcg", "{a} is bad", ("FF-BASE-BLOCK",), "m.py", "g", "a", 5)]


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_every_refusal_met_exploring_the_scenarios_is_a_row_of_the_table(game: str) -> None:
    refusals = explored(game).refusals
    assert len(refusals) >= 8
    for (reason, clauses), action in refusals.items():
        assert find_row(game, reason, clauses) is not None, (action, reason, clauses)


def test_every_refusal_vector_of_the_suites_is_a_row_of_the_table(suites_dir: Path) -> None:
    checked = 0
    for suite in generated_suites(suites_dir):
        for vector in suite["vectors"]:
            if vector["kind"] == "refusal":
                refuse = vector["refuse"]
                row = find_row(suite["game"], refuse["reason"], tuple(refuse["clauses"]))
                in_force = set(suite["clauses_in_force"])
                assert row is not None or any(
                    set(r.clauses) & in_force == set(refuse["clauses"]) and r.pattern().fullmatch(refuse["reason"])
                    for r in refusal_table(suite["game"])), refuse
                checked += 1
    assert checked > 20
