"""One adapter subprocess, spoken to in JSON lines, with deadlines and output limits.

The command is split with :func:`shlex.split` and started without a shell.
Each request is one line on the adapter's stdin; the reply is the next line
on its stdout. :meth:`AdapterProcess.request` raises :class:`AdapterFault`
with the verdict ``crashed`` (the adapter exited or closed its output),
``timeout`` (no full reply before the deadline) or ``garbage`` (a reply that
is not a JSON object, or a line longer than :data:`MAX_LINE_BYTES`: an
adapter flooding its output). After a fault the process is killed; the
runner starts a fresh one for the next vector.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from typing import IO, Any

MAX_LINE_BYTES = 8 * 1024 * 1024
"""A reply line longer than this is garbage (a flooding adapter)."""


class AdapterFault(Exception):
    """The adapter failed as a process: ``verdict`` is ``crashed``, ``timeout`` or ``garbage``."""

    def __init__(self, verdict: str, message: str) -> None:
        self.verdict = verdict
        self.message = message
        super().__init__(f"{verdict}: {message}")


class AdapterCommandError(ValueError):
    """The adapter command is empty or cannot be started at all."""


def split_command(command: str) -> list[str]:
    """The argument vector of an adapter command (:class:`AdapterCommandError` if malformed or empty)."""
    try:
        argv = shlex.split(command)
    except ValueError as problem:
        raise AdapterCommandError(f"adapter command {command!r}: {problem}") from None
    if not argv:
        raise AdapterCommandError("the adapter command is empty")
    return argv


class AdapterProcess:
    """A running adapter. Use :meth:`request`; :meth:`close` always ends the process."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.stderr: IO[bytes] = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, start_new_session=True
            )
        except OSError as problem:
            self.stderr.close()
            raise AdapterCommandError(f"cannot start adapter {argv[0]!r}: {problem.strerror or problem}") from None
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.fd, selectors.EVENT_READ)
        self.buffer = bytearray()
        self.fresh = True
        """No reply received yet (the runner allows start-up time for the first one)."""

    def stderr_tail(self, limit: int = 400) -> str:
        """The last characters the adapter wrote on stderr (for crash messages)."""
        try:
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - limit))
            return self.stderr.read().decode(errors="replace").strip()
        except (OSError, ValueError):
            return ""

    def _crashed(self, what: str) -> AdapterFault:
        try:
            code: int | None = self.proc.wait(timeout=0.5)  # it closed its output: it is usually exiting
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail()
        status = f" (exit status {code})" if code is not None else ""
        return AdapterFault("crashed", f"{what}{status}" + (f"; stderr: {tail}" if tail else ""))

    def request(self, message: dict[str, Any], deadline: float) -> dict[str, Any]:
        """Send one request and return the reply object, or raise :class:`AdapterFault`."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, OSError, ValueError):
            raise self._crashed("the adapter stopped reading its input") from None
        line = self._read_line(deadline)
        try:
            reply = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise AdapterFault("garbage", f"reply is not JSON: {line[:120]!r}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise AdapterFault("garbage", f"reply is not an object with a boolean 'ok': {line[:120]!r}")
        return reply

    def _read_line(self, deadline: float) -> bytes:
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                return line
            if len(self.buffer) > MAX_LINE_BYTES:
                raise AdapterFault("garbage", f"reply line longer than {MAX_LINE_BYTES:,} bytes (output flood)")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AdapterFault("timeout", "no reply before the deadline")
            if not self.selector.select(remaining):
                continue
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._crashed("the adapter closed its output")
            self.buffer.extend(chunk)

    def close(self) -> None:
        """End the process (politely if it is healthy, else by kill) and free its pipes."""
        try:
            if self.proc.poll() is None:
                try:
                    assert self.proc.stdin is not None
                    self.proc.stdin.close()
                    self.proc.wait(timeout=0.5)
                except (OSError, ValueError, subprocess.TimeoutExpired):
                    pass
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, 9)
                except (ProcessLookupError, PermissionError):
                    self.proc.kill()
                self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            self.selector.close()
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            self.stderr.close()
