"""Running conformance suites against any engine through an adapter.

Protocol (JSON lines). The runner starts the adapter command (split with
:func:`shlex.split`, never through a shell) and writes one JSON object per
line on its stdin; the adapter answers each with exactly one JSON object on
one line of its stdout (stderr is free for logs):

- ``{"op":"load","game":"fftcg","rule_set":{"expression":...,"versions":{...},"decisions":{...}},"state":{...}}``
  -> ``{"ok":true}``; a rule set the engine does not implement: ``{"ok":false,"error":"unsupported",...}``
- ``{"op":"legal_actions"}`` -> ``{"ok":true,"actions":["attack a1", ...]}`` (canonical action
  texts, any order; none at a position where the game is over)
- ``{"op":"apply","action":"attack a1 a2"}`` -> ``{"ok":true}``, or for an action the rules
  forbid ``{"ok":false,"error":"illegal","message":...,"clauses":[...]}`` (a refused action
  leaves the state as it was). ``clauses`` names the clause IDs that forbid the action: a
  ``cardrules-vectors/2`` refusal vector is passed only when they are the vector's
  ``refuse.clauses`` (compared as sets, after dropping clauses not in force under the suite's
  rule set); for a ``cardrules-vectors/1`` suite, and for play steps, they are not read
- ``{"op":"state"}`` -> ``{"ok":true,"state":{...}}`` (the position in the model's JSON form)
- ``{"op":"quit"}`` (optional; closing stdin also ends the session)

An ``invalid`` vector (``cardrules-vectors/3``) holds a state that breaks the state format's consistency
rules: its ``load`` must be answered ``{"ok":false,"error":"bad-request",...}`` (an ``unsupported`` answer
gives the verdict ``unsupported``; loading it, or any other failure, fails the vector).

Failures are ``{"ok":false,"error":KIND,"message":TEXT}`` with KIND ``illegal``,
``unsupported``, ``bad-request`` or ``internal``.

Verdicts per vector: ``pass``, ``fail`` (a difference: the first is kept as
expected vs got, and blamed on the clauses of that step), ``unsupported``,
``error`` (an unexpected failure reply), and for the adapter as a process
``crashed``, ``timeout`` and ``garbage`` (then the adapter is restarted for
the next vector). The runner keeps every result so far and never stops early.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from cardrules.oracle.conformance import FORMAT_V1
from cardrules.oracle.jsondiff import first_difference
from cardrules.oracle.conformance.process import AdapterCommandError, AdapterFault, AdapterProcess

PROCESS_VERDICTS = ("crashed", "timeout", "garbage")
STARTUP_SECONDS = 15.0
"""Allowed, on top of the vector's timeout, for a freshly started adapter's first reply (imports)."""


@dataclass
class VectorResult:
    """The verdict of one vector, and where it first differed."""

    suite: str
    vector: str
    kind: str
    clauses: tuple[str, ...]
    verdict: str
    step: int | None = None
    """The step of the first difference (0: the start position; for a refusal, the refused step)."""
    where: str = ""
    expected: str = ""
    got: str = ""
    blamed: tuple[str, ...] = ()
    """Clauses of the step that differed (the ones a failure is attributed to)."""
    passed_steps: list[tuple[str, ...]] = field(default_factory=list)
    """Clauses of every step checked and found equal (exonerating evidence for blame)."""
    seconds: float = 0.0
    missing: tuple[str, ...] = ()
    """Actions expected but not offered (a legal-actions difference; a perft's first level), in full."""
    extra: tuple[str, ...] = ()
    """Actions offered but not expected (a legal-actions difference; a perft's first level), in full."""
    divide: tuple[tuple[str, int, int], ...] = ()
    """A perft failure's divide: each action from the start position whose subtree count differs, with the
    expected and the counted number of leaves below it."""

    def to_json(self) -> dict[str, Any]:
        """The result as the ``vectors`` entry of ``--json``: the difference, when it did not pass."""
        out: dict[str, Any] = {"suite": self.suite, "vector": self.vector, "kind": self.kind,
                               "verdict": self.verdict, "clauses": list(self.clauses)}
        if self.verdict != "pass":
            out.update({"step": self.step, "where": self.where, "expected": self.expected, "got": self.got,
                        "blamed": list(self.blamed)})
            if self.missing or self.extra:
                out.update({"missing": list(self.missing), "extra": list(self.extra)})
            if self.divide:
                out["divide"] = [{"action": a, "expected": e, "got": g} for a, e, g in self.divide]
        out["seconds"] = round(self.seconds, 4)
        return out


class Difference(Exception):
    """The engine disagreed with the vector (raised inside one vector's check)."""

    def __init__(self, where: str, expected: str, got: str, verdict: str = "fail", *,
                 missing: Sequence[str] = (), extra: Sequence[str] = (),
                 divide: Sequence[tuple[str, int, int]] = ()) -> None:
        where, expected, got = printable(where), printable(expected), printable(got)
        self.where, self.expected, self.got, self.verdict = where, expected, got, verdict
        self.missing = tuple(printable(a) for a in missing)
        self.extra = tuple(printable(a) for a in extra)
        self.divide = tuple((printable(a), e, g) for a, e, g in divide)
        super().__init__(f"{where}: expected {expected}, got {got}")


def printable(text: str) -> str:
    """``text`` with each lone surrogate (a JSON ``"\\ud800"`` escape in an adapter's reply or a suite) and each
    control character (a newline in an adapter's message) written as a backslash escape, so that every report
    can encode it (a terminal's strict UTF-8 stream, JUnit XML) and a report row stays one line."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


def short(value: Any, limit: int = 200) -> str:
    import json

    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Session:
    """Requests for one vector, on a process the runner supplies, within one deadline."""

    def __init__(self, process: AdapterProcess, timeout: float) -> None:
        self.process, self.timeout = process, timeout
        self.deadline = time.monotonic() + timeout + (STARTUP_SECONDS if process.fresh else 0.0)

    def reply(self, message: dict[str, Any]) -> dict[str, Any]:
        """The adapter's reply to one request, whatever it says."""
        reply = self.process.request(message, self.deadline)
        if self.process.fresh:  # started: from now on only the vector's own timeout counts
            self.process.fresh = False
            self.deadline = time.monotonic() + self.timeout
        return reply

    def call(self, message: dict[str, Any], what: str) -> dict[str, Any]:
        reply = self.reply(message)
        if not reply["ok"]:
            kind = str(reply.get("error", ""))
            verdict = "unsupported" if kind == "unsupported" else "error"
            raise Difference(what, "ok", f"{kind or 'error'}: {short(reply.get('message', ''))}", verdict)
        return reply

    def load(self, suite: dict[str, Any], state: Any) -> None:
        self.call({"op": "load", "game": suite["game"], "rule_set": suite["rule_set"], "state": state}, "load")

    def legal(self) -> list[str]:
        actions = self.call({"op": "legal_actions"}, "legal_actions").get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise AdapterFault("garbage", "legal_actions reply without an 'actions' list of strings")
        return sorted(actions)

    def state(self) -> Any:
        reply = self.call({"op": "state"}, "state")
        if "state" not in reply:
            raise AdapterFault("garbage", "state reply without a 'state'")
        return reply["state"]


def compare_legal(expected: list[str], got: list[str], where: str) -> None:
    if expected != got:
        missing = sorted(set(expected) - set(got))
        extra = sorted(set(got) - set(expected))
        raise Difference(f"{where} legal actions", short(expected),
                         short(got) + f" ({len(missing)} missing, {len(extra)} extra)", missing=missing, extra=extra)


def compare_state(expected: Any, got: Any, where: str) -> None:
    found = first_difference(expected, got)
    if found is not None:
        path, a, b = found
        raise Difference(f"{where} state {path}", short(a), short(b))


def check_steps(session: Session, vector: dict[str, Any], result: VectorResult) -> None:
    """The start position and every step of a play or refusal vector."""
    result.step = 0
    compare_legal(vector["legal_actions"], session.legal(), "start")
    result.passed_steps.append(tuple(vector.get("start_clauses", ())))
    for number, step in enumerate(vector["steps"], 1):
        result.step = number
        session.call({"op": "apply", "action": step["action"]}, f"step {number} apply {step['action']!r}")
        compare_state(step["state"], session.state(), f"step {number}")
        compare_legal(step["legal_actions"], session.legal(), f"step {number}")
        result.passed_steps.append(tuple(step.get("clauses", ())))


def compare_refusal_clauses(suite: dict[str, Any], refuse: dict[str, Any], reply: dict[str, Any]) -> None:
    """The clauses the engine names for a refusal are the vector's (``cardrules-vectors/2``)."""
    named = reply.get("clauses")
    if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
        raise Difference(f"refuse {refuse['action']!r} clauses", short(sorted(refuse["clauses"])),
                         "no 'clauses' list in the illegal reply")
    in_force = suite.get("clauses_in_force")
    got = sorted({c for c in named if in_force is None or c in in_force})
    expected = sorted(set(refuse["clauses"]))
    if got != expected:
        missing = sorted(set(expected) - set(got))
        extra = sorted(set(got) - set(expected))
        raise Difference(f"refuse {refuse['action']!r} clauses", short(expected),
                         short(got) + f" (missing {missing}, extra {extra})")


def check_refusal(session: Session, vector: dict[str, Any], result: VectorResult,
                  suite: dict[str, Any] | None = None) -> None:
    check_steps(session, vector, result)
    refuse = vector["refuse"]
    result.step = len(vector["steps"]) + 1
    reply = session.process.request({"op": "apply", "action": refuse["action"]}, session.deadline)
    if reply["ok"] or reply.get("error") != "illegal":
        got = "accepted" if reply["ok"] else f"{reply.get('error')}: {short(reply.get('message', ''))}"
        raise Difference(f"refuse {refuse['action']!r}", "illegal", got)
    if suite is not None and suite.get("format") != FORMAT_V1:
        compare_refusal_clauses(suite, refuse, reply)
    before = vector["steps"][-1]["state"] if vector["steps"] else vector["state"]
    compare_state(before, session.state(), "after the refusal")


def check_invalid(session: Session, suite: dict[str, Any], vector: dict[str, Any], result: VectorResult) -> None:
    """The engine refuses to load an invalid state as bad input (``bad-request``)."""
    result.step = 0
    reply = session.reply({"op": "load", "game": suite["game"], "rule_set": suite["rule_set"],
                           "state": vector["state"]})
    problem = vector["problem"]
    expected = f"bad-request ({problem['where']}: {problem['reason']})"
    if reply["ok"]:
        raise Difference("load of an invalid state", short(expected), "loaded")
    if reply.get("error") == "unsupported":
        raise Difference("load", short(expected), f"unsupported: {short(reply.get('message', ''))}", "unsupported")
    if reply.get("error") != "bad-request":
        raise Difference("load of an invalid state", short(expected),
                         f"{reply.get('error')}: {short(reply.get('message', ''))}")


def check_perft(session: Session, suite: dict[str, Any], vector: dict[str, Any], result: VectorResult) -> None:
    """Count action sequences with load/legal_actions/apply/state, as python-chess's perft files."""
    depth = vector["depth"]

    def children(state: Any) -> list[tuple[str, Any]]:
        session.load(suite, state)
        out = []
        for action in session.legal():
            session.load(suite, state)
            session.call({"op": "apply", "action": action}, f"perft apply {action!r}")
            out.append((action, session.state()))
        return out

    def perft(state: Any, remaining: int) -> list[int]:
        """Node counts at 1..remaining actions below ``state``."""
        if remaining == 1:
            session.load(suite, state)
            return [len(session.legal())]
        counts = [0] * remaining
        for _, child in children(state):
            counts[0] += 1
            for level, count in enumerate(perft(child, remaining - 1), 1):
                counts[level] += count
        return counts

    result.step = 0
    divide: dict[str, int] = {}
    counts = [0] * depth
    for action, child in children(vector["state"]):
        below = perft(child, depth - 1) if depth > 1 else []
        counts[0] += 1
        for level, count in enumerate(below, 1):
            counts[level] += count
        divide[action] = below[-1] if below else 1
    compare_perft(vector, counts, dict(sorted(divide.items())))


def compare_perft(vector: dict[str, Any], counts: list[int], divide: dict[str, int]) -> None:
    """The node counts per depth and the divide (leaves below each first action) are the vector's; a
    difference carries the divide's first level: the actions whose counts differ, and those missing or extra."""
    expected: dict[str, int] = vector["divide"]
    found = first_difference(expected, divide)
    if counts == vector["nodes"] and found is None:
        return
    rows = [(a, expected[a], divide[a]) for a in sorted(expected.keys() & divide.keys()) if expected[a] != divide[a]]
    missing, extra = sorted(expected.keys() - divide.keys()), sorted(divide.keys() - expected.keys())
    if counts != vector["nodes"]:
        where, want, got = "perft node counts", short(vector["nodes"]), short(counts)
    else:
        assert found is not None
        where, want, got = f"perft divide {found[0]}", short(found[1]), short(found[2])
    raise Difference(where, want, got, missing=missing, extra=extra, divide=rows)


def blame_of(vector: dict[str, Any], step: int | None) -> tuple[str, ...]:
    """The clauses of the step where a vector first differed (all its clauses if unknown)."""
    if step is None or vector["kind"] == "perft":
        return tuple(vector["clauses"])
    if step == 0:
        return tuple(vector.get("start_clauses", ()))
    steps = vector.get("steps", [])
    if step <= len(steps):
        return tuple(steps[step - 1].get("clauses", ()))
    return tuple(vector.get("refuse", {}).get("clauses", ())) or tuple(vector["clauses"])


def run_vector(process: AdapterProcess, suite: dict[str, Any], vector: dict[str, Any], timeout: float) -> VectorResult:
    """Run one vector; process faults propagate (the caller restarts the adapter)."""
    result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]), "pass")
    session = Session(process, timeout)
    try:
        if vector["kind"] == "invalid":
            check_invalid(session, suite, vector, result)
        elif vector["kind"] != "perft":
            session.load(suite, vector["state"])
        if vector["kind"] == "play":
            check_steps(session, vector, result)
        elif vector["kind"] == "refusal":
            check_refusal(session, vector, result, suite)
        elif vector["kind"] == "perft":
            check_perft(session, suite, vector, result)
    except Difference as difference:
        result.verdict = difference.verdict
        result.where, result.expected, result.got = difference.where, difference.expected, difference.got
        result.missing, result.extra, result.divide = difference.missing, difference.extra, difference.divide
        result.blamed = blame_of(vector, result.step)
    return result


