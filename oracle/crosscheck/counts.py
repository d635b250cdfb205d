"""Comparisons per clause: which clauses' z3 constraints took part in each model-vs-z3 comparison.

A *comparison* is one question put to both encodings: a (state, action) pair of a transition
cross-check (legality and successor), or one rule decision of the Redemption bridge (a side
battle play, a resolution, a redirect play, a phase change). Each comparison counts once for
every clause whose z3 constraints were part of it; the clause IDs come from the z3 side's own
tags, never from a hand list:

- transition systems (:mod:`oracle.crosscheck.transitions`): the ``@implements`` tags of the ``specs``
  functions that run while the action kind's encoding is built (:func:`smt_clauses_called`);
- the Redemption rule-decision situations (:class:`oracle.crosscheck.redemption.common.Query`): the
  clause IDs the situation keys its constraints by, for the clauses that *decided* part of the
  answer compared: with the comparison's inputs fixed and the other clauses in force, breaking
  the clause would allow an answer z3 does not give (:func:`deciding_clauses`); a clause that
  excludes nothing there took no part.

:func:`recording` collects the counts of everything run inside it; :func:`comparison` opens one
comparison (nested calls join the outer one); :func:`note` credits clauses to the open
comparison. :func:`cached_with_notes` is an ``lru_cache`` that replays the notes of a cached
call, so that counts do not depend on what was cached before.

The counts of the embedded scenarios are kept in :data:`COUNTS_PATH` (written by
``cardrules smt crosscheck --game all --write-counts``) for ``cardrules trace``.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence, TypeVar, cast

import z3

from cardrules.oracle.crosscheck.fast import plain

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class CachedWithNotes(Protocol[T_co]):
    """A function made by :func:`cached_with_notes`: called as the function it wraps, with
    ``lru_cache``'s ``cache_clear`` and ``cache_info``."""

    cache_clear: Callable[[], None]
    cache_info: Callable[[], "functools._CacheInfo"]

    def __call__(self, *args: Any) -> T_co: ...

COUNTS_PATH = Path(__file__).with_name("counts.json")
"""The checked-in comparison counts of the embedded scenarios."""
COUNTS_FORMAT = "cardrules-crosscheck-counts/1"


class _Recorder:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.comparisons = 0
        self.open: set[str] | None = None


_RECORDERS: list[_Recorder] = []


@contextmanager
def recording() -> Iterator[Counter[str]]:
    """Count comparisons per clause inside the block; yields the counter (filled as it runs)."""
    recorder = _Recorder()
    _RECORDERS.append(recorder)
    try:
        yield recorder.counts
    finally:
        _RECORDERS.remove(recorder)


@contextmanager
def comparison() -> Iterator[None]:
    """One comparison: every clause noted inside counts once when it closes (nested: joins)."""
    starting = [r for r in _RECORDERS if r.open is None]
    for r in starting:
        r.open = set()
    try:
        yield
    finally:
        for r in starting:
            assert r.open is not None
            r.counts.update(r.open)
            r.comparisons += 1
            r.open = None


def note(clause_ids: Iterable[str]) -> None:
    """Credit ``clause_ids`` to the open comparison (of every recorder); no-op outside one."""
    ids = None
    for r in _RECORDERS:
        if r.open is not None:
            ids = ids if ids is not None else tuple(clause_ids)
            r.open.update(ids)
    for log in _NOTE_LOGS:
        log.update(clause_ids if ids is None else ids)


_NOTE_LOGS: list[set[str]] = []


def cached_with_notes(maxsize: int) -> Callable[[Callable[..., T]], CachedWithNotes[T]]:
    """``functools.lru_cache(maxsize)`` that also remembers the clauses a call noted and notes them
    again on every cache hit (``cache_clear`` as usual)."""

    def wrap(func: Callable[..., T]) -> CachedWithNotes[T]:
        @functools.lru_cache(maxsize=maxsize)
        def inner(*args: Any) -> tuple[T, frozenset[str]]:
            log: set[str] = set()
            _NOTE_LOGS.append(log)
            try:
                result = func(*args)
            finally:
                _NOTE_LOGS.remove(log)
            return result, frozenset(log)

        @functools.wraps(func)
        def outer(*args: Any) -> T:
            result, noted = inner(*args)
            note(noted)
            return result

        cached = cast(CachedWithNotes[T], outer)
        cached.cache_clear = inner.cache_clear
        cached.cache_info = inner.cache_info
        return cached

    return wrap


# --- transition systems: the tags of the specs functions that build an action kind -------------


@functools.lru_cache(maxsize=1)
def _smt_clause_map() -> dict[CodeType, tuple[str, ...]]:
    """Code object of every ``specs`` function linked with ``@implements`` -> its clause IDs."""
    from cardrules.oracle.trace.coverage import code_clause_map

    return code_clause_map("smt", ("cardrules.specs",))


def smt_clauses_called(run: Callable[[], T]) -> tuple[T, frozenset[str]]:
    """Run ``run()``; its result and the clause IDs of the ``@implements`` z3 functions it called."""
    from cardrules.oracle.trace.coverage import clauses_exercised

    return clauses_exercised(run, _smt_clause_map())


# --- rule-decision situations: the clauses that decided part of an answer --------------------


