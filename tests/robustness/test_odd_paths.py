"""Every input path a command takes, pointed at what is not a readable file: a device, a FIFO, a folder,
a missing file, a name with a NUL byte. Each is refused at once as bad input (exit 3) naming the path;
none hangs, reads without end or crashes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

from tests.cli import run_cli

pytestmark = pytest.mark.infrastructure("input paths that are not files: exit 3, named, never a hang")

COMMANDS: dict[str, Callable[[str], list[str]]] = {
    "verify --scenario-file": lambda p: ["verify", "--scenario-file", p, "--quiet", "--no-record"],
    "explore --scenario-file": lambda p: ["explore", "--scenario-file", p, "--quiet"],
    "diff --scenario-file": lambda p: ["diff", "default", "heal=revised", "--scenario-file", p, "--quiet", "--no-smt"],
    "smt crosscheck --scenario-file": lambda p: ["smt", "crosscheck", "--game", "fftcg", "--scenario-file", p],
    "replay": lambda p: ["replay", p],
    "proposal check": lambda p: ["proposal", "check", p],
    "diff with a proposal": lambda p: ["diff", "default", p, "--quiet"],
    "conformance run --suite": lambda p: ["conformance", "run", "--adapter", "x", "--suite", p],
    "conformance score --suite": lambda p: ["conformance", "score", "--suite", p],
}

SAYS = {
    "device": "is not a regular file", "fifo": "is not a regular file", "link to a device": "is not a regular file",
    "missing": "no such file", "nul": "the path contains a NUL byte",
}


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("odd")
    os.mkfifo(folder / "fifo.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    return {"device": "/dev/zero", "fifo": str(folder / "fifo.toml"), "link to a device": str(folder / "zero.toml"),
            "missing": str(folder / "missing.toml"), "nul": str(folder / "a\0b.toml")}


CASES = [(command, kind) for command in sorted(COMMANDS) for kind in sorted(SAYS)
         if not (command == "diff with a proposal" and kind == "device")]  # diff reads only *.toml as a proposal


@pytest.mark.parametrize(("command", "kind"), CASES)
def test_an_input_path_that_is_no_file_is_bad_input(odd: dict[str, str], command: str, kind: str) -> None:
    path = odd[kind]
    run = run_cli(*COMMANDS[command](path))
    assert run.code == 3, (run.code, run.err)
    assert SAYS[kind] in run.err and "Traceback" not in run.err, run.err
    assert Path(path.replace("\0", "\\0")).name in run.err.replace("\0", "\\0"), run.err
