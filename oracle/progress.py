"""Progress for long runs (verify, explore, crosscheck), drawn with rich.

On a terminal: one live bar (which phase is running, phases done of all,
and the phase's own count, e.g. states explored so far). Elsewhere (CI
logs, pipes): one line per finished phase on stderr, so a log shows that the
run is alive and what each phase did. ``quiet`` silences both. Progress never
goes to stdout, which stays for results (tables, JSON).
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


class Phase:
    """One running phase; :meth:`count` reports its own progress (states, pairs, ...)."""

    def __init__(self, owner: "RunProgress", label: str) -> None:
        self._owner = owner
        self.label = label
        self.result = ""
        """What the phase did, shown when it ends (e.g. ``12 properties, 0 failed``)."""

    def count(self, value: int, unit: str) -> None:
        """The phase has reached ``value`` ``unit`` (drawn on a terminal at most a few times a second)."""
        self._owner._count(self, value, unit)


class RunProgress:
    """Progress of a run made of ``total`` phases."""

    def __init__(self, command: str, total: int | None, *, quiet: bool = False, stream: TextIO | None = None) -> None:
        """``total``: the number of phases, or None when it is not known in advance."""
        self.command = command
        self.total = total
        self.done = 0
        self.quiet = quiet
        self._stream = stream if stream is not None else sys.stderr
        self._live = not quiet and self._stream.isatty()
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._last_draw = 0.0

    def __enter__(self) -> "RunProgress":
        if self._live:
            console = Console(file=self._stream)
            self._bar = Progress(
                TextColumn("[bold]{task.fields[command]}[/]"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("{task.description}"),
                console=console,
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task("", total=self.total, command=self.command)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    @contextmanager
    def phase(self, label: str) -> Iterator[Phase]:
        """Run one phase; on a terminal the bar shows it, elsewhere a line is printed when it ends."""
        phase = Phase(self, label)
        started = time.perf_counter()
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=label)
        try:
            yield phase
        finally:
            self.finished(label, phase.result, time.perf_counter() - started)

    def finished(self, label: str, result: str, seconds: float, *, running: str = "") -> None:
        """A phase that ran elsewhere (a worker process) has ended after ``seconds``: count it and, off a
        terminal, print its line; ``running``: what is still running, shown on the terminal's bar."""
        self.done += 1
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done, description=running or None)  # None: description unchanged
        elif not self.quiet:
            shown = f": {result}" if result else ""
            count = f"{self.done}/{self.total}" if self.total is not None else f"{self.done}"
            print(f"{self.command} [{count}] {label}{shown} ({seconds:.1f} s)", file=self._stream, flush=True)

    def _count(self, phase: Phase, value: int, unit: str) -> None:
        if self._bar is None or self._task is None:
            return
        now = time.perf_counter()
        if now - self._last_draw >= 0.2:
            self._last_draw = now
            self._bar.update(self._task, description=f"{phase.label}: {value:,} {unit}")
