"""Progress of long runs: a live bar on a terminal, one line per run elsewhere, nothing when quiet."""

from __future__ import annotations

import io

import pytest

from cardrules.oracle.progress import RunProgress
from cardrules.oracle.verify.runner import verify
from cardrules.properties.scenarios import load_scenarios

pytestmark = pytest.mark.infrastructure("progress output of long commands")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def small_fftcg() -> list:
    """A small FFTCG scenario with three rule sets (1,216 states each): what is checked here is the
    progress output, not the verdicts (verify's own tests and CI's ``cardrules verify`` check those)."""
    return [s for s in load_scenarios() if s.name == "fftcg-preemptive-blocker-survives"]


def test_verify_prints_one_line_per_run_when_not_a_terminal() -> None:
    stream = io.StringIO()
    rows = verify(small_fftcg(), engines=("explore",), include_mutants=False, quiet=False, progress_stream=stream)
    lines = stream.getvalue().splitlines()
    rule_sets = sorted({r.rule_set for r in rows})
    assert len(lines) == len(rule_sets) == 3
    count = sum(1 for r in rows if r.rule_set == "default")  # properties checked (other tests may register more)
    assert lines[0].startswith(
        f"verify [1/3] fftcg-preemptive-blocker-survives / default / explore: {count} properties, 0 failed, ")
    assert "states explored" in lines[0]


def test_quiet_prints_nothing() -> None:
    stream = io.StringIO()
    verify(small_fftcg(), engines=("explore",), include_mutants=False, quiet=True, progress_stream=stream)
    assert stream.getvalue() == ""


def test_a_terminal_gets_a_live_bar_not_lines() -> None:
    stream = Terminal()
    with RunProgress("verify", 2, stream=stream) as progress:
        for label in ("a / default / explore", "b / default / explore"):
            with progress.phase(label) as phase:
                phase.count(1234, "states")
    text = stream.getvalue()
    assert "verify [1/2]" not in text  # no log lines on a terminal
    assert "\x1b[" in text  # drawn with terminal control sequences
