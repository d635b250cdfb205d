"""README's quick start and CI run the same two commands."""

from __future__ import annotations

import re

import pytest
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the README's commands")

ROOT = REPO


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "README's quick start has no ```sh block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_commands_and_ci_runs_them_verbatim() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert commands[0].startswith("python3 -m venv .venv && ")
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert [line for line in ci_lines if line in commands] == commands
