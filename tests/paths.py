"""Where the tests find the checkout's files: the repository root and its data folders."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The checkout: the folder that holds ``pyproject.toml``."""

SEEDS = REPO.parent / "shared" / "seeds"
"""The source rule texts, beside the checkout (never part of the project)."""
