"""The decisive clause of a difference ``cardrules diff`` found: which clause's code decided the differing step.

The clauses *the change touches* (:func:`~cardrules.oracle.rulechange.lockstep.changed_clauses`, a
proposal's clauses, its hooks' extension points) are the only candidates. Among them a clause
*speaks for* rule set A unless it is in force under B only, and for B unless it is in force under A
only. The decisive clause(s) of a difference are found, in this order:

1. **A refusal** (tightened: B refuses; relaxed: A refuses): the refusing side's ``step`` raises an
   illegal-action error citing the clauses that forbid the action; those of them the change touches
   are decisive.
2. **The first call that decided differently**: the differing step is run again under A and under B
   with every call of a function linked (``@implements``) to a touched clause recorded, with its
   returned value, in the order the calls return (innermost first); a proposal's hooks are recorded
   the same way. The first position where the two records differ (another function, or the same
   function returning another value) is where the rule sets decided differently. When it is the
   same function returning another value, that function decided: for example the heal destination
   returning the owner under A (``RED-HEAL-PREV-TO-OWNER``) and the permanent controller under B
   (``RED-HEAL-TO-PERMANENT-CONTROLLER``). When the two sides called different functions there, the
   control flow had already parted inside a caller: the innermost recorded function that encloses
   both calls decided (for example the heal window opening under one wording only), else the two
   functions themselves. The decisive clauses are that function's touched clauses speaking for A
   (under A) and for B (under B).
3. **Otherwise**, not narrowed: the candidates are the touched clauses whose code ran for the step
   under either side, or, when none ran (the change acts through data, not a linked function),
   every clause the change touches.

:class:`Decisive` keeps which rule applied (``how``), so a report says "decisive" only for 1 and 2
and "candidates" for 3.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any, Callable, Literal

from cardrules.model.errors import IllegalAction
from cardrules.oracle.rulechange.guard import ProposalCodeError

How = Literal["refusal", "first-differing-call", "candidates"]
Entry = tuple[object, Any, tuple[object, ...]]
"""A recorded call: its code object (or ``"hook:<point>"``), the value it returned, and the recorded
functions enclosing the call (outermost first)."""

RECORDERS: list[tuple[list[Entry], list[object]]] = []
"""The records being made, each with its stack of enclosing recorded functions (innermost last); a
proposal's wrapped hooks append to the last one (:func:`record_hook`)."""


def record_hook(name: str, answer: Any) -> None:
    """Record a proposal hook's answer in the record being made, if any."""
    if RECORDERS:
        entries, stack = RECORDERS[-1]
        entries.append((f"hook:{name}", answer, tuple(stack)))


@dataclass(frozen=True)
class Decisive:
    """The decisive clause(s) of one difference, and how they were found."""

    clauses: tuple[str, ...]
    how: How
    under_a: tuple[str, ...] = ()
    """For a first differing call: the decisive clauses speaking for A (likewise ``under_b``)."""
    under_b: tuple[str, ...] = ()

    @property
    def narrowed(self) -> bool:
        return self.how != "candidates"

    def text(self) -> str:
        """``X (A) / Y (B)``, ``X``, or ``not narrowed; candidates: X, Y``."""
        if not self.narrowed:
            return f"not narrowed to one; candidates: {', '.join(self.clauses) or '(none)'}"
        if self.how == "first-differing-call" and self.under_a != self.under_b and self.under_a and self.under_b:
            return f"{', '.join(self.under_a)} (A) / {', '.join(self.under_b)} (B)"
        return ", ".join(self.clauses)

    def to_json(self) -> dict[str, Any]:
        return {"clauses": list(self.clauses), "how": self.how, "a": list(self.under_a), "b": list(self.under_b)}


@dataclass(frozen=True)
class Attribution:
    """What the decisive search needs about the change: the touched clauses, which side each speaks
    for, and the linked functions to record."""

    touched: frozenset[str]
    speaks_a: frozenset[str]
    speaks_b: frozenset[str]
    codes: dict[CodeType, tuple[str, ...]]
    hook_clauses: dict[str, tuple[str, ...]]


def attribution(game: str, touched: frozenset[str], only_a: frozenset[str], only_b: frozenset[str]) -> Attribution:
    """``only_a``/``only_b``: the touched clauses in force under that rule set only."""
    from cardrules.model.extension import EXTENSION_POINTS
    from cardrules.oracle.trace.coverage import model_clause_map

    codes = {code: wanted for code, ids in model_clause_map().items()
             if (wanted := tuple(c for c in ids if c in touched))}
    hooks = {name: tuple(c for c in point.clause_ids if c in touched)
             for (point_game, name), point in EXTENSION_POINTS.items() if point_game == game}
    return Attribution(touched, touched - only_b, touched - only_a, codes, hooks)


