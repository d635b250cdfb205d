"""README's command table names every option that ``--help`` offers, and nothing else."""

from __future__ import annotations

import argparse
import re

import pytest

from cardrules.oracle.cli import build_parser
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the README's command table")

ROOT = REPO


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _commands() -> dict[str, argparse.ArgumentParser]:
    out = {}
    for name, sub in _subparsers(build_parser()).items():
        nested = _subparsers(sub)
        if nested:
            out.update({f"{name} {n}": p for n, p in nested.items()})
        else:
            out[name] = sub
    return out


def _readme_rows() -> dict[str, str]:
    """Command -> the options its README row shows; a row may show several commands (`a`, `b`)."""
    groups = {name for name, sub in _subparsers(build_parser()).items() if _subparsers(sub)}
    rows: dict[str, str] = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        if not line.startswith("| `cardrules "):
            continue
        first_cell = line.split("` |", 1)[0] + "`"
        for words, rest in re.findall(r"`cardrules ([a-z]+(?: [a-z]+)?)\b([^`]*)`", first_cell):
            parts = words.split()
            key = " ".join(parts) if parts[0] in groups and len(parts) > 1 else parts[0]
            rows[key] = rows.get(key, "") + rest
    return rows


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"}


def test_every_command_has_a_row_and_every_option_is_in_it() -> None:
    rows = _readme_rows()
    for name, parser in _commands().items():
        assert name in rows, f"README's command table has no row for 'cardrules {name}'"
        documented = set(re.findall(r"--[a-z][a-z-]*", rows[name]))
        assert _options(parser) - documented == set(), f"'cardrules {name}' options missing from README"
        assert documented - _options(parser) == set(), f"README names options 'cardrules {name}' does not have"


def test_exit_codes_agree_between_help_and_readme() -> None:
    epilog = build_parser().epilog or ""
    readme = " ".join((ROOT / "README.md").read_text().split())
    for code, words in ((1, "a check failed"), (3, "bad input"), (4, "undecided")):
        assert f"{code} {words}" in epilog
        assert f"{code} {words}" in readme
    verify_help = _commands()["verify"].description or ""
    assert "4 if z3 could not decide" in verify_help
