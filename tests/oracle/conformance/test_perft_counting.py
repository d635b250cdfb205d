"""A perft vector counts each (position, length) once: the numbers of a count from scratch at every depth,
with each position's actions listed and taken once, on a game small enough to count by hand.

The game: a token starts on 0 and moves 1 or 2 squares ("+1", "+2"); a game is over on square 3 or past it.
From 0, by hand: length 1: 0->1, 0->2 (2); length 2: 1->2, 1->3, 2->3, 2->4 (4); length 3: only the games
not over after two moves go on, 0->1->2 with 2 moves (2). Below "+1" (square 1), two moves: 1->2->3, 1->2->4
(2); below "+2" (square 2), none: both moves end the game (0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from cardrules.oracle.conformance.vectors import perft_from

pytestmark = pytest.mark.infrastructure("perft vectors of the generated suites")


@dataclass
class _Token:
    """The toy game, counting what it is asked. Each step makes a new object, equal squares included."""

    asked: dict[str, int] = field(default_factory=lambda: {"legal_actions": 0, "step": 0})

    def is_terminal(self, state: list[int]) -> bool:
        return state[0] >= 3

    def legal_actions(self, state: list[int]) -> list[int]:
        self.asked["legal_actions"] += 1
        return [1, 2]

    def step(self, state: list[int], action: int) -> list[int]:
        self.asked["step"] += 1
        return [state[0] + action]  # a list: unhashable, so a count that hashed positions would fail

    def action_text(self, action: int) -> str:
        return f"+{action}"

    def state_to_json(self, state: list[int]) -> dict[str, Any]:
        return {"square": state[0]}


def test_the_counts_by_length_and_below_each_first_action_are_the_hand_counted_ones() -> None:
    vector = perft_from(_Token(), [0], "token", frozenset(), max_depth=3)  # type: ignore[arg-type]
    assert vector is not None
    assert vector["nodes"] == [2, 4, 2]
    assert vector["depth"] == 3
    assert vector["divide"] == {"+1": 2, "+2": 0}


def test_each_position_is_listed_and_stepped_once_across_the_depths() -> None:
    """Counting lengths 1, 2 and 3 from scratch would list 0 three times, and so on; here each position
    reached on the way is listed once: 0, 1, 2 and 1->2 (the games over are not), each with its two steps, the
    start's listing serving the split of the last length below its actions too."""
    game = _Token()
    perft_from(game, [0], "token", frozenset(), max_depth=3)  # type: ignore[arg-type]
    assert game.asked == {"legal_actions": 4, "step": 8}
