"""Which vectors decide which clauses: per clause in force, the vectors of a suite that fail when the
clause's own code is mutated.

A vector is *decisive* for a clause when it fails under at least one single-point mutant of a function
that implements the clause (``@implements`` on the function or its class: :attr:`Mutant.own`), run
through the reference adapter in the engine's profile (``observable`` by default, the comparison an
engine nobody here wrote gets). Every vector of each suite runs under every such mutant, each mutant in
its own forked child (:func:`~cardrules.oracle.mutation.apply.run_isolated`): the probe for the
mutation score stops at the first failing vector; this one records them all.

A clause in force that no vector decides is listed with the reason why:

* ``no-mutant``: no single-point mutant changes a function marked as implementing it, or every such
  mutant is equivalent to the reference model (``equivalent.toml``): nothing can be removed from an
  engine by mutating its own code, so no count can be measured;
* ``excused``: the catalogue's ``conformance_excuse`` (the clause cannot be observed through the
  protocol);
* ``listed``: its mutants survive the suite, with the reason recorded in ``never_decisive.toml``
  (:data:`REASONS_PATH`, beside ``equivalent.toml``);
* ``not decisive``: its mutants survive and no reason is recorded (the check fails).

A mutant whose run of the whole suite passes its deadline (a mutant that loops) is run again vector by
vector, each in a child of its own, so that the looping vector is the one counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from cardrules.oracle.mutation.apply import Task, run_isolated
from cardrules.oracle.mutation.checks import games_of
from cardrules.oracle.mutation.mutants import Mutant

REASONS_PATH = Path(__file__).resolve().parents[1] / "conformance" / "never_decisive.toml"
PROFILES = ("observable", "full")

VectorKey = tuple[str, str]
"""(suite ID, vector ID)."""


class DecisiveInputError(ValueError):
    """Suites the unmutated model does not pass, or a malformed reasons file (bad input)."""


def load_reasons(path: Path = REASONS_PATH) -> dict[str, str]:
    """Clause ID -> why no vector of the default suites decides it."""
    from cardrules.oracle.mutation.probe import ProbeInputError, load_reasoned

    try:
        return load_reasoned(path, "clause")
    except ProbeInputError as problem:
        raise DecisiveInputError(str(problem)) from None


# --- running the suites under one mutant ------------------------------------------------------------


def _adapter(profile: str) -> tuple[Any, Any]:
    """The in-process reference adapter speaking ``profile``, and the declaration its hello gives."""
    from cardrules.oracle.conformance.adapter import ReferenceAdapter
    from cardrules.oracle.conformance.declaration import HELLO, parse_hello
    from cardrules.oracle.mutation.checks import InProcessAdapter

    process = InProcessAdapter()
    process.adapter = ReferenceAdapter(profile=profile)
    return process, parse_hello(process.request(HELLO, 0.0))


def failing_vectors(suites: Sequence[dict[str, Any]], game: str, profile: str,
                    only: VectorKey | None = None) -> tuple[VectorKey, ...]:
    """The vectors of the suites of the games ``game``'s code can affect that do not pass (all of them are
    run; ``only``: just that one)."""
    from cardrules.oracle.conformance.runner import run_vector

    process, declaration = _adapter(profile)
    failed: list[VectorKey] = []
    for suite in suites:
        if suite["game"] not in games_of(game):
            continue
        for vector in suite["vectors"]:
            key = (suite["suite"], vector["id"])
            if only is not None and key != only:
                continue
            result = run_vector(process, suite, vector, 3600.0, declaration, keep_going=False)
            if result.verdict != "pass":
                failed.append(key)
    return tuple(failed)


@dataclass(frozen=True)
class MutantKills:
    """The vectors one mutant makes fail."""

    mutant: Mutant
    status: str
    """``done``; ``not-applied`` (the mutant cannot be activated); ``error`` (the run itself raised)."""
    failing: tuple[VectorKey, ...] = ()
    detail: str = ""


def _games(suites: Sequence[dict[str, Any]]) -> list[str]:
    return sorted({s["game"] for s in suites})


def calibrate(suites: Sequence[dict[str, Any]], profile: str) -> dict[str, float]:
    """Run every suite on the unmutated model (each game in a child): every vector must pass. Returns
    the seconds per game, from which the mutants' deadlines are set."""
    tasks = [Task(None, partial(failing_vectors, suites, g, profile), 3600.0, g) for g in _games(suites)]
    seconds: dict[str, float] = {}
    for task, isolated in run_isolated(tasks, 2):
        if isolated.status != "done":
            raise DecisiveInputError(f"the {task.tag} suites cannot run on the unmutated model: "
                                     f"{isolated.status}: {isolated.detail}")
        if isolated.value:
            suite, vector = isolated.value[0]
            raise DecisiveInputError(f"{suite}: vector {vector} fails on the unmutated model ({profile} profile): "
                                     "regenerate the suites with this version of cardrules")
        seconds[task.tag] = isolated.seconds
    return seconds


