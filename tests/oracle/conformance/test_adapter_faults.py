"""Fault injection: ``cardrules conformance run`` against adapters that crash, hang, stop reading, flood,
answer out of turn or leave a child holding the pipes.

Each case runs the command line on a three-vector suite whose middle vector triggers the fault in
``faulty_adapter.py``, and checks: the faulty vector gets its verdict, the vectors before and after it
still pass (the adapter is restarted), the run ends in time with the documented exit code, and no
process of any adapter started (nor a child of one) is left, not even a zombie.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from cardrules.oracle.conformance.adapter import serve
from cardrules.oracle.conformance.process import MAX_LINE_BYTES

from tests.cli import CliRun, run_cli

pytestmark = pytest.mark.infrastructure("the conformance runner's handling of a faulty adapter process")

FAULTY = Path(__file__).with_name("faulty_adapter.py")
TIMEOUT = 1.0
"""Seconds per vector given to the runner (``--timeout``)."""

GUARD = 30.0
"""Seconds after which a run counts as hung (the test fails instead of hanging)."""

PAD = 2 * 1024 * 1024
"""Bytes of padding in the faulty vector's state for ``no-read`` and ``early-reply``: far more than a pipe
holds (64 KiB)."""


@dataclass(frozen=True)
class Fault:
    """One fault of ``faulty_adapter.py`` and what the run must give."""

    name: str
    verdict: str
    """The middle (faulty) vector's verdict; the first and last vectors pass."""
    says: str
    """Part of the faulty vector's ``got`` (the fault's message)."""
    code: int = 1
    timeout: float = TIMEOUT
    sleep: float = 0.0
    """For ``slow``: seconds the adapter takes to answer."""
    pad: int = 0


FAULTS = [
    Fault("crash-mid", "crashed", "exit status 9"),
    Fault("hang", "timeout", "no reply before the deadline"),
    Fault("no-read", "timeout", "did not read the request", pad=PAD),
    Fault("early-reply", "garbage", "before the whole request was read", pad=PAD),
    Fault("close-stdout", "crashed", "closed its output"),
    Fault("garbage", "garbage", "reply is not JSON"),
    Fault("long-line", "garbage", f"longer than {MAX_LINE_BYTES:,} bytes"),
    Fault("stderr-flood", "pass", "", code=0),
    Fault("stderr-flood-crash", "crashed", "exit status 5"),
    Fault("stale", "garbage", "answers no request"),
    # near the deadline, with a second's margin either way for a loaded machine
    Fault("slow", "pass", "", code=0, timeout=4.0, sleep=3.0),
    Fault("slow", "timeout", "no reply before the deadline", timeout=4.0, sleep=5.0),
    Fault("fork-holds-pipe", "crashed", "the adapter exited (exit status 7)"),
]


def vector(index: int, faulty: bool, pad: int) -> dict[str, Any]:
    """A play vector of the fake engine: one step ``go`` (legal first, nothing legal after)."""
    state: dict[str, Any] = {"tag": f"v{index}", "fault": faulty}
    if pad:
        state["pad"] = "p" * pad
    return {"id": f"v{index}", "kind": "play", "clauses": ["FF-BASE-UNBLOCKED-DAMAGE"], "narrative": f"vector {index}",
            "state": state, "legal_actions": ["go"], "start_clauses": [],
            "steps": [{"action": "go", "state": {"tag": f"v{index}", "after": "go"}, "legal_actions": []}]}


def write_suite(folder: Path, pad: int) -> Path:
    """Three vectors; the middle one triggers the fault (and carries ``pad`` bytes)."""
    suite = {"format": "cardrules-vectors/3", "suite": "faults", "game": "fftcg", "cardrules_version": "0",
             "rule_set": {"expression": "default", "versions": {}, "decisions": {}},
             "clauses_in_force": ["FF-BASE-UNBLOCKED-DAMAGE"],
             "vectors": [vector(0, False, 0), vector(1, True, pad), vector(2, False, 0)]}
    path = folder / "faults.json"
    path.write_text(json.dumps(suite))
    return path


