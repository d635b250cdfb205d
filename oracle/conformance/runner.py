"""Running conformance suites against any engine through an adapter.

Protocol (JSON lines, ``cardrules-adapter/2``). The runner starts the adapter command (split with
:func:`shlex.split`, never through a shell) and writes one JSON object per
line on its stdin; the adapter answers each with exactly one JSON object on
one line of its stdout (stderr is free for logs):

- ``{"op":"hello","protocol":"cardrules-adapter/2"}``, always first -> what the engine declares::

    {"ok":true,"engine":"node-fftcg-example","profile":"observable",
     "games":{"fftcg":{"features":["party","p-icon-party"],"readings":{"party-blocker-power-remainder":"floor"}}},
     "macro_steps":["fftcg:damage-resolution"],"compare_at":"decisions"}

  ``profile``: ``observable`` (``state`` replies are the game's observable JSON form,
  ``observable_json`` in ``model/<game>/observable.py``) or ``full`` (the model's exact JSON state);
  ``games.G.features``: the features of game G implemented (ids of ``specs/clauses/features/features.toml``;
  a vector needing another gets the verdict ``skipped``, naming them in ``skipped_for``, and is never sent);
  ``games.G.readings``: decision id -> option id implemented (others: the catalogue's chosen option; a
  difference at a step whose clauses carry a declared non-default reading is a ``reading``, and a suite
  generated under another option of a declared decision is ``skipped`` for ``reading d=x``);
  ``macro_steps``: steps merged into the action before them (:data:`.macro.MACRO_STEPS`: FFTCG's
  ``fftcg:damage-resolution``, the model's ``pass`` in either part of Damage Resolution, and
  ``fftcg:combat-end``, its ``pass`` in the Combat End Step; their actions are not sent and states are
  compared at the next point not merged); ``compare_at``: ``every-step`` (default) or
  ``decisions`` (only where a player decides: more than one legal action, or none, and at the last step).
  A protocol 1 adapter answers ``ok:false`` (any error): profile ``full``, every feature, the default
  readings, no macro steps (:data:`.declaration.LEGACY`), exactly the behaviour before the hello (that
  process is closed and the vectors run on fresh ones that never see a hello; a reply ``ok:true`` naming
  neither ``profile`` nor ``games`` counts as protocol 1 too). A bad declaration is bad input
  (:class:`.declaration.HelloError`).
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
- ``{"op":"state"}`` -> ``{"ok":true,"state":{...}}`` (the position in the declared profile's JSON form;
  fields the state format marks ``x-unspecified`` are never compared)
- ``{"op":"quit"}`` (optional; closing stdin also ends the session)

An ``invalid`` vector (``cardrules-vectors/3``) holds a state that breaks the state format's consistency
rules: its ``load`` must be answered ``{"ok":false,"error":"bad-request",...}`` (an ``unsupported`` answer
gives the verdict ``unsupported``; loading it, or any other failure, fails the vector).

Failures are ``{"ok":false,"error":KIND,"message":TEXT}`` with KIND ``illegal``,
``unsupported``, ``bad-request`` or ``internal``.

Verdicts per vector: ``pass``, ``fail`` (a difference: the first is kept as
expected vs got, and blamed on the clauses of that step; with keep-going, the default, the engine is then
loaded with the vector's expected state and the rest checked, every difference in ``differences``),
``reading`` (every difference is a declared reading), ``skipped`` (never sent), ``unsupported``,
``error`` (an unexpected failure reply; with keep-going a step answered ``unsupported`` or ``error`` is
recorded with that verdict and the engine reloaded to go on, as after a ``fail``: the vector is ``fail``
if any answer was wrong, else ``error``, else ``unsupported``), and for the adapter as a process
``crashed``, ``timeout`` and ``garbage`` (then the adapter is restarted for
the next vector). The runner keeps every result so far and never stops early.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from cardrules.oracle.conformance.checks import Check, Stop, check_invalid, check_refusal, check_steps
from cardrules.oracle.conformance.declaration import HELLO, LEGACY, Declaration, HelloError, parse_hello
from cardrules.oracle.conformance.macro import inside
from cardrules.oracle.conformance.macro_perft import contracted_perft, declares_for
from cardrules.oracle.conformance.process import AdapterCommandError, AdapterFault, AdapterProcess
from cardrules.oracle.conformance.results import (Difference, DifferenceRecord, VectorResult, printable,
                                                  short)
from cardrules.oracle.jsondiff import first_difference
from cardrules.specs.catalogue.features import vector_features, vector_states

__all__ = ["PROCESS_VERDICTS", "STARTUP_SECONDS", "Difference", "DifferenceRecord", "HelloError", "Run", "Session", "VectorResult", "printable",
           "run_adapter", "run_suites", "run_vector", "short"]

PROCESS_VERDICTS = ("crashed", "timeout", "garbage")


STARTUP_SECONDS = 15.0
"""Allowed, on top of the vector's timeout, for a freshly started adapter's first reply (imports)."""


@dataclass
class Run:
    """What the adapter declared and the result of every vector."""

    declaration: Declaration
    results: list[VectorResult]


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


def check_perft(session: Session, suite: dict[str, Any], vector: dict[str, Any], result: VectorResult,
                profile: str = "full", macro_steps: frozenset[str] = frozenset()) -> None:
    """Count action sequences with load/legal_actions/apply/state, as python-chess's perft files. Under the
    observable profile a position is the path of actions from the start (its state cannot be loaded back).
    An engine that declared macro steps of the game is held to the counts of the model's tree with the
    merged actions contracted (:mod:`.macro_perft`), not to the vector's."""
    depth = vector["depth"]
    if declares_for(suite["game"], macro_steps):
        nodes, contracted = contracted_perft(suite, vector, macro_steps)
        vector = {**vector, "nodes": nodes, "divide": contracted}

    def reach(position: Any) -> None:
        if profile == "full":
            session.load(suite, position)
            return
        session.load(suite, vector["state"])
        for action in position:
            session.call({"op": "apply", "action": action}, f"perft apply {action!r}")

    def children(position: Any) -> list[tuple[str, Any]]:
        reach(position)
        out = []
        for action in session.legal():
            reach(position)
            session.call({"op": "apply", "action": action}, f"perft apply {action!r}")
            out.append((action, session.state() if profile == "full" else (*position, action)))
        return out

    def perft(state: Any, remaining: int) -> list[int]:
        """Node counts at 1..remaining actions below ``state``."""
        if remaining == 1:
            reach(state)
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
    for action, child in children(vector["state"] if profile == "full" else ()):
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


