"""The command reference page shows every command and option that ``--help`` offers."""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

import pytest

from cardrules.oracle.cli import build_parser
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the command reference page")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _commands(parser: argparse.ArgumentParser, prefix: str = "cardrules") -> dict[str, argparse.ArgumentParser]:
    """Every command line that runs something, ``cardrules smt crosscheck`` included, and its parser."""
    out: dict[str, argparse.ArgumentParser] = {}
    for name, sub in _subparsers(parser).items():
        nested = _subparsers(sub)
        out.update(_commands(sub, f"{prefix} {name}") if nested else {f"{prefix} {name}": sub})
    return out


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"}


@pytest.mark.slow
def test_every_command_and_option_is_on_the_commands_page(built_site: Path) -> None:
    text = html.unescape(re.sub(r"<[^>]+>", "", (built_site / "commands.html").read_text()))
    commands = _commands(build_parser())
    assert {"cardrules verify", "cardrules smt crosscheck", "cardrules conformance run"} <= set(commands)
    for command, parser in commands.items():
        usage = re.search(re.escape(command) + r" \[-h\]", text)
        assert usage, f"the commands page has no usage line for '{command}'"
        for option in _options(parser):
            assert option in text, f"the commands page does not show {command} {option}"


def test_the_exit_codes_on_the_commands_page_are_the_ones_help_prints() -> None:
    epilog = build_parser().epilog or ""
    page = " ".join((REPO / "docs" / "commands.rst").read_text().split())
    for code, words in ((1, "a check failed"), (2, "usage error"), (3, "bad input"), (4, "undecided")):
        assert f"{code} {words}" in epilog
        assert f"``{code}`` {words}" in page or f"``{code}`` a {words}" in page, f"exit code {code}"
    verify_help = _commands(build_parser())["cardrules verify"].description or ""
    assert "4 if z3 could not decide" in verify_help
