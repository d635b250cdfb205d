"""The Formats part of the conformance page renders each game's formats from the code: every part of
every game is on the page, and the directive's tables hold every field and every refusal row."""

from __future__ import annotations

import sys

import pytest

from cardrules.oracle.conformance.formats.refusals import refusal_table
from cardrules.oracle.conformance.formats.states import GAMES, state_schema
from tests.paths import REPO

sys.path.insert(0, str(REPO / "docs" / "_ext"))
import cardrules_formats  # noqa: E402  (a Sphinx extension of docs/_ext, imported as conf.py does)

pytestmark = pytest.mark.infrastructure("the conformance formats for implementers")


def test_the_page_shows_every_part_of_every_game() -> None:
    page = (REPO / "docs" / "conformance.rst").read_text(encoding="utf-8")
    for game in GAMES:
        for part in ("states", "actions", "refusals", "unspecified"):
            assert f".. cardrules-formats:: {game} {part}" in page, (game, part)
    assert ".. cardrules-formats:: fftcg events" in page


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_the_tables_hold_every_field_and_every_refusal(game: str) -> None:
    fields = "\n".join(cardrules_formats._schema_part(game, "states"))
    for name, definition in state_schema(game)["$defs"].items():
        assert f"**{name}**" in fields
        assert all(f"   * - ``{field}``" in fields for field in definition["properties"])
    rows = cardrules_formats._refusal_part(game)
    assert sum(line.startswith("   * - ``") for line in rows) == len(refusal_table(game))
