"""Suite files, manifests and the JUnit output as a careless or hostile user gives them: each a clean
error with exit 3 naming the file and the place, never a traceback, a hang or a run of false failures."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.cli import run_cli

from .conftest import REFERENCE

pytestmark = pytest.mark.infrastructure("bad suite files, manifests and output paths are bad input (exit 3)")

ADAPTER = " ".join(REFERENCE)


def _run(*suite: str, extra: tuple[str, ...] = ()) -> Any:
    args = ["conformance", "run", "--quiet", "--adapter", ADAPTER, *extra]
    for path in suite:
        args += ["--suite", path]
    return run_cli(*args)


def _two_vectors(fftcg_suite: Path, tmp_path: Path) -> Path:
    """The FFTCG default suite cut to its first two vectors (a run of a few seconds)."""
    data = json.loads(fftcg_suite.read_text())
    data["vectors"] = data["vectors"][:2]
    small = tmp_path / "small.json"
    small.write_text(json.dumps(data))
    return small


@pytest.mark.parametrize("device", ["/dev/zero", "link"])
def test_a_suite_that_is_a_device_is_refused_before_reading(tmp_path: Path, device: str) -> None:
    path = device
    if device == "link":
        (tmp_path / "suite.json").symlink_to("/dev/zero")
        path = str(tmp_path / "suite.json")
    run = _run(path)
    assert run.code == 3
    assert "is not a regular file" in run.err and "Traceback" not in run.err


def _edit(fftcg_suite: Path, tmp_path: Path, change: Any) -> Path:
    data = json.loads(fftcg_suite.read_text())
    change(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data).replace(f'"{BIG}"', "9" * 5000))
    return path


def _perft(data: dict[str, Any]) -> dict[str, Any]:
    return next(v for v in data["vectors"] if v["kind"] == "perft")


def _refusal(data: dict[str, Any]) -> dict[str, Any]:
    return next(v for v in data["vectors"] if v["kind"] == "refusal")


BIG = "@5000 digits@"
"""Stands for a 5,000-digit integer literal (Python cannot even print one by default)."""


@pytest.mark.parametrize(("case", "change", "says"), [
    ("5000-digit perft count", lambda d: _perft(d)["nodes"].__setitem__(0, BIG), "an integer has more than 30 digits"),
    ("5000-digit field", lambda d: d.__setitem__("extra", BIG), "an integer has more than 30 digits"),
    ("other game", lambda d: d.__setitem__("game", "redemption"), "is not a redemption clause of the catalogue"),
    ("vectors of the other game", lambda d: d["vectors"][0].__setitem__("clauses", ["RED-SB-ONCE-PER-TURN"]),
     "$.vectors[0].clauses[0]: 'RED-SB-ONCE-PER-TURN' is not a fftcg clause"),
    ("empty clauses_in_force", lambda d: d.__setitem__("clauses_in_force", []), "$.clauses_in_force: empty"),
    ("unknown refusal clause", lambda d: _refusal(d)["refuse"].__setitem__("clauses", ["FF-NOT-A-CLAUSE"]),
     "'FF-NOT-A-CLAUSE' is not a fftcg clause of the catalogue"),
    ("refusal clause not in force", lambda d: d.__setitem__(
        "clauses_in_force", [c for c in d["clauses_in_force"] if c not in _refusal(d)["refuse"]["clauses"]]),
     "is not in the suite's clauses_in_force"),
])
def test_a_suite_that_cannot_be_judged_is_bad_input(fftcg_suite: Path, tmp_path: Path, case: str, change: Any,
                                                    says: str) -> None:
    path = _edit(fftcg_suite, tmp_path, change)
    run = _run(str(path))
    assert run.code == 3, case
    assert says in run.err and "edited.json" in run.err


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_a_deeply_nested_suite_is_bad_input(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"format": "cardrules-vectors/3", "vectors": ' + "[" * depth + "]" * depth + "}")
    run = _run(str(path))
    assert run.code == 3
    assert "deep.json: not valid JSON here: arrays or objects nested more than 100 deep" in run.err


@pytest.mark.parametrize(("manifest", "says"), [
    ('{"suites": [{"file": "a\\u0000b.json"}]}', "$.suites[0].file must be a file name: the path contains a NUL byte"),
    ('{"suites": [{"file": "' + "x" * 5000 + '.json"}]}', "$.suites[0].file must be a file name: the path is longer"),
    ('{"suites": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than 100 deep"),
    ('{"suites": [], "n": ' + "1" * 5000 + "}", "an integer has more than 30 digits"),
])
def test_a_hostile_manifest_is_bad_input(tmp_path: Path, manifest: str, says: str) -> None:
    folder = tmp_path / "suites"
    folder.mkdir()
    (folder / "manifest.json").write_text(manifest)
    run = _run(str(folder))
    assert run.code == 3
    assert says in run.err and "Traceback" not in run.err


def test_a_suite_path_with_a_nul_byte_is_bad_input() -> None:
    run = _run("suite\0.json")
    assert run.code == 3 and "the path contains a NUL byte" in run.err


@pytest.mark.parametrize("where", ["missing folder", "a folder", "under /proc"])
def test_a_junit_path_that_cannot_be_written_is_refused_before_the_run(fftcg_suite: Path, tmp_path: Path,
                                                                       where: str) -> None:
    path = {"missing folder": tmp_path / "no" / "junit.xml", "a folder": tmp_path,
            "under /proc": Path("/proc/junit.xml")}[where]
    run = _run(str(fftcg_suite), extra=("--junit", str(path)))
    assert run.code == 3
    assert str(path) in run.err
    assert run.out == "", "refused before any vector ran"


def test_a_junit_write_that_fails_at_the_end_keeps_the_report_and_exits_3(fftcg_suite: Path, tmp_path: Path) -> None:
    run = _run(str(_two_vectors(fftcg_suite, tmp_path)), extra=("--junit", "/dev/full"))
    assert run.code == 3
    assert "2/2 vectors passed" in run.out, "the results computed are printed before the failed write"
    assert "/dev/full: cannot be written: No space left on device" in run.err


def test_a_junit_file_is_written_whole(fftcg_suite: Path, tmp_path: Path) -> None:
    target = tmp_path / "junit.xml"
    run = _run(str(_two_vectors(fftcg_suite, tmp_path)), extra=("--junit", str(target)))
    assert run.code == 0
    assert target.read_text().count("<testcase") == 2
    assert sorted(os.listdir(tmp_path)) == ["junit.xml", "small.json"]
