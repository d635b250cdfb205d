"""Checking one vector against an engine: its steps, a refusal, an invalid state, a perft count.

A :class:`Check` holds what the engine declared (:mod:`.declaration`) and applies it: states are
compared in the engine's profile (:mod:`.profiles`) without the fields the rules leave open, the
actions of declared macro steps (:mod:`.macro`) are not sent, states are compared only where a
player decides if the engine asked so, and with keep-going every difference is recorded and the
engine is loaded with the vector's expected state to go on: after a wrong answer (``fail``), and also
after an ``unsupported`` or ``error`` answer to a step's request (the engine lacks or broke on one
operation; its session goes on), which keeps that verdict. A wrong answer at a step whose clauses carry a
decision the engine declared a non-default reading of is a ``reading``, not a failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from cardrules.oracle.conformance import FORMAT_V1
from cardrules.oracle.conformance.declaration import Declaration
from cardrules.oracle.conformance.macro import inside, merged
from cardrules.oracle.conformance.profiles import comparable, observable_of
from cardrules.oracle.conformance.process import AdapterProcess
from cardrules.oracle.conformance.results import Difference, DifferenceRecord, VectorResult, short
from cardrules.oracle.jsondiff import first_difference

class Session(Protocol):
    """The requests of one vector (:class:`.runner.Session`)."""

    process: AdapterProcess
    deadline: float

    def reply(self, message: dict[str, Any]) -> dict[str, Any]: ...

    def call(self, message: dict[str, Any], what: str) -> dict[str, Any]: ...

    def load(self, suite: dict[str, Any], state: Any) -> None: ...

    def legal(self) -> list[str]: ...

    def state(self) -> Any: ...


@lru_cache(maxsize=1)
def clause_decisions() -> dict[str, tuple[tuple[str, str], ...]]:
    """Clause ID -> ((decision id, chosen option), ...) of the decisions the catalogue records on it."""
    from cardrules.specs.catalogue import default_catalogue

    return {c.id: tuple((d.id, d.chosen) for d in c.decisions) for c in default_catalogue().clauses}


@dataclass
class Check:
    """One vector's check: the suite, what the engine declared, and whether to go on after a difference."""

    session: Session
    suite: dict[str, Any]
    declaration: Declaration
    result: VectorResult
    keep_going: bool = True

    @property
    def game(self) -> str:
        return str(self.suite["game"])

    def expected_state(self, step: dict[str, Any] | None, full: Any) -> Any:
        """The expected state in the engine's profile (a v4 step carries its observable form)."""
        if self.declaration.profile == "full":
            return comparable(self.game, "full", full)
        shown = step.get("observable") if step is not None else None
        return comparable(self.game, "observable", shown if shown is not None else observable_of(self.game, full))

    def reading_of(self, blamed: tuple[str, ...]) -> tuple[str, ...]:
        """The declared non-default readings (``d=o``) of decisions carried by ``blamed`` clauses."""
        chosen_in_suite = self.suite.get("rule_set", {}).get("decisions") or {}
        found = set()
        for clause in blamed:
            for decision, chosen in clause_decisions().get(clause, ()):
                declared = self.declaration.readings.get(decision)
                if declared is not None and declared != chosen_in_suite.get(decision, chosen):
                    found.add(f"{decision}={declared}")
        return tuple(sorted(found))

    def record(self, difference: Difference, step: int, action: str | None, blamed: tuple[str, ...],
               what: str, reload: Any = None) -> None:
        """Record ``difference``; stop the vector unless keep-going (then load ``reload`` to go on)."""
        # an answer the engine gave as a failure (``unsupported``, ``error``) keeps its own verdict
        reading = self.reading_of(blamed) if difference.verdict == "fail" else ()
        verdict = difference.verdict if difference.verdict != "fail" else "reading" if reading else "fail"
        self.result.differences.append(DifferenceRecord(
            step=step, action=action, where=difference.where, field=what, expected=difference.expected,
            got=difference.got, blamed=blamed, missing=difference.missing, extra=difference.extra,
            verdict=verdict, reading=reading))
        if not self.keep_going or reload is None:
            raise Stop()
        try:
            self.session.load(self.suite, reload)
        except Difference:
            # the engine refuses the vector's own expected state (a corrupted expectation, or a state it does
            # not support): the difference already recorded is the vector's verdict; nothing more to check
            raise Stop() from None

    def compare_legal(self, expected: list[str], where: str) -> None:
        got = self.session.legal()
        if expected != got:
            missing = sorted(set(expected) - set(got))
            extra = sorted(set(got) - set(expected))
            raise Difference(f"{where} legal actions", short(expected),
                             short(got) + f" ({len(missing)} missing, {len(extra)} extra)",
                             missing=missing, extra=extra)

    def compare_state(self, expected: Any, where: str) -> None:
        got = comparable(self.game, self.declaration.profile, self.session.state())
        found = first_difference(expected, got)
        if found is not None:
            path, a, b = found
            raise Difference(f"{where} state {path}", short(a), short(b))


