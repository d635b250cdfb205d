"""Generated scope files: each is read into a scope whose positions are all legal, or refused as bad input in
one line naming the file; never a traceback, and never an enumeration beyond the stated bound."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.properties.scenarios import check_state
from cardrules.properties.scopes import SCOPE_DIR, ScopeError, enumerate_positions, load_scope
from cardrules.properties.scopes.format import MAX_CANDIDATES
from tests.robustness.mutate import mutated_bytes, mutated_toml
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("scope files: legal positions or a one-line error, never a traceback")

PER_EXAMPLE = settings(max_examples=60, deadline=timedelta(seconds=30),
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_WORK = Path(tempfile.mkdtemp(prefix="cardrules-scopes-"))


@PER_EXAMPLE
@given(data=st.data())
def test_a_mutated_scope_file_is_read_or_refused(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(sorted(SCOPE_DIR.glob("*-small.toml"))), label="scope")
    text = data.draw(mutated_toml(source.read_text(encoding="utf-8")), label="toml")
    raw = data.draw(mutated_bytes(text.encode("utf-8"), deep=False), label="bytes")
    path = _WORK / source.name
    path.write_bytes(raw)
    game = source.stem.partition("-")[0]
    try:
        scope = load_scope(str(path), game)
        positions = enumerate_positions(scope)
    except ScopeError as error:
        message = str(error)
        assert "\n" not in message and str(path) in message, message
        count("scope files", "bad input")
        return
    assert len(positions) <= MAX_CANDIDATES
    for position in positions[:5]:
        check_state(game, position.state, position.name)
    count("scope files", "read")
