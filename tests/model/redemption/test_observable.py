"""The observable projection of a Redemption position: what players see, never the model's bookkeeping."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.observable import observe
from cardrules.model.redemption.state import Phase, Prompt, PromptKind, Status, Zones
from tests.model.redemption.helpers import game

pytestmark = pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-BASE-CHARACTERS", "RED-BASE-STATUSES")


def fields(state: object) -> dict[str, object]:
    return dict(observe(state))  # type: ignore[arg-type]


def test_bookkeeping_is_not_observable() -> None:
    # p0's h0 attacks, p1 blocks with e0: the same position whatever ids and counters the model keeps
    state = game(2)
    renumbered = replace(state, next_record=state.next_record + 7, next_battle=state.next_battle + 3,
                         battles_started=0, side_battles=(1, 0), discards=(), searches=())
    assert observe(renumbered) == observe(state)
    hash(observe(state))  # a graph node's key


def test_zones_and_their_contents_are_observable() -> None:
    state = game(2)
    zones = state.zones[0]
    moved = replace(state, zones=(replace(zones, hand=frozenset(), discard=zones.discard | {"sb0"}), state.zones[1]))
    differs = {name for name, value in fields(moved).items() if fields(state).get(name) != value}
    assert differs == {"P0 hand", "P0 discard"}  # sb0 went from p0's hand to p0's discard pile


def test_only_the_deck_has_an_order() -> None:
    state = game(2)
    first = replace(state, zones=(replace(state.zones[0], deck=("h8", "h9")), state.zones[1]))
    second = replace(state, zones=(replace(state.zones[0], deck=("h9", "h8")), state.zones[1]))
    assert fields(first)["P0 deck"] == ("h8", "h9")  # the top card first: it is drawn next
    assert observe(first) != observe(second)
    assert fields(state)["P0 territory"] == ()  # h0 is in battle, not in the territory
    assert fields(state)["P1 territory"] == ()


def test_whose_decision_and_of_what_kind_are_observable_but_not_the_record_it_points_to() -> None:
    state = game(2)
    window = replace(state, prompt=Prompt(PromptKind.HEAL_WINDOW, 0, record=3, cards=("h0",)))
    same_window = replace(window, prompt=Prompt(PromptKind.HEAL_WINDOW, 0, record=9, cards=("h0",)))
    assert fields(window)["decision"] == ("heal-window", 0, ("h0",))
    assert observe(window) == observe(same_window)
    # no prompt: the turn's player (p0) acts in the phase
    assert fields(replace(state, prompt=None, battles=()))["decision"] == ("phase-action", 0, ())


def test_who_controls_a_character_in_battle_and_the_outcome_are_observable() -> None:
    state = game(2)
    (battle,) = state.battles
    ((h0,), (e0,)) = battle.sides
    taken = replace(state, battles=(replace(battle, sides=((replace(h0, permanent=1),), (e0,))),))
    assert fields(state)["battle 0"] != fields(taken)["battle 0"]  # permanent control of h0 passed to p1
    ended = replace(state, winner=0)
    assert fields(ended)["winner"] == 0 and fields(state)["winner"] is None
    assert fields(replace(state, statuses=frozenset({("h0", Status.PARALYZED)})))["statuses"] != fields(state)["statuses"]
    assert fields(replace(state, phase=Phase.DISCARD))["phase"] == "discard"


def test_every_player_has_six_zone_fields() -> None:
    state = game(3)
    names = [name for name, _ in observe(state) if name.startswith("P")]
    assert len(names) == 3 * 6 and "P2 redemption" in names
    assert isinstance(state.zones[2], Zones)
