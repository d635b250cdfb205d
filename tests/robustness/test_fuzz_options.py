"""Every numeric option of every command, given negative, huge, NaN, infinite, unicode and malformed values:
a usage error (exit 2) with a message, or a value inside the option's documented bounds; never a traceback."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules.oracle.cli import build_parser
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("option values are bounded: exit 2 with a message, never a traceback")

NOT_NUMERIC: tuple[Any, ...] = (None, str, Path)


def _actions(parser: argparse.ArgumentParser, prog: str) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{prog} {name}")
        elif action.option_strings and action.type not in NOT_NUMERIC and not isinstance(action.type, type):
            yield f"{prog} {action.option_strings[-1]}", action


NUMERIC = dict(_actions(build_parser(), "cardrules"))


def test_every_numeric_option_states_its_bounds() -> None:
    assert len(NUMERIC) >= 15, sorted(NUMERIC)
    unbounded = [name for name, action in NUMERIC.items() if not hasattr(action.type, "bounds")]
    assert unbounded == []


NASTY = (
    "", " ", "-1", "-0", "0", "+1", "1", "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "1e-999", "1e3", "0x10",
    "1_000", "1.5", ".5", "5.", "-0.5", "١٢٣", "１２", "²", "7\u00a0", "9" * 31, "9" * 5000, "-" + "9" * 5000,
    "1.0000000000000001", "\x00", "1\x00", "all", "ALL", " 3 ", "\t2\n", "٣.٥",
)


def values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY),
        st.integers(-(10**40), 10**40).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.text(max_size=12),
        st.text(alphabet="0123456789.-+e ", max_size=40),
    )


def _judge(name: str, parse: Callable[[str], Any], text: str) -> str:
    """``refused`` (a usage error) or ``accepted``: accepted values are finite and within the bounds."""
    lowest, highest = parse.bounds  # type: ignore[attr-defined]
    try:
        value = parse(text)
    except argparse.ArgumentTypeError as refusal:
        assert str(refusal), name
        return "refused"
    if value is None:  # ``smt crosscheck --states all``
        assert text == "all", (name, text)
        return "accepted"
    assert isinstance(value, (int, float)) and not isinstance(value, bool), (name, text, value)
    assert math.isfinite(value) and lowest <= value <= highest, (name, text, value)
    if isinstance(value, int):
        assert text.strip().lstrip("+-").isascii() and text.strip().lstrip("+-").isdigit(), (name, text)
    return "accepted"


@given(text=values())
def test_any_value_of_any_numeric_option_is_refused_or_in_bounds(text: str) -> None:
    for name, action in NUMERIC.items():
        count("cli options", _judge(name, action.type, text))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_the_bounds_themselves_are_accepted_and_one_past_refused(name: str) -> None:
    parse = NUMERIC[name].type
    lowest, highest = parse.bounds  # type: ignore[union-attr]
    if isinstance(highest, int):
        assert parse(str(highest)) == highest and parse(str(max(lowest, 1))) == max(lowest, 1)  # type: ignore[misc]
        for outside in (highest + 1, lowest - 1):
            with pytest.raises(argparse.ArgumentTypeError):
                parse(str(outside))  # type: ignore[misc]
    else:
        assert parse(f"{highest:.1f}") == highest  # type: ignore[misc]
        for outside in (f"{highest + 1:.1f}", "0", "0.0"):
            with pytest.raises(argparse.ArgumentTypeError):
                parse(outside)  # type: ignore[misc]


@pytest.mark.parametrize("argv", [
    ["conformance", "run", "--adapter", "x", "--timeout", "nan"],
    ["conformance", "run", "--adapter", "x", "--timeout", "1e999"],
    ["conformance", "generate", "--jobs", "-1"],
    ["conformance", "generate", "--seed", "9" * 5000],
    ["mutate", "--jobs", "١٢"],
    ["smt", "crosscheck", "--states", "-5"],
    ["explore", "x", "--max-states", "1e9"],
])
def test_a_bad_value_is_a_usage_error_naming_the_option(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {argv[-2]}" in err and "Traceback" not in err
