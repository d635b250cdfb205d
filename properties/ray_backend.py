"""The partitioned search on a Ray cluster (``cardrules explore --backend ray [--address ADDR]``, issue 17).

Each partition of :mod:`cardrules.properties.parallel` is a Ray actor that
owns a hash partition of the visited set. One breadth-first level: every
actor expands its frontier and returns its successors as one batch per owner
(``num_returns = workers + 1``); each owner receives its batches straight
from the other actors' results (object references, not through the driver);
the driver numbers the new states in the sequential order, as with the
``processes`` backend, so counts and counterexamples are the same.

Ray is optional (``pip install -e ".[distributed]"``). Actors are separate
interpreters, which hash ``None`` and strings each their own way: they route
states by a CRC-32 of the canonical state's JSON text and rebuild every state
they receive before keying it (``Partition(portable=True)``), which costs
time; the ``processes`` backend forks and needs neither.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardrules.properties.core import Property
from cardrules.properties.explore import Bounds, Game
from cardrules.properties.parallel import Partition

class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached or is unfit."""


def ray_module() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable('the ray backend needs Ray: pip install -e ".[distributed]"') from None
    return ray


class RayPool:
    """Partitions as Ray actors on a local Ray instance or the cluster at ``address``."""

    def __init__(self, workers: int, game: Game[Any, Any], properties: Sequence[Property], bounds: Bounds,
                 address: str | None = None) -> None:
        ray = ray_module()
        self.ray = ray
        self.workers = workers
        self.started_here = not ray.is_initialized()
        if self.started_here:
            try:
                ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False,
                         **({} if address else {"num_cpus": workers}))
            except Exception as error:  # noqa: BLE001 - Ray raises many kinds; all mean "no cluster"
                raise RayUnavailable(f"cannot start or reach Ray{f' at {address}' if address else ''}: {error}") from None
        actor = ray.remote(num_cpus=1)(Partition) if not address else ray.remote(Partition)
        self.actors = [actor.remote(n, workers, game, list(properties), bounds, portable=True)
                       for n in range(workers)]

    def roots(self, roots: list[tuple[int, Any]]) -> list[Any]:
        return self.ray.get([a.roots.remote(roots) for a in self.actors])

    def expand(self) -> list[Any]:
        refs = [a.expand_split.options(num_returns=self.workers + 1).remote() for a in self.actors]
        received = [actor.receive.remote(*[refs[i][1 + j] for i in range(self.workers)])
                    for j, actor in enumerate(self.actors)]
        reports = self.ray.get([r[0] for r in refs])
        news = self.ray.get(received)
        return [(*report, new) for report, new in zip(reports, news)]

    def numbers(self, numbers: list[list[int]]) -> None:
        self.ray.get([a.numbers.remote(n) for a, n in zip(self.actors, numbers)])

    def lookup(self, state: Any) -> list[int | None]:
        return self.ray.get([a.lookup.remote(state) for a in self.actors])

    def peak_rss_kib(self) -> int:
        return max(self.ray.get([a.peak_rss_kib.remote() for a in self.actors]))

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        if self.started_here:
            self.ray.shutdown()
