"""Examples in the players' words: for every clause, a position, what is done and the ruling.

The examples come from runs of the executable model (so they are what the
model does), are narrated in each game's vocabulary and are stored, with the
position as the game's state JSON, in ``examples.json`` beside this file;
``python -m cardrules.oracle.examples`` writes it again (``--check``: exit 1
when it is not current). The rules views render them under each rule, each
with a "Try it" link into the playground (:mod:`.links`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from cardrules.specs.fileio import load_json

EXAMPLES_FILE = Path(__file__).resolve().parent / "examples.json"
MAX_FILE_BYTES = 16_000_000


@lru_cache(maxsize=1)
def stored_examples() -> tuple[dict[str, Any], ...]:
    """The examples of ``examples.json``, in rule order."""
    data = load_json(EXAMPLES_FILE, MAX_FILE_BYTES)
    return tuple(data["examples"])


def examples_for(clause_id: str) -> list[dict[str, Any]]:
    """The stored examples that illustrate a clause, the one picked for it first."""
    return [e for e in stored_examples() if clause_id in e["clauses"]]
