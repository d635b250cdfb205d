"""The file layer checks an output path before a run and writes a file whole or not at all, naming the path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardrules.specs.fileio import FileProblem, check_output_dir, check_output_file, write_text

pytestmark = pytest.mark.infrastructure("the one writer of every file a user names: checked paths, whole files")


def test_a_file_is_written_and_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    write_text(target, "first\n")
    target.chmod(0o640)
    write_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert target.stat().st_mode & 0o777 == 0o640, "a replaced file keeps its permissions"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"], "no temporary file is left"


@pytest.mark.parametrize("case", ["missing folder", "under a file", "a folder"])
def test_an_output_file_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path, case: str) -> None:
    (tmp_path / "plain").write_text("x")
    (tmp_path / "folder").mkdir()
    path = {"missing folder": tmp_path / "no" / "r.md", "under a file": tmp_path / "plain" / "r.md",
            "a folder": tmp_path / "folder"}[case]
    expected = {"missing folder": "the folder .* does not exist", "under a file": "is not a folder",
                "a folder": "is a folder; name a file to write"}[case]
    with pytest.raises(FileProblem, match=expected):
        check_output_file(path)
    with pytest.raises(FileProblem, match=str(path.name)):
        write_text(path, "x")


def test_proc_is_refused_before_the_run() -> None:
    with pytest.raises(FileProblem, match="^/proc/cardrules-junit.xml: cannot be written"):
        check_output_file("/proc/cardrules-junit.xml")
    with pytest.raises(FileProblem, match="^/proc/x/traces: cannot be created"):
        check_output_dir("/proc/x/traces")


def test_a_full_device_fails_at_the_write_and_names_it() -> None:
    check_output_file("/dev/full")  # it exists and is writable: only the write can tell
    with pytest.raises(FileProblem, match="^/dev/full: cannot be written: No space left on device"):
        write_text("/dev/full", "x" * 10_000)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "suite.json"
    target.write_text("old")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(FileProblem, match="suite.json: cannot be written: No space left on device"):
        write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["suite.json"]


def test_an_output_folder_is_created_or_refused(tmp_path: Path) -> None:
    check_output_dir(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileProblem, match="file: is a file, not a folder"):
        check_output_dir(tmp_path / "file")
    with pytest.raises(FileProblem, match="no such folder"):
        check_output_dir(tmp_path / "c", create=False)

