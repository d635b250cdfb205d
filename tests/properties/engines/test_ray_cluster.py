"""The explorer on a real Ray cluster of two nodes: two ``ray start`` processes on 127.0.0.1.

The driver is ``cardrules explore`` itself, run as a user runs it, in a process of its own, with
``--backend ray --address`` the head's address. A scope is split across the cluster by start position
(each position one task) and one scenario's search by hash partition (Ray actors): both must find what
the sequential search finds, the same positions, states, transitions, violations and counterexamples.
Skipped, saying why, when Ray is not installed (the optional ``distributed`` extra; ``.ci/run``
installs it).

This checks the search's exactness on a cluster, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("ray", reason='Ray is not installed: pip install -e ".[distributed]"')

from cardrules.properties.engines.ray_local_cluster import LocalCluster  # noqa: E402

pytestmark = [pytest.mark.infrastructure("the explorer on a two-node Ray cluster gives the sequential results"),
              pytest.mark.slow]

CARDRULES = str(Path(sys.executable).with_name("cardrules"))


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(nodes=2, cpus=1) as started:
        yield started


def explore(arguments: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    done = subprocess.run([CARDRULES, "explore", *arguments, "--json", "--quiet"], capture_output=True, text=True,
                          env=env, timeout=900)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def without_timing(found: Any) -> Any:
    """The result less what differs from run to run (seconds, rates, memory, who ran what, and how many
    expansions a partition shared: Ray's partitions route states by all of a state, logs included)."""
    if isinstance(found, dict):
        return {k: without_timing(v) for k, v in found.items()
                if k not in ("seconds", "states_per_second", "peak_rss_mib", "workers", "expansions_reused")}
    if isinstance(found, list):
        return [without_timing(v) for v in found]
    return found


def test_the_cluster_has_two_live_nodes(cluster: LocalCluster) -> None:
    assert cluster.address.startswith("127.0.0.1:")
    assert cluster.alive_nodes() == 2


def test_a_scope_split_by_position_across_both_nodes_finds_the_sequential_result(cluster: LocalCluster) -> None:
    sequential = explore(["--scope", "fftcg-small"])
    spread = explore(["--scope", "fftcg-small", "--backend", "ray", "--address", cluster.address], cluster.env)
    assert without_timing(spread) == without_timing(sequential)
    (scope,) = spread["scopes"]
    workers = scope["workers"]
    assert sum(w["positions"] for w in workers) == scope["positions"] == sequential["scopes"][0]["positions"]
    nodes = {w["worker"].rsplit("(node ", 1)[-1] for w in workers}
    assert len(nodes) == 2, f"every position ran on one node: {workers}"
    assert all(w["peak_mib"] > 0 for w in workers)


def test_hash_partitions_as_actors_on_the_cluster_find_the_sequential_counterexample(cluster: LocalCluster) -> None:
    case = ["redemption-side-battles-4p", "--rule-set", "two-side-battles-per-turn"]
    sequential = explore(case)
    assert sequential["violations"], "the case must have a counterexample to compare"
    spread = explore([*case, "--backend", "ray", "--workers", "2", "--address", cluster.address], cluster.env)
    assert without_timing(spread) == without_timing(sequential)


def test_an_address_where_no_cluster_listens_is_a_one_line_error() -> None:
    done = subprocess.run([CARDRULES, "explore", "--scope", "fftcg-small", "--backend", "ray",
                           "--address", "127.0.0.1:1", "--quiet"], capture_output=True, text=True, timeout=120)
    assert done.returncode not in (0, 1)
    assert "cannot reach a Ray cluster at 127.0.0.1:1" in done.stderr
    assert "Traceback" not in done.stderr
