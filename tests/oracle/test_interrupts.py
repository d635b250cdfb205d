"""A Ctrl-C that Python raises inside a finalizer is not lost: within ``kept()`` it is noted, not printed, and
raised again by the tracer once the traced call returns (a generator dropped by a short-circuiting ``any``
runs its finalizer, and a tracer callback with it, where a ``KeyboardInterrupt`` is swallowed)."""

from __future__ import annotations

import sys
from typing import Iterator

import pytest

from cardrules.oracle.interrupts import kept, raise_if_lost
from cardrules.oracle.trace.coverage import clauses_exercised, outcomes_exercised

pytestmark = pytest.mark.infrastructure("Ctrl-C during the CLI's commands")


def _interrupted_when_dropped() -> Iterator[int]:
    try:
        yield 1
        yield 2
    finally:
        raise KeyboardInterrupt  # as a Ctrl-C handled while the generator is being closed


def _drops_an_interrupted_generator() -> str:
    any(value == 1 for value in _interrupted_when_dropped())  # stops early: the generator is closed, here
    return "went on"


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """The types of the errors handed to the hook that prints unraisable errors (recorded instead)."""
    seen: list[type] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(type(unraisable.exc_value)))
    return seen


def test_without_the_hook_python_loses_the_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _recorded(monkeypatch)
    assert _drops_an_interrupted_generator() == "went on"
    assert seen == [KeyboardInterrupt]


@pytest.mark.parametrize("tracer", [outcomes_exercised, clauses_exercised])
def test_within_kept_the_tracer_raises_the_lost_interrupt_once_the_call_returns(
        tracer: object, monkeypatch: pytest.MonkeyPatch, each_tracer: str) -> None:
    seen = _recorded(monkeypatch)
    with kept():
        with pytest.raises(KeyboardInterrupt):
            tracer(_drops_an_interrupted_generator)  # type: ignore[operator]
        raise_if_lost()  # raised once: nothing is left to raise
    assert seen == []  # noted, not printed
    assert sys.unraisablehook is not None and _drops_an_interrupted_generator() == "went on"  # hook restored
    assert seen == [KeyboardInterrupt]


def test_other_unraisable_errors_are_still_handed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _recorded(monkeypatch)

    def broken() -> Iterator[int]:
        try:
            yield 1
        finally:
            raise ValueError("in a finalizer")

    with kept():
        any(True for _ in broken())
        raise_if_lost()
    assert seen == [ValueError]
