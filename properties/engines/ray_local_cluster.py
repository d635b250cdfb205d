"""A Ray cluster of several nodes on this machine, for tests and benchmarks (``with LocalCluster(2) as c``).

Each node is a ``ray start`` process of its own (the first ``--head``, the
others ``--address`` to it), all on 127.0.0.1, each offering ``cpus`` CPUs.
The processes run with ``--block``, so they belong to this object: leaving
the ``with`` block stops exactly them (``ray stop`` would stop every Ray
process of the user, other runs' too). Every port a node listens on is
chosen free, so two clusters, or a cluster and a local ``ray.init``, can run
at once; the nodes' files go to a temporary folder of their own.

A cluster on one machine checks what a real one needs (tasks and objects
crossing raylets, workers started by each node, the driver connecting by
address) but not network speed. Ray's token authentication is turned off for
these nodes and for the processes given :attr:`LocalCluster.env` (they only
listen on this machine); a real cluster keeps its own settings, and
``cardrules explore --backend ray --address HOST:PORT`` connects to it as any
Ray driver does (``RAY_AUTH_TOKEN`` and the like come from the environment).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

from cardrules.properties.engines.ray_backend import RayUnavailable

PORT_OPTIONS = ("--node-manager-port", "--object-manager-port", "--dashboard-agent-listen-port",
                "--dashboard-agent-grpc-port", "--metrics-export-port", "--runtime-env-agent-port")
"""The ports every node listens on; the head also has ``--port`` (its GCS). (Ray's client server, on a
fixed port, starts only with ``ray[client]``, which the ``distributed`` extra does not install.)"""


def free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports free on 127.0.0.1 right now."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def ray_command() -> str:
    """The ``ray`` command of this Python environment (the nodes' workers import this package from it)."""
    found = Path(sys.executable).with_name("ray")
    if not found.exists():
        raise RayUnavailable(f'no ray command beside {sys.executable}: pip install -e ".[distributed]"')
    return str(found)


class LocalCluster:
    """``nodes`` Ray nodes on 127.0.0.1 with ``cpus`` CPUs each; :attr:`address` is the head's."""

    def __init__(self, nodes: int = 2, cpus: int = 1, start_timeout: float = 120.0) -> None:
        if nodes < 1:
            raise ValueError("a cluster has at least one node")
        self.nodes = nodes
        self.cpus = cpus
        self.start_timeout = start_timeout
        self.processes: list[subprocess.Popen[bytes]] = []
        self.folder = Path(tempfile.mkdtemp(prefix="cr-ray-"))
        self.env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
        self.address = ""

    def __enter__(self) -> "LocalCluster":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def _node(self, extra: list[str], name: str) -> None:
        ports = free_ports(len(PORT_OPTIONS))
        command = [ray_command(), "start", "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", str(self.cpus),
                   "--disable-usage-stats", *[a for option, port in zip(PORT_OPTIONS, ports) for a in (option, str(port))],
                   *extra]
        log = open(self.folder / f"{name}.log", "wb")
        self.processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                               start_new_session=True))

    def start(self) -> None:
        """Start the head, wait for it, start the other nodes, wait until every node is alive."""
        (gcs,) = free_ports(1)
        self.address = f"127.0.0.1:{gcs}"
        self._node(["--head", "--port", str(gcs), "--include-dashboard", "false", "--temp-dir", str(self.folder / "head")], "head")
        self._wait(1)
        for n in range(1, self.nodes):
            self._node(["--address", self.address], f"node{n}")
        self._wait(self.nodes)

    def alive_nodes(self) -> int:
        """The nodes alive in the cluster now (asked in a process of its own, so this one stays no driver)."""
        probe = ("import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR', log_to_driver=False); "
                 "print(sum(1 for n in ray.nodes() if n['Alive']))")
        done = subprocess.run([sys.executable, "-c", probe, self.address], capture_output=True, text=True,
                              env=self.env, timeout=self.start_timeout)
        return int(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 and done.stdout.strip() else 0

    def _wait(self, nodes: int) -> None:
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RayUnavailable(f"a ray start process ended ({process.returncode}): see {self.folder}")
            if self.alive_nodes() >= nodes:
                return
            time.sleep(1.0)
        raise RayUnavailable(f"the local Ray cluster did not reach {nodes} node(s) in {self.start_timeout:.0f} s "
                             f"(logs in {self.folder})")

    def stop(self) -> None:
        """Stop the nodes (the last started first) and remove their files."""
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, 9)
                    process.wait()
        self.processes.clear()
        shutil.rmtree(self.folder, ignore_errors=True)

