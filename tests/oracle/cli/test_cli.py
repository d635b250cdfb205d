"""The cardrules CLI: trace and clauses, their JSON shapes, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cardrules.specs.catalogue import default_catalogue

from tests.cli import run
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the command line: options, exit codes, output formats")


def cardrules(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardrules.oracle.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_trace_json_lists_every_clause_with_the_documented_shape(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_linked.py").write_text(
        "import pytest\n\n@pytest.mark.clause('RED-HEAL-PURPOSE', 'FF-PARTY-MIN-TWO')\ndef test_linked():\n    pass\n"
    )
    result = cardrules("trace", "--json", "--tests", str(tests))
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [r["id"] for r in rows] == [c.id for c in default_catalogue().clauses]
    for row in rows:
        assert {"id", "area", "kind", "versions", "source", "statement", "links"} <= set(row)
        assert set(row["links"]) == {"model", "smt", "properties", "tests"}
        assert all(isinstance(v, list) for v in row["links"].values())
    by_id = {r["id"]: r for r in rows}
    assert by_id["RED-HEAL-PURPOSE"]["links"]["tests"] == ["tests/test_linked.py::test_linked"]
    assert by_id["FF-PARTY-MIN-TWO"]["links"]["tests"] == ["tests/test_linked.py::test_linked"]
    assert by_id["RED-HEAL-PURPOSE"]["versions"] == ["revised", "previous"]
    assert by_id["RED-HEAL-PURPOSE"]["source"].startswith("001_92da00567fb1a1bd.txt, Heal (revised)")


def test_trace_collects_this_suite_by_default(tmp_path: Path) -> None:
    # run from elsewhere: the checkout's tests must still be found and importable
    result = cardrules("trace", "--json", "--area", "heal", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows and all(r["area"] == "heal" for r in rows)


def test_trace_human_table_marks_gaps(tmp_path: Path) -> None:
    code, out = run("trace", "--no-tests", "--area", "heal")
    assert code == 0
    assert "GAP" in out  # no test is linked when tests are not collected
    assert "missing links:" in out and "tests 30" in out


def test_trace_strict_fails_on_gaps() -> None:
    code, _ = run("trace", "--no-tests", "--strict", "--area", "heal")
    assert code == 1


def test_clauses_lists_filters_and_shows_one() -> None:
    code, out = run("clauses", "--area", "heal", "--version", "previous")
    assert code == 0
    assert "RED-HEAL-PREV-TO-OWNER" in out and "RED-HEAL-TO-PERMANENT-CONTROLLER" not in out
    code, out = run("clauses", "RED-HEAL-TO-PERMANENT-CONTROLLER")
    assert code == 0
    assert "decision redline-destination" in out and "* permanent-control-new" in out
    code, out = run("clauses", "--json", "--kind", "special-condition", "--area", "heal")
    assert {c["id"] for c in json.loads(out)} == {"RED-HEAL-CHARACTER-TC", "RED-HEAL-PREV-SEARCH"}


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["clauses", "RED-HEAL-NOPE"], 3, "no clause 'RED-HEAL-NOPE'"),
        (["clauses", "--area", "healing"], 3, "unknown area 'healing'"),
        (["clauses", "--game", "chess"], 3, "unknown game 'chess'"),
        (["trace", "--tests", "/nonexistent/tests"], 3, "not a directory"),
        (["--catalogue", "/nonexistent", "clauses"], 3, "sources.toml: not found"),
        (["frobnicate"], 2, "invalid choice"),
        (["clauses", "--kind", "law"], 2, "invalid choice"),
    ],
)
def test_errors_are_one_line_with_the_right_exit_code(args: list[str], code: int, message: str) -> None:
    result = cardrules(*args)
    assert result.returncode == code
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_catalogue_is_reported_by_file_clause_and_field(tmp_path: Path) -> None:
    shipped = default_catalogue()
    source_dir = REPO / "specs" / "clauses"
    for path in source_dir.glob("*.toml"):
        (tmp_path / path.name).write_text(path.read_text())
    heal = tmp_path / "heal.toml"
    heal.write_text(heal.read_text().replace('id = "RED-HEAL-INSTANT"\ntitle', 'id = "RED-HEAL-INSTANT"\nkind2 = 1\ntitle', 1))
    result = cardrules("--catalogue", str(tmp_path), "clauses")
    assert result.returncode == 3
    assert result.stderr.strip() == "cardrules: catalogue error: heal.toml: RED-HEAL-INSTANT: kind2: unknown field (see specs/clauses/FORMAT.md)"
    assert shipped.clause("RED-HEAL-INSTANT")


@pytest.mark.parametrize("command", [[], ["trace"], ["clauses"]])
def test_help_everywhere(command: list[str]) -> None:
    result = cardrules(*command, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: cardrules")
