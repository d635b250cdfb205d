"""One adapter subprocess, spoken to in JSON lines, with deadlines and output limits.

The command is split with :func:`shlex.split` and started without a shell,
in a session (and process group) of its own; a command holding shell syntax
(a pipe, a redirection, ``;``, ``&&``, a substitution) or a NUL byte is
refused by :func:`split_command`. Each request is one line on the adapter's
stdin; the reply is the next line on its stdout. Writing the request and
reading the reply are both non-blocking and bounded by the same deadline, in
one selector loop that also drains stderr (its last :data:`STDERR_KEPT` bytes
are kept, for crash messages) and watches the adapter's exit.

:meth:`AdapterProcess.request` raises :class:`AdapterFault` with the verdict
``crashed`` (the adapter exited, or closed its output or its input, even if a
child of it still holds the pipes), ``timeout`` (the request not read, or no
full reply, before the deadline) or ``garbage`` (a reply that is not a JSON
object, a line longer than :data:`MAX_LINE_BYTES`, or output that answers no
request: a second line for one request). The protocol carries no request id,
so a reply is matched to its request only by order. After a fault the
adapter's whole process group is killed and reaped; the runner starts a fresh
process for the next vector.
"""

from __future__ import annotations

import ctypes
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from typing import Any

from cardrules.specs.fileio import FileProblem, parse_json

MAX_LINE_BYTES = 8 * 1024 * 1024
"""A reply line longer than this is garbage (a flooding adapter)."""

STDERR_KEPT = 64 * 1024
"""The last bytes of the adapter's stderr kept in memory (the rest is read and dropped)."""

CHUNK = 1 << 16
"""Bytes read or written per system call."""

EXIT_GRACE = 0.5
"""Seconds a closed or exiting adapter gets to report its exit status (or, at the end, to exit by itself)."""

REAP_SECONDS = 2.0
"""Longest wait, after killing the process group, for its members to be reaped."""

SHELL_OPERATORS = ("||", "&&", ">>", "<<", ";;", "|", "&", ";", "<", ">", "\n")
"""Shell control and redirection operators, refused outside quotes (the command is run without a shell)."""

PR_SET_CHILD_SUBREAPER = 36
"""Linux ``prctl`` option: orphaned descendants are re-parented to this process (which then reaps them)."""


class AdapterFault(Exception):
    """The adapter failed as a process: ``verdict`` is ``crashed``, ``timeout`` or ``garbage``."""

    def __init__(self, verdict: str, message: str) -> None:
        self.verdict = verdict
        self.message = message
        super().__init__(f"{verdict}: {message}")


class AdapterCommandError(ValueError):
    """The adapter command is empty, malformed, holds shell syntax, or cannot be started at all."""


def shell_syntax(command: str) -> tuple[str, int] | None:
    """The first piece of shell syntax a shell would act on (an operator outside quotes, or a
    substitution outside single quotes) and its offset; ``None`` if there is none."""
    quote = ""
    index = 0
    while index < len(command):
        char = command[index]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            index += 1  # the next character is escaped
        elif char == '"':
            quote = "" if quote else '"'
        elif char == "`" or (char == "$" and command[index + 1:index + 2] in ("(", "{")):
            return command[index:index + 2 if char == "$" else index + 1], index
        elif char == "'" and not quote:
            quote = "'"
        elif not quote:
            operator = next((op for op in SHELL_OPERATORS if command.startswith(op, index)), None)
            if operator is not None:
                return operator, index
        index += 1
    return None


def split_command(command: str) -> list[str]:
    """The argument vector of an adapter command (:class:`AdapterCommandError` if malformed, empty, with a
    NUL byte or with shell syntax, which would otherwise be passed on silently as arguments)."""
    if "\0" in command:
        raise AdapterCommandError(f"adapter command {command!r}: holds a NUL byte")
    found = shell_syntax(command)
    if found is not None:
        operator, offset = found
        raise AdapterCommandError(
            f"adapter command {command!r}: {operator!r} at character {offset + 1} is shell syntax, but the command "
            "is run without a shell (put a pipeline, redirection or substitution in a script and name the script)")
    try:
        argv = shlex.split(command)
    except ValueError as problem:
        raise AdapterCommandError(f"adapter command {command!r}: {problem}") from None
    if not argv:
        raise AdapterCommandError("the adapter command is empty")
    return argv


