"""Generated adapter replies: garbage bytes, text that is not UTF-8, JSON that is not an object, objects whose
``ok``, ``state``, ``actions``, ``error``, ``message`` or ``clauses`` have the wrong type, deep nesting,
5,000-digit integers, huge strings, extra or empty lines, a line without its newline, and correct replies
mixed in.

Two ways in, both through the real ``run_suites``:

- ``scripted_adapter.py``, a real subprocess answering each request with the next scripted reply (one
  process serves several replies; after a fault the runner restarts it and it goes on with the next one):
  the pipes, the line splitting, the deadlines, the restarts and the leftover processes are exercised;
- in-process, the runner's ``AdapterProcess`` replaced by a stand-in whose ``request`` hands the next
  generated line to the real ``AdapterProcess._reply_object``: the reply parsing and every verdict check
  of the runner, a thousand replies in a second.

Every vector gets a documented verdict, never the runner's own error (``where == "runner"``: an exception
in the runner, caught by its last-resort handler), the run ends, and no adapter process is left. Each
generated reply served is one counted input (surface ``adapter replies``), under its vector's verdict.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
import tempfile
import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterator, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.oracle.conformance import runner
from cardrules.oracle.conformance.process import AdapterFault, AdapterProcess
from cardrules.oracle.conformance.report import print_report, results_json, write_junit
from cardrules.oracle.conformance.runner import VectorResult, run_suites

from tests.oracle.conformance.test_adapter_faults import groups_alive, vector
from tests.robustness.mutate import BAD_SCALARS, bad_values
from tests.robustness.scripted_adapter import correct
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("any adapter reply gets a documented verdict; the runner never breaks")

SURFACE = "adapter replies"
SCRIPTED = Path(__file__).with_name("scripted_adapter.py")
VERDICTS = ("pass", "fail", "error", "unsupported", "crashed", "timeout", "garbage")
"""Every verdict a vector can get (runner.py)."""
TIMEOUT = 0.5
"""Seconds per vector: a reply without its newline costs this much (and the start-up allowance)."""
STARTUP = 1.0
"""The runner's start-up allowance, shortened (the scripted adapter imports nothing of the project)."""
GUARD = 120.0
"""Seconds after which a run counts as hung."""
CORRECT = 0xFFFFFFFF
PER_EXAMPLE = settings(deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_WORK = Path(tempfile.mkdtemp(prefix="cardrules-fuzz-replies-"))

JSON_VALUES = st.one_of(bad_values(), st.sampled_from((["go"], [], {"tag": "v0", "after": "go"}, "illegal",
                                                         "unsupported", "bad-request", ["FF-BASE-BLOCK"])))
FIELDS = ("ok", "state", "actions", "error", "message", "clauses")


@st.composite
def reply_object(draw: st.DrawFn) -> bytes:
    """An object with some of the reply fields, each of any type (``ok`` mostly a boolean)."""
    reply: dict[str, Any] = {}
    for name in draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=len(FIELDS))):
        reply[name] = draw(st.booleans() if name == "ok" and draw(st.booleans()) else JSON_VALUES)
    return json.dumps(reply).encode()


def big_literal(draw: st.DrawFn) -> bytes:
    """A field holding a 5,000-digit integer, a string of a few MB, or arrays nested around the limit."""
    field = draw(st.sampled_from(FIELDS[1:]))
    kind = draw(st.sampled_from(("digits", "string", "nested")))
    if kind == "digits":
        value = draw(st.sampled_from(("-", ""))) + "7" * 5000
    elif kind == "string":
        value = json.dumps("s" * draw(st.sampled_from((1 << 16, 3 << 20))))
    else:
        depth = draw(st.sampled_from((98, 99, 100, 101, 5000)))
        value = "[" * depth + "]" * depth
    return f'{{"ok": {draw(st.sampled_from(("true", "false")))}, "{field}": {value}}}'.encode()


@st.composite
def reply_line(draw: st.DrawFn, newline: bool = True) -> bytes:
    """One reply: its content, and (``newline``) the line end, extra lines or (rarely) none."""
    kind = draw(st.sampled_from(("object", "object", "object", "scalar", "bytes", "not-utf8", "big", "surrogate")))
    if kind == "object":
        body = draw(reply_object())
    elif kind == "scalar":
        body = json.dumps(draw(st.one_of(st.sampled_from(BAD_SCALARS), st.lists(st.integers(), max_size=3)))).encode()
    elif kind == "bytes":
        body = draw(st.binary(max_size=40)).replace(b"\n", b" ")
    elif kind == "not-utf8":
        body = b'{"ok": true, "state": "' + draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80"))) + b'"}'
    elif kind == "big":
        body = big_literal(draw)
    else:
        body = b'{"ok": false, "error": "\\ud800", "message": "\\udfff", "clauses": ["\\udc00"]}'
    if not newline:
        return body
    end = draw(st.sampled_from((b"\n", b"\n", b"\n", b"\r\n", b"\n\n", b"\n" + body + b"\n", b"\n \n",
                                b'\n{"ok": true}\n', b"")))
    return body + end if end or draw(st.integers(0, 3)) == 0 else body + b"\n"


def play_suite(vectors: int) -> dict[str, Any]:
    """``vectors`` play vectors of the scripted adapter's engine (load, legal, apply, state, legal: five requests)."""
    return {"format": "cardrules-vectors/3", "suite": "replies", "game": "fftcg", "cardrules_version": "0",
            "rule_set": {"expression": "default", "versions": {}, "decisions": {}},
            "clauses_in_force": ["FF-BASE-UNBLOCKED-DAMAGE"], "vectors": [vector(n, False, 0) for n in range(vectors)]}


