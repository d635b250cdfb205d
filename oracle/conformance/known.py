"""Known differences: an engine's list of the differences it knows about, each with a reason.

``cardrules conformance run --known FILE`` reads a TOML file (through
:mod:`cardrules.specs.fileio`) in the format ``cardrules-known/1``, like
test262's feature flags or an xfail list::

    format = "cardrules-known/1"

    [[known]]                              # one vector, whatever differs in it
    vector = "fftcg-identical-forwards/play/1a2b3c4d5e6f"
    suite = "fftcg-default"                # optional: only in this suite
    reason = "we draw before the damage check; fix planned"

    [[known]]                              # a pattern: every difference blamed on a clause
    clause = "FF-PARTY-UNBLOCKED-ONE"
    action = "split"                       # optional: the first word of the step's action
    field = "state.players[*].damage"      # optional: the field (list indices as [*]), or a part of it
    reason = "the split is not written yet"

Each entry names ``vector`` or ``clause`` (not both) and a ``reason``. A
difference the runner reports as ``fail`` (or an ``error`` or a process
fault) that an entry matches becomes ``known`` with the first matching
entry's reason; a vector all of whose differences are known gets the
verdict ``known``: counted apart, never a failure, never a suspect. An
entry that matched nothing is *stale* and is listed, so the file does not
outlive the bugs it excuses. ``field`` matches the generalised field
(:func:`cardrules.oracle.conformance.grouping.generalise`) exactly or as its
start (``state.players[*]`` matches ``state.players[*].damage``).

Every problem with the file is one line naming the file, the entry and the
field (``known.toml: known[2].reason: 'reason' is a required property``):
bad input, exit 3.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import jsonschema

from cardrules.oracle.conformance.grouping import Actions, Seen, differences_of, generalise
from cardrules.oracle.conformance.runner import PROCESS_VERDICTS, VectorResult
from cardrules.oracle.errors import InputError
from cardrules.specs.fileio import load_toml

FORMAT = "cardrules-known/1"
MAX_BYTES = 1_000_000
"""Largest known-differences file read."""
FAILING = ("fail", "error", *PROCESS_VERDICTS)
"""The verdicts of a difference a known entry can excuse."""

_TEXT = {"type": "string", "minLength": 1, "maxLength": 2000}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["format", "known"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "known": {
            "type": "array",
            "maxItems": 10_000,
            "items": {
                "type": "object",
                "required": ["reason"],
                "additionalProperties": False,
                "properties": {name: _TEXT for name in ("vector", "suite", "clause", "action", "field", "reason")},
            },
        },
    },
}
"""The JSON Schema of a known-differences file (``vector`` or ``clause``, not both, is checked after it)."""


class KnownError(InputError):
    """A known-differences file that cannot be used: ``FILE: known[N].FIELD: problem`` (exit 3)."""


@dataclass(frozen=True)
class KnownEntry:
    """One entry: a vector, or a pattern of clause (and action kind, and field)."""

    index: int
    reason: str
    vector: str | None = None
    suite: str | None = None
    clause: str | None = None
    action: str | None = None
    field: str | None = None

    def describe(self) -> str:
        """The entry on one line: what it matches."""
        parts = [f"{name} {value}" for name, value in (("vector", self.vector), ("suite", self.suite),
                                                        ("clause", self.clause), ("action", self.action),
                                                        ("field", self.field)) if value is not None]
        return f"known[{self.index}]: " + ", ".join(parts)

    def matches(self, seen: Seen) -> bool:
        """Whether this entry excuses the difference ``seen``."""
        if self.vector is not None and seen.vector != self.vector:
            return False
        if self.suite is not None and seen.suite != self.suite:
            return False
        if self.clause is not None and self.clause not in seen.blamed:
            return False
        if self.action is not None and seen.kind != self.action:
            return False
        if self.field is not None:
            wanted = generalise(self.field)
            if seen.field != wanted and not seen.field.startswith((wanted + ".", wanted + "[", wanted + " ")):
                return False
        return True

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


@dataclass(frozen=True)
class KnownFile:
    path: str
    entries: tuple[KnownEntry, ...]


def _where(error: jsonschema.ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [name for name in error.validator_value if name not in error.instance]
        path += f".{missing[0]}" if path and missing else missing[0] if missing else ""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        path += f".{extra[0]}" if path and extra else extra[0] if extra else ""
    return path or "(top)"


def parse_known(data: Any, path: str, clauses: frozenset[str] | None = None) -> KnownFile:
    """A :class:`KnownFile` from a parsed document; ``clauses``: the clause IDs an entry may name (None: any)."""
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data),
                    key=lambda e: ([str(p) for p in e.absolute_path], e.message))
    if errors:
        message = errors[0].message.replace("\n", " ")
        raise KnownError(f"{path}: {_where(errors[0])}: {message[:200]}")
    entries = []
    for index, entry in enumerate(data["known"]):
        if ("vector" in entry) == ("clause" in entry):
            problem = "gives both" if "vector" in entry else "needs one of"
            raise KnownError(f"{path}: known[{index}]: {problem} 'vector' and 'clause' (an entry names one vector, "
                             "or a pattern of clause, action and field)")
        if clauses is not None and "clause" in entry and entry["clause"] not in clauses:
            raise KnownError(f"{path}: known[{index}].clause: unknown clause {entry['clause']!r}")
        if "action" in entry and len(entry["action"].split()) != 1:
            raise KnownError(f"{path}: known[{index}].action: {entry['action']!r} is not one word (the first word of "
                             "an action, e.g. 'split')")
        entries.append(KnownEntry(index, **entry))
    return KnownFile(path, tuple(entries))


def load_known(path: str | Path, clauses: frozenset[str] | None = None) -> KnownFile:
    """Read and check a known-differences file (KnownError, or FileProblem for an unreadable file: exit 3)."""
    if clauses is None:
        from cardrules.specs.catalogue import default_catalogue

        clauses = default_catalogue().ids
    return parse_known(load_toml(path, MAX_BYTES), str(path), clauses)


@dataclass
class Classified:
    """A run's results after the known differences are set apart."""

    results: list[VectorResult]
    """Every vector, a vector whose every failing difference is known with the verdict ``known``."""
    differences: list[Seen]
    """Every difference of every vector that did not pass, with ``known`` ones marked (and their reason)."""
    known: KnownFile | None = None
    matched: dict[int, int] = field(default_factory=dict)
    """Entry index -> differences it matched."""

    @property
    def stale(self) -> list[KnownEntry]:
        """The entries that matched no difference."""
        return [] if self.known is None else [e for e in self.known.entries if not self.matched.get(e.index)]

    def reasons(self, suite: str, vector: str) -> tuple[str, ...]:
        """The reasons of a vector's known differences, each once, in order."""
        found = [s.reason for s in self.differences if (s.suite, s.vector) == (suite, vector) and s.verdict == "known"]
        return tuple(dict.fromkeys(found))


