"""What running one vector found: its verdict and every difference seen (see :mod:`.runner`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

VERDICTS = ("pass", "fail", "reading", "skipped", "unsupported", "error", "crashed", "timeout", "garbage")
"""Every verdict the runner gives (the report side adds ``known``)."""


@dataclass
class DifferenceRecord:
    """One difference between the engine and a vector (with keep-going, every one is recorded)."""

    step: int
    """0: the start position; n: after the vector's n-th step; for a refusal, the refused step."""
    action: str | None
    """The action of that step (``None`` at the start position)."""
    where: str
    field: str
    """What differed: ``state <json path>``, ``legal actions``, ``apply``, ``refusal``."""
    expected: str
    got: str
    blamed: tuple[str, ...]
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    verdict: str = "fail"
    """``fail``, or ``reading``: the step's clauses carry a decision the engine declared a reading of."""
    reading: tuple[str, ...] = ()
    """The declared decisions (``decision=option``) that made it a reading."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "action": self.action, "where": self.where, "field": self.field,
                               "expected": self.expected, "got": self.got, "blamed": list(self.blamed),
                               "verdict": self.verdict}
        if self.missing or self.extra:
            out.update({"missing": list(self.missing), "extra": list(self.extra)})
        if self.reading:
            out["reading"] = list(self.reading)
        return out


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
    skipped_for: tuple[str, ...] = ()
    """Verdict ``skipped``: the features the engine did not declare (or ``reading d=x``), never sent."""
    reading: tuple[str, ...] = ()
    """The declared decisions (``decision=option``) involved in the vector's reading differences."""
    differences: list[DifferenceRecord] = field(default_factory=list)
    """Every difference seen (the engine reloaded at the expected state after each); the first is
    ``step``/``where``/``expected``/``got``."""

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
        if self.skipped_for:
            out["skipped_for"] = list(self.skipped_for)
        if self.reading:
            out["reading"] = list(self.reading)
        if len(self.differences) > 1 or any(d.verdict != "fail" for d in self.differences):
            out["differences"] = [d.to_json() for d in self.differences]
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


