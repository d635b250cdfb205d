"""``explore --workers N`` on a small counter game: the first violation of each property is the sequential one.

The partitions stop checking a property once it is violated (their own first
violation, or one the coordinator reports from any partition), as the
sequential search does; the counter game has many violating states and
transitions in the same level, owned by different partitions, so a wrong
choice among them shows. Its symmetry (``a`` and ``b`` exchanged) makes some
successors differ from their canonical state, so the states stored apart
from their key cross between partitions too. Run with the compact codec and
without, on 2 and 3 workers, and with a depth bound (the last level is then
only checked).

The facts derived by hand: from (0, 0, 0), ``a`` and ``b`` grow by one per
action and ``c`` becomes ``(c + a + b) mod 5``, so after k increments and m
``c`` actions ``a + b = k`` and ``c <= 4``; ``a + b + c = 7`` needs 5 actions
(with 4, either ``c = 0`` or ``c <= a + b <= 3``), e.g. ``a`` three times, ``c``, ``a``.
A ``c`` action from ``c = 0`` with ``a + b = 4`` needs 4 increments first: its
counterexample has 5 actions.

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from cardrules.properties.engines.compact import StateCodec
from cardrules.properties.core import Property
from cardrules.properties.engines.explore import Bounds, Exploration, explore
from cardrules.properties.engines.parallel import explore_parallel

pytestmark = [
    pytest.mark.infrastructure("the parallel explorer gives the sequential explorer's first violations"),
    pytest.mark.skipif(sys.platform != "linux", reason="the parallel search forks worker processes (Linux)"),
]

Counters = tuple[int, int, int]


class CounterGame:
    """States (a, b, c): ``a`` and ``b`` count to 5, ``c`` adds them up modulo 5; ``s`` exchanges a and b."""

    name = "counters"

    def legal_actions(self, state: Counters) -> tuple[str, ...]:
        a, b, c = state
        if c == 4 and a == b:
            return ()  # a deadlock
        return tuple(name for name, allowed in (("a", a < 5), ("b", b < 5), ("c", True), ("s", a != b)) if allowed)

    def step(self, state: Counters, action: str) -> Counters:
        a, b, c = state
        return {"a": (a + 1, b, c), "b": (a, b + 1, c), "c": (a, b, (c + a + b) % 5), "s": (b, a, c)}[action]

    def is_terminal(self, state: Counters) -> bool:
        return state[0] == state[1] == 5

    def canonical_key(self, state: Counters) -> Any:
        return state if state[0] <= state[1] else (state[1], state[0], state[2])

    def turn(self, state: Counters) -> int:
        return 0

    def action_text(self, action: str) -> str:
        return action

    def summary(self, state: Counters) -> str:
        return str(state)

    def action_from_text(self, text: str) -> str:
        return text

    def state_to_json(self, state: Counters) -> Any:
        return list(state)

    def state_from_json(self, data: Any) -> Counters:
        return (data[0], data[1], data[2])


class PackedCounterGame(CounterGame):
    """The same game with a compact codec (each counter a part)."""

    def codec(self) -> StateCodec[Counters]:
        return StateCodec(lambda state: state, tuple)


PROPERTIES = [
    Property("sum-not-seven", "a + b + c is never 7", (), "counters", "state", lambda g, s: sum(s) != 7),
    Property("not-the-start", "the state is never all zero", (), "counters", "state", lambda g, s: s != (0, 0, 0)),
    Property("c-below-five", "c stays below 5", (), "counters", "state", lambda g, s: s[2] < 5),
    Property("c-not-four-from-zero", "no c action takes c from 0 to 4", (), "counters", "transition",
             lambda g, s, action, t: not (action == "c" and s[2] == 0 and t[2] == 4)),
    Property("no-exchange-at-three", "no s action from a = 3", (), "counters", "transition",
             lambda g, s, action, t: not (action == "s" and s[0] == 3)),
]


def _compare(game: CounterGame, bounds: Bounds, workers: int) -> tuple[Exploration[Any, Any], Exploration[Any, Any]]:
    sequential = explore(game, [(0, 0, 0)], PROPERTIES, bounds, progress=False)
    parallel = explore_parallel(game, [(0, 0, 0)], PROPERTIES, bounds, workers=workers)
    for name in ("states", "transitions", "depth", "truncated", "turn_bounded"):
        assert getattr(parallel.stats, name) == getattr(sequential.stats, name), name
    assert list(parallel.parent) == list(sequential.parent)
    assert list(parallel.depth) == list(sequential.depth)
    assert list(parallel.states) == list(sequential.states)
    assert parallel.terminals == sequential.terminals
    assert parallel.deadlocks == sequential.deadlocks
    assert sorted(parallel.violations) == sorted(sequential.violations)
    for name, violation in sequential.violations.items():
        got = parallel.violations[name]
        assert (got.state_index, got.via_parent, got.action, got.successor) == \
            (violation.state_index, violation.via_parent, violation.action, violation.successor), name
        assert parallel.counterexample(name) == sequential.counterexample(name)
    return sequential, parallel


@pytest.mark.parametrize("game", [CounterGame(), PackedCounterGame()], ids=["objects", "packed"])
@pytest.mark.parametrize("workers", [2, 3])
def test_partitions_report_the_sequential_first_violations(game: CounterGame, workers: int) -> None:
    sequential, parallel = _compare(game, Bounds(max_states=None), workers)
    assert sorted(parallel.violations) == ["c-not-four-from-zero", "no-exchange-at-three", "not-the-start",
                                           "sum-not-seven"]
    assert parallel.violations["not-the-start"].state_index == 0
    assert len(parallel.counterexample("sum-not-seven")) == 1 + 5
    assert len(parallel.counterexample("c-not-four-from-zero")) == 1 + 5
    assert parallel.deadlocks and parallel.terminals
    violating = [i for i, state in enumerate(sequential.states) if sum(state) == 7 and sequential.depth[i] == 5]
    assert len(violating) > 1, "several states of the level break the property: the first one must be chosen"


@pytest.mark.parametrize("game", [CounterGame(), PackedCounterGame()], ids=["objects", "packed"])
def test_the_last_level_under_a_depth_bound_is_checked_not_expanded(game: CounterGame) -> None:
    _, parallel = _compare(game, Bounds(max_depth=5, max_states=None), 2)
    assert parallel.stats.truncated
    assert parallel.stats.depth == 5
    assert "sum-not-seven" in parallel.violations  # found only on the last level, which is not expanded


@pytest.mark.parametrize("game", [CounterGame(), PackedCounterGame()], ids=["objects", "packed"])
def test_a_state_bound_equal_to_the_graph_size_cuts_nothing(game: CounterGame) -> None:
    """A bound that every reachable state fits in leaves the search complete, sequential and parallel
    alike: the search stops only when a new state would pass the bound (not on reaching it, which
    skipped the rest of that level's transitions, checks and terminal states)."""
    unbounded = explore(game, [(0, 0, 0)], PROPERTIES, Bounds(max_states=None), progress=False)
    size = unbounded.stats.states
    sequential, parallel = _compare(game, Bounds(max_states=size), 2)
    assert not sequential.stats.truncated and not parallel.stats.truncated
    assert sequential.stats.transitions == unbounded.stats.transitions
    assert sequential.terminals == unbounded.terminals
    sequential, parallel = _compare(game, Bounds(max_states=size - 1), 2)
    assert sequential.stats.truncated and parallel.stats.truncated
    assert sequential.stats.states == size - 1
