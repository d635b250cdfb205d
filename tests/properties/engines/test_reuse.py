"""Expansions reused across states that differ only in the FFTCG event log: the same search, less work.

The explorer lists the legal actions and successors of FFTCG states that
differ only in their turn's event log once (``properties/engines/reuse.py``).
These tests hold the search to what it finds without reuse, on every embedded
FFTCG scenario and rule set (mutants included), sequential and partitioned;
check the joining of a log by hand; and check that a game whose log is in fact
read is caught, with an error naming it, rather than explored wrongly.

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

import pytest

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import Event, State, replace
from cardrules.model.fftcg.validate import load_state
from cardrules.properties.engines.explore import Bounds, Exploration, explore
from cardrules.properties.engines.parallel import explore_parallel
from cardrules.properties.engines.partition import Partition
from cardrules.properties.engines.reuse import Expander, UnsoundReuse
from cardrules.properties.fftcg.game import FftcgGame
from cardrules.properties.games import make_game, properties_for, version_map
from cardrules.properties.scenarios import RuleSetSpec, Scenario, load_scenarios

from tests.cli import run_cli

pytestmark = pytest.mark.infrastructure("reusing expansions across event logs finds what the plain search finds")

FFTCG_CASES = [
    (f"{scenario.name}/{rule_set.name}", scenario, rule_set, mutant)
    for scenario in load_scenarios() if scenario.game == "fftcg"
    for rule_set, mutant in [*((r, False) for r in scenario.rule_sets), *((r, True) for r in scenario.mutants)]
]

DAMAGE = Event("damage", ("a1",), "b1", 5000)
BREAK = Event("break", ("a1",), "b1")
HIT = Event("hit", ("a2",), "p1", 1)


def _explore(scenario: Scenario, rule_set: RuleSetSpec, mutant: bool, reuse: bool) -> tuple[Any, Exploration[Any, Any]]:
    game = make_game(scenario.game, rule_set)
    bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
    stop = frozenset(rule_set.expect_violated) if mutant else None
    result = explore(game, [game.state_from_json(scenario.state)], properties_for(scenario.game, version_map(scenario, rule_set)),
                     bounds, stop_when_violated=stop, progress=False, keep_edges=True, reuse=reuse)
    return game, result


def _same(a: Exploration[Any, Any], b: Exploration[Any, Any]) -> None:
    assert list(a.states) == list(b.states)
    assert list(a.parent) == list(b.parent)
    assert list(a.via) == list(b.via)
    assert list(a.depth) == list(b.depth)
    assert a.edges == b.edges
    assert a.stats.transitions == b.stats.transitions
    assert (a.deadlocks, a.terminals) == (b.deadlocks, b.terminals)
    assert {name: (v.state_index, v.via_parent, v.action, v.successor) for name, v in a.violations.items()} == \
        {name: (v.state_index, v.via_parent, v.action, v.successor) for name, v in b.violations.items()}


@pytest.mark.parametrize("label,scenario,rule_set,mutant", FFTCG_CASES, ids=[c[0] for c in FFTCG_CASES])
def test_reuse_finds_the_same_states_edges_and_counterexamples(label: str, scenario: Scenario, rule_set: RuleSetSpec,
                                                               mutant: bool) -> None:
    _, reused = _explore(scenario, rule_set, mutant, reuse=True)
    _, plain = _explore(scenario, rule_set, mutant, reuse=False)
    _same(reused, plain)
    assert plain.stats.expansions_reused == 0


def test_the_embedded_fftcg_scenarios_do_reuse_expansions() -> None:
    """Not a vacuous comparison: across the scenarios, many states take a remembered expansion."""
    reused = sum(_explore(s, r, m, reuse=True)[1].stats.expansions_reused for _, s, r, m in FFTCG_CASES)
    assert reused > 1000


def test_a_party_attack_reaches_states_differing_only_in_their_logs() -> None:
    """Two Forwards attacking one after the other, or as a party: the same board is reached with
    different damage logs, and the second state's expansion is the first's."""
    scenario = next(s for s in load_scenarios() if s.name == "fftcg-party-basics")
    _, result = _explore(scenario, scenario.rule_sets[0], False, reuse=True)
    cores = {replace(state, events=()) for state in result.states}
    assert len(cores) < result.stats.states
    assert result.stats.expansions_reused > 0


@pytest.mark.skipif(sys.platform != "linux", reason="the parallel search forks worker processes (Linux)")
@pytest.mark.parametrize("name", ["fftcg-party-basics", "fftcg-identical-forwards"])
def test_the_partitioned_search_with_reuse_finds_what_the_plain_sequential_one_finds(name: str) -> None:
    scenario = next(s for s in load_scenarios() if s.name == name)
    rule_set = scenario.rule_sets[0]
    game = make_game(scenario.game, rule_set)
    bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
    props = properties_for(scenario.game, version_map(scenario, rule_set))
    root = game.state_from_json(scenario.state)
    plain = explore(game, [root], props, bounds, progress=False, reuse=False)
    parallel = explore_parallel(game, [root], props, bounds, workers=2)
    assert list(parallel.states) == list(plain.states)
    assert list(parallel.parent) == list(plain.parent)
    assert parallel.stats.transitions == plain.stats.transitions
    assert parallel.stats.expansions_reused > 0


def _board() -> State:
    return load_state({
        "turn": 1, "turn_player": 0, "phase": "attack", "step": "attack-declaration",
        "players": [{"damage": 0, "forwards": [{"id": "a1", "name": "A", "elements": ["fire"], "cost": 2, "power": 5000},
                                               {"id": "a2", "name": "B", "elements": ["fire"], "cost": 2, "power": 3000}]},
                    {"damage": 0, "forwards": [{"id": "b1", "name": "C", "elements": ["ice"], "cost": 2, "power": 4000}]}],
    })


def test_states_differing_only_in_their_logs_go_to_one_partition() -> None:
    """Routing by every part but the log, so that each partition's remembered expansions serve all the
    states of a core."""
    board = _board()
    for workers in (2, 3, 5):
        partition = Partition(0, workers, FftcgGame(), [], Bounds())
        owners = {partition._key_owner(replace(board, events=log))[1] for log in [(), (DAMAGE,), (DAMAGE, BREAK), (HIT,)]}
        assert len(owners) == 1


def test_joining_a_log_puts_it_where_the_placeholder_is() -> None:
    """Worked by hand: the successor of a core that logged a break after the earlier events has the
    state's own log, then the break; a successor that logged nothing has the state's log; a log the
    step cleared (a new turn) stays cleared."""
    game = FftcgGame()
    state = replace(_board(), events=(DAMAGE,))
    rest, log = game.split_log(state)
    assert log == (DAMAGE,)
    assert game.split_log(replace(state, events=(HIT, BREAK))) == (rest, (HIT, BREAK))
    core = game.without_log(state)
    assert core.events != state.events and replace(core, events=log) == state
    assert game.join_log(core.log(BREAK), log).events == (DAMAGE, BREAK)
    assert game.join_log(core, log) == state
    assert game.join_log(replace(core, events=()), log).events == ()
    assert game.join_log(replace(core, events=(HIT,)), log).events == (HIT,)


@dataclass(frozen=True)
class LogReadingFftcg(FftcgGame):
    """A game that claims a write-only log but reads it: no attack is legal once anything is logged."""

    def legal_actions(self, state: State) -> tuple[Any, ...]:
        actions = super().legal_actions(state)
        return actions if not state.events else actions[:-1]


def test_a_game_that_reads_its_log_is_caught_not_explored_wrongly() -> None:
    game = LogReadingFftcg()
    expander: Expander[State, Any] = Expander(game, check_every=1)
    board = _board()
    expander.expand(replace(board, events=(DAMAGE,)))  # remembered for the core
    with pytest.raises(UnsoundReuse, match="legal actions .* differ .*explore without reuse"):
        expander.expand(board)  # nothing logged: one action more than remembered


def test_without_reuse_a_game_that_reads_its_log_is_explored_as_it_says() -> None:
    scenario = next(s for s in load_scenarios() if s.name == "fftcg-party-basics")
    root = load_state(scenario.state)
    bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
    plain = explore(LogReadingFftcg(), [root], [], bounds, progress=False, reuse=False)
    honest = explore(FftcgGame(), [root], [], bounds, progress=False, reuse=False)
    assert plain.stats.states != honest.stats.states
    with pytest.raises(UnsoundReuse):  # the root, nothing logged, is the first expansion computed: checked
        explore(LogReadingFftcg(), [root], [], bounds, progress=False)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_explore_no_reuse_finds_the_same_and_shares_nothing(workers: str) -> None:
    """``cardrules explore --no-reuse``: the same states, transitions and verdict; no expansion shared."""
    shared = run_cli("explore", "fftcg-party-basics", "--workers", workers, "--quiet", "--json")
    plain = run_cli("explore", "fftcg-party-basics", "--workers", workers, "--no-reuse", "--quiet", "--json")
    assert (shared.code, plain.code) == (0, 0), (shared.err, plain.err)
    a, b = json.loads(shared.out), json.loads(plain.out)
    assert a["expansions_reused"] > 0 and b["expansions_reused"] == 0
    for key in ("states", "transitions", "depth", "complete", "terminal_states", "deadlocks", "violations"):
        assert a[key] == b[key], key


def test_a_rule_set_with_a_proposals_code_is_expanded_state_by_state() -> None:
    """A proposal's hook is handed whole states and may read the log: no placeholder log may reach it."""
    logs: list[tuple[Event, ...]] = []

    def unit(state: State, *_: Any) -> int:
        logs.append(state.events)
        return 1000

    game = FftcgGame(RuleConfig(hooks=(("blocker-split-unit", unit),)))
    assert not game.log_is_write_only and FftcgGame().log_is_write_only
    scenario = next(s for s in load_scenarios() if s.name == "fftcg-party-basics")
    bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
    result = explore(game, [load_state(scenario.state)], [], bounds, progress=False)
    assert result.stats.expansions_reused == 0
    assert logs and not any(event.kind == "(the log before this step)" for log in logs for event in log)
