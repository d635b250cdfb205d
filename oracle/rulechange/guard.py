"""Running a proposal's code under guards: a time bound, every exception caught, every answer checked.

A proposal's code (its model module's ``@override`` functions, its z3 module's
``clause_constraints``) is *trusted* code run in-process, after the user has read
it and said ``--allow-code``: this is no sandbox. The guards turn its mistakes into
one line of bad input (exit 3) naming the file, the function, the line and the
problem, instead of a traceback, a hang or a wrong verdict:

* every call (the import, each hook call, ``clause_constraints``) runs under
  :data:`TIME_BOUND` seconds of wall-clock time, by a watchdog: ``setitimer``
  (``ITIMER_REAL``) and a ``SIGALRM`` handler that raises a private exception in the
  proposal's frame. Signals reach the main thread only, so in another thread (or
  where ``setitimer`` does not exist) the call runs without a time bound;
* every exception, ``BaseException`` included (``SystemExit``, ``GeneratorExit``,
  a ``KeyboardInterrupt`` the code raises itself), is the code's fault and is
  reported; a real Ctrl-C of the user (a ``SIGINT`` that arrived during the call,
  seen by a handler installed for the call) is passed on as ``KeyboardInterrupt``;
* every hook's answer is checked against its extension point's contract
  (:attr:`cardrules.model.extension.ExtensionPoint.returns`).

Known limit: code that catches ``BaseException`` in a loop and carries on can
outlast the watchdog (it fires again every :data:`REFIRE` seconds, to no effect);
in-process, nothing can stop such code.
"""

from __future__ import annotations

import linecache
import signal
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any, Callable

from cardrules.oracle.errors import InputError

TIME_BOUND = 5.0
"""Seconds one import, one hook call or one ``clause_constraints`` call may take. The shipped hooks
answer in microseconds and their imports in milliseconds; five seconds is a thousand times that on a
slow, loaded machine, and still short enough that a hang is reported before a user gives up."""

REFIRE = 0.1
"""Once the bound has passed, the watchdog fires again every this many seconds (for code that
swallowed the first alarm)."""


class ProposalCodeError(InputError):
    """A proposal's code failed: it raised, did not return in time, or returned what its point forbids.

    One line: ``FILE: SUBJECT (function F, line N): PROBLEM``; the command line exits 3.
    """


class _TimeUp(BaseException):
    """Raised by the watchdog in the guarded code's frame; never escapes :func:`call_guarded`."""


class _Watch:
    """Per-call state the signal handlers read."""

    active = False
    interrupted = False


_WATCH = _Watch()


def _on_alarm(signum: int, frame: types.FrameType | None) -> None:
    """The watchdog: stop the guarded code (only while a guarded call runs)."""
    if _WATCH.active:
        raise _TimeUp()


def _on_interrupt(signum: int, frame: types.FrameType | None) -> None:
    """A real Ctrl-C during a guarded call: noted (so it is not blamed on the code), then raised as usual."""
    _WATCH.interrupted = True
    raise KeyboardInterrupt