def skip_reason(declaration: Declaration, suite: dict[str, Any], vector: dict[str, Any]) -> tuple[str, ...]:
    """Why a vector is not sent: the features it needs that the engine lacks, the suite's reading of a
    decision the engine declared another option of (``reading d=x``), or a refusal at a point inside a
    declared macro step (``inside macro step m``); empty: send it."""
    decisions = suite.get("rule_set", {}).get("decisions") or {}
    readings = tuple(f"reading {d}={o}" for d, o in sorted(decisions.items())
                     if declaration.readings.get(d, o) != o)
    if readings:
        return readings
    if vector["kind"] in ("refusal", "perft"):
        at = vector["steps"][-1]["state"] if vector.get("steps") else vector["state"]
        macro = inside(suite["game"], declaration.macro_steps, at)
        if macro is not None:  # the engine never stops there: no position to refuse an action at or count from
            return (f"inside macro step {macro}",)
    requires = vector.get("requires")
    needed = requires if isinstance(requires, list) else vector_features(
        suite["game"], vector["clauses"], vector_states(vector))
    return declaration.lacks(suite["game"], needed)


def run_vector(process: AdapterProcess, suite: dict[str, Any], vector: dict[str, Any], timeout: float,
               declaration: Declaration = LEGACY, keep_going: bool = True) -> VectorResult:
    """Run one vector; process faults propagate (the caller restarts the adapter)."""
    result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]), "pass")
    session = Session(process, timeout)
    check = Check(session, suite, declaration, result, keep_going)
    try:
        if vector["kind"] == "invalid":
            check_invalid(check, vector)
        elif vector["kind"] != "perft":
            session.load(suite, vector["state"])
        if vector["kind"] == "play":
            check_steps(check, vector)
        elif vector["kind"] == "refusal":
            check_refusal(check, vector)
        elif vector["kind"] == "perft":
            check_perft(session, suite, vector, result, declaration.profile, declaration.macro_steps)
    except Stop:
        pass
    except Difference as difference:
        result.verdict = difference.verdict
        result.where, result.expected, result.got = difference.where, difference.expected, difference.got
        result.missing, result.extra, result.divide = difference.missing, difference.extra, difference.divide
        result.blamed = blame_of(vector, result.step)
        return result
    return settle(result)


SETTLE_ORDER = ("fail", "error", "unsupported", "reading")
"""A vector's verdict from its differences: the first of these that one of them has."""


def settle(result: VectorResult) -> VectorResult:
    """The verdict from the differences recorded: none pass; else the first of :data:`SETTLE_ORDER` that a
    difference has (a wrong answer anywhere fails the vector, even after a step the engine answered
    ``unsupported``; a vector with only ``unsupported`` answers and readings is ``unsupported``). The first
    difference with that verdict fills the result's ``step``/``where``/``expected``/``got``/``blamed``."""
    if not result.differences:
        return result
    found = {d.verdict for d in result.differences}
    result.verdict = next(v for v in SETTLE_ORDER if v in found)
    first = next(d for d in result.differences if d.verdict == result.verdict)
    result.step, result.where, result.expected, result.got = first.step, first.where, first.expected, first.got
    result.blamed, result.missing, result.extra = first.blamed, first.missing, first.extra
    result.reading = tuple(sorted({r for d in result.differences for r in d.reading}))
    return result


