"""The breadth-first explorer on a toy game whose graph is counted by hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Hashable

import networkx as nx
import pytest

from cardrules.properties.core import Property
from cardrules.properties.engines.explore import Bounds, explore, narrative, write_dot, write_graphml

pytestmark = pytest.mark.infrastructure("the state-graph explorer's machinery")


@dataclass(frozen=True)
class Counter:
    """States 0..5; actions +1 and +2; 5 is terminal; 4 is a dead end (no action, not terminal)."""

    name: str = field(default="counter")

    def legal_actions(self, state: int) -> tuple[int, ...]:
        if state == 4:
            return ()
        return tuple(a for a in (1, 2) if state + a <= 5)

    def step(self, state: int, action: int) -> int:
        return state + action

    def is_terminal(self, state: int) -> bool:
        return state == 5

    def canonical_key(self, state: int) -> Hashable:
        return state

    def turn(self, state: int) -> int:
        return 1

    def action_text(self, action: int) -> str:
        return f"+{action}"

    def summary(self, state: int) -> str:
        return f"n={state}"

    def action_from_text(self, text: str) -> int:
        return int(text)

    def state_to_json(self, state: int) -> Any:
        return state

    def state_from_json(self, data: Any) -> int:
        return int(data)


NOT_THREE = Property("not-three", "The counter never shows 3.", ("FF-PARTY-MIN-TWO",), "toy", "state",
                     lambda game, s: s != 3)
SMALL_STEPS = Property("small-steps", "No step adds 2.", ("FF-PARTY-MIN-TWO",), "toy", "transition",
                       lambda game, a, action, b: action != 2)


def test_counts_states_edges_terminals_and_deadlocks() -> None:
    result = explore(Counter(), [0], [], keep_edges=True)
    # states 0,1,2,3,4,5 are all reachable: 6 states
    assert result.stats.states == 6
    # edges: 0->1,0->2, 1->2,1->3, 2->3,2->4, 3->4,3->5, 4: none (dead end), 5: terminal -> 8
    assert result.stats.transitions == 8
    assert [result.states[i] for i in result.terminals] == [5]
    assert [result.states[i] for i in result.deadlocks] == [4]
    # depth: 5 is reached at the earliest by 0->1->3->5 or 0->2->3->5: 3 steps
    assert result.depth[result.states.index(5)] == 3
    graph = result.graph()
    assert isinstance(graph, nx.DiGraph)
    assert graph.number_of_nodes() == 6 and graph.number_of_edges() == 8


def test_shortest_counterexample_for_state_and_transition_properties() -> None:
    result = explore(Counter(), [0], [NOT_THREE, SMALL_STEPS])
    # 3 is first reached at depth 2; BFS expands 1 before 2, so via 0 -+1-> 1 -+2-> 3
    path = [(action, state) for action, state in result.counterexample("not-three")]
    assert path == [(None, 0), (1, 1), (2, 3)]
    # the first +2 step is the second edge tried from the root
    assert result.counterexample("small-steps") == [(None, 0), (2, 2)]
    text = narrative(result, "not-three", Counter())
    assert "Property not-three is violated" in text and "+2" in text and "n=3" in text


def test_bounds_truncate_and_say_so() -> None:
    by_depth = explore(Counter(), [0], [], Bounds(max_depth=1))
    assert sorted(by_depth.states) == [0, 1, 2] and by_depth.stats.truncated
    by_count = explore(Counter(), [0], [], Bounds(max_states=3))
    assert by_count.stats.states == 3 and by_count.stats.truncated
    complete = explore(Counter(), [0], [])
    assert not complete.stats.truncated


def test_stop_when_the_expected_violation_is_found() -> None:
    result = explore(Counter(), [0], [NOT_THREE], stop_when_violated=frozenset({"not-three"}))
    assert "not-three" in result.violations and result.stats.truncated


def test_exports_dot_and_graphml(tmp_path: Path) -> None:
    result = explore(Counter(), [0], [NOT_THREE], keep_edges=True)
    write_dot(result, str(tmp_path / "g.dot"), Counter())
    dot = (tmp_path / "g.dot").read_text()
    assert dot.startswith('digraph "counter" {') and dot.count("->") == 8 and 'label="+2"' in dot
    write_graphml(result, str(tmp_path / "g.graphml"))
    again = nx.read_graphml(tmp_path / "g.graphml")
    assert again.number_of_nodes() == 6 and again.number_of_edges() == 8


def test_progress_line_only_when_asked(capsys) -> None:
    explore(Counter(), [0], [], progress=False)
    assert capsys.readouterr().err == ""
