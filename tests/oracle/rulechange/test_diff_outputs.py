"""``diff --traces`` and ``--markdown`` paths that cannot be written: refused before the exploration, or,
when only the write can tell, named after the report is printed; exit 3 either way, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import run_cli

pytestmark = pytest.mark.infrastructure("diff's output files: checked before the run, failures named, exit 3")

DIFF = ("diff", "heal=previous", "heal=revised", "--scenario", "redemption-heal-windows-taken", "--no-smt", "--quiet")


@pytest.mark.parametrize(("option", "where", "says"), [
    ("--traces", "a file", "is a file, not a folder"),
    ("--traces", "under a file", "cannot be created"),
    ("--traces", "under /proc", "cannot be created"),
    ("--markdown", "missing folder", "does not exist"),
    ("--markdown", "a folder", "is a folder; name a file to write"),
    ("--markdown", "under /proc", "cannot be written"),
])
def test_an_output_that_cannot_be_written_is_refused_before_exploring(tmp_path: Path, option: str, where: str,
                                                                      says: str) -> None:
    (tmp_path / "plain").write_text("x")
    path = {"a file": tmp_path / "plain", "under a file": tmp_path / "plain" / "traces",
            "under /proc": Path("/proc/cardrules-out"), "missing folder": tmp_path / "no" / "r.md",
            "a folder": tmp_path}[where]
    run = run_cli(*DIFF, option, str(path))
    assert run.code == 3
    assert says in run.err and "Traceback" not in run.err
    assert run.out == "", "refused before the exploration printed anything"


def test_a_write_that_fails_at_the_end_keeps_the_report_and_the_other_files(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    run = run_cli(*DIFF, "--markdown", "/dev/full", "--traces", str(traces))
    assert run.code == 3
    assert "/dev/full: cannot be written: No space left on device" in run.err
    assert "redemption-heal-windows-taken: tightened" in run.out, "the report is printed before the writes"
    written = sorted(p.name for p in traces.iterdir())
    # the heal-window heals differ only in the turn's discard memory (bookkeeping): no changed class
    assert written == ["redemption-heal-windows-taken.tightened.json"]
