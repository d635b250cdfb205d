"""Writing generated suites survives Ctrl-C, SIGKILL and a second generation into the same folder: a
reader finds the old set or the whole new one, never half of one, and no staging folder is left behind."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.generate import SuiteResult
from cardrules.oracle.conformance.output import write_suites
from tests.cli import run_cli

from .conftest import small_results

pytestmark = pytest.mark.infrastructure("generated suites are written whole, serialized and recoverable")

FORK = multiprocessing.get_context("fork")


@pytest.fixture(scope="module")
def results() -> list[SuiteResult]:
    return small_results()


def _complete(out: Path) -> dict[str, Any]:
    """The manifest of ``out``, after checking that every file it lists is there with its sha256."""
    manifest = json.loads((out / "manifest.json").read_text())
    for entry in manifest["suites"]:
        if "file" in entry:
            digest = hashlib.sha256((out / entry["file"]).read_bytes()).hexdigest()
            assert digest == entry["sha256"], f"{entry['file']} is not the file the manifest lists"
    return manifest


def _leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.") and p.is_dir())


def _die_at_rename(out: Path, results: list[SuiteResult], seed: int, nth: int) -> None:
    """In a child: write, and die like SIGKILL at the ``nth`` rename (no cleanup runs)."""
    calls = [0]
    real = os.rename

    def rename(src: Any, dst: Any) -> None:
        calls[0] += 1
        if calls[0] == nth:
            os._exit(9)
        real(src, dst)

    os.rename = rename  # type: ignore[assignment]
    write_suites(out, results, seed)
    os._exit(0)


def _die_while_staging(out: Path, results: list[SuiteResult]) -> None:
    from cardrules.oracle.conformance import output

    real = output.write_text

    def write_text(path: Path, text: str) -> None:
        if Path(path).name == "manifest.json":
            os._exit(9)
        real(path, text)

    output.write_text = write_text  # type: ignore[assignment]
    write_suites(out, results, seed=1)
    os._exit(0)


def test_a_writer_killed_while_staging_leaves_the_old_set_whole(tmp_path: Path, results: list[SuiteResult]) -> None:
    out = tmp_path / "suites"
    write_suites(out, results[:1], seed=0)
    child = FORK.Process(target=_die_while_staging, args=(out, results))
    child.start()
    child.join(60)
    assert child.exitcode == 9
    assert _complete(out)["seed"] == 0, "the old set is still whole"
    assert _leftovers(out), "the killed writer left its staging folder"
    write_suites(out, results, seed=2)
    assert _complete(out)["seed"] == 2 and len(_complete(out)["suites"]) == len(results)
    assert _leftovers(out) == [], "the next writer removes what the killed one left"


def test_a_writer_killed_between_its_renames_loses_nothing(tmp_path: Path, results: list[SuiteResult]) -> None:
    out = tmp_path / "suites"
    write_suites(out, results[:1], seed=0)
    child = FORK.Process(target=_die_at_rename, args=(out, results, 1, 2))  # after moving the old set away
    child.start()
    child.join(60)
    assert child.exitcode == 9
    assert not out.exists(), "killed between the two renames: the old set sits in a hidden folder"
    write_suites(out, results[:2], seed=3)  # the next writer first puts the old set back, then replaces it
    assert _complete(out)["seed"] == 3
    assert _leftovers(out) == []


def _write_many(out: Path, results: list[SuiteResult], seed: int) -> None:
    for _ in range(5):
        write_suites(out, results, seed)


def test_two_generations_into_one_folder_are_serialized(tmp_path: Path, results: list[SuiteResult]) -> None:
    out = tmp_path / "suites"
    writers = [FORK.Process(target=_write_many, args=(out, results[:k], seed)) for k, seed in ((1, 10), (3, 11))]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
    assert [w.exitcode for w in writers] == [0, 0]
    manifest = _complete(out)
    assert manifest["seed"] in (10, 11)
    assert len(manifest["suites"]) == {10: 1, 11: 3}[manifest["seed"]]
    assert _leftovers(out) == []


@pytest.mark.parametrize("where", ["a file", "under /proc"])
def test_an_output_folder_that_cannot_be_written_is_refused_before_generating(tmp_path: Path, where: str) -> None:
    out = tmp_path / "suites.json" if where == "a file" else Path("/proc/cardrules/suites")
    if where == "a file":
        out.write_text("{}")
    started = time.monotonic()
    run = run_cli("conformance", "generate", "--quiet", "--game", "fftcg", "--out", str(out))
    assert run.code == 3
    assert str(out) in run.err
    assert time.monotonic() - started < 10, "refused before minutes of generation"


def test_ctrl_c_during_generation_exits_130_and_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "suites"
    child = subprocess.Popen([sys.executable, "-m", "cardrules.oracle.cli", "conformance", "generate", "--quiet",
                              "--jobs", "1", "--game", "fftcg", "--out", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert b"cardrules: interrupted" in err and b"Traceback" not in err
    assert not out.exists()
    assert _leftovers(out) == []
