"""The vectors of one suite replay each step of their paths once: the step records of paths sharing a prefix
are those of replaying each path alone, with the shared steps taken once.

The game: a token starts on 0 and moves 1 or 2 squares ("+1", "+2"); a game is over on square 3 or past it.
The paths "+1 +1 +1" and "+1 +2" share their first step: alone they take 3 + 2 = 5 steps, together 4.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from cardrules.oracle.conformance.vectors import Replayed, replay_steps

pytestmark = pytest.mark.infrastructure("the vectors of the generated suites")


@dataclass
class _Token:
    """The toy game, counting its steps. Each step makes a new object, equal squares included."""

    steps: int = 0
    listed: list[int] = field(default_factory=list)

    def is_terminal(self, state: tuple[int]) -> bool:
        return state[0] >= 3

    def legal_actions(self, state: tuple[int]) -> list[int]:
        self.listed.append(state[0])
        return [1, 2]

    def step(self, state: tuple[int], action: int) -> tuple[int]:
        self.steps += 1
        return (state[0] + action,)

    def action_text(self, action: int) -> str:
        return f"+{action}"

    def action_from_text(self, text: str) -> int:
        return int(text[1:])

    def state_to_json(self, state: tuple[int]) -> dict[str, int]:
        return {"square": state[0]}


PATHS = [["+1", "+1", "+1"], ["+1", "+2"]]


def test_paths_sharing_a_prefix_give_the_records_of_each_path_alone() -> None:
    alone = [replay_steps(_Token(), (0,), path, frozenset()) for path in PATHS]  # type: ignore[arg-type]
    game, replayed = _Token(), Replayed()
    root = (0,)
    together = [replay_steps(game, root, path, frozenset(), replayed) for path in PATHS]  # type: ignore[arg-type]
    assert [steps for steps, _ in together] == [steps for steps, _ in alone]
    assert [final for _, final in together] == [(3,), (3,)]
    assert [[s["legal_actions"] for s in steps] for steps, _ in together] == [[["+1", "+2"], ["+1", "+2"], []],
                                                                            [["+1", "+2"], []]]
    assert game.steps == 4  # "+1" from the start once, then "+1", "+1" and "+2"
    # the squares reached and not over (1, 2), each listing once (a listing asks twice: its clauses, its texts)
    assert sorted(game.listed) == [1, 1, 2, 2]


def test_a_step_from_another_start_object_is_replayed() -> None:
    """Steps are told apart by the state they start from, by identity: an equal start is another start."""
    game, replayed = _Token(), Replayed()
    replay_steps(game, (0,), ["+1"], frozenset(), replayed)  # type: ignore[arg-type]
    replay_steps(game, tuple([0]), ["+1"], frozenset(), replayed)  # type: ignore[arg-type]
    assert game.steps == 2
