"""Generating many suites on worker processes, each worker keeping the traced answers of the families it works on.

Suites that differ only in decision options and versions share the model's traced answers
(:mod:`cardrules.oracle.trace.shared`). Here a family is one version suite (its base) and its option
suites (:func:`_by_version` of :func:`~.generate.families`); the base of another version of the game
starts from the first version's answers, and goes to an idle worker that holds them before any other (it
makes it without loading them, with what the suites it made remembered). The answers are shared fully only
within one process, so each worker works on its own families: it generates a family's base, then the
family's option suites one by one, each sharing the answers of every suite the worker made before. A worker with
nothing of its own left starts the base of a family no worker has started, or else helps with the
option suites of another worker's family: it loads what that family's base recorded (pickled by the
worker that made it, a few megabytes) and takes suites from the end of the family's list. So the
workers stay busy to the end and each suite is shown as it is done. The suites are those of one
process, byte for byte: a suite never depends on which answers were shared with it.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Hashable, Sequence

from cardrules.oracle.conformance.generate import SuiteResult, families, generate_suite
from cardrules.oracle.conformance.output import suite_text
from cardrules.oracle.conformance.plan import SuitePlan
from cardrules.oracle.jobs import PinnedWorkers
from cardrules.oracle.trace.shared import SharedAnswers, version_key
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import Scenario

Made = tuple[int, SuiteResult, "str | None", float]
"""A suite done: the plan's index, its result, the text of its file and the seconds it took."""

_HELD: dict[str, SharedAnswers] = {}
"""In a worker: the answers of each family it works on (by the family's answers file), kept from one suite
to the next."""


Sources = tuple["Sequence[Scenario] | None", "Sequence[Scenario] | None"]
"""The scenarios and targeted positions to generate from (None: :func:`~.generate.generate_suite`'s own)."""


def _suite(index: int, plan: SuitePlan, seed: int, sources: Sources, shared: SharedAnswers) -> Made:
    started = time.perf_counter()
    with shared:
        result = generate_suite(plan, sources[0], seed=seed, positions=sources[1], shared=shared)
    return index, result, suite_text(result), time.perf_counter() - started


def _held(answers_file: str) -> SharedAnswers:
    """The answers this worker holds for a family: those it recorded, or else those of the family's base,
    loaded from ``answers_file`` once."""
    shared = _HELD.get(answers_file)
    if shared is None:
        shared = _HELD[answers_file] = SharedAnswers.from_bytes(Path(answers_file).read_bytes())
    return shared


def _base_job(index: int, plan: SuitePlan, seed: int, sources: Sources, answers_file: str,
              start_file: str | None = None) -> Made:
    """Generate a family's base suite, keep its answers in this worker, and write them to ``answers_file``
    (for a worker that helps with the family later). ``start_file``: the answers of another family's base
    to start from (another version of the same game)."""
    shared = _HELD[answers_file] = SharedAnswers() if start_file is None else _held(start_file)
    made = _suite(index, plan, seed, sources, shared)
    Path(answers_file).write_bytes(shared.to_bytes())
    return made


def _option_job(index: int, plan: SuitePlan, seed: int, sources: Sources, answers_file: str) -> Made:
    """Generate an option suite of a family with the answers this worker holds for it (:func:`_held`)."""
    return _suite(index, plan, seed, sources, _held(answers_file))


def _by_version(plans: Sequence[SuitePlan], group: list[int]) -> list[list[int]]:
    """A family's plans by the versions their rule sets select (the version suite of each first), in the
    family's order: the first group is the family's base; each other starts from its answers."""
    found: dict[Hashable, list[int]] = {}
    for index in group:
        found.setdefault(version_key(make_game(plans[index].game, plans[index].spec)), []).append(index)
    return list(found.values())


@dataclass
class _Family:
    base: int
    """The index of its base plan."""
    options: list[int]
    """The indices of its option plans not yet given to a worker."""
    answers_file: str
    ready: bool = False
    """Its base is done (its answers file written)."""
    holders: set[int] = field(default_factory=set)
    """The workers that hold its answers."""
    start_from: "_Family | None" = None
    """The family (another version of the game) whose base's answers its base starts from, once ready."""
    maker: int = -1
    """The worker that makes or made its base, -1 before one starts it (it takes the family's suites from the front, a helper from the end,
    so each keeps to a run of neighbouring suites, which share most answers)."""


