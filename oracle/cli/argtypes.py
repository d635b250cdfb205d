"""argparse value types shared by the CLI's subcommands."""

from __future__ import annotations

import argparse
from typing import Callable, Sequence

from cardrules.oracle.errors import InputError


def int_at_least(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum``, with a clear message otherwise.

    Every numeric option has a documented maximum, so a typo such as
    ``--depth 1000000000`` is refused at once instead of running without end.
    """

    def parse(text: str) -> int:
        if len(text) > 30:
            raise argparse.ArgumentTypeError(f"{text[:30]!r}... is too long for a whole number")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{value} is more than the maximum, {maximum:,}")
        return value

    return parse


positive_int = int_at_least(1)
non_negative_int = int_at_least(0)

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
