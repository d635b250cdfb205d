"""Every difference of a run, grouped by kind: the clause blamed, the kind of action, the field that differs.

The runner keeps going after a difference (it loads the vector's expected
state and checks the rest), so one engine bug shows as many differences, in
many vectors. Grouping them answers "how many distinct problems are there":
each difference is one :class:`Seen`, and differences of one kind make one
:class:`Group`:

- the *clause*: of the clauses blamed for the difference (those of the step
  where it showed), the one ranking highest as a suspect (ties: the first by
  ID), so each difference counts in exactly one group;
- the *action kind*: the first word of the action of that step (``attack``,
  ``block``, ``split``, ``pass``, ``remove``, ...); ``start`` for the start
  position, ``-`` when no action is involved (a load, a perft count);
- the *field*: where the engine's answer differs, as a path with every list
  index written ``[*]`` (``state.players[*].damage``, ``legal_actions``,
  ``refuse.clauses``), so the same field of another player or card is the
  same kind.

A group's example is its shortest reproduction: the difference reached in
the fewest steps (then the vector with the fewest steps checked, then by
suite and vector id), printed whole.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from cardrules.oracle.conformance.runner import VectorResult

NO_CLAUSE = "(no clause)"
NO_ACTION = "-"
_STEP = re.compile(r"^(?:step \d+|start|after the refusal)\s+")
_QUOTED = re.compile(r"""\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")
_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class Seen:
    """One difference of one vector, as the report sees it (a record of the runner's, or the vector's only one)."""

    suite: str
    vector: str
    index: int
    """Its place among the vector's differences (0: the first)."""
    step: int | None
    action: str | None
    where: str
    field: str
    """Where it differs, generalised (:func:`generalise`)."""
    expected: str
    got: str
    blamed: tuple[str, ...]
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    verdict: str = "fail"
    """``fail`` (or the vector's own verdict: ``error``, ``crashed``, ...), ``reading`` or ``known``."""
    reason: str = ""
    """Why it is known (the known-differences entry's ``reason``)."""
    checked: int = dataclasses.field(default=0, compare=False)
    """Steps of its vector found equal (the tie-break for the shortest example)."""

    @property
    def kind(self) -> str:
        """The first word of the action of the step where it showed (``start``, or ``-`` with no action)."""
        return action_kind(self.action, self.step)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"suite": self.suite, "vector": self.vector, "step": self.step, "action": self.action,
                               "where": self.where, "field": self.field, "expected": self.expected, "got": self.got,
                               "blamed": list(self.blamed), "verdict": self.verdict}
        if self.missing or self.extra:
            out.update({"missing": list(self.missing), "extra": list(self.extra)})
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class Group:
    """Differences of one kind: (clause, action kind, field)."""

    clause: str
    action: str
    field: str
    members: list[Seen]

    @property
    def count(self) -> int:
        return len(self.members)

    @property
    def vectors(self) -> int:
        """How many vectors show a difference of this kind."""
        return len({(s.suite, s.vector) for s in self.members})

    @property
    def example(self) -> Seen:
        """The shortest reproduction: fewest steps to the difference, then fewest steps checked, then by id."""
        return min(self.members, key=lambda s: (s.step or 0, s.checked, s.suite, s.vector, s.index))

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "action": self.action, "field": self.field, "count": self.count,
                "vectors": self.vectors, "example": self.example.to_json()}


def generalise(path: str) -> str:
    """A field path with every list index written ``[*]`` and a state's ``$`` root written ``state``."""
    path = _INDEX.sub("[*]", path.strip())
    if path == "$" or path.startswith("$.") or path.startswith("$["):
        path = "state" + path[1:]
    return path


