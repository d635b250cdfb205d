"""The partitioned search on forked processes (``cardrules explore --workers N``, the ``processes`` backend).

Each :class:`~cardrules.properties.engines.partition.Partition` runs in a
forked worker process (:func:`_run_worker`), commanded through its own queue;
the workers exchange each level's successors through one inbox queue per
worker, pickled by :class:`_ValuePickler`, which pickles the models' frozen,
slotted dataclasses as (class, field values). Requires the ``fork`` start
method (Linux): hashes of strings agree between forked processes.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import multiprocessing as mp
import operator
import pickle
import time
from typing import Any, Callable, Sequence

from cardrules.properties.core import Property
from cardrules.properties.engines.exploration import Bounds, Game
from cardrules.properties.engines.partition import Partition, Report


_FIELDS: dict[type, tuple[str, ...]] = {}
"""Field names of each frozen, slotted dataclass seen while pickling; () for any other type."""
_BUILDERS: dict[type, Callable[[tuple[Any, ...]], Any]] = {}


def _value_fields(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        frozen_slotted = (dataclasses.is_dataclass(cls) and isinstance(cls, type) and "__slots__" in cls.__dict__
                          and cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
        found = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls)) if frozen_slotted else ()
    return found


def _rebuild(cls: type, values: tuple[Any, ...]) -> Any:
    """A frozen, slotted value from its field values, as unpickling would make it, by code compiled once per class."""
    build = _BUILDERS.get(cls)
    if build is None:
        names = _value_fields(cls)
        lines = ["def build(values):", "    new = NEW(CLS)"]
        lines += [f"    SET(new, {name!r}, values[{n}])" for n, name in enumerate(names)]
        lines.append("    return new")
        namespace: dict[str, Any] = {"CLS": cls, "NEW": object.__new__, "SET": object.__setattr__}
        exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own field names
        build = _BUILDERS[cls] = namespace["build"]
    return build(values)


class _ValuePickler(pickle.Pickler):
    """Pickles the models' frozen, slotted dataclasses as (class, field values).

    The standard way for such a class calls ``dataclasses.fields`` on every
    object it unpickles, which made exchanging successors between workers
    cost more than computing them. Same objects back, shared ones still
    pickled once (the memo), hashes cached in a state kept (forked workers
    hash alike).
    """

    def reducer_override(self, obj: Any) -> Any:
        names = _value_fields(type(obj))
        if not names:
            return NotImplemented
        values = operator.attrgetter(*names)(obj)
        return _rebuild, (type(obj), values if len(names) > 1 else (values,))


def _dumps(value: Any) -> bytes:
    buffer = io.BytesIO()
    _ValuePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _run_worker(partition: Partition, inboxes: list[Any], commands: Any, results: Any) -> None:
    gc.freeze()  # what the fork inherited is never garbage: the collector need not walk it (nor copy its pages)
    number, workers = partition.number, partition.workers
    while True:
        command, payload = commands.get()
        if command == "stop":
            return
        if command == "roots":
            results.put((number, partition.roots(payload)))
        elif command == "step":
            numbers, violated, expand = payload
            report, *outgoing = partition.advance(numbers, violated, expand)
            if not expand:
                results.put((number, (report, b"")))
                continue
            sending = time.process_time()
            for other in range(workers):
                if other != number:
                    inboxes[other].put(_dumps((number, outgoing[other])))
            report.expand_cpu += time.process_time() - sending
            waited = time.perf_counter()
            wired = [inboxes[number].get() for _ in range(workers - 1)]
            partition.exchange_wait += time.perf_counter() - waited
            reading = time.process_time()
            received = sorted(pickle.loads(data) for data in wired)
            tags, _ = partition.receive(received)
            report.receive_cpu = time.process_time() - reading  # unpickling included
            results.put((number, (report, tags)))
        elif command == "lookup":
            results.put((number, partition.lookup(payload)))
        elif command == "usage":
            results.put((number, partition.usage()))


class ProcessPool:
    """Partitions in forked processes, successors exchanged through one queue per worker."""

    def __init__(self, workers: int, game: Game[Any, Any], properties: Sequence[Property], bounds: Bounds,
                 reuse: bool = True) -> None:
        context = mp.get_context("fork")
        self.workers = workers
        inboxes = [context.Queue() for _ in range(workers)]
        self.commands = [context.Queue() for _ in range(workers)]
        self.results = context.Queue()
        self.processes = [
            context.Process(target=_run_worker, args=(Partition(n, workers, game, properties, bounds, reuse=reuse), inboxes,
                                                      self.commands[n], self.results), daemon=True)
            for n in range(workers)
        ]
        for process in self.processes:
            process.start()

    def _all(self, command: str, payloads: list[Any]) -> list[Any]:
        for n, payload in enumerate(payloads):
            self.commands[n].put((command, payload))
        replies: list[Any] = [None] * self.workers
        for _ in range(self.workers):
            number, reply = self.results.get()
            replies[number] = reply
        return replies

    def roots(self, roots: list[tuple[int, Any]]) -> list[bytes]:
        return self._all("roots", [roots] * self.workers)

    def step(self, numbers: list[bytes], violated: list[str], expand: bool) -> list[tuple[Report, bytes]]:
        """Give each partition its new states' indices, then expand (or only check) and exchange:
        (report, tags of the next level's new states) per partition."""
        return self._all("step", [(n, violated, expand) for n in numbers])

    def lookup(self, state: Any) -> list[int | None]:
        return self._all("lookup", [state] * self.workers)

    def usage(self) -> list[tuple[float, int, float]]:
        return self._all("usage", [None] * self.workers)

    def close(self) -> None:
        for n in range(self.workers):
            self.commands[n].put(("stop", None))
        for process in self.processes:
            process.join(timeout=10)