def _vector_keys(suites: Sequence[dict[str, Any]], game: str) -> list[VectorKey]:
    return [(s["suite"], v["id"]) for s in suites if s["game"] in games_of(game) for v in s["vectors"]]


def _one_by_one(mutant: Mutant, suites: Sequence[dict[str, Any]], profile: str, deadline: float,
                jobs: int) -> MutantKills:
    """Each vector in a child of its own: a vector whose child passes the deadline or dies fails."""
    keys = _vector_keys(suites, mutant.game)
    tasks = [Task(mutant, partial(failing_vectors, suites, mutant.game, profile, only=k), deadline, k)
             for k in keys]
    failing: list[VectorKey] = []
    for task, isolated in run_isolated(tasks, jobs):
        if isolated.status == "not-applied":
            return MutantKills(mutant, "not-applied", (), isolated.detail)
        if isolated.status != "done" or isolated.value:
            failing.append(task.tag)
    order = {k: i for i, k in enumerate(keys)}
    return MutantKills(mutant, "done", tuple(sorted(failing, key=order.__getitem__)), "vector by vector")


def mutant_kills(mutants: Sequence[Mutant], suites: Sequence[dict[str, Any]], *, profile: str = "observable",
                 jobs: int = 1, on_result: Callable[[MutantKills], None] | None = None) -> list[MutantKills]:
    """Every vector each mutant makes fail (the suites must pass on the unmutated model)."""
    if profile not in PROFILES:
        raise DecisiveInputError(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
    reference = calibrate(suites, profile)
    relevant = [m for m in mutants if any(g in reference for g in games_of(m.game))]

    def deadline(m: Mutant) -> float:
        return 10 * sum(reference.get(g, 0.0) for g in games_of(m.game)) + 30

    tasks = [Task(m, partial(failing_vectors, suites, m.game, profile), deadline(m), m) for m in relevant]
    out: dict[str, MutantKills] = {}
    for task, isolated in run_isolated(tasks, jobs):
        mutant: Mutant = task.tag
        if isolated.status == "done":
            kills = MutantKills(mutant, "done", tuple(isolated.value))
        elif isolated.status in ("timeout", "crashed"):
            per_vector = max(5.0, deadline(mutant) / 4)
            kills = _one_by_one(mutant, suites, profile, per_vector, jobs)
        else:
            kills = MutantKills(mutant, isolated.status, (), isolated.detail)
        out[mutant.id] = kills
        if on_result:
            on_result(kills)
    return [out[m.id] for m in relevant]


# --- per clause --------------------------------------------------------------------------------------


@dataclass
class ClauseDecisive:
    """One clause in force in one suite."""

    suite: str
    clause: str
    covered: int
    """Vectors of the suite whose clauses name it."""
    mutants: int = 0
    """Non-equivalent single-point mutants of functions implementing it (its own code)."""
    killed: int = 0
    """Of those, the mutants some vector of the suite makes fail."""
    decisive: list[str] = field(default_factory=list)
    """The vectors failing under at least one of its mutants, in suite order."""
    shortest: str | None = None
    """The decisive vector with the fewest steps (a play or refusal vector first: it shows the step)."""
    status: str = ""
    reason: str = ""

    @property
    def passes(self) -> bool:
        return self.status != "not decisive"


def clause_table(suites: Sequence[dict[str, Any]], kills: Iterable[MutantKills], *,
                 equivalents: Mapping[str, str], reasons: Mapping[str, str],
                 excuses: Mapping[str, str]) -> list[ClauseDecisive]:
    """Per suite and clause in force: covered, mutants, killed, the decisive vectors and the status."""
    by_clause: dict[str, list[MutantKills]] = {}
    for k in kills:
        if k.status == "not-applied" or k.mutant.id in equivalents or not k.mutant.own:
            continue
        for clause in k.mutant.clauses:
            by_clause.setdefault(clause, []).append(k)
    rows: list[ClauseDecisive] = []
    for suite in suites:
        name = suite["suite"]
        # shortest: a play or refusal vector (it shows the step) before a perft or invalid one, then fewest steps
        steps = {v["id"]: (v["kind"] not in ("play", "refusal"), len(v.get("steps", ()))) for v in suite["vectors"]}
        order = {v["id"]: i for i, v in enumerate(suite["vectors"])}
        for clause in sorted(suite["clauses_in_force"]):
            row = ClauseDecisive(name, clause, sum(clause in v["clauses"] for v in suite["vectors"]))
            mine = [k for k in by_clause.get(clause, []) if suite["game"] in games_of(k.mutant.game)]
            row.mutants = len(mine)
            killing = [{v for s, v in k.failing if s == name} for k in mine]
            row.killed = sum(bool(found) for found in killing)
            row.decisive = sorted(set().union(*killing), key=order.__getitem__) if killing else []
            if row.decisive:
                row.shortest = min(row.decisive, key=lambda v: (steps[v], order[v]))
            row.status, row.reason = _status(row, clause, equivalents, reasons, excuses, by_clause)
            rows.append(row)
    return rows


def _status(row: ClauseDecisive, clause: str, equivalents: Mapping[str, str], reasons: Mapping[str, str],
            excuses: Mapping[str, str], by_clause: Mapping[str, list[MutantKills]]) -> tuple[str, str]:
    if row.decisive:
        return "decisive", ""
    if clause in excuses:
        return "excused", excuses[clause]
    if not row.mutants:
        return "no-mutant", ("every single-point mutant of the functions implementing it is equivalent to the "
                             "reference model (equivalent.toml)" if _has_equivalent(clause, equivalents)
                             else "no single-point mutant changes a function marked as implementing it")
    if clause in reasons:
        return "listed", reasons[clause]
    return "not decisive", f"its {row.mutants} mutant(s) survive every vector and no reason is recorded"


def _has_equivalent(clause: str, equivalents: Mapping[str, str]) -> bool:
    from cardrules.oracle.mutation.mutants import all_mutants

    return any(m.id in equivalents and m.own and clause in m.clauses for m in all_mutants())


def stale_reasons(rows: Sequence[ClauseDecisive], reasons: Mapping[str, str]) -> list[str]:
    """Clauses with a recorded reason that some vector decides, or that no suite has in force."""
    in_force = {r.clause for r in rows}
    decided = {r.clause for r in rows if r.status == "decisive"}
    return sorted(c for c in reasons if c in decided or c not in in_force)


def table_json(rows: Sequence[ClauseDecisive], profile: str) -> dict[str, Any]:
    return {
        "format": "cardrules-decisive/1",
        "profile": profile,
        "passed": all(r.passes for r in rows),
        "clauses": [{"suite": r.suite, "clause": r.clause, "covered": r.covered, "mutants": r.mutants,
                     "killed": r.killed, "decisive": len(r.decisive), "shortest": r.shortest, "vectors": r.decisive,
                     "status": r.status, "reason": r.reason} for r in rows],
    }


def dumps(rows: Sequence[ClauseDecisive], profile: str) -> str:
    return json.dumps(table_json(rows, profile), indent=1) + "\n"