def _next_job(worker: int, waiting: list[_Family], idle: frozenset[int] = frozenset()
              ) -> tuple[str, _Family, int] | None:
    """The next job for an idle ``worker``: the base of a family not started that starts from the answers of a
    family it holds (another version of the game: made where those answers, and the memories of the suites
    made with them, already are), else an option suite of a family it holds (the first left if it made the
    family's base, else the last), else the base of a family not started (but not one that another of the
    ``idle`` workers, asked next, holds the answers for), else an option suite of another ready family (the
    one with the most left; its last suite left), else None (the bases still running are the only work)."""
    for family in waiting:
        start = family.start_from
        if family.maker < 0 and start is not None and start.ready and worker in start.holders:
            family.maker = worker
            family.holders.add(worker)
            return "base", family, family.base
    for family in waiting:
        if worker in family.holders and family.ready and family.options:
            return "option", family, family.options.pop(0 if worker == family.maker else -1)
    for family in waiting:
        start = family.start_from
        if family.maker < 0 and (start is None or (start.ready and not (start.holders & idle) - {worker})):
            family.maker = worker
            family.holders.add(worker)
            return "base", family, family.base
    helped = [f for f in waiting if f.ready and f.options]
    if not helped:
        return None
    family = max(helped, key=lambda f: len(f.options))  # the first of the largest: the families' order
    family.holders.add(worker)
    return "option", family, family.options.pop()


def generate_parallel(plans: Sequence[SuitePlan], seed: int, workers: int,
                      on_done: Callable[[int, SuiteResult, float], None] | None = None, *,
                      on_start: Callable[[], object] | None = None,
                      scenarios: Sequence[Scenario] | None = None, positions: Sequence[Scenario] | None = None,
                      ) -> tuple[list[SuiteResult], list[str | None]]:
    """Every plan's suite and the text of its file, in the plans' order, made by ``workers`` worker
    processes, each on its own families first (the largest family's base first; see the module's text).
    ``on_start``: called once the workers exist (start threads, such as a live progress display, only
    then: a process must not fork while other threads hold locks). ``on_done(index, result, seconds)``:
    called here as each suite is done. An error in a worker (a :class:`~.candidates.GenerationError`) is
    raised here, the other workers stopped at once; a worker that ends abruptly is a
    :class:`~cardrules.oracle.jobs.WorkerLost`. ``scenarios``, ``positions``: as
    :func:`~.generate.generate_suite` takes them."""
    sources: Sources = (list(scenarios) if scenarios is not None else None,
                        list(positions) if positions is not None else None)
    results: dict[int, SuiteResult] = {}
    texts: dict[int, str | None] = {}
    with tempfile.TemporaryDirectory(prefix="cardrules-answers-") as folder, \
            PinnedWorkers(max(1, min(workers, len(plans))), "generating suites") as pool:
        if on_start is not None:
            on_start()
        waiting: list[_Family] = []
        for group in families(plans):
            first = None
            for version in _by_version(plans, group):
                waiting.append(_Family(version[0], version[1:], os.path.join(folder, f"family-{len(waiting)}.pickle"),
                                       start_from=first))
                first = first or waiting[-1]
        running: dict[int, _Family] = {}

        def give_idle() -> None:
            idle = frozenset(worker for worker in range(len(pool)) if worker not in pool.busy)
            for worker in sorted(idle):
                job = _next_job(worker, waiting, idle)
                if job is None:
                    continue
                kind, family, index = job
                if kind == "base":
                    start = family.start_from.answers_file if family.start_from is not None else None
                    pool.give(worker, _base_job, index, plans[index], seed, sources, family.answers_file, start)
                else:
                    pool.give(worker, _option_job, index, plans[index], seed, sources, family.answers_file)
                running[worker] = family

        give_idle()
        while pool.busy:
            for worker, (index, result, text, seconds) in pool.done():
                family = running.pop(worker)
                if index == family.base:
                    family.ready = True
                results[index], texts[index] = result, text
                if on_done is not None:
                    on_done(index, result, seconds)
            give_idle()
    return [results[i] for i in range(len(plans))], [texts[i] for i in range(len(plans))]
