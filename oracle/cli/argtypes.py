"""argparse value types shared by the CLI's subcommands."""

from __future__ import annotations

import argparse
import math
import re
from typing import Any, Callable, Sequence

from cardrules.oracle.errors import InputError


WHOLE = re.compile(r"[+-]?[0-9]+")
"""A whole number as typed: ASCII digits only (``int`` would take Arabic-Indic or full-width digits too)."""
DECIMAL = re.compile(r"[0-9]{1,15}(\.[0-9]{0,15})?|\.[0-9]{1,15}")
"""A number of seconds as typed: plain decimal notation, no sign, exponent, NaN or infinity."""


def bounded(minimum: float, maximum: float) -> Callable[[Callable[[str], Any]], Callable[[str], Any]]:
    """Mark an argparse type with the range it accepts (the CLI's fuzz tests read ``bounds``)."""

    def mark(parse: Callable[[str], Any]) -> Callable[[str], Any]:
        setattr(parse, "bounds", (minimum, maximum))
        return parse

    return mark


def _shown(text: str) -> str:
    return repr(text[:30] + ("..." if len(text) > 30 else ""))


def int_at_least(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum``, with a clear message otherwise.

    Every numeric option has a documented maximum, so a typo such as
    ``--depth 1000000000`` is refused at once instead of running without end.
    """

    @bounded(minimum, maximum)
    def parse(text: str) -> int:
        if not WHOLE.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number (ASCII digits)")
        if len(text.strip()) > 30:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is too long for a whole number")
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{value} is more than the maximum, {maximum:,}")
        return value

    return parse


def seconds_up_to(maximum: float) -> Callable[[str], float]:
    """An argparse type: a positive number of seconds, at most ``maximum``, in plain decimal notation."""

    @bounded(0.0, maximum)
    def parse(text: str) -> float:
        if not DECIMAL.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number of seconds (such as 10 or 0.5)")
        value = float(text)
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"{text.strip()} is not more than 0")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{value:g} is more than the maximum, {maximum:g} seconds")
        return value

    return parse


MAX_SEED = 2**63 - 1
"""``--seed``: any 64-bit seed."""
MAX_SECONDS = 86_400.0
"""A per-vector or per-mutant time bound: at most a day."""
MAX_MUTANTS = 100_000
"""``mutate --limit``: mutants sampled."""

MAX_EXAMPLES = 100_000
"""``verify --examples``: hypothesis examples per run."""
MAX_STATES = 50_000_000
"""``explore --max-states``: states stored (about 35 GiB at 700 bytes a state: beyond this machine)."""
MAX_TURNS = 50
"""``explore --max-turns``."""
MAX_DEPTH = 10_000
"""``explore --max-depth``: breadth-first levels."""
MAX_JOBS = 256
"""``verify --jobs``: worker processes (each holds a run's exploration in memory)."""


def parse_decisions(pairs: Sequence[str]) -> dict[str, str]:
    """``--decision ID=OPTION`` values as a mapping; a value without ``=`` is an :class:`InputError`."""
    decisions = {}
    for pair in pairs:
        decision, sep, option = pair.partition("=")
        if not sep or not decision or not option:
            raise InputError(f"--decision {pair!r}: expected DECISION=OPTION")
        decisions[decision] = option
    return decisions