@pytest.fixture(scope="module", autouse=True)
def short_startup() -> Iterator[None]:
    """The runner's start-up allowance, shortened for the whole module (a fresh adapter's unterminated first
    reply would otherwise cost 15 s)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "STARTUP_SECONDS", STARTUP)
        yield


def check_results(results: list[VectorResult], vectors: int) -> None:
    """One documented verdict per vector, none from an exception in the runner itself."""
    assert len(results) == vectors
    for result in results:
        assert result.verdict in VERDICTS, result.to_json()
        assert result.where != "runner", result.to_json()


def write_replies(path: Path, replies: list[bytes | None]) -> None:
    """The scripted adapter's REPLIES file."""
    path.write_bytes(b"".join(CORRECT.to_bytes(4, "big") if r is None else len(r).to_bytes(4, "big") + r
                              for r in replies))


def run_guarded(argv: list[str], suite: dict[str, Any]) -> list[VectorResult]:
    """``run_suites`` in a thread: its results; fails the test if it has not ended in GUARD s."""
    done: list[list[VectorResult]] = []
    thread = threading.Thread(target=lambda: done.append(run_suites(argv, [suite], TIMEOUT)), daemon=True)
    thread.start()
    thread.join(GUARD)
    assert not thread.is_alive(), f"the run hung for {GUARD} s"
    assert done, "run_suites raised"
    return done[0]


SUBPROCESS_EXAMPLES = max(10, settings().max_examples // 3)
"""Examples of the subprocess test (ci: 20; fuzz: 333, several replies each)."""


@settings(max_examples=SUBPROCESS_EXAMPLES, deadline=timedelta(seconds=GUARD),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(replies=st.lists(st.one_of(st.none(), reply_line()), min_size=1, max_size=8))
def test_scripted_replies_through_a_real_adapter_process(replies: list[bytes | None]) -> None:
    folder = Path(tempfile.mkdtemp(dir=_WORK))
    try:
        write_replies(folder / "replies", replies)
        suite = play_suite(len(replies) + 2)
        results = run_guarded([sys.executable, str(SCRIPTED), str(folder / "replies"), str(folder)], suite)
        check_results(results, len(suite["vectors"]))
        check_report(results, folder)
        started = {int(p.name) for p in folder.iterdir() if p.name.isdigit()}
        assert started and groups_alive(started) == {}
        served = Counter(line.split()[0] for line in (folder / "served").read_text().splitlines()) \
            if (folder / "served").exists() else Counter()
        for result in results:
            if served[result.vector]:
                count(SURFACE, result.verdict, inputs=served[result.vector])
        assert sum(served.values()) >= 1  # the first vector's load was answered with the first reply
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Feed:
    """The generated replies, handed out in order to every stand-in process of one run (``None``: correct)."""

    def __init__(self, replies: list[bytes | None]) -> None:
        self.replies = replies
        self.served: list[tuple[str, bytes | None]] = []
        """Per reply handed out: the tag of the vector it answered, and the reply."""


class StandIn:
    """In place of ``AdapterProcess``: each request gets the feed's next line, parsed by the real
    ``AdapterProcess._reply_object`` (whose faults the runner turns into verdicts and restarts)."""

    def __init__(self, feed: Feed) -> None:
        self.feed, self.fresh = feed, True
        self.engine: dict[str, Any] = {"tag": "", "applied": False}

    def request(self, message: dict[str, Any], deadline: float) -> dict[str, Any]:
        line = correct(message, self.engine).rstrip(b"\n")
        if len(self.feed.served) < len(self.feed.replies):
            scripted = self.feed.replies[len(self.feed.served)]
            self.feed.served.append((self.engine["tag"], scripted))
            line = line if scripted is None else scripted
        return AdapterProcess._reply_object(cast(AdapterProcess, self), line)

    def close(self) -> None:
        """Nothing to end."""


def parses(line: bytes) -> bool:
    """Whether ``line`` is a reply at all: a JSON object with a boolean ``ok``."""
    try:
        AdapterProcess._reply_object(cast(AdapterProcess, None), line)
    except AdapterFault:
        return False
    return True


def check_report(results: list[VectorResult], folder: Path) -> None:
    """The reports of ``cardrules conformance run`` can be written: the table (on a strict UTF-8 stream, as a
    terminal's), ``--json`` and ``--junit``."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    print_report(results, out)
    out.flush()
    json.dumps(results_json(results, "stand-in", ["replies"]))
    write_junit(results, str(folder / "junit.xml"))


@PER_EXAMPLE
@given(replies=st.lists(st.one_of(st.none(), reply_line(newline=False)), min_size=1, max_size=20))
def test_generated_replies_get_documented_verdicts_in_process(replies: list[bytes | None]) -> None:
    feed = Feed(replies)
    suite = play_suite(len(replies) + 1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "AdapterProcess", lambda argv: StandIn(feed))
        results = run_suites(["stand-in"], [suite], TIMEOUT)
    check_results(results, len(suite["vectors"]))
    check_report(results, _WORK)
    for result in results:
        mine = [reply for tag, reply in feed.served if tag == result.vector]
        if mine and all(reply is None for reply in mine):
            assert result.verdict == "pass", result.to_json()
        if mine and mine[0] is not None and not parses(mine[0]):
            assert result.verdict == "garbage", result.to_json()  # the load's reply is not a reply
        if mine:
            count(SURFACE, result.verdict, inputs=len(mine))
    assert len(feed.served) == len(replies)  # one vector more than replies: every reply was handed out
