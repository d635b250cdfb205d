"""``explore --backend ray``: Ray actors owning hash partitions find what the sequential search finds.

Runs a local Ray instance (two CPUs) on small embedded scenarios: the same
distinct states, parents, depths and shortest counterexamples as the
sequential explorer. Skipped, saying why, when Ray is not installed (it is
the optional ``distributed`` extra; ``.ci/run`` installs it).

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from cardrules.properties.games import make_game, version_map
from cardrules.properties.games import properties_for
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.engines.parallel import explore_parallel
from cardrules.properties.scenarios import load_scenarios

ray = pytest.importorskip("ray", reason='Ray is not installed: pip install -e ".[distributed]"')

from cardrules.properties.engines.ray_backend import RayPool  # noqa: E402

pytestmark = pytest.mark.infrastructure("the Ray backend gives the sequential explorer's results")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("scenario,rule_set", [
    ("redemption-side-battles-4p", "two-side-battles-per-turn"),
    ("fftcg-preemptive-blocker-survives", "split-in-hundreds"),
])
def test_ray_partitions_find_the_sequential_graph_and_counterexamples(local_ray: None, scenario: str,
                                                                      rule_set: str) -> None:
    found = next(s for s in load_scenarios() if s.name == scenario)
    chosen = next(r for r in (*found.rule_sets, *found.mutants) if r.name == rule_set)
    game = make_game(found.game, chosen)
    props = properties_for(found.game, version_map(found, chosen))
    bounds = Bounds(max_depth=found.max_depth, max_turns=found.max_turns, max_states=found.max_states)
    root = game.state_from_json(found.state)
    sequential = explore(game, [root], props, bounds, progress=False)
    assert sequential.violations, "the case must have a counterexample to compare"
    distributed = explore_parallel(game, [root], props, bounds, workers=2, pool=RayPool(2, game, props, bounds))
    assert distributed.stats.states == sequential.stats.states
    assert distributed.stats.transitions == sequential.stats.transitions
    assert list(distributed.parent) == list(sequential.parent)
    assert list(distributed.depth) == list(sequential.depth)
    assert sorted(distributed.violations) == sorted(sequential.violations)
    for name in sequential.violations:
        assert ([game.action_text(a) for a, _ in distributed.counterexample(name)[1:]]
                == [game.action_text(a) for a, _ in sequential.counterexample(name)[1:]])
