"""A fake adapter that fails in one way, for the runner's fault-injection tests.

``python faulty_adapter.py FAULT RECORD_DIR [SECONDS]``. It imports nothing of
the project (it starts in milliseconds) and plays a trivial engine: ``load``
keeps the state's ``tag``, the legal actions are ``["go"]`` until ``go`` is
applied and ``[]`` after, and ``state`` is ``{"tag": TAG, "after": "go"}``.
Every reply carries all three fields, so a reply given to the wrong request
still has the right shape. Each process (and a child it forks) writes its pid
as a file name in RECORD_DIR, for the test to check that none is left behind.

The fault fires on the vector whose state has ``"fault": true`` (``no-read`` and
``early-reply``: after the first five requests, in the first process only):

- ``ok``: no fault;
- ``exit-at-start``: exits with status 3 before reading anything, saying why on stderr;
- ``crash-mid``: exits (status 9) when asked to apply, after answering load and legal_actions;
- ``hang``: sleeps when asked to apply;
- ``no-read``: stops reading its input (and sleeps) after five requests;
- ``early-reply``: the same, but 0.3 s later answers the request it has not read;
- ``close-stdout``: closes its output when asked to apply and sleeps;
- ``garbage``: answers legal_actions with a line that is not JSON;
- ``long-line``: answers apply with 100 MB and no newline (bytes written so far in RECORD_DIR/written);
- ``stderr-flood``: writes 32 MB on stderr before answering apply;
- ``stderr-flood-crash``: writes 32 MB on stderr, then ``last words``, then exits with status 5;
- ``stale``: answers load twice, so every later reply answers the request before;
- ``slow``: answers load after SECONDS;
- ``fork-holds-pipe``: when asked to apply, forks a child that sleeps holding the pipes, and exits (status 7).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

FOREVER = 3600.0
"""How long a hanging process sleeps (the runner kills it long before)."""


class Engine:
    """The fake engine's position: the tag of the state loaded last, and whether ``go`` was applied."""

    def __init__(self) -> None:
        self.tag, self.applied, self.faulty = "", False, False

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request (every field present, whatever the request)."""
        if request.get("op") == "load":
            state = request.get("state") or {}
            self.tag, self.applied, self.faulty = state.get("tag", ""), False, bool(state.get("fault"))
        elif request.get("op") == "apply":
            self.applied = True
        return {"ok": True, "actions": [] if self.applied else ["go"], "state": {"tag": self.tag, "after": "go"}}


def record(folder: Path) -> None:
    """Leave this process's pid in the record folder."""
    (folder / str(os.getpid())).touch()


def write_out(data: bytes) -> None:
    """Write all of ``data`` on stdout, unbuffered."""
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


def flood_stderr(megabytes: int) -> None:
    """Write ``megabytes`` MB on stderr."""
    chunk = b"e" * (1 << 20)
    for _ in range(megabytes):
        os.write(2, chunk)


def long_line(folder: Path) -> None:
    """100 MB of output without a newline, counting what was written in ``folder/written``."""
    chunk, written = b"x" * (1 << 20), 0
    for _ in range(100):
        write_out(chunk)
        written += len(chunk)
        (folder / "written").write_text(str(written))
    time.sleep(FOREVER)


def fork_and_exit(folder: Path) -> None:
    """A child that keeps stdin, stdout and stderr open and sleeps; the adapter itself exits."""
    child = os.fork()
    if child == 0:
        time.sleep(FOREVER)
        os._exit(0)
    (folder / str(child)).touch()
    os._exit(7)


def misbehave(fault: str, op: str, folder: Path, seconds: float) -> bool:
    """Do the fault due at this request of the faulty vector; ``True`` if it answered already."""
    if fault == "crash-mid" and op == "apply":
        os._exit(9)
    if fault in ("hang", "close-stdout") and op == "apply":
        if fault == "close-stdout":
            os.close(1)
        time.sleep(FOREVER)
    if fault == "garbage" and op == "legal_actions":
        write_out(b"this is not json\n")
        return True
    if fault == "long-line" and op == "apply":
        long_line(folder)
    if fault.startswith("stderr-flood") and op == "apply":
        flood_stderr(32)
        if fault == "stderr-flood-crash":
            os.write(2, b"\nlast words\n")
            os._exit(5)
    if fault == "fork-holds-pipe" and op == "apply":
        fork_and_exit(folder)
    if fault == "slow" and op == "load":
        time.sleep(seconds)
    return False


def main() -> int:
    """Serve requests on stdin, failing as argv asks."""
    fault, folder = sys.argv[1], Path(sys.argv[2])
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    record(folder)
    if fault == "exit-at-start":
        os.write(2, b"the engine refuses to start\n")
        return 3
    stop_reading = fault in ("no-read", "early-reply") and not (folder / "stopped").exists()
    engine = Engine()
    for count, line in enumerate(sys.stdin.buffer, 1):
        request = json.loads(line)
        reply = engine.answer(request)
        text = json.dumps(reply).encode() + b"\n"
        if engine.faulty and misbehave(fault, request.get("op", ""), folder, seconds):
            continue
        write_out(text * 2 if engine.faulty and fault == "stale" and request.get("op") == "load" else text)
        if stop_reading and count == 5:
            (folder / "stopped").touch()
            if fault == "early-reply":
                time.sleep(0.3)
                write_out(text)
            time.sleep(FOREVER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