def hello(argv: list[str], timeout: float, started_before: bool) -> tuple[Declaration, AdapterProcess | None]:
    """Start the adapter and read its hello: its declaration, and the process to run vectors on. A legacy
    adapter's process is closed (``None``), so that the vectors' processes see exactly the requests of protocol
    1; a fault propagates (the first vector's verdict). A reply that is not a valid declaration is bad input
    (:class:`HelloError`)."""
    try:
        process = AdapterProcess(argv)
    except AdapterCommandError as problem:
        if not started_before:
            raise  # the command cannot start at all: bad input
        raise AdapterFault("crashed", str(problem)) from None
    try:
        declaration = parse_hello(process.request(HELLO, time.monotonic() + timeout + STARTUP_SECONDS))
    except BaseException:
        process.close()
        raise
    process.fresh = False
    if declaration.protocol < 2:
        process.close()
        return declaration, None
    return declaration, process


def run_adapter(argv: list[str], suites: Sequence[dict[str, Any]], timeout: float, *,
                on_result: Callable[[VectorResult], None] | None = None, keep_going: bool = True) -> Run:
    """Say hello, then run every vector of every suite under the declaration; an adapter fault is that
    vector's verdict, then a restart (a protocol 2 adapter's new process gets the hello again, its reply
    unread). An adapter that fails at its hello gets that fault on the first vector, and is a legacy one."""
    declaration: Declaration | None = None
    process: AdapterProcess | None = None
    results: list[VectorResult] = []
    try:
        for suite in suites:
            for vector in suite["vectors"]:
                started = time.monotonic()
                skipped: tuple[str, ...] = ()
                try:
                    if declaration is None:
                        declaration = LEGACY
                        declaration, process = hello(argv, timeout, bool(results))
                    skipped = skip_reason(declaration, suite, vector)
                except AdapterFault as fault:
                    result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]),
                                          fault.verdict, where="adapter", got=fault.message,
                                          blamed=tuple(vector["clauses"]))
                else:
                    if skipped:
                        result = VectorResult(suite["suite"], vector["id"], vector["kind"],
                                              tuple(vector["clauses"]), "skipped", skipped_for=skipped)
                    else:
                        result, process = one_vector(argv, process, suite, vector, timeout, declaration,
                                                     keep_going, bool(results))
                result.seconds = time.monotonic() - started
                results.append(result)
                if on_result is not None:
                    on_result(result)
    finally:
        if process is not None:
            process.close()
    return Run(declaration or LEGACY, results)


def one_vector(argv: list[str], process: AdapterProcess | None, suite: dict[str, Any], vector: dict[str, Any],
               timeout: float, declaration: Declaration, keep_going: bool,
               started_before: bool) -> tuple[VectorResult, AdapterProcess | None]:
    """One vector on the running process (started, with its hello, when there is none)."""
    try:
        if process is None:
            try:
                process = AdapterProcess(argv)
            except AdapterCommandError as problem:
                if not started_before:
                    raise  # the command cannot start at all: bad input
                raise AdapterFault("crashed", str(problem)) from None
            if declaration.protocol >= 2:
                process.request(HELLO, time.monotonic() + timeout + STARTUP_SECONDS)
                process.fresh = False
        return run_vector(process, suite, vector, timeout, declaration, keep_going), process
    except AdapterFault as fault:
        result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]),
                              fault.verdict, where="adapter", got=fault.message, blamed=tuple(vector["clauses"]))
    except AdapterCommandError:
        raise
    except Exception as problem:  # the runner itself must survive any vector
        result = VectorResult(suite["suite"], vector["id"], vector["kind"], tuple(vector["clauses"]),
                              "error", where="runner", got=f"{type(problem).__name__}: {problem}")
    if process is not None:
        process.close()
    return result, None


def run_suites(
    argv: list[str],
    suites: Sequence[dict[str, Any]],
    timeout: float,
    on_result: Callable[[VectorResult], None] | None = None,
) -> list[VectorResult]:
    """Every vector's result (:func:`run_adapter` without its declaration, for existing callers)."""
    return run_adapter(argv, suites, timeout, on_result=on_result).results



def run_with_progress(argv: list[str], suites: Sequence[dict[str, Any]], timeout: float, *, keep_going: bool,
                      quiet: bool, title: str) -> Run:
    """:func:`run_adapter` under a progress display named ``title``: vectors run so far, then how many
    passed of those counted (``unsupported``, ``skipped`` and ``reading`` are set apart)."""
    from cardrules.oracle.progress import RunProgress

    total = sum(len(s["vectors"]) for s in suites)
    with RunProgress(title, 1, quiet=quiet) as progress, \
            progress.phase(f"{len(suites)} suite(s), {total} vectors") as phase:
        done: list[VectorResult] = []

        def on_result(result: VectorResult) -> None:
            done.append(result)
            phase.count(len(done), f"of {total} vectors run")

        run = run_adapter(argv, suites, timeout, on_result=on_result, keep_going=keep_going)
        apart = sum(r.verdict in ("unsupported", "skipped", "reading") for r in run.results)
        phase.result = (f"{sum(r.verdict == 'pass' for r in run.results)} of {len(run.results) - apart} vectors pass"
                        + (f", {apart} set apart (not counted)" if apart else ""))
    return run
