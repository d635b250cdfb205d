"""``cardrules trace`` and tests that name no clause: each either names its clauses
(``@pytest.mark.clause``) or says why it checks none (``@pytest.mark.infrastructure``);
``trace --strict`` fails on one that does neither, and names it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.infrastructure("the traceability report's test links")

TESTS = '''
import pytest


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_names_a_clause():
    pass


@pytest.mark.infrastructure("parses a file")
def test_says_why_not():
    pass


def test_says_nothing():
    pass
'''


def _trace(tests_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", "trace", "--area", "party",
                           "--tests", str(tests_dir), *extra], capture_output=True, text=True, timeout=300)


def _tests_dir(tmp_path: Path, text: str, name: str = "test_sample") -> Path:
    tests_dir = tmp_path / "tests"
    tests_dir.mkdir()
    (tests_dir / f"{name}.py").write_text(text)
    return tests_dir


def test_strict_fails_on_a_test_naming_no_clause_and_giving_no_reason(tmp_path: Path) -> None:
    result = _trace(_tests_dir(tmp_path, TESTS), "--strict")
    assert result.returncode == 1, result.stderr
    unexplained = [line for line in result.stderr.splitlines() if "names no clause" in line]
    assert len(unexplained) == 1 and "test_sample.py::test_says_nothing" in unexplained[0]
    assert "1 test(s) name no clause and give no reason" in result.stdout
    assert "Traceback" not in result.stderr


EXPLAINED = TESTS.replace("def test_says_nothing", "@pytest.mark.infrastructure(reason='a helper')\ndef test_says_nothing")


@pytest.mark.parametrize("text, code", [(TESTS, 1), (EXPLAINED, 0)], ids=["one-unexplained", "all-explained"])
def test_the_unexplained_test_alone_decides_the_strict_exit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            text: str, code: int) -> None:
    """With no clause gap (the matrix emptied), ``--strict`` exits 1 only for the test that says nothing;
    the reason may be given as ``reason=``, as pytest's own markers take it."""
    import io

    from cardrules.oracle import cli
    from cardrules.oracle.trace import matrix as trace

    monkeypatch.setattr(trace, "build_matrix", lambda *args, **kwargs: [])
    # collected in this process: a module name of its own, so no earlier collection's module is reused
    tests_dir = _tests_dir(tmp_path, text, name=f"test_sample_{code}")
    assert cli.main(["trace", "--strict", "--area", "party", "--tests", str(tests_dir)], out=io.StringIO()) == code


def test_without_strict_the_count_is_shown_and_the_exit_is_0(tmp_path: Path) -> None:
    result = _trace(_tests_dir(tmp_path, TESTS))
    assert result.returncode == 0, result.stderr
    assert "1 test(s) name no clause and give no reason" in result.stdout


def test_an_infrastructure_marker_without_a_reason_is_bad_input(tmp_path: Path) -> None:
    text = TESTS.replace('@pytest.mark.infrastructure("parses a file")', "@pytest.mark.infrastructure()")
    result = _trace(_tests_dir(tmp_path, text))
    assert result.returncode == 3
    assert "test_says_why_not" in result.stderr and "takes one reason string" in result.stderr
    assert "Traceback" not in result.stderr