def run_suites(
    argv: list[str],
    suites: Sequence[dict[str, Any]],
    timeout: float,
    on_result: Callable[[VectorResult], None] | None = None,
) -> list[VectorResult]:
    """Run every vector of every suite; an adapter fault is that vector's verdict, then a restart."""
    results: list[VectorResult] = []
    process: AdapterProcess | None = None
    try:
        for suite in suites:
            for vector in suite["vectors"]:
                started = time.monotonic()
                try:
                    if process is None:
                        try:
                            process = AdapterProcess(argv)
                        except AdapterCommandError as problem:
                            if not results:
                                raise  # the command cannot start at all: bad input
                            raise AdapterFault("crashed", str(problem)) from None
                    result = run_vector(process, suite, vector, timeout)
                except AdapterFault as fault:
                    result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]),
                                          fault.verdict, where="adapter", got=fault.message,
                                          blamed=tuple(vector["clauses"]))
                    if process is not None:
                        process.close()
                    process = None
                except AdapterCommandError:
                    raise
                except Exception as problem:  # the runner itself must survive any vector
                    result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]),
                                          "error", where="runner", got=f"{type(problem).__name__}: {problem}")
                    if process is not None:
                        process.close()
                    process = None
                result.seconds = time.monotonic() - started
                results.append(result)
                if on_result is not None:
                    on_result(result)
    finally:
        if process is not None:
            process.close()
    return results
