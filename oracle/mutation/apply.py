"""Activating a mutant in-process, and running work under a mutant in a forked child.

A mutant is activated by giving the one function it changes the mutated
code object (``function.__code__``): every caller, wherever it imported the
function from, runs the mutant. No file is ever written, so nothing mutated
can be left behind, even on Ctrl-C. :func:`activated` restores the original
code when its block ends; :func:`run_isolated` goes further and runs the
work in a forked child process (so a mutant that loops forever or corrupts
module state is killed with the child), with a deadline.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator, Sequence

from cardrules.oracle.mutation.mutants import Mutant, MutantError, live_function, mutated_code

_CACHED_PACKAGES = ("cardrules.model", "cardrules.properties", "cardrules.oracle.smt_")


def clear_caches() -> None:
    """Empty every ``lru_cache`` of the model, the properties and the cross-check (they may hold the
    unmutated model's answers)."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(_CACHED_PACKAGES):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@contextmanager
def activated(mutant: Mutant | None) -> Iterator[None]:
    """Run the block with ``mutant`` active (``None``: the reference model); always restored afterwards."""
    if mutant is None:
        yield
        return
    code = mutated_code(mutant)
    function = live_function(mutant.module, mutant.function)
    original = function.__code__
    function.__code__ = code
    clear_caches()
    try:
        yield
    finally:
        function.__code__ = original
        clear_caches()


@dataclass
class Isolated:
    """What a job in a child process came to."""

    status: str
    """``done`` (``value`` is the job's result), ``error`` (it raised: ``detail``), ``not-applied``
    (the mutant could not be activated), ``timeout`` or ``crashed`` (the child died)."""
    value: Any = None
    detail: str = ""
    seconds: float = 0.0


def _child(connection: Connection, mutant: Mutant | None, job: Callable[[], Any]) -> None:
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            try:
                context = activated(mutant)
                context.__enter__()
            except MutantError as problem:
                connection.send(("not-applied", None, str(problem)))
                return
            value = job()
        connection.send(("done", value, ""))
    except BaseException as problem:  # the job's failure is its verdict, never the probe's crash
        where = traceback.extract_tb(problem.__traceback__)[-1] if problem.__traceback__ else None
        place = f" at {os.path.basename(where.filename)}:{where.lineno}" if where else ""
        connection.send(("error", None, f"{type(problem).__name__}: {str(problem)[:300]}{place}"))
    finally:
        connection.close()


@dataclass
class Task:
    """One job to run under one mutant (``None``: the reference model) within ``timeout`` seconds."""

    mutant: Mutant | None
    job: Callable[[], Any]
    timeout: float
    tag: Any = None


def run_isolated(tasks: Sequence[Task], jobs: int = 1) -> Iterator[tuple[Task, Isolated]]:
    """Run each task in a forked child, at most ``jobs`` at once; yields (task, outcome) as they finish.

    A child past its deadline is killed (``timeout``); one that dies without
    answering is ``crashed``. Children still running when the caller stops
    (an exception, Ctrl-C) are killed.
    """
    context = multiprocessing.get_context("fork")
    pending = list(tasks)
    running: dict[Connection, tuple[Task, Any, float]] = {}
    previous = None
    if threading.current_thread() is threading.main_thread():  # `kill PID` ends the children too
        previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                task = pending.pop(0)
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(send, task.mutant, task.job), daemon=True)
                process.start()
                send.close()
                running[receive] = (task, process, time.monotonic())
            now = time.monotonic()
            nearest = min(started + task.timeout for task, _, started in running.values())
            ready = wait(list(running), timeout=max(0.0, nearest - now))
            now = time.monotonic()
            for connection in list(running):
                task, process, started = running[connection]
                if connection in ready:
                    try:
                        status, value, detail = connection.recv()
                        outcome = Isolated(status, value, detail)
                    except (EOFError, OSError):
                        process.join(1)
                        outcome = Isolated("crashed", detail=f"the child exited with status {process.exitcode}")
                elif now >= started + task.timeout:
                    outcome = Isolated("timeout", detail=f"no answer within {task.timeout:.0f} s")
                else:
                    continue
                process.kill()
                process.join()
                connection.close()
                del running[connection]
                outcome.seconds = now - started
                yield task, outcome
    finally:
        for connection, (_, process, _) in running.items():
            process.kill()
            process.join()
            connection.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
