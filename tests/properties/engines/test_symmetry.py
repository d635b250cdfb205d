"""Symmetry reduction: identical cards are explored once, different ones never merged."""

from __future__ import annotations

import json

import pytest

from cardrules.model.fftcg.state import State
from cardrules.model.fftcg.validate import load_state as load_ff_state
from cardrules.model.fftcg.actions import parse_action
from cardrules.properties.fftcg.game import FftcgGame
from cardrules.properties.redemption.game import RedemptionGame
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("symmetry reduction of the explorer")

SCENARIOS = REPO / "properties" / "scenarios"


def fftcg_root(name: str) -> State:
    return load_ff_state(json.loads((SCENARIOS / f"{name}.json").read_text())["state"])


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
    """a3 is a1's card but for the P icon, so a3 is not interchangeable with a1 and a2 (which are)."""
    from dataclasses import replace

    game = FftcgGame()
    root = fftcg_root("fftcg-identical-forwards")
    a1, a2, a3 = root.players[0].forwards
    root = replace(root, players=(replace(root.players[0], forwards=(a1, a2, replace(a3, p_icon=True))), root.players[1]))
    keys = {name: game.canonical_key(game.step(root, parse_action(f"attack {name}"))) for name in ("a1", "a2", "a3")}
    assert keys["a1"] == keys["a2"]  # identical cards: one situation
    assert keys["a3"] != keys["a1"]  # a different card: never merged


def test_symmetry_reduction_is_exact_on_the_identical_scenario() -> None:
    """Reduced and unreduced searches reach the same situations: every state of the full search
    has its key among the reduced search's states, and the reduced search has fewer states."""
    from cardrules.properties.engines.explore import Bounds, explore

    class NoSymmetry(FftcgGame):
        def canonical_key(self, state: State):  # type: ignore[override]
            return state

    root = fftcg_root("fftcg-identical-forwards")
    game = FftcgGame()
    bounds = Bounds(max_turns=1, max_depth=8)
    reduced = explore(game, [root], [], bounds)
    full = explore(NoSymmetry(), [root], [], bounds)
    assert reduced.stats.states < full.stats.states
    assert {game.canonical_key(s) for s in full.states} == {game.canonical_key(s) for s in reduced.states}


def test_redemption_identical_side_battle_cards_are_one_situation() -> None:
    from cardrules.model.redemption.scenario import good_enh, hero, position
    from cardrules.model.redemption.state import Effect, Phase

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


def test_a_transition_counterexample_into_a_symmetric_state_replays() -> None:
    """The explorer meets ``attack a2`` after ``attack a1``: the same situation, already seen. A
    transition property broken by ``attack a2`` must still end its counterexample in the state
    that action really produced (a2 attacking), so that the trace replays."""
    from cardrules.properties.core import Property
    from cardrules.properties.engines.explore import Bounds, explore
    from cardrules.properties.engines.trace_json import replay, trace_to_json

    game = FftcgGame()
    no_a2 = Property("a2-never-attacks-alone", "a2 never attacks alone.", ("FF-BASE-CAN-ATTACK",), "fftcg",
                     "transition", lambda g, before, action, after: str(action) != "attack a2")
    result = explore(game, [fftcg_root("fftcg-identical-forwards")], [no_a2], Bounds(max_depth=1))
    path = result.counterexample("a2-never-attacks-alone")
    assert str(path[-1][0]) == "attack a2"
    assert path[-1][1].attack is not None and path[-1][1].attack.attackers == ("a2",)
    assert replay(trace_to_json(result, "a2-never-attacks-alone", game, {}), game).ok


def _renamed_json(data: object, rename: dict[str, str]) -> object:
    if isinstance(data, str):
        return rename.get(data, data)
    if isinstance(data, list):
        return [_renamed_json(item, rename) for item in data]
    if isinstance(data, dict):
        return {key: _renamed_json(item, rename) for key, item in data.items()}
    return data


@pytest.mark.parametrize("scenario", ["redemption-side-battles-3p", "redemption-side-battles-4p", "redemption-plain-battle"])
def test_redemption_key_merges_exactly_the_renamings_of_identical_cards(scenario: str) -> None:
    """The Redemption key reads the state directly: every state reached in the first 150
    of a breadth-first walk, renamed by a seeded shuffle among identical cards, gets the key of the
    original, and two states get one key exactly when the JSON-form key (the reference) merges them."""
    import random

    from cardrules.properties.redemption.game import UNORDERED_KEYS, _classes
    from cardrules.properties.engines.symmetry import canonical_json_key
    from cardrules.model.redemption.validate import load_state as load_red_state

    game = RedemptionGame()
    root = load_red_state(json.loads((SCENARIOS / f"{scenario}.json").read_text())["state"])
    classes = _classes(root.cards)
    assert classes, "the scenario has identical cards"
    states, frontier, seen = [], [root], set()
    while frontier and len(states) < 150:
        state = frontier.pop(0)
        if state in seen:
            continue
        seen.add(state)
        states.append(state)
        if state.winner is None:
            frontier.extend(game.step(state, action) for action in game.legal_actions(state))
    draw = random.Random(17)
    renamed = []
    for state in states:
        rename: dict[str, str] = {}
        for ids in classes:
            shuffled = list(ids)
            draw.shuffle(shuffled)
            rename.update(zip(ids, shuffled))
        data = _renamed_json(state.to_json(), rename)
        data["cards"] = sorted(data["cards"], key=lambda card: card["id"])  # type: ignore[index]
        renamed.append(load_red_state(data))
    assert any(a != b for a, b in zip(states, renamed))  # some renamings really change the state
    for state, other in zip(states, renamed):
        assert game.canonical_key(state) == game.canonical_key(other)
    everything = states + renamed
    by_new: dict[object, set[int]] = {}
    by_reference: dict[object, set[int]] = {}
    for index, state in enumerate(everything):
        by_new.setdefault(game.canonical_key(state), set()).add(index)
        by_reference.setdefault(canonical_json_key(state.to_json(), classes, UNORDERED_KEYS), set()).add(index)
    assert sorted(map(sorted, by_new.values())) == sorted(map(sorted, by_reference.values()))
