"""The small Redemption scope shows what the embedded scenarios miss: the two heal wordings part ways
when the healed character's owner is not its permanent controller, and over the discard pile."""

from __future__ import annotations

from typing import Any

import pytest

from cardrules.oracle.rulechange.lockstep import diff_scenario
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import Scenario
from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
from cardrules.properties.scopes import enumerate_positions, load_scope


def _diffs(keep: Any) -> list[tuple[Scenario, Any]]:
    previous = make_game("redemption", parse_rule_set_expression("heal=previous").spec)
    revised = make_game("redemption", parse_rule_set_expression("heal=revised").spec)
    chosen = [p for p in enumerate_positions(load_scope("small", "redemption")) if keep(p.state)]
    assert chosen, "the small scope lost the positions this test is about"
    return [(p, diff_scenario(p, previous, revised)) for p in chosen]


def _examples(result: Any) -> list[Any]:
    """The shortest example of each class of difference the lockstep found."""
    return [tally.example for tally in result.classes.values()]


def _holds(state: dict[str, Any], seat: int, zone: str, card: str) -> bool:
    return card in state["zones"][seat][zone]


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_a_healed_character_goes_to_its_owner_or_to_its_permanent_controller() -> None:
    # Player 0 controls h22-p1, a 2/2 Hero player 1 owns, and holds hlb-p0, a heal of its brigade.
    # Beaten by player 1's blocker (or discarded by an ability), h22-p1 may be healed in its heal
    # window: the previous wording sends it to its owner's territory (player 1's), the revised one to
    # the territory of its permanent controller (player 0's). The same heal, two results.
    found = []
    for position, result in _diffs(lambda s: _holds(s, 0, "territory", "h22-p1") and _holds(s, 0, "hand", "hlb-p0")):
        for example in _examples(result):
            if example.kind == "changed" and example.action == "heal h22-p1 with hlb-p0":
                a, b = example.result_a, example.result_b
                if _holds(a, 1, "territory", "h22-p1") and _holds(b, 0, "territory", "h22-p1"):
                    found.append(position.name)
    assert found


@pytest.mark.clause("RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-TO-OWNER")
def test_only_the_previous_wording_heals_out_of_the_discard_pile() -> None:
    # Player 0's own h22-p0 (2/2) is beaten by the 3/3 blocker and discarded; with hlb-p0 in hand, the
    # previous wording lets player 0 heal it out of the discard pile later that turn, the revised one
    # does not: a heal legal under the previous wording only (tightened).
    found = []
    for position, result in _diffs(lambda s: s["zones"][0]["territory"] == ["h22-p0"]
                                   and s["zones"][0]["hand"] == ["hlb-p0"]):
        found += [position.name for example in _examples(result)
                  if example.kind == "tightened" and example.action == "heal h22-p0 with hlb-p0"
                  and _holds(example.prefix[-1][1], 0, "discard", "h22-p0")]
    assert found
