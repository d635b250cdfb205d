"""Many independent searches spread over workers, one start position per task, results in order.

A scope (``cardrules explore --scope``) is hundreds of small start positions,
each explored on its own. Splitting each search by hash partition
(:mod:`cardrules.properties.engines.parallel`) would cost a barrier per
breadth-first level for searches of a few thousand states; splitting the
*positions* costs nothing: each worker runs the ordinary sequential search on
whole positions. :func:`map_in_order` runs one function over the positions

- in this process (one worker, the default);
- on forked processes (``workers > 1``, ``backend="processes"``);
- as Ray tasks (``backend="ray"``): on a local Ray instance with ``workers``
  CPUs, or on the cluster at ``address`` (every node's CPUs; its nodes must
  run this package's Python environment, as ``ray start`` from the project's
  ``.venv`` does).

Results come back in the positions' order whatever finished first, so a
caller that folds them in order gets what the sequential run gets. Each result
is paired with a :class:`WorkerUse`: which process (and Ray node) ran it and
that process's peak resident memory so far, for the peak memory per worker.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import socket
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence, TypeVar

from cardrules.properties.engines.ray_backend import start_ray, ray_module

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class WorkerUse:
    """The worker that ran one task: its host, process, Ray node (or ``""``) and peak memory in KiB so far."""

    host: str
    pid: int
    node: str
    peak_kib: int

    @property
    def name(self) -> str:
        """``host:pid`` (and the Ray node's first 8 hex digits)."""
        return f"{self.host}:{self.pid}" + (f" (node {self.node[:8]})" if self.node else "")


def _usage(node: str = "") -> WorkerUse:
    return WorkerUse(socket.gethostname(), os.getpid(), node,
                     resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _run_here(fn: Callable[[T], R], item: T) -> tuple[R, WorkerUse]:
    return fn(item), _usage()


def _run_on_ray(fn: Callable[[T], R], item: T) -> tuple[R, WorkerUse]:
    import ray

    return fn(item), _usage(ray.get_runtime_context().get_node_id())


def map_in_order(fn: Callable[[T], R], items: Sequence[T], workers: int = 1, backend: str = "processes",
                 address: str | None = None) -> Iterator[tuple[R, WorkerUse]]:
    """``fn(item)`` for each item, with the worker that ran it, in the items' order.

    ``fn`` must be a module-level function (it is pickled by reference) and pure: the results do not
    depend on the worker or the order tasks finish. Raises :class:`RayUnavailable` when Ray is asked
    for and is missing or cannot be reached.
    """
    if backend == "ray":
        yield from _on_ray(fn, items, workers, address)
    elif workers <= 1 or len(items) <= 1:
        for item in items:
            yield _run_here(fn, item)
    else:
        with multiprocessing.get_context("fork").Pool(min(workers, len(items))) as pool:
            yield from pool.imap(_Bound(fn), items, chunksize=1)


class _Bound:
    """``fn`` bound for a process pool (a picklable callable: the pool pickles the task's function)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __call__(self, item: Any) -> tuple[Any, WorkerUse]:
        return _run_here(self.fn, item)


def _on_ray(fn: Callable[[T], R], items: Sequence[T], workers: int,
            address: str | None) -> Iterator[tuple[R, WorkerUse]]:
    ray = ray_module()
    started_here = start_ray(ray, workers, address)
    try:
        task = ray.remote(num_cpus=1)(_run_on_ray)
        pending = [task.remote(fn, item) for item in items]
        for ref in pending:
            yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


def peak_per_worker(uses: Sequence[WorkerUse]) -> list[tuple[str, int, int]]:
    """Each worker's name, tasks run and peak resident memory (KiB), in the order they first appear."""
    table: dict[str, list[int]] = {}
    for use in uses:
        row = table.setdefault(use.name, [0, 0])
        row[0] += 1
        row[1] = max(row[1], use.peak_kib)
    return [(name, tasks, peak) for name, (tasks, peak) in table.items()]
