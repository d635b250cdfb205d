"""Symmetry reduction: identical cards are explored once, different ones never merged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.fftcg.state import State
from model.fftcg.actions import parse_action
from properties.fftcg_game import FftcgGame
from properties.redemption_game import RedemptionGame

SCENARIOS = Path(__file__).resolve().parents[2] / "properties" / "scenarios"


def fftcg_root(name: str) -> State:
    return State.from_json(json.loads((SCENARIOS / f"{name}.json").read_text())["state"])


@pytest.mark.clause("FF-PARTY-MIN-TWO")
def test_parties_of_identical_forwards_are_one_situation() -> None:
    game = FftcgGame()
    root = fftcg_root("fftcg-identical-forwards")  # a1, a2, a3 are the same Fire 3000 card
    a12 = game.step(root, parse_action("attack a1 a2"))
    a13 = game.step(root, parse_action("attack a1 a3"))
    a23 = game.step(root, parse_action("attack a2 a3"))
    assert a12 != a13  # different states of the model ...
    assert game.canonical_key(a12) == game.canonical_key(a13) == game.canonical_key(a23)  # ... one situation
    single = game.step(root, parse_action("attack a1"))
    assert game.canonical_key(single) != game.canonical_key(a12)


def test_different_forwards_are_never_merged() -> None:
    game = FftcgGame()
    root = fftcg_root("fftcg-party-basics")  # a1 (Fire 5000) and a2 (Fire/Ice 3000) differ
    a1 = game.step(root, parse_action("attack a1"))
    a2 = game.step(root, parse_action("attack a2"))
    assert game.canonical_key(a1) != game.canonical_key(a2)


def test_symmetry_cuts_the_identical_scenario() -> None:
    from properties.explore import Bounds, explore

    class NoSymmetry(FftcgGame):
        def canonical_key(self, state: State):  # type: ignore[override]
            return state

    root = fftcg_root("fftcg-identical-forwards")
    reduced = explore(FftcgGame(), [root], [], Bounds(max_turns=1))
    full = explore(NoSymmetry(), [root], [], Bounds(max_turns=1))
    assert reduced.stats.states < full.stats.states


def test_redemption_identical_side_battle_cards_are_one_situation() -> None:
    from model.redemption.scenario import good_enh, hero, position
    from model.redemption.state import Effect, Phase

    cards = [hero("h0", 0, 2, 3), good_enh("sb0", 0, ability=Effect.SIDE_BATTLE), good_enh("sb1", 0, ability=Effect.SIDE_BATTLE)]
    game = RedemptionGame()
    # the same printed card: one in hand and one in the discard pile, or the other way round
    first = position(cards, {0: {"territory": ["h0"], "hand": ["sb0"], "discard": ["sb1"]}}, 2, phase=Phase.BATTLE)
    second = position(cards, {0: {"territory": ["h0"], "hand": ["sb1"], "discard": ["sb0"]}}, 2, phase=Phase.BATTLE)
    assert first != second
    assert game.canonical_key(first) == game.canonical_key(second)
    # a Hero of other numbers is not interchangeable with h0
    cards2 = [hero("h0", 0, 2, 3), hero("h1", 0, 1, 3)]
    a = position(cards2, {0: {"territory": ["h0"], "hand": ["h1"]}}, 2)
    b = position(cards2, {0: {"territory": ["h1"], "hand": ["h0"]}}, 2)
    assert game.canonical_key(a) != game.canonical_key(b)