class _Activity:
    """A solver with a situation's background and domain and, for each clause, a literal that
    asserts its constraint and one that asserts its negation."""

    def __init__(self, situation: Any, clause_ids: Sequence[str], budget: Any) -> None:
        self.solver = budget.solver()
        self.solver.add(situation.background, situation.domain)
        self.literals: list[tuple[str, z3.BoolRef, z3.BoolRef]] = []
        for number, clause_id in enumerate(clause_ids):
            formula = situation.constraints[clause_id].formula
            holds, breaks = z3.Bool(f"__holds_{number}"), z3.Bool(f"__breaks_{number}")
            self.solver.add(z3.Implies(holds, formula), z3.Implies(breaks, z3.Not(formula)))
            self.literals.append((clause_id, holds, breaks))
        self.cache: dict[tuple[Any, ...], tuple[frozenset[str], tuple[z3.ExprRef, ...], tuple[z3.ExprRef, ...]]] = {}

    def deciding(self, fixed: Sequence[z3.BoolRef], project: Sequence[z3.ExprRef],
                 answers: Iterable[tuple[Any, ...]]) -> frozenset[str]:
        answers = sorted(answers)
        # keyed by z3 term ids; the entry holds the terms, so that no id is reused while it is kept
        key = (tuple(sorted(x.get_id() for x in fixed)), tuple(x.get_id() for x in project), tuple(answers))
        cached = self.cache.get(key)
        if cached is not None:
            return cached[0]
        self.solver.push()
        try:
            self.solver.add(*fixed)
            for values in answers:  # outside the answers the clauses allow
                self.solver.add(z3.Not(z3.And(*[x == _z3_value(x, v) for x, v in zip(project, values)])))
            found = frozenset(self._deciding())
        finally:
            self.solver.pop()
        self.cache[key] = (found, tuple(fixed), tuple(project))
        return found

    def _deciding(self) -> set[str]:
        """The clauses that decide, with the solver holding the fixed inputs and the answers excluded.
        A clause decides when breaking it, with every other clause holding, is satisfiable. First all
        clauses together: if that is unsatisfiable, a clause outside its unsat core cannot decide
        (the core's clauses alone already exclude everything, and they all hold when another clause
        is broken), so only the core's clauses are checked one by one; anything else (sat, unknown)
        checks every clause one by one, as before."""
        holds_of = {holds.get_id(): clause_id for clause_id, holds, _ in self.literals}
        candidates = [c for c, _, _ in self.literals]
        if not plain() and self.solver.check(*[holds for _, holds, _ in self.literals]) == z3.unsat:
            core = {holds_of.get(x.get_id()) for x in self.solver.unsat_core()}
            candidates = [c for c in candidates if c in core]
        deciding = set()
        for clause_id, _, breaks in self.literals:
            if clause_id not in candidates:
                continue
            others = [holds for other, holds, _ in self.literals if other != clause_id]
            # unknown counts: z3 could not show that the clause decided nothing
            if self.solver.check(breaks, *others) != z3.unsat:
                deciding.add(clause_id)
        return deciding


def _z3_value(x: z3.ExprRef, value: Any) -> z3.ExprRef:
    return z3.BoolVal(value) if z3.is_bool(x) else z3.IntVal(value)


def deciding_clauses(query: Any, fixed: Sequence[z3.BoolRef], project: Sequence[z3.ExprRef],
                     answers: Iterable[tuple[Any, ...]]) -> frozenset[str]:
    """The clauses of ``query`` (a :class:`~oracle.crosscheck.redemption.common.Query`) that decided part of
    its answer: with ``fixed`` holding and every other clause in force, breaking the clause allows
    a value of ``project`` that is not among ``answers`` (with ``project`` empty: makes an
    impossible situation possible). A clause that excludes nothing here took no part."""
    activity = getattr(query, "_activity", None)
    if activity is None:
        activity = _Activity(query.situation, query.clause_ids, query.budget)
        query._activity = activity
    return activity.deciding(fixed, project, answers)


def note_query(query: Any, fixed: Sequence[z3.BoolRef], project: Sequence[z3.ExprRef],
               answers: Iterable[tuple[Any, ...]]) -> None:
    """:func:`note` the clauses of ``query`` that decided its answer, if a comparison is open."""
    if any(r.open is not None for r in _RECORDERS) or _NOTE_LOGS:
        note(deciding_clauses(query, fixed, project, answers))


# --- the counts file ----------------------------------------------------------------------------


class CountsError(ValueError):
    """The counts file is missing or malformed."""


def load_counts(path: Path = COUNTS_PATH) -> dict[str, int]:
    """Comparisons per clause from a counts file (clauses absent: compared 0 times)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CountsError(f"{path}: no comparison counts; write them with "
                          "'cardrules smt crosscheck --game all --write-counts FILE'") from None
    except (OSError, ValueError) as error:
        raise CountsError(f"{path}: cannot read the comparison counts: {error}") from None
    if not isinstance(data, dict) or data.get("format") != COUNTS_FORMAT or not isinstance(data.get("clauses"), dict):
        raise CountsError(f"{path}: not a {COUNTS_FORMAT} file")
    clauses = data["clauses"]
    bad = [k for k, v in clauses.items() if not isinstance(v, int) or isinstance(v, bool) or v < 0]
    if bad:
        raise CountsError(f"{path}: clauses.{bad[0]}: expected a non-negative integer")
    return dict(clauses)


def counts_document(runs: Sequence[dict[str, Any]], command: str) -> dict[str, Any]:
    """The counts file's JSON: the command that wrote it, each run's counts and the totals."""
    total: Counter[str] = Counter()
    for run in runs:
        total.update(run["clauses"])
    return {"format": COUNTS_FORMAT, "command": command, "runs": list(runs),
            "clauses": dict(sorted(total.items()))}
