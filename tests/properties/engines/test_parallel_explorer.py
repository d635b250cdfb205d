"""``explore --workers N``: the hash-partitioned search finds what the sequential one finds.

Same distinct states, transitions, depth, terminal states and deadlocks, the
same index, parent and action for every state, and the same shortest
counterexamples, on scenarios with a state property violated (Redemption,
two side battles a turn), a transition property violated (FFTCG, splits in
hundreds), symmetry reduction (identical Forwards) and a state bound that
cuts the search (the parallel search then hands over to the sequential one).

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from cardrules.properties.games import make_game, version_map
from cardrules.properties.games import properties_for
from cardrules.properties.engines.explore import Bounds, Exploration, explore
from cardrules.properties.engines.parallel import explore_parallel
from cardrules.properties.scenarios import load_scenarios

pytestmark = [
    pytest.mark.infrastructure("the parallel explorer gives the sequential explorer's results"),
    pytest.mark.skipif(sys.platform != "linux", reason="the parallel search forks worker processes (Linux)"),
]

CASES = [
    ("redemption-side-battles-3p", "two-side-battles-per-turn", None),
    ("fftcg-preemptive-blocker-survives", "split-in-hundreds", None),
    ("fftcg-identical-forwards", "default", None),
    ("fftcg-party-basics", "default", 3000),
]


def _run(scenario_name: str, rule_set_name: str, max_states: int | None, workers: int) -> tuple[Any, Exploration]:
    scenario = next(s for s in load_scenarios() if s.name == scenario_name)
    rule_set = next(r for r in (*scenario.rule_sets, *scenario.mutants) if r.name == rule_set_name)
    game = make_game(scenario.game, rule_set)
    bounds = Bounds(max_depth=scenario.max_depth, max_turns=scenario.max_turns,
                    max_states=max_states if max_states is not None else scenario.max_states)
    props = properties_for(scenario.game, version_map(scenario, rule_set))
    root = game.state_from_json(scenario.state)
    if workers == 1:
        return game, explore(game, [root], props, bounds, progress=False)
    return game, explore_parallel(game, [root], props, bounds, workers=workers)


@pytest.mark.parametrize("scenario,rule_set,max_states", CASES, ids=[f"{c[0]}/{c[1]}" for c in CASES])
def test_two_workers_find_the_sequential_graph_and_counterexamples(scenario: str, rule_set: str,
                                                                   max_states: int | None) -> None:
    game, sequential = _run(scenario, rule_set, max_states, 1)
    _, parallel = _run(scenario, rule_set, max_states, 2)
    for name in ("states", "transitions", "depth", "truncated", "turn_bounded"):
        assert getattr(parallel.stats, name) == getattr(sequential.stats, name), name
    assert list(parallel.parent) == list(sequential.parent)
    assert list(parallel.depth) == list(sequential.depth)
    assert parallel.terminals == sequential.terminals
    assert parallel.deadlocks == sequential.deadlocks
    assert sorted(parallel.violations) == sorted(sequential.violations)
    for name in sequential.violations:
        expected = [(game.action_text(a) if a is not None else None, s) for a, s in sequential.counterexample(name)]
        got = [(game.action_text(a) if a is not None else None, s) for a, s in parallel.counterexample(name)]
        assert got == expected
        assert parallel.violations[name].state_index == sequential.violations[name].state_index
    sample = range(0, len(sequential.states), max(1, len(sequential.states) // 50))
    assert [parallel.states[i] for i in sample] == [sequential.states[i] for i in sample]


def test_the_violating_cases_do_have_counterexamples_to_compare() -> None:
    for scenario, rule_set in (CASES[0][:2], CASES[1][:2]):
        assert _run(scenario, rule_set, None, 1)[1].violations