def record(run: Callable[[], Any], codes: dict[CodeType, tuple[str, ...]]) -> tuple[list[Entry], bool]:
    """Run ``run()`` recording each return of a function in ``codes`` (and each hook call); also
    whether it finished without raising. A proposal hook's failure propagates (bad input)."""
    entries: list[Entry] = []
    stack: list[object] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if frame.f_code not in codes:
            return
        if event == "call":
            stack.append(frame.f_code)
        elif event == "return" and stack:
            stack.pop()
            entries.append((frame.f_code, arg, tuple(stack)))

    previous = sys.getprofile()
    RECORDERS.append((entries, stack))
    sys.setprofile(profile)
    finished = True
    try:
        run()
    except ProposalCodeError:
        raise
    except Exception:  # a refusal raised by the model: what ran before it is still recorded
        finished = False
    finally:
        sys.setprofile(previous)
        RECORDERS.pop()
    return entries, finished


def _same(a: Entry, b: Entry) -> bool:
    if a[0] != b[0] or a[2] != b[2]:
        return False
    try:
        return bool(a[1] == b[1])
    except Exception:  # a value that cannot be compared counts as another answer
        return False


def _clauses(entry: Entry | None, attribution: Attribution, speaks: frozenset[str]) -> tuple[str, ...]:
    return () if entry is None else _code_clauses(entry[0], attribution, speaks)


def _enclosing(entry_a: Entry | None, entry_b: Entry | None) -> object | None:
    """The innermost recorded function enclosing both calls, if any."""
    if entry_a is None or entry_b is None:
        return None
    common = None
    for outer_a, outer_b in zip(entry_a[2], entry_b[2]):
        if outer_a != outer_b:
            break
        common = outer_a
    return common


def _code_clauses(code: object, attribution: Attribution, speaks: frozenset[str]) -> tuple[str, ...]:
    ids = (attribution.hook_clauses.get(code[5:], ()) if isinstance(code, str)
           else attribution.codes.get(code, ()))  # type: ignore[call-overload]
    return tuple(sorted(c for c in ids if c in speaks))


def refusal_clauses(refuse: Callable[[], Any], touched: frozenset[str]) -> tuple[str, ...]:
    """The touched clauses the refusing side's error cites (empty when it cites none of them)."""
    try:
        refuse()
    except IllegalAction as error:
        return tuple(sorted(c for c in error.clause_ids if c in touched))
    except ProposalCodeError:
        raise
    except Exception:  # another refusal: no clause cited
        return ()
    return ()


def decide(attribution: Attribution, run_a: Callable[[], Any], run_b: Callable[[], Any],
           refuse: Callable[[], Any] | None = None) -> Decisive:
    """The decisive clause(s) of one differing step (see the module docstring)."""
    if refuse is not None:
        cited = refusal_clauses(refuse, attribution.touched)
        if cited:
            return Decisive(cited, "refusal")
    trace_a, _ = record(run_a, attribution.codes)
    trace_b, _ = record(run_b, attribution.codes)
    for index in range(max(len(trace_a), len(trace_b))):
        entry_a = trace_a[index] if index < len(trace_a) else None
        entry_b = trace_b[index] if index < len(trace_b) else None
        if entry_a is not None and entry_b is not None and _same(entry_a, entry_b):
            continue
        caller = None if entry_a is not None and entry_b is not None and entry_a[0] == entry_b[0] \
            else _enclosing(entry_a, entry_b)
        if caller is not None:
            under_a = _code_clauses(caller, attribution, attribution.speaks_a)
            under_b = _code_clauses(caller, attribution, attribution.speaks_b)
        else:
            under_a = _clauses(entry_a, attribution, attribution.speaks_a)
            under_b = _clauses(entry_b, attribution, attribution.speaks_b)
        if under_a or under_b:
            return Decisive(tuple(sorted(set(under_a) | set(under_b))), "first-differing-call", under_a, under_b)
        break
    ran = {c for entry in (*trace_a, *trace_b) for c in _clauses(entry, attribution, attribution.touched)}
    return Decisive(tuple(sorted(ran or attribution.touched)), "candidates")