def _can_watch() -> bool:
    """Whether a watchdog can run here: ``setitimer`` exists and this is the main thread (signals go there)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def text_of(error: BaseException) -> str:
    """``Type: message`` of an exception, on one line, at most 300 characters (even if its ``str`` fails)."""
    try:
        message = str(error)
    except Exception:  # an exception whose __str__ raises: its type still names it
        message = "(its message cannot be shown)"
    message = " ".join(message.split())
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def _line_in(error: BaseException, source: str) -> int | None:
    """The line of the last traceback frame in ``source`` (the proposal's file), if any."""
    line = None
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == source:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


def seconds(bound: float) -> str:
    """``5 s``, ``0.2 s``."""
    return f"{bound:g} s"


def call_guarded(function: Callable[..., Any], arguments: tuple[Any, ...], source: str,
                 subject: Callable[[int | None], str], bound: float | None = None) -> Any:
    """``function(*arguments)`` under the time bound; a :class:`ProposalCodeError` for whatever goes wrong.

    ``source``: the proposal file (as compiled: frames in it give the line); ``subject(line)``: the
    message's ``FILE: what`` part, given the line (or None). ``bound``: defaults to :data:`TIME_BOUND`.
    """
    limit = TIME_BOUND if bound is None else bound
    if _WATCH.active or not _can_watch():  # nested (the outer call is watched), or no signals here
        return _call_unwatched(function, arguments, source, subject)
    old_alarm = signal.signal(signal.SIGALRM, _on_alarm)
    old_interrupt = signal.signal(signal.SIGINT, _on_interrupt)
    _WATCH.active, _WATCH.interrupted = True, False
    started = time.monotonic()
    previous = signal.setitimer(signal.ITIMER_REAL, limit, REFIRE)
    try:
        return function(*arguments)
    except ProposalCodeError:
        raise  # a guarded check inside (of overrides, of a nested hook's answer): already one line
    except _TimeUp as error:
        _WATCH.active = False  # no second alarm while the message is made
        raise ProposalCodeError(f"{subject(_line_in(error, source))}: did not return within {seconds(limit)}") \
            from None
    except BaseException as error:
        _WATCH.active = False
        if _WATCH.interrupted:  # the user's Ctrl-C, whatever the code made of it
            raise KeyboardInterrupt from None
        raise ProposalCodeError(f"{subject(_line_in(error, source))}: raised {text_of(error)}") from None
    finally:
        _WATCH.active = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_alarm)
        signal.signal(signal.SIGINT, old_interrupt)
        if previous[0] > 0:  # someone else's timer was running: give back what is left of it
            left = previous[0] - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), previous[1])


def _call_unwatched(function: Callable[..., Any], arguments: tuple[Any, ...], source: str,
                    subject: Callable[[int | None], str]) -> Any:
    """``function(*arguments)`` without a time bound; exceptions as in :func:`call_guarded`."""
    try:
        return function(*arguments)
    except (_TimeUp, ProposalCodeError):
        raise  # the outer guard's alarm (the outer guard reports it), or a problem already said in one line
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt) and _WATCH.active:
            raise  # inside an outer guard, which tells the user's Ctrl-C from the code's own

        raise ProposalCodeError(f"{subject(_line_in(error, source))}: raised {text_of(error)}") from None


def first_line(function: object) -> int | None:
    """The line of a function's ``def`` (past its decorators; None for a callable without code)."""
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    line = getattr(code, "co_firstlineno", None)
    if type(line) is not int:
        return None
    filename = getattr(code, "co_filename", "")
    for number in range(line, line + 50):  # decorators first: the def follows them
        text = linecache.getline(filename, number).lstrip() if type(filename) is str else ""
        if text.startswith(("def ", "async def ")):
            return number
    return line


def function_name(function: object) -> str:
    """A function's name for messages (its ``__name__`` if it is a short string)."""
    try:
        name = getattr(function, "__name__", None)
    except Exception:  # noqa: BLE001 - a callable object whose __getattr__ raises
        name = None
    return name[:80] if type(name) is str else type(function).__name__


def import_code(text: str, path: Path, label: str) -> types.ModuleType:
    """A fresh module from ``text`` (the file at ``path``, read once), its top level run under the guard.

    ``__file__`` is the path; frames of its code name the path, so errors give its lines.
    """
    source = str(path)

    def subject(line: int | None) -> str:
        return f"{source}: importing it" + (f" (line {line})" if line is not None else "")

    try:
        code = compile(text, source, "exec", dont_inherit=True)
    except SyntaxError as error:
        raise ProposalCodeError(f"{source}: not valid Python: line {error.lineno}: {error.msg}") from None
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes, nesting too deep for the parser
        raise ProposalCodeError(f"{source}: not valid Python: {text_of(error)}") from None
    # tracebacks and first_line() read the text that was read, never the file again
    linecache.cache[source] = (len(text), None, text.splitlines(keepends=True), source)
    name = f"cardrules_proposal_{label}_{abs(hash(source))}"
    module = types.ModuleType(name)
    module.__file__ = source
    sys.modules[name] = module  # as an import would: dataclasses and pickling look the module up
    call_guarded(exec, (code, module.__dict__), source, subject)
    return module

