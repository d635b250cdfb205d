"""``cardrules conformance schema``: the suite schema as before, and with ``--game`` each part of a game's
formats; an unknown game, part or format is bad input (exit 3, one line)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from cardrules.oracle.conformance.schema import schema_text
from tests.cli import run_cli

pytestmark = pytest.mark.infrastructure("the conformance formats for implementers")


def test_without_a_game_it_prints_the_suite_schema_as_shipped() -> None:
    result = run_cli("conformance", "schema")
    assert result.code == 0 and result.out == schema_text()


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_each_schema_part_is_a_json_schema_of_that_game(game: str) -> None:
    for part in ("states", "events", "vectors"):
        result = run_cli("conformance", "schema", "--game", game, "--part", part)
        assert result.code == 0, result.err
        schema = json.loads(result.out)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert game in schema["$id"]
    default = run_cli("conformance", "schema", "--game", game)
    assert json.loads(default.out)["properties"]["game"] == {"const": game}


def test_the_grammar_and_the_refusal_table_print_as_text_or_json() -> None:
    grammar = run_cli("conformance", "schema", "--game", "fftcg", "--part", "actions")
    assert grammar.code == 0 and 'split    = "split" share { share } (* distinct, sorted *)' in grammar.out
    data = json.loads(run_cli("conformance", "schema", "--game", "fftcg", "--part", "actions", "--format", "json").out)
    assert "split a1=3000" in data["examples"] and data["ebnf"] == grammar.out
    table = run_cli("conformance", "schema", "--game", "redemption", "--part", "refusals")
    assert table.code == 0 and "RED-BASE-WIN-FIVE-SOULS\n    reason: the game is over (player {state.winner} won)" in table.out
    rows = json.loads(run_cli("conformance", "schema", "--game", "redemption", "--part", "refusals",
                              "--format", "json").out)["refusals"]
    assert {"reason", "clauses", "module", "function", "when"} == set(rows[0])


@pytest.mark.parametrize("argv, named", [
    (("--game", "chess"), "unknown game 'chess'"),
    (("--game", "fftcg", "--part", "moves"), "unknown part 'moves'"),
    (("--game", "fftcg", "--part", "refusals", "--format", "yaml"), "unknown format 'yaml'"),
    (("--game", "fftcg", "--part", "states", "--format", "text"), "prints as json only"),
    (("--part", "states"), "give --game too"),
])
def test_bad_arguments_exit_3_with_one_line(argv: tuple[str, ...], named: str) -> None:
    result = run_cli("conformance", "schema", *argv)
    assert result.code == 3 and result.out == ""
    assert named in result.err and result.err.count("\n") == 1 and "Traceback" not in result.err