_SUBREAPER: list[bool] = []


def become_subreaper() -> None:
    """On Linux, adopt orphaned descendants (once per process), so that the children an adapter forked are
    reaped here when its group is killed, not left as zombies where init does not reap them (containers)."""
    if _SUBREAPER or not sys.platform.startswith("linux"):
        return
    _SUBREAPER.append(True)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def exit_watch(pid: int) -> int | None:
    """A file descriptor that becomes readable when process ``pid`` exits (Linux pidfd), or ``None``."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


class AdapterProcess:
    """A running adapter. Use :meth:`request`; :meth:`close` always ends the process and its group."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        become_subreaper()
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True)
        except (OSError, ValueError) as problem:
            reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else problem
            raise AdapterCommandError(f"cannot start adapter {argv[0]!r}: {reason}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self.pgid = self.proc.pid
        """The adapter's process group (and session): its pid, as it was started with a new session."""
        self.stdin_fd, self.fd, self.err_fd = (s.fileno() for s in (self.proc.stdin, self.proc.stdout,
                                                                      self.proc.stderr))
        for fd in (self.stdin_fd, self.fd, self.err_fd):
            os.set_blocking(fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.fd, selectors.EVENT_READ)
        self.selector.register(self.err_fd, selectors.EVENT_READ)
        self.exit_fd = exit_watch(self.proc.pid)
        if self.exit_fd is not None:
            self.selector.register(self.exit_fd, selectors.EVENT_READ)
        self.buffer = bytearray()
        self.scanned = 0
        """Bytes of :attr:`buffer` already searched for a newline."""
        self.errors = bytearray()
        self.closed = self.killed = False
        self.fresh = True
        """No reply received yet (the runner allows start-up time for the first one)."""

    def stderr_tail(self, limit: int = 400) -> str:
        """The last characters the adapter wrote on stderr (for crash messages)."""
        return bytes(self.errors[-limit:]).decode(errors="replace").strip()

    def request(self, message: dict[str, Any], deadline: float) -> dict[str, Any]:
        """Send one request and return the reply object, or raise :class:`AdapterFault` (the adapter's
        process group is then killed)."""
        try:
            self._no_unsolicited_output()
            line = self._exchange(json.dumps(message, separators=(",", ":")).encode() + b"\n", deadline)
            return self._reply_object(line)
        except AdapterFault:
            self.kill()
            raise

    def _reply_object(self, line: bytes) -> dict[str, Any]:
        try:
            reply = parse_json(line.decode(), "reply")
        except (FileProblem, UnicodeDecodeError) as problem:
            raise AdapterFault("garbage", f"reply is not JSON ({problem}): {line[:120]!r}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise AdapterFault("garbage", f"reply is not an object with a boolean 'ok': {line[:120]!r}")
        return reply

    def _no_unsolicited_output(self) -> None:
        """Output waiting before a request is sent answers no request (a second reply to the last one)."""
        self._read_available(self.fd, MAX_LINE_BYTES)
        if bytes(self.buffer).strip():
            raise AdapterFault("garbage", "output that answers no request (one reply line per request): "
                               f"{bytes(self.buffer[:120])!r}")
        self.buffer.clear()
        self.scanned = 0

    def _exchange(self, data: bytes, deadline: float) -> bytes:
        """Write ``data`` and read one reply line, both before ``deadline``."""
        pending = memoryview(data)
        self.selector.register(self.stdin_fd, selectors.EVENT_WRITE)
        try:
            while True:
                line = self._take_line()
                if line is not None and pending:
                    raise AdapterFault("garbage", "a reply before the whole request was read (it answers no request): "
                                       f"{line[:120]!r}")
                if line is not None:
                    return line
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self._timed_out(len(data) - len(pending), len(data))
                if self.exit_fd is None:  # no pidfd: look at the process now and then
                    remaining = min(remaining, 0.05)
                    if self.proc.poll() is not None:
                        self._exited()
                for key, _ in self.selector.select(remaining):
                    pending = self._on_ready(key.fd, pending)
        finally:
            if self.stdin_fd in self.selector.get_map():
                self.selector.unregister(self.stdin_fd)

    def _on_ready(self, fd: int, pending: memoryview) -> memoryview:
        """Handle one ready descriptor; returns what is left of the request to write."""
        if fd == self.stdin_fd:
            try:
                written = os.write(fd, pending[:CHUNK])
            except BlockingIOError:
                return pending
            except OSError:
                raise self._crashed("the adapter stopped reading its input") from None
            if written == len(pending):
                self.selector.unregister(fd)
            return pending[written:]
        if fd == self.fd:
            if self._read_chunk(fd) is None:
                raise self._crashed("the adapter closed its output")
        elif fd == self.err_fd:
            self._read_chunk(fd)
        elif fd == self.exit_fd:
            self._exited()
        return pending

    def _take_line(self) -> bytes | None:
        """The next complete reply line in the buffer, if any (:class:`AdapterFault` if it is too long)."""
        newline = self.buffer.find(b"\n", self.scanned)
        if newline < 0:
            self.scanned = len(self.buffer)
            if len(self.buffer) > MAX_LINE_BYTES:
                raise AdapterFault("garbage", f"reply line longer than {MAX_LINE_BYTES:,} bytes (output flood)")
            return None
        if newline > MAX_LINE_BYTES:
            raise AdapterFault("garbage", f"reply line longer than {MAX_LINE_BYTES:,} bytes (output flood)")
        line = bytes(self.buffer[:newline])
        del self.buffer[: newline + 1]
        self.scanned = 0
        return line

    def _read_chunk(self, fd: int) -> int | None:
        """Read what one call gives from stdout or stderr: the bytes read (0: nothing waiting), ``None`` at
        end of file."""
        try:
            chunk = os.read(fd, CHUNK)
        except BlockingIOError:
            return 0
        except OSError:
            chunk = b""
        if fd == self.err_fd:
            if not chunk:
                self.selector.unregister(fd)  # stderr closed: the adapter may go on without it
            self.errors.extend(chunk)
            del self.errors[:-STDERR_KEPT]
        else:
            self.buffer.extend(chunk)
        return len(chunk) or None

    def _read_available(self, fd: int, limit: int) -> None:
        """Read what is already waiting on ``fd`` (up to about ``limit`` bytes), without blocking."""
        read = 0
        while read < limit and fd in self.selector.get_map():
            got = self._read_chunk(fd)
            if not got:
                return
            read += got

    def _exited(self) -> None:
        """The adapter process has exited: a reply it wrote before is still taken, else it crashed (even
        if a child of it still holds its output open)."""
        self._read_available(self.fd, MAX_LINE_BYTES + CHUNK)
        if b"\n" not in self.buffer:
            raise self._crashed("the adapter exited")

    def _crashed(self, what: str) -> AdapterFault:
        try:
            code: int | None = self.proc.wait(timeout=EXIT_GRACE)  # it closed a pipe: it is usually exiting
        except subprocess.TimeoutExpired:
            code = None
        self._read_available(self.err_fd, 4 * STDERR_KEPT)
        tail = self.stderr_tail()
        status = f" (exit status {code})" if code is not None else ""
        return AdapterFault("crashed", f"{what}{status}" + (f"; stderr: {tail}" if tail else ""))

    def _timed_out(self, written: int, total: int) -> AdapterFault:
        if written < total:
            return AdapterFault("timeout", f"the adapter did not read the request before the deadline "
                                f"({written:,} of {total:,} bytes written)")
        return AdapterFault("timeout", "no reply before the deadline")

    def kill(self) -> None:
        """Kill the adapter's whole process group and reap it: no orphan, no zombie of ours left."""
        if self.killed:
            return
        self.killed = True
        try:
            os.killpg(self.pgid, signal.SIGKILL)  # the group outlives its leader while a member is alive
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=REAP_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        give_up = time.monotonic() + REAP_SECONDS
        while True:  # children of the adapter that were re-parented to us (see become_subreaper)
            try:
                pid, _ = os.waitpid(-self.pgid, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                if time.monotonic() > give_up:
                    return
                time.sleep(0.01)

    def close(self) -> None:
        """End the process (its input closed, a moment to exit by itself, then its group killed) and free
        its pipes. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.proc.poll() is None:
                try:
                    assert self.proc.stdin is not None
                    self.proc.stdin.close()
                    self.proc.wait(timeout=EXIT_GRACE)
                except (OSError, ValueError, subprocess.TimeoutExpired):
                    pass
            self.kill()
        finally:
            self.selector.close()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            if self.exit_fd is not None:
                os.close(self.exit_fd)
