"""Decision br-outcome-several-characters under its alternative (any-defeated): the model and both z3
encodings (the rule-level Battle Resolution clauses and the transition-level battle fragment) agree
over whole explorations of positions with several characters a side.

The position: p0's h1 3/2 and h2 1/5 attack p1 (Lost Soul s1 in bondage), whose e 3/3 may block, with
a 0/2 enhancement g1 in p0's hand and a 2/0 x1 in p1's: the default reading (the Heroes win while h2
stands) and the alternative (h1 down beats the Hero side: mutual destruction) part here, and the
enhancements move the standing, hence the initiative, both ways.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from cardrules.model.redemption.state import Outcome, State
from cardrules.oracle.crosscheck.redemption import battle as bridge

from .battle.helpers import reachable, root_two_heroes
from .option_checks import explored, fresh_solvers, rule_level_agrees, transition_level_agrees

OPTIONS = ("all-defeated", "any-defeated")


def _config(option: str) -> RuleConfig:
    return RuleConfig.of({"br-outcome-several-characters": option})


def _start() -> State:
    cards = [hero("h1", 0, 3, 2), hero("h2", 0, 1, 5), evil("e", 1, 3, 3), soul("s1", 1),
             good_enh("g1", 0, 0, 2), evil_enh("x1", 1, 2, 0)]
    return position(cards, {0: {"territory": ["h1", "h2"], "hand": ["g1"]},
                            1: {"territory": ["e"], "hand": ["x1"], "bondage": ["s1"]}}, 2)


def _states(option: str) -> tuple[State, ...]:
    return explored(_start(), _config(option))


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-DEFEAT")
@pytest.mark.parametrize(("option", "expected"), [("all-defeated", True), ("any-defeated", False)])
def test_the_readings_part_in_the_exploration(option: str, expected: bool) -> None:
    """A Hero win with h1 discarded: under all-defeated p1 may simply pass after blocking (e 3 >= h1's
    2, h2's 5 holds, e falls to 4): the Heroes win and h1 goes to the discard pile. Under
    any-defeated a Hero win needs no Hero defeated, so no such state is reached."""
    found = any(s.last_outcome is Outcome.SIDE0_WINS and "h1" in s.zones[0].discard for s in _states(option))
    assert found is expected


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BR-MISSION-RESULT", "RED-BR-STEP4-DISCARD-RETURN")
@pytest.mark.parametrize("option", OPTIONS)
def test_rule_level_crosscheck_agrees_over_the_exploration(option: str) -> None:
    rule_level_agrees(_states(option), _config(option), "br-resolution")


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-INITIATIVE", "RED-BR-MISSION-RESULT")
@pytest.mark.parametrize("option", OPTIONS)
def test_transition_level_crosscheck_agrees_over_the_exploration(option: str) -> None:
    transition_level_agrees(_states(option), _config(option))


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-INITIATIVE")
def test_transition_level_crosscheck_agrees_on_two_heroes() -> None:
    """The battle tests' two-Heroes position (both p0 Heroes against e1, enhancements both ways), one
    turn deep, under any-defeated."""
    config = _config("any-defeated")
    transition_level_agrees(reachable(root_two_heroes(), config, turns=1), config)


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES")
def test_an_encoding_left_at_the_default_reading_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The battle encoding run at all-defeated while the model runs any-defeated disagrees."""
    with fresh_solvers():
        monkeypatch.setattr(bridge, "variants_of", lambda config: bridge.Variants())
        states = [s for s in _states("any-defeated") if s.phase in bridge.SOURCE_PHASES]
        assert bridge.crosscheck_many(states, _config("any-defeated")).disagreements