def classify(results: Sequence[VectorResult], known: KnownFile | None = None,
             actions: Actions | None = None) -> Classified:
    """Every difference of ``results``; with ``known``, those an entry matches marked ``known`` and the vectors
    with nothing else failing given the verdict ``known``. ``actions``: the steps' actions of the suites run
    (:func:`cardrules.oracle.conformance.grouping.step_actions`), for records that do not name theirs."""
    differences = [s for r in results for s in differences_of(r, actions) if r.verdict not in ("skipped", "unsupported")]
    outcome = Classified(list(results), differences, known)
    if known is None:
        return outcome
    marked: list[Seen] = []
    for seen in differences:
        entry = next((e for e in known.entries if seen.verdict in FAILING and e.matches(seen)), None)
        if entry is not None:
            outcome.matched[entry.index] = outcome.matched.get(entry.index, 0) + 1
            seen = dataclasses.replace(seen, verdict="known", reason=entry.reason)
        marked.append(seen)
    outcome.differences = marked
    still: dict[tuple[str, str], bool] = {}
    for seen in marked:
        key = (seen.suite, seen.vector)
        still[key] = still.get(key, False) or seen.verdict in FAILING
    outcome.results = [dataclasses.replace(r, verdict="known")
                       if r.verdict in FAILING and still.get((r.suite, r.vector)) is False else r for r in results]
    return outcome


def known_json(outcome: Classified) -> dict[str, Any]:
    """The ``known`` part of ``--json``: the file, its entries with what they matched, the stale ones."""
    if outcome.known is None:
        return {"file": None, "vectors": 0, "differences": 0, "entries": [], "stale": []}
    return {
        "file": outcome.known.path,
        "vectors": sum(r.verdict == "known" for r in outcome.results),
        "differences": sum(s.verdict == "known" for s in outcome.differences),
        "entries": [{**e.to_json(), "matched": outcome.matched.get(e.index, 0)} for e in outcome.known.entries],
        "stale": [e.index for e in outcome.stale],
    }


def known_lines(outcome: Classified) -> list[str]:
    """The text report's known part: the vectors set apart with their reasons, then the stale entries."""
    if outcome.known is None:
        return []
    lines = [f"known differences ({outcome.known.path}; not counted: no failure, no suspect):"]
    for result in outcome.results:
        if result.verdict == "known":
            lines.append(f"  {result.suite} {result.vector}: {'; '.join(outcome.reasons(result.suite, result.vector))}")
    partly = sorted({(s.suite, s.vector) for s in outcome.differences if s.verdict == "known"}
                    - {(r.suite, r.vector) for r in outcome.results if r.verdict == "known"})
    for suite, vector in partly:
        number = sum(s.verdict == "known" for s in outcome.differences if (s.suite, s.vector) == (suite, vector))
        lines.append(f"  {suite} {vector}: {number} difference(s) known, others still fail: "
                     f"{'; '.join(outcome.reasons(suite, vector))}")
    if len(lines) == 1:
        lines.append("  (none matched)")
    for entry in outcome.stale:
        lines.append(f"  stale entry, matched nothing: {entry.describe()} ({entry.reason})")
    return lines
