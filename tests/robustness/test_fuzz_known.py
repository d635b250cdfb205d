"""The known-differences file as an input surface: the shipped example, mutated line by line and byte by byte,
either loads or is refused with one line naming the file (bad input), never a traceback."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.oracle.conformance.known import KnownError, load_known
from cardrules.specs.fileio import FileProblem
from tests.paths import REPO
from tests.robustness.mutate import mutated_bytes, mutated_toml
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("a bad known-differences file gets a clean one-line error, never a traceback")

EXAMPLE = REPO / "docs" / "examples" / "known-differences.toml"
_WORK = Path(tempfile.mkdtemp(prefix="cardrules-known-fuzz-"))


def test_the_shipped_example_is_valid() -> None:
    known = load_known(EXAMPLE)
    assert [(e.clause, e.action, e.vector) for e in known.entries] == [
        ("FF-PARTY-UNBLOCKED-ONE", "pass", None), (None, None, "fftcg-identical-forwards/play/000000000000")]


@settings(deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_known_file_loads_or_is_named_bad_input(data: st.DataObject) -> None:
    text = data.draw(mutated_toml(EXAMPLE.read_text(encoding="utf-8")), label="toml")
    raw = data.draw(mutated_bytes(text.encode("utf-8")), label="bytes")
    path = _WORK / "known.toml"
    path.write_bytes(raw)
    try:
        known = load_known(path)
    except (KnownError, FileProblem) as problem:
        message = str(problem)
        assert message.startswith(str(path)) and "\n" not in message, message
        count("known-differences files", "bad input")
        return
    assert all(e.reason for e in known.entries)
    count("known-differences files", "loaded")
