"""Independent jobs run in worker processes, results in a fixed order (``verify --jobs N``, ``smt crosscheck
--jobs N``); and worker processes given their jobs one by one (:class:`PinnedWorkers`: ``conformance generate
--jobs N``).

:func:`run_jobs` hands each job to a pool of ``jobs`` worker processes (the
standard library's :class:`concurrent.futures.ProcessPoolExecutor`, forked
where the platform can fork, so the workers start with every module the
parent has loaded, the property registry included) and returns the results
in the jobs' order, whatever order they finish in; the caller hears of each
as it finishes (for a progress display). With one job or ``jobs = 1`` nothing
is forked: the work runs in this process, one job after the other.

Jobs are handed out longest first when the caller gives a cost estimate
(the pool is only as fast as its last job: a long job started late keeps
one core busy alone at the end); the estimate changes only the order jobs
start in, never a result.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import traceback
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from typing import Any, Callable, Sequence, TypeVar

J = TypeVar("J")
R = TypeVar("R")


class WorkerLost(RuntimeError):
    """A worker process ended without a result (killed by a signal, or by the system for want of memory):
    the work it held is lost, and nothing is reported as done."""

    def __init__(self, what: str) -> None:
        super().__init__(f"a worker process ended abruptly while {what} (killed, or out of memory?); "
                         "nothing was reported: run it again, with fewer --jobs if memory is short")


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity masks on this platform (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def worker_context() -> multiprocessing.context.BaseContext:
    """Fork where the platform offers it (workers start at once, with the parent's modules loaded)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else methods[0])


def run_jobs(
    items: Sequence[J],
    work: Callable[[J], R],
    jobs: int,
    *,
    cost: Callable[[J], float] | None = None,
    on_start: Callable[[], object] | None = None,
    on_done: Callable[[int, R, list[int]], None] | None = None,
) -> list[R]:
    """``[work(item) for item in items]``, on up to ``jobs`` worker processes.

    ``work`` must be a module-level function (workers find it by name) and its
    results picklable. ``cost``: an estimate of each item's work; items start
    in decreasing estimate (ties in their order). ``on_start``: called once the
    workers exist (start threads, such as a live progress bar, only then: a
    process must not fork while other threads hold locks). ``on_done(index,
    result, running)``: called in this process as each item finishes, with the
    indexes of the items still running or waiting. An exception raised by
    ``work`` is raised here, the items not yet started cancelled.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    results: list[R | None] = [None] * len(items)
    if jobs == 1 or len(items) <= 1:
        if on_start is not None:
            on_start()
        for index, item in enumerate(items):
            results[index] = work(item)
            if on_done is not None:
                on_done(index, results[index], list(range(index + 1, len(items))))  # type: ignore[arg-type]
        return results  # type: ignore[return-value]
    order = list(range(len(items)))
    if cost is not None:
        order.sort(key=lambda i: -cost(items[i]))
    with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=worker_context()) as pool:
        pending: dict[Future[R], int] = {}
        try:
            for index in order:  # the workers are forked at the first submit, before any thread below
                pending[pool.submit(work, items[index])] = index
            if on_start is not None:
                on_start()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: order.index(pending[f])):
                    index = pending.pop(future)
                    try:
                        results[index] = future.result()
                    except BrokenProcessPool:
                        raise WorkerLost(f"running job {index + 1} of {len(items)}") from None
                    if on_done is not None:
                        on_done(index, results[index], sorted(pending.values()))  # type: ignore[arg-type]
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return results  # type: ignore[return-value]


class _Failed:
    """A job's exception, sent back from a worker (:func:`_serve`)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _sendable(error: BaseException) -> BaseException:
    """``error`` with the worker's traceback as a note, or, if it would not arrive whole (it does not pickle,
    or is not made again from what pickles), a RuntimeError saying what it was."""
    error.add_note("in the worker process:\n" + "".join(traceback.format_exception(error)).rstrip())
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        described = RuntimeError(f"{type(error).__name__}: {error}")
        described.add_note(error.__notes__[-1])
        return described
    return error


def _serve(connection: Connection) -> None:
    """A worker of :class:`PinnedWorkers`: run each job sent, send back its result (or its exception), until
    told to stop (None)."""
    while True:
        try:
            job = connection.recv()
        except (EOFError, KeyboardInterrupt):  # the caller is gone, or stopping: nothing to say
            return
        if job is None:
            return
        work, args = job
        try:
            answer: object = work(*args)
        except BaseException as error:  # the caller decides what a job's error means
            answer = _Failed(_sendable(error))
        try:
            connection.send(answer)
        except Exception as error:  # an answer that does not pickle: said, not lost
            connection.send(_Failed(RuntimeError(f"{type(answer).__name__} could not be sent back: {error}")))


class PinnedWorkers:
    """Worker processes each given its jobs by the caller, one at a time, so the caller chooses which worker
    runs what (what a worker keeps in memory from one job to the next is its own: the answers of the suites
    it generated, for :mod:`cardrules.oracle.conformance.parallel`).

    The workers are forked when made, before the caller starts any thread. A job's exception is raised by
    :meth:`done`; a worker that ends without an answer is a :class:`WorkerLost`. Leaving the ``with`` block
    stops the workers; on an error, at once (a job still running elsewhere is not waited for)."""

    def __init__(self, count: int, what: str) -> None:
        context: Any = worker_context()  # its Process and Pipe are those of the start method
        self.what = what
        self._connections: list[Connection] = []
        self._processes: list[Any] = []
        self.busy: set[int] = set()
        """The workers running a job now."""
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs,), daemon=True)
            process.start()
            theirs.close()
            self._connections.append(mine)
            self._processes.append(process)

    def __len__(self) -> int:
        return len(self._processes)

    def __enter__(self) -> "PinnedWorkers":
        return self

    def give(self, worker: int, work: Callable[..., Any], *args: Any) -> None:
        """Start ``work(*args)`` on ``worker`` (a module-level function: found by name there), which must be idle."""
        if worker in self.busy:
            raise RuntimeError(f"worker {worker} is still running a job")
        try:
            self._connections[worker].send((work, args))
        except OSError:  # it ended while idle (killed, out of memory)
            raise WorkerLost(self.what) from None
        self.busy.add(worker)

    def done(self) -> list[tuple[int, Any]]:
        """Wait until at least one busy worker has finished its job: each (worker, result) finished."""
        if not self.busy:
            raise RuntimeError("no worker is running a job")
        ready = connection_wait([self._connections[w] for w in sorted(self.busy)])
        out = []
        for worker in sorted(self.busy):
            connection = self._connections[worker]
            if connection not in ready:
                continue
            try:
                answer = connection.recv()
            except (EOFError, OSError):
                raise WorkerLost(self.what) from None
            except Exception as error:  # an answer that pickled but is not made again here
                raise RuntimeError(f"worker {worker}'s answer could not be read: {error}") from None
            self.busy.discard(worker)
            if isinstance(answer, _Failed):
                raise answer.error
            out.append((worker, answer))
        return out

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        for worker, (connection, process) in enumerate(zip(self._connections, self._processes)):
            if error is None and worker not in self.busy:
                try:
                    connection.send(None)
                except OSError:
                    pass
            else:
                process.terminate()
        for connection, process in zip(self._connections, self._processes):
            process.join()
            connection.close()
