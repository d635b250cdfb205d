"""Shared readings of issue 16 as decisions with both options in the z3 encoding, each checked on a
hand-built position and by the cross-check with the model over a whole exploration of it.

``rd-numbers-which-battle``: p0's h 1/5 attacks, p1's e 2/6 blocks (stalemate, p0 has initiative); p0
plays sb on h -> j k, a side battle of j 0/1 (p0's hand, p0's side) against k 1/5 (p0's territory, p1's
side, chosen by p0). With ``rd-in-battle`` = any-battle p0 may redirect the numbers of e, which sits in
the suspended main battle, onto rn played on j.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

import pytest
import z3

from cardrules.model.redemption.actions import parse
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import step
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Effect, State
from cardrules.oracle import smt_redemption
from cardrules.oracle.smt_redemption import CrosscheckReport, card_numbers, crosscheck_many, fighter_numbers
from cardrules.properties.explore import Bounds, explore
from cardrules.properties.redemption_game import RedemptionGame
from cardrules.specs.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.redemption import redirect as rd

WHICH_BATTLE = ("target-in-any-battle", "same-battle-only")


def _rd_config(option: str) -> RuleConfig:
    return RuleConfig.of({"rd-in-battle": "any-battle", "rd-numbers-which-battle": option})


def _rd_start() -> State:
    cards = [hero("h", 0, 1, 5), hero("k", 0, 1, 5), evil("e", 1, 2, 6), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             good_enh("rn", 0, ability=Effect.REDIRECT_NUMBERS), hero("j", 0, 0, 1)]
    return position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "rn", "j"]}, 1: {"territory": ["e"]}}, 2)


def _play(state: State, texts: list[str], config: RuleConfig) -> State:
    for text in texts:
        state = step(state, parse(text), config)
    return state


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-TRANSFER")
@pytest.mark.parametrize("option", WHICH_BATTLE)
def test_the_situation_reads_which_battle_the_gain_counts_in(option: str) -> None:
    """A numbers redirect moving 2/6, its target still in a battle but not in the redirecting card's
    (0/0 before): the redirecting card is 2/6 when the gain counts in any battle, 0/0 when only in
    its own; with both in one battle it is 2/6 under either option."""
    rule_set = RuleSet(decisions={"rd-in-battle": "any-battle", "rd-numbers-which-battle": option})
    situation = rd.redirect_situation(rule_set)
    v = rd.RDVars.make()
    solver = z3.Solver()
    solver.add(situation.background, situation.domain,
               *[situation.constraints[c].formula for c in clauses_in_force("redirect", rule_set)])
    fixed = [v.what == rd.NUMBERS, z3.Not(v.both), z3.Not(v.stated), v.printed_s == 2, v.printed_t == 6,
             v.target_s0 == 2, v.target_t0 == 6, v.card_s0 == 0, v.card_t0 == 0, z3.Not(v.phase_ended),
             v.place == rd.LOWER_BATTLE, v.still_in_battle, v.allowed, v.active]
    for same, expected in ((False, (2, 6) if option == "target-in-any-battle" else (0, 0)), (True, (2, 6))):
        solver.push()
        solver.add(*fixed, v.same_battle == same)
        assert solver.check() == z3.sat
        m = solver.model()
        assert (m.eval(v.card_s).as_long(), m.eval(v.card_t).as_long()) == expected
        solver.add(z3.Or(v.card_s != expected[0], v.card_t != expected[1]))
        assert solver.check() == z3.unsat  # forced
        solver.pop()


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-TRANSFER")
@pytest.mark.parametrize(("option", "j_numbers"), [("target-in-any-battle", (2, 7)), ("same-battle-only", (0, 1))])
def test_the_encoding_numbers_of_the_position(option: str, j_numbers: tuple[int, int]) -> None:
    """After 'play rn on j -> e' the encoding (from the raw position) makes e 0/0 under both options, and
    j with rn 0/1 + 2/6 = 2/7 when the gain counts in any battle, 0/1 when e must be in j's battle."""
    config = _rd_config(option)
    state = _play(_rd_start(), ["attack 1 h", "block e", "play sb on h -> j k", "sides j k", "play rn on j -> e"],
                  config)
    numbers = card_numbers(state, config)
    assert numbers["e"] == (0, 0)
    fighter = state.fighter("j")
    assert fighter is not None
    assert fighter_numbers(state, fighter[2], numbers) == j_numbers


@lru_cache(maxsize=None)
def _rd_states(option: str) -> tuple[State, ...]:
    exploration = explore(RedemptionGame(_rd_config(option)), [_rd_start()], [], Bounds(max_turns=1, max_states=5000))
    assert not exploration.stats.truncated
    return tuple(exploration.states)


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-TRANSFER", "RED-RD-PURPOSE")
@pytest.mark.parametrize("option", WHICH_BATTLE)
def test_crosscheck_agrees_over_the_exploration(option: str) -> None:
    report = crosscheck_many(_rd_states(option), _rd_config(option))
    assert not report.disagreements, "\n".join(str(d) for d in report.disagreements[:3])
    assert report.decisions.get("out-of-scope", 0) == 0 and report.decisions.get("encoding-no-answer", 0) == 0
    assert report.decisions["rd-amount"] > 0 and report.decisions["br-resolution"] > 0
    assert report.decisions["sb-return"] > 0


@pytest.fixture
def fresh() -> Iterator[None]:
    smt_redemption.clear_caches()
    yield
    smt_redemption.clear_caches()


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def test_an_encoding_ignoring_the_option_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The z3 side counting the gain in any battle while the model runs same-battle-only disagrees
    on the side battle's outcome."""
    monkeypatch.setattr(rd, "gain_counts", lambda v, rs: v.still_in_battle)
    report: CrosscheckReport = crosscheck_many(_rd_states("same-battle-only"), _rd_config("same-battle-only"))
    assert report.disagreements
