"""Ctrl-C that is never lost.

Python raises ``KeyboardInterrupt`` wherever the main thread is when it handles the signal. When that is
a finalizer, such as a generator closed as it is dropped (``any(... for ...)`` stops early) or a tracer
callback running for one, Python prints "Exception ignored in ..." with a traceback and carries on: a
``cardrules conformance generate`` interrupted there went on generating. Within :func:`kept` (the CLI runs
every command in it), such an interrupt is noted instead of printed, and :func:`raise_if_lost` raises it
again at the next safe point (the tracers call it after each traced call; the suite generator between
scenarios). Processes forked inside the block (the worker processes) keep the same hook.
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator

_LOST = False
"""A ``KeyboardInterrupt`` was raised in a finalizer and swallowed since :func:`kept` began."""


def _noted(previous: Any) -> Any:
    def hook(unraisable: Any) -> None:
        global _LOST
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _LOST = True
            return
        previous(unraisable)

    return hook


@contextmanager
def kept() -> Iterator[None]:
    """Within the block, a ``KeyboardInterrupt`` swallowed by a finalizer is noted (not printed) for
    :func:`raise_if_lost`; the previous hook is restored after. Only the main thread installs it."""
    global _LOST
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = sys.unraisablehook
    _LOST = False
    sys.unraisablehook = _noted(previous)
    try:
        yield
    finally:
        sys.unraisablehook = previous
        _LOST = False


def raise_if_lost() -> None:
    """Raise ``KeyboardInterrupt`` if one was swallowed by a finalizer (:func:`kept`)."""
    global _LOST
    if _LOST:
        _LOST = False
        raise KeyboardInterrupt
