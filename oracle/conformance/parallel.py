"""Generating many suites on worker processes, each option suite sharing its base's traced answers.

Suites that differ only in decision options share the model's traced answers
(:mod:`cardrules.oracle.trace.shared`): a family (:func:`~.generate.families`) is one version
suite and its option suites. The version suite, the base, is generated first, alone; what it
recorded is pickled (a few megabytes) and the option suites of its family are then jobs of
:data:`OPTION_JOB_SUITES` suites, in whichever worker is free, with those answers loaded once per
worker. So no worker records a base's answers a second time, the workers stay busy to the end
(the last jobs are short), and each suite is shown as it is done. The suites are those of one
process, byte for byte: a suite never depends on which answers were shared with it.
"""

from __future__ import annotations

import os
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable, Sequence

from cardrules.oracle.conformance.generate import SuiteResult, families, generate_suite
from cardrules.oracle.conformance.output import suite_text
from cardrules.oracle.conformance.plan import SuitePlan
from cardrules.oracle.jobs import WorkerLost, worker_context
from cardrules.oracle.trace.shared import SharedAnswers
from cardrules.properties.scenarios import Scenario

Made = tuple[int, SuiteResult, "str | None", float]
"""A suite done: the plan's index, its result, the text of its file and the seconds it took."""

_LOADED: dict[str, SharedAnswers] = {}
"""In a worker: the answers file of each family -> its answers, loaded once."""


Sources = tuple["Sequence[Scenario] | None", "Sequence[Scenario] | None"]
"""The scenarios and targeted positions to generate from (None: :func:`~.generate.generate_suite`'s own)."""


def _suites(jobs: list[tuple[int, SuitePlan]], seed: int, sources: Sources, shared: SharedAnswers) -> list[Made]:
    """Generate the jobs' suites one after the other, sharing ``shared``."""
    made: list[Made] = []
    with shared:
        for index, plan in jobs:
            started = time.perf_counter()
            result = generate_suite(plan, sources[0], seed=seed, positions=sources[1], shared=shared)
            made.append((index, result, suite_text(result), time.perf_counter() - started))
    return made


def _base_job(index: int, plan: SuitePlan, seed: int, sources: Sources, answers_file: str) -> list[Made]:
    """Generate a family's base suite, and write what it recorded to ``answers_file``."""
    shared = _LOADED[answers_file] = SharedAnswers()  # this worker has them from now on
    made = _suites([(index, plan)], seed, sources, shared)
    Path(answers_file).write_bytes(shared.to_bytes())
    return made


def _option_job(jobs: list[tuple[int, SuitePlan]], seed: int, sources: Sources, answers_file: str) -> list[Made]:
    """Generate option suites of one family, with its base's answers (loaded once per worker)."""
    shared = _LOADED.get(answers_file)
    if shared is None:
        shared = _LOADED[answers_file] = SharedAnswers.from_bytes(Path(answers_file).read_bytes())
    return _suites(jobs, seed, sources, shared)


OPTION_JOB_SUITES = 2
"""Option suites per job: few, so the workers end together."""


def generate_parallel(plans: Sequence[SuitePlan], seed: int, workers: int,
                      on_done: Callable[[int, SuiteResult, float], None] | None = None, *,
                      on_start: Callable[[], object] | None = None,
                      scenarios: Sequence[Scenario] | None = None, positions: Sequence[Scenario] | None = None,
                      ) -> tuple[list[SuiteResult], list[str | None]]:
    """Every plan's suite and the text of its file, in the plans' order, made by ``workers`` worker
    processes: each family's base first (the largest family's first), then its option suites, a job of
    :data:`OPTION_JOB_SUITES` at a time. ``on_start``: called once the workers exist (start threads, such
    as a live progress display, only then: a process must not fork while other threads hold locks).
    ``on_done(index, result, seconds)``: called here as each suite is done. An error in a worker (a
    :class:`~.candidates.GenerationError`) is raised here, the jobs not yet started cancelled; a worker
    that ends abruptly is a :class:`~cardrules.oracle.jobs.WorkerLost`. ``scenarios``, ``positions``: as
    :func:`~.generate.generate_suite` takes them."""
    sources: Sources = (list(scenarios) if scenarios is not None else None,
                        list(positions) if positions is not None else None)
    results: dict[int, SuiteResult] = {}
    texts: dict[int, str | None] = {}
    groups = families(plans)
    with tempfile.TemporaryDirectory(prefix="cardrules-answers-") as folder, \
            ProcessPoolExecutor(max_workers=workers, mp_context=worker_context()) as pool:
        pending: set[Future[list[Made]]] = set()

        def submit(job: Callable[..., list[Made]], *args: Any) -> None:
            pending.add(pool.submit(job, *args))

        files = [os.path.join(folder, f"family-{family}.pickle") for family in range(len(groups))]
        starts: dict[int, int] = {}
        """The index of each family's base plan -> the family's number."""
        for family, group in enumerate(groups):  # the workers are forked at the first submit
            submit(_base_job, group[0], plans[group[0]], seed, sources, files[family])
            starts[group[0]] = family
        if on_start is not None:
            on_start()
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    pending.discard(future)
                    try:
                        made = future.result()
                    except BrokenProcessPool:
                        raise WorkerLost("generating suites") from None
                    for index, result, text, seconds in made:
                        results[index], texts[index] = result, text
                        if on_done is not None:
                            on_done(index, result, seconds)
                        if index in starts:
                            family = starts[index]
                            rest = groups[family][1:]
                            for at in range(0, len(rest), OPTION_JOB_SUITES):
                                chunk = [(i, plans[i]) for i in rest[at:at + OPTION_JOB_SUITES]]
                                submit(_option_job, chunk, seed, sources, files[family])
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [results[i] for i in range(len(plans))], [texts[i] for i in range(len(plans))]
