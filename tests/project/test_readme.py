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


def test_the_readme_python_example_runs_as_written() -> None:
    """The ``pycon`` block of the README is a doctest: it must give exactly the output it shows."""
    import doctest

    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```pycon\n(.*?)```", readme, re.S)
    assert len(blocks) == 1, "the README has one Python example"
    test = doctest.DocTestParser().get_doctest(blocks[0], {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8


def test_the_readme_stays_a_front_door() -> None:
    """About a hundred lines: the pitch, the two commands, the example, the layers, the six steps, links."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 120
    for heading in ("## Quick start", "## The model from Python", "## Four layers", "## Change a rule in six steps"):
        assert heading in readme
    for target in ("docs/commands.rst", "docs/conformance.rst", "docs/performance.rst", "docs/developers.rst",
                   "CONTRIBUTING.md", "CHANGELOG.md", "LICENSE"):
        assert (ROOT / target).exists(), f"the README links to {target}, which does not exist"