class Stop(Exception):
    """The vector's check ends here (the differences are recorded)."""


def checkpoints(check: Check, vector: dict[str, Any]) -> tuple[list[bool], list[bool]]:
    """Which steps are sent (not merged) and after which steps (0: the start) states are compared."""
    steps = vector["steps"]
    befores = [vector["state"]] + [s["state"] for s in steps[:-1]]
    declared = check.declaration.macro_steps
    sent = [True] + [number == 1 or not merged(check.game, declared, befores[number - 1], step["action"])
                     for number, step in enumerate(steps, 1)]
    compare = []
    for number in range(len(steps) + 1):
        last = number == len(steps)
        final = steps[-1]["state"] if steps else vector["state"]
        at = (inside(check.game, declared, final) is None) if last else sent[number + 1]
        if at and not last and check.declaration.compare_at == "decisions":
            legal = steps[number - 1]["legal_actions"] if number else vector["legal_actions"]
            at = len(legal) != 1  # a player decides (or the game is over)
        compare.append(at)
    return sent, compare


def check_steps(check: Check, vector: dict[str, Any]) -> None:
    """The start position and every step of a play or refusal vector."""
    session, result = check.session, check.result
    sent, compare = checkpoints(check, vector)
    result.step = 0
    if compare[0]:
        try:
            check.compare_legal(vector["legal_actions"], "start")
        except Difference as difference:
            check.record(difference, 0, None, tuple(vector.get("start_clauses", ())), "legal actions",
                         vector["state"])
    result.passed_steps.append(tuple(vector.get("start_clauses", ())))
    pending: list[tuple[str, ...]] = []
    for number, step in enumerate(vector["steps"], 1):
        result.step = number
        clauses = tuple(step.get("clauses", ()))
        pending.append(clauses)
        if sent[number]:
            try:
                session.call({"op": "apply", "action": step["action"]}, f"step {number} apply {step['action']!r}")
            except Difference as difference:
                # an ``unsupported`` or ``error`` answer is not the engine's end: with keep-going the vector's
                # expected state after this step is loaded and the rest checked, as after a ``fail``
                check.record(difference, number, step["action"], clauses, "apply", step["state"])
                pending = []
                continue
        if not compare[number]:
            continue
        blamed = tuple(sorted({c for group in pending for c in group}))
        try:
            check.compare_state(check.expected_state(step, step["state"]), f"step {number}")
            check.compare_legal(step["legal_actions"], f"step {number}")
        except Difference as difference:
            what = "legal actions" if difference.where.endswith("legal actions") else "state"
            check.record(difference, number, step["action"], blamed, what, step["state"])
            pending = []
            continue
        result.passed_steps.extend(pending)
        pending = []


def compare_refusal_clauses(suite: dict[str, Any], refuse: dict[str, Any], reply: dict[str, Any]) -> None:
    """The clauses the engine names for a refusal are the vector's (``cardrules-vectors/2`` on)."""
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


def check_refusal(check: Check, vector: dict[str, Any]) -> None:
    check_steps(check, vector)
    session, suite, refuse = check.session, check.suite, vector["refuse"]
    number = len(vector["steps"]) + 1
    check.result.step = number
    blamed = tuple(refuse.get("clauses", ())) or tuple(vector["clauses"])
    try:
        reply = session.process.request({"op": "apply", "action": refuse["action"]}, session.deadline)
        if reply["ok"] or reply.get("error") != "illegal":
            got = "accepted" if reply["ok"] else f"{reply.get('error')}: {short(reply.get('message', ''))}"
            raise Difference(f"refuse {refuse['action']!r}", "illegal", got)
        if suite.get("format") != FORMAT_V1:
            compare_refusal_clauses(suite, refuse, reply)
        last = vector["steps"][-1] if vector["steps"] else None
        before = last["state"] if last is not None else vector["state"]
        check.compare_state(check.expected_state(last, before), "after the refusal")
    except Difference as difference:
        check.record(difference, number, refuse["action"], blamed, "refusal")


def check_invalid(check: Check, vector: dict[str, Any]) -> None:
    """The engine refuses to load an invalid state as bad input (``bad-request``)."""
    suite = check.suite
    check.result.step = 0
    reply = check.session.reply({"op": "load", "game": suite["game"], "rule_set": suite["rule_set"],
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