def field_of(where: str) -> str:
    """The generalised field of a runner's ``where`` (``step 3 state $.players[0].damage`` ->
    ``state.players[*].damage``; ``start legal actions`` -> ``legal_actions``; ``refuse 'x' clauses`` ->
    ``refuse.clauses``)."""
    text = _QUOTED.sub("", _STEP.sub("", where.strip()))
    words = text.split(" ", 1)
    head, rest = words[0], words[1].strip() if len(words) > 1 else ""
    if head == "state":
        return generalise(rest or "$")
    if text == "legal actions":
        return "legal_actions"
    if head == "perft":
        if rest.startswith("divide"):
            return "perft.divide"
        return "perft.nodes" if rest == "node counts" else "perft." + rest.split(" ", 1)[0]
    if head in ("refuse", "apply"):
        return head + (f".{rest}" if rest else "")
    return generalise(text) if text else "-"


def action_of(where: str) -> str | None:
    """The quoted action in a runner's ``where`` (``step 2 apply 'split a1 2'`` -> ``split a1 2``), if any."""
    found = _QUOTED.search(where)
    return found.group(0).strip()[1:-1] if found else None


def action_kind(action: str | None, step: int | None) -> str:
    if action:
        return action.split()[0]
    return "start" if step == 0 else NO_ACTION


Actions = Mapping[tuple[str, str], Sequence[str]]
"""(suite, vector id) -> the actions of its steps, in order (a refusal's refused action last)."""


def step_actions(suites: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The actions of every vector's steps, for differences whose record does not name the action."""
    out = {}
    for suite in suites:
        for vector in suite["vectors"]:
            actions = [step["action"] for step in vector.get("steps", ())]
            if vector.get("refuse"):
                actions.append(vector["refuse"]["action"])
            out[(suite["suite"], vector["id"])] = tuple(actions)
    return out


def _action(result: VectorResult, step: int | None, where: str, actions: Actions | None) -> str | None:
    """The action of ``step`` of the vector: from its ``where``, else from the suite's steps (None: the start)."""
    named = action_of(where)
    if named is not None or not step or actions is None:
        return named
    steps = actions.get((result.suite, result.vector), ())
    return steps[step - 1] if step <= len(steps) else None


def differences_of(result: VectorResult, actions: Actions | None = None) -> list[Seen]:
    """The differences of a vector that did not pass: the runner's records (every one, when it kept going), or
    the vector's only difference (a runner that stopped at it, a process fault, a hand-made result).
    ``actions`` (:func:`step_actions`) names the action of a difference whose record does not."""
    if result.verdict == "pass":
        return []
    checked = len(result.passed_steps)
    records: Sequence[Any] = getattr(result, "differences", None) or ()
    out = []
    for index, record in enumerate(records):
        # the runner's records carry their own verdicts (``fail``, ``reading``, ``error``, ``unsupported``)
        own = result.verdict in ("fail", "reading", "error", "unsupported")
        verdict = record.verdict if own else result.verdict
        out.append(Seen(result.suite, result.vector, index, record.step,
                        record.action or _action(result, record.step, record.where, actions),
                        record.where, field_of(record.where),
                        record.expected, record.got, tuple(record.blamed), tuple(record.missing),
                        tuple(record.extra), verdict, checked=checked))
    if not out:
        out.append(Seen(result.suite, result.vector, 0, result.step, _action(result, result.step, result.where, actions),
                        result.where, field_of(result.where), result.expected, result.got, result.blamed,
                        result.missing, result.extra, result.verdict, checked=checked))
    return out


def clause_of(seen: Seen, ranking: Mapping[str, float]) -> str:
    """Of the clauses blamed for ``seen``, the one ranking highest (ties: the first by ID)."""
    if not seen.blamed:
        return NO_CLAUSE
    return min(seen.blamed, key=lambda c: (-ranking.get(c, 0.0), c))


def group(differences: Sequence[Seen], ranking: Mapping[str, float]) -> list[Group]:
    """The differences grouped by (clause, action kind, field), the largest group first (then by key)."""
    groups: dict[tuple[str, str, str], Group] = {}
    for seen in differences:
        key = (clause_of(seen, ranking), seen.kind, seen.field)
        groups.setdefault(key, Group(*key, members=[])).members.append(seen)
    return sorted(groups.values(), key=lambda g: (-g.count, -g.vectors, g.clause, g.action, g.field))
