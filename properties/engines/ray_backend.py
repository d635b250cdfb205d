"""The partitioned search on a Ray cluster (``cardrules explore --backend ray [--address ADDR]``).

Each partition (:mod:`cardrules.properties.engines.partition`) is a Ray actor that
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
time; the ``processes`` backend forks and needs neither (it sends packed keys).
Everything else is the same ``Partition`` code: packed frontier, inline key,
properties already violated no longer checked, one call per level that
takes the indices and expands (:meth:`RayPool.step`).
"""

from __future__ import annotations

from typing import Any, Sequence

from cardrules.properties.core import Property
from cardrules.properties.engines.exploration import Bounds, Game
from cardrules.properties.engines.partition import Partition

class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached or is unfit."""


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`RayUnavailable` at once when nothing accepts connections at ``address`` (``HOST:PORT``);
    ``ray.init`` would retry for minutes. ``auto`` and ``ray://`` addresses are left to Ray."""
    import socket

    if address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise RayUnavailable(f"--address {address!r}: give the head node as HOST:PORT (e.g. 127.0.0.1:6379)")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise RayUnavailable(f"cannot reach a Ray cluster at {address}: {error.strerror or error}") from None


def start_ray(ray: Any, workers: int, address: str | None) -> bool:
    """Connect this process to the cluster at ``address``, or start a local Ray instance with ``workers`` CPUs,
    unless it is connected already; whether it connected here (and so should disconnect)."""
    if ray.is_initialized():
        return False
    if address:
        check_reachable(address)
    try:
        ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False,
                 **({} if address else {"num_cpus": workers}))
    except Exception as error:  # noqa: BLE001 - Ray raises many kinds; all mean "no cluster"
        raise RayUnavailable(f"cannot start or reach Ray{f' at {address}' if address else ''}: {error}") from None
    return True


def ray_module() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable('the ray backend needs Ray: pip install -e ".[distributed]"') from None
    return ray


class RayPool:
    """Partitions as Ray actors on a local Ray instance or the cluster at ``address``."""

    def __init__(self, workers: int, game: Game[Any, Any], properties: Sequence[Property], bounds: Bounds,
                 address: str | None = None, reuse: bool = True) -> None:
        ray = ray_module()
        self.ray = ray
        self.workers = workers
        self.started_here = start_ray(ray, workers, address)
        actor = ray.remote(num_cpus=1)(Partition) if not address else ray.remote(Partition)
        self.actors = [actor.remote(n, workers, game, list(properties), bounds, portable=True, reuse=reuse)
                       for n in range(workers)]

    def roots(self, roots: list[tuple[int, Any]]) -> list[bytes]:
        return self.ray.get([a.roots.remote(roots) for a in self.actors])

    def step(self, numbers: list[bytes], violated: list[str], expand: bool) -> list[tuple[Any, bytes]]:
        """As :meth:`cardrules.properties.engines.processes.ProcessPool.step`: each actor's successors for each
        owner are separate results, handed to the owner's ``receive_from`` as object references."""
        refs = [a.advance.options(num_returns=self.workers + 1).remote(n, violated, expand)
                for a, n in zip(self.actors, numbers)]
        reports = self.ray.get([r[0] for r in refs])
        if not expand:
            return [(report, b"") for report in reports]
        received = self.ray.get([actor.receive_from.remote(*[refs[i][1 + j] for i in range(self.workers)])
                                 for j, actor in enumerate(self.actors)])
        for report, (_, cpu) in zip(reports, received):
            report.receive_cpu = cpu
        return [(report, tags) for report, (tags, _) in zip(reports, received)]

    def lookup(self, state: Any) -> list[int | None]:
        return self.ray.get([a.lookup.remote(state) for a in self.actors])

    def usage(self) -> list[tuple[float, int, float]]:
        return self.ray.get([a.usage.remote() for a in self.actors])

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        if self.started_here:
            self.ray.shutdown()
