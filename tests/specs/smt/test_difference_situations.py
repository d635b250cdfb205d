"""The listing of the z3 situation variables (``cardrules proposal situations``, the docs page) against the
situations the encoding actually builds."""

from __future__ import annotations

import json

import pytest

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.situation_docs import variable_rows
from cardrules.specs.smt.situations import SITUATIONS
from tests.cli import run, run_cli

pytestmark = pytest.mark.infrastructure("the listing of z3 situation variables a proposal's z3 module uses")


def test_the_listing_names_every_variable_of_every_situation_with_its_role_and_sort() -> None:
    run = run_cli("proposal", "situations", "--json")
    assert run.code == 0
    listed = json.loads(run.out)
    assert sorted(listed) == sorted(SITUATIONS)
    for area, build in SITUATIONS.items():
        situation = build(RuleSet())
        expected = [(str(v), str(v.sort()), "input") for v in situation.inputs]
        expected += [(str(v), str(v.sort()), "output") for v in situation.outputs]
        assert [(r["name"], r["sort"], r["role"]) for r in listed[area]] == expected
        assert all(r["meaning"] for r in listed[area])


def test_the_heal_listing_reads_the_codes_and_docstrings_of_the_encoding() -> None:
    run = run_cli("proposal", "situations", "--area", "heal")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0].startswith("heal: 41 variables")
    place = next(line for line in lines if "heal.place" in line)
    assert "input" in place and "Int" in place and "3 = discard pile" in place
    destination = next(line for line in lines if "heal.destination" in line)
    assert "output" in destination and "territory" in destination
    names = {row.name for row in variable_rows("heal")}
    assert {"heal.healed", "heal.owner", "heal.permanent_controller"} <= names


def test_an_unknown_area_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as usage:
        run("proposal", "situations", "--area", "nowhere")
    assert usage.value.code == 2
    assert "invalid choice: 'nowhere'" in capsys.readouterr().err
