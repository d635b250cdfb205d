"""Scope positions: counted by hand for tiny scopes, legal, in a fixed order, equivalent ones once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.properties.scenarios import load_scenario
from cardrules.properties.scopes import SCOPE_NAMES, enumerate_positions, load_scope, position
from cardrules.properties.scopes.enumerate import _enumerate
from tests.properties.scopes.tiny import FF_TINY, RED_TINY, write

pytestmark = pytest.mark.infrastructure("scopes: the start positions they enumerate")


def test_tiny_redemption_scope_has_ten_positions(tmp_path: Path) -> None:
    # Hand count: player 0's territory holds one or two Heroes of two printed cards, identical
    # copies being one card twice: {h22}, {h44}, {h22 h22}, {h22 h44}, {h44 h44} = 5; the heal in
    # hand or not: x2; player 1's Evil Character and Lost Soul are fixed: 10 positions.
    scope = load_scope(str(write(tmp_path, RED_TINY)), "redemption")
    positions = enumerate_positions(scope)
    assert len(positions) == 10
    territories = [tuple(p.state["zones"][0]["territory"]) for p in positions]
    assert ("h22-p0", "h22-p0b") in territories  # the second copy of a card gets its own id
    assert all(p.state["active"] == 0 and p.state["phase"] == "battle" and p.state["battles"] == [] for p in positions)


def test_tiny_fftcg_scope_has_twenty_positions(tmp_path: Path) -> None:
    # Hand count: the turn player's one or two identical Forwards, each active or dull: one Forward
    # (active, dull) = 2, two (both active, one dull, both dull) = 3, so 5; the blocker there or
    # not: x2; the opponent at 5 or 6 damage: x2; 20 positions.
    scope = load_scope(str(write(tmp_path, FF_TINY)), "fftcg")
    positions = enumerate_positions(scope)
    assert len(positions) == 20
    assert {p.state["players"][1]["damage"] for p in positions} == {5, 6}
    assert all(p.state["step"] == "attack-preparation" and p.state["turn_player"] == 0 for p in positions)


def test_equivalent_positions_are_enumerated_once(tmp_path: Path) -> None:
    # Two zone entries that may each field the same printed blocker: no blocker, one (from either
    # entry: the same position, the two copies being interchangeable), both: 3 positions, not 4;
    # times the 5 attacker fields and 2 damage values of FF_TINY: 30.
    text = FF_TINY + '\n[[zones]]\nseat = "defender"\ncards = ["b5"]\ncount = [0, 1]\n'
    positions = enumerate_positions(load_scope(str(write(tmp_path, text)), "fftcg"))
    assert len(positions) == 30
    assert len({json.dumps(p.state, sort_keys=True) for p in positions}) == 30


def test_positions_are_named_bounded_and_in_a_fixed_order(tmp_path: Path) -> None:
    path = str(write(tmp_path, RED_TINY))
    first = enumerate_positions(load_scope(path, "redemption"))
    _enumerate.cache_clear()
    again = enumerate_positions(load_scope(path, "redemption"))
    assert [p.name for p in first] == [f"tiny#{n}" for n in range(1, 11)]
    assert [p.state for p in first] == [p.state for p in again]
    assert all((p.max_turns, p.max_states) == (1, 500) for p in first)
    assert all([r.name for r in p.rule_sets] == ["default"] and not p.mutants for p in first)
    assert position(load_scope(path, "redemption"), "tiny#4").state == first[3].state


def _load_every_position(tmp_path: Path, name: str) -> int:
    loaded = 0
    for game, names in SCOPE_NAMES.items():
        if name not in names:
            continue
        for scenario in enumerate_positions(load_scope(name, game)):
            stem = f"{game}-{scenario.name.replace('#', '-')}"
            path = tmp_path / f"{stem}.json"
            path.write_text(json.dumps({"name": stem, "game": game, "description": scenario.description,
                                        "state": scenario.state}), encoding="utf-8")
            assert load_scenario(path).state == scenario.state
            loaded += 1
    return loaded


def test_every_position_of_the_small_scopes_loads_as_a_scenario_file(tmp_path: Path) -> None:
    assert _load_every_position(tmp_path, "small") > 100


@pytest.mark.slow
def test_every_position_of_the_medium_scopes_loads_as_a_scenario_file(tmp_path: Path) -> None:
    assert _load_every_position(tmp_path, "medium") > 1000


def test_medium_is_notably_larger_than_small() -> None:
    for game in ("fftcg", "redemption"):
        small = enumerate_positions(load_scope("small", game))
        medium = enumerate_positions(load_scope("medium", game))
        assert len(medium) >= 3 * len(small), game


MID_GAME = RED_TINY.replace('cards = ["h22", "h44"]\ncount = [1, 2]', 'cards = ["h22"]\ncount = [2, 2]').replace(
    'cards = ["hl"]\ncount = [0, 1]', 'cards = ["hl"]\ncount = [1, 1]').replace(
    'point = "battle-phase"', 'point = "battle-phase"\nmid_game = true') + """
[mid_game]
statuses = ["poisoned"]
side_battles = [0, 1]
"""


def test_a_mid_game_scope_adds_statuses_and_side_battles_up_to_symmetry(tmp_path: Path) -> None:
    # Hand count: two copies of h22 and e33 in the territories; each copy poisoned or not, the two
    # copies being interchangeable: neither, one, both = 3; e33 poisoned or not: x2; no side battle
    # initiated yet or one: x2; 12 positions (16 before the copies are told apart by symmetry).
    assert "mid_game = true" in MID_GAME and 'count = [2, 2]' in MID_GAME
    positions = enumerate_positions(load_scope(str(write(tmp_path, MID_GAME)), "redemption"))
    assert len(positions) == 12
    assert {tuple(p.state["side_battles"]) for p in positions} == {(0, 0), (1, 0)}
    assert all(p.state["battles_started"] == 1 for p in positions if p.state["side_battles"][0] == 1)


def test_statuses_need_a_scope_that_starts_mid_game(tmp_path: Path) -> None:
    from cardrules.properties.scopes import ScopeError

    with pytest.raises(ScopeError, match="mid_game: domains of what happened earlier in the turn need"):
        load_scope(str(write(tmp_path, MID_GAME.replace("mid_game = true", "mid_game = false"))), "redemption")