def groups_alive(groups: set[int]) -> dict[int, str]:
    """Every process (a zombie too) whose process group is one of ``groups``: pid -> its state, parent, group."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        state, parent, group = stat[stat.rindex(")") + 2:].split()[:3]
        if int(group) in groups:
            found[int(entry.name)] = f"state {state}, parent {parent}, group {group}"
    return found


@pytest.fixture
def record(tmp_path: Path) -> Iterator[Path]:
    """The folder where each adapter process leaves its pid; afterwards, any group left is killed."""
    folder = tmp_path / "pids"
    folder.mkdir()
    yield folder
    recorded = {int(p.name) for p in folder.iterdir() if p.name.isdigit()}
    for group in {int(info.split()[-1]) for info in groups_alive(recorded).values()}:
        try:
            os.killpg(group, signal.SIGKILL)  # only after a failure: do not leave it to the other tests
        except (ProcessLookupError, PermissionError):
            pass


def run_guarded(*argv: str) -> tuple[CliRun, float]:
    """``cardrules ARGV`` in a thread: its run and seconds taken; fails the test if it has not ended in GUARD s."""
    done: list[CliRun] = []
    started = time.monotonic()
    thread = threading.Thread(target=lambda: done.append(run_cli(*argv)), daemon=True)
    thread.start()
    thread.join(GUARD)
    assert not thread.is_alive(), f"the run hung for {GUARD} s"
    assert done, "the run raised"
    return done[0], time.monotonic() - started


def run_fault(fault: Fault, record: Path, tmp_path: Path) -> tuple[CliRun, list[dict[str, Any]], float]:
    """Run the fault's suite through the command line: the run, its vectors' results, seconds taken."""
    suite = write_suite(tmp_path, fault.pad)
    adapter = f"{sys.executable} {FAULTY} {fault.name} {record} {fault.sleep}"
    run, seconds = run_guarded("conformance", "run", "--adapter", adapter, "--suite", str(suite),
                               "--timeout", str(fault.timeout), "--json", "--quiet")
    vectors = json.loads(run.out)["vectors"] if run.out else []
    return run, vectors, seconds


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f"{f.name}-{f.verdict}")
def test_a_faulty_adapter_gets_a_verdict_the_run_goes_on_and_no_process_is_left(
    fault: Fault, record: Path, tmp_path: Path
) -> None:
    run, vectors, seconds = run_fault(fault, record, tmp_path)
    assert [v["verdict"] for v in vectors] == ["pass", fault.verdict, "pass"], (vectors, run.err)
    assert fault.says in vectors[1].get("got", ""), vectors[1]
    assert run.code == fault.code
    assert vectors[1]["seconds"] < fault.timeout + 2.0, vectors[1]
    assert seconds < 3 * fault.timeout + 8.0
    started = {int(p.name) for p in record.iterdir() if p.name.isdigit()}
    assert len(started) >= (2 if fault.verdict != "pass" else 1)  # restarted after the fault
    assert groups_alive(started) == {}


def test_an_adapter_that_crashes_at_start_crashes_every_vector_naming_its_exit_and_stderr(
    record: Path, tmp_path: Path
) -> None:
    run, vectors, _ = run_fault(Fault("exit-at-start", "crashed", ""), record, tmp_path)
    assert [v["verdict"] for v in vectors] == ["crashed"] * 3 and run.code == 1
    assert all("exit status 3" in v["got"] and "the engine refuses to start" in v["got"] for v in vectors), vectors
    started = {int(p.name) for p in record.iterdir() if p.name.isdigit()}
    assert len(started) == 3 and groups_alive(started) == {}


def test_a_line_without_end_is_cut_at_the_limit_not_read_whole(record: Path, tmp_path: Path) -> None:
    _, vectors, _ = run_fault(Fault("long-line", "garbage", ""), record, tmp_path)
    assert vectors[1]["verdict"] == "garbage" and vectors[1]["seconds"] < 5
    assert int((record / "written").read_text()) < MAX_LINE_BYTES + 4 * 1024 * 1024  # of the 100 MB it meant to


def test_a_crash_after_a_stderr_flood_names_the_last_words_and_keeps_the_message_short(
    record: Path, tmp_path: Path
) -> None:
    _, vectors, _ = run_fault(Fault("stderr-flood-crash", "crashed", ""), record, tmp_path)
    assert vectors[1]["got"].endswith("last words") and len(vectors[1]["got"]) < 1000, vectors[1]["got"][-200:]


def test_a_fork_holding_the_pipe_is_a_crash_found_at_once_not_a_timeout(record: Path, tmp_path: Path) -> None:
    _, vectors, _ = run_fault(Fault("fork-holds-pipe", "crashed", "", timeout=5.0), record, tmp_path)
    assert vectors[1]["verdict"] == "crashed" and vectors[1]["seconds"] < 2.5, vectors[1]
    # the hello's process (a legacy adapter is closed after its refused hello), two adapters (one restart)
    # and the child, none of them left:
    assert len(list(record.iterdir())) == 4
    assert groups_alive({int(p.name) for p in record.iterdir()}) == {}


@pytest.mark.parametrize("command", [
    "python3 a.py | cat", "x; rm -rf /tmp/none", "a && b", "a || b", "engine > out.txt", "engine < in.txt",
    "engine &", "engine `id`", "engine $(id)", 'engine "$(id)"', "engine ${HOME}", "engine\0x", "'unclosed",
])
def test_an_adapter_command_with_shell_syntax_or_a_nul_byte_is_bad_input(command: str, tmp_path: Path) -> None:
    run = run_cli("conformance", "run", "--adapter", command, "--suite", str(write_suite(tmp_path, 0)))
    assert run.code == 3, run.err
    assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err
    if command != "'unclosed":
        assert ("without a shell" in run.err) != ("\0" in command), run.err


def test_quoted_shell_characters_are_plain_arguments(record: Path, tmp_path: Path) -> None:
    adapter = f"{sys.executable} {FAULTY} ok {record} 0 'a|b;c' \"x>y\" 'z$(w)'"
    run, _ = run_guarded("conformance", "run", "--adapter", adapter, "--suite", str(write_suite(tmp_path, 0)),
                         "--timeout", str(TIMEOUT), "--quiet")
    assert run.code == 0, run.out + run.err


@pytest.mark.parametrize(("line", "says"), [
    ("[" * 100_000, "nested more than"),
    ('{"op": "load", "n": ' + "7" * 5000 + "}", "more than"),
    ('{"op": ', "not valid JSON"),
])
def test_the_reference_adapter_answers_a_hostile_line_bad_request_and_goes_on(line: str, says: str) -> None:
    raw = line.encode() + b"\n\xff\xfe not UTF-8\n" + b'{"op": "legal_actions"}\n'
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    out = io.StringIO()
    assert serve(stdin=stdin, stdout=out) == 0
    replies = [json.loads(reply) for reply in out.getvalue().splitlines()]
    assert [r["error"] for r in replies] == ["bad-request"] * 3
    assert says in replies[0]["message"] and "request" in replies[0]["message"]
    assert "send 'load' first" in replies[2]["message"]  # still serving after the hostile lines
