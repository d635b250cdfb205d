"""The traceability registry: links recorded, unknown IDs rejected at import or collection."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardrules.specs.catalogue.registry import UnknownClauseError, clauses_of, implements, links

pytestmark = pytest.mark.infrastructure("the registry linking code to clause IDs")


def _function_in(module: str):  # a function that looks as if it lived in ``module``
    def rule() -> None:
        """A stand-in rule function."""

    rule.__module__ = module
    return rule


def test_implements_records_a_model_link_and_marks_the_function() -> None:
    rule = implements("RED-HEAL-PURPOSE", "RED-HEAL-INSTANT")(_function_in("cardrules.model.registry_test_stub"))
    assert clauses_of(rule) == ("RED-HEAL-PURPOSE", "RED-HEAL-INSTANT")
    mine = {(l.clause_id, l.kind) for l in links() if l.target.startswith("cardrules.model.registry_test_stub.")}
    assert mine == {("RED-HEAL-PURPOSE", "model"), ("RED-HEAL-INSTANT", "model")}


def test_link_kind_follows_the_package() -> None:
    implements("RED-HEAL-PURPOSE")(_function_in("cardrules.specs.smt_registry_test_stub"))
    implements("RED-HEAL-PURPOSE")(_function_in("cardrules.properties.registry_test_stub"))
    kinds = {l.target.split(".")[1]: l.kind for l in links() if "registry_test_stub" in l.target}
    assert kinds["specs"] == "smt"
    assert kinds["properties"] == "properties"


def test_unknown_clause_id_is_an_error_when_decorating() -> None:
    with pytest.raises(UnknownClauseError, match=r"unknown clause ID\(s\) RED-HEAL-NOPE"):
        implements("RED-HEAL-PURPOSE", "RED-HEAL-NOPE")(_function_in("cardrules.model.registry_test_stub"))


def test_no_clause_id_is_an_error() -> None:
    with pytest.raises(UnknownClauseError, match="names no clause ID"):
        implements()(_function_in("cardrules.model.registry_test_stub"))


def test_implements_outside_linked_packages_is_an_error() -> None:
    with pytest.raises(UnknownClauseError, match="tests use @pytest.mark.clause"):
        implements("RED-HEAL-PURPOSE")(_function_in("cardrules.oracle.cli"))


def test_unknown_id_on_a_test_marker_stops_collection(tmp_path: Path) -> None:
    test_file = tmp_path / "test_bad_marker.py"
    test_file.write_text(
        "import pytest\n\n@pytest.mark.clause('RED-HEAL-NOT-A-CLAUSE')\ndef test_x():\n    pass\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "test_bad_marker.py::test_x: unknown clause ID(s) RED-HEAL-NOT-A-CLAUSE" in result.stdout + result.stderr


def test_clause_report_counts_outcomes_per_clause_in_a_users_project(tmp_path: Path) -> None:
    """The plugin comes through the pytest11 entry point: no -p option, no conftest."""
    (tmp_path / "test_user.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.clause('FF-PARTY-MIN-TWO')\ndef test_ok():\n    pass\n\n"
        "@pytest.mark.clause('FF-PARTY-MIN-TWO', 'RED-SB-ONCE-PER-TURN')\ndef test_bad():\n    assert False\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cardrules-clauses", "test_user.py"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == pytest.ExitCode.TESTS_FAILED
    lines = result.stdout.splitlines()
    assert any(line.split() == ["FF-PARTY-MIN-TWO", "1", "1", "0"] for line in lines)
    assert any(line.split() == ["RED-SB-ONCE-PER-TURN", "0", "1", "0"] for line in lines)
    assert "failing: FF-PARTY-MIN-TWO, RED-SB-ONCE-PER-TURN" in result.stdout
