"""Running the command line in-process, for every test that checks what a user of ``cardrules`` sees."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass

from cardrules.oracle.cli import main


def run(*args: str) -> tuple[int, str]:
    """``cardrules ARGS``: the exit code and what it printed on standard output (standard error is left
    to pytest's capture, for ``capsys``)."""
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


@dataclass(frozen=True)
class CliRun:
    """One run of the command line: exit code, standard output, standard error."""

    code: int
    out: str
    err: str


def run_cli(*argv: str) -> CliRun:
    """``cardrules ARGV`` with both streams captured; exceptions other than a clean exit propagate (the
    test fails)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(argv), out=out)
    return CliRun(code, out.getvalue(), err.getvalue())
