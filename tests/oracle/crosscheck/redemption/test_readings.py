"""Readings both encodings share, recorded as decisions with both options in the z3 encoding, each checked on a
hand-built position and by the cross-check with the model over a whole exploration of it.

``sb-territory-survivor-enhancements``: p0's k 1/1 sits in p0's territory with pk (0/0) placed on it; h
1/5 attacks, e 2/6 blocks; p0 plays sb on h -> j k, k on p0's side against j 1/5 (p0's hand), and may
play pad0 (0/4) on k in the side battle; the survivors go back to p0's territory.

``rd-numbers-which-battle``: p0's h 1/5 attacks, p1's e 2/6 blocks (stalemate, p0 has initiative); p0
plays sb on h -> j k, a side battle of j 0/1 (p0's hand, p0's side) against k 1/5 (p0's territory, p1's
side, chosen by p0). With ``rd-in-battle`` = any-battle p0 may redirect the numbers of e, which sits in
the suspended main battle, onto rn played on j.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Iterator

import pytest
import z3

from cardrules.model.redemption.actions import parse
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import step
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Effect, State
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import CrosscheckReport, card_numbers, crosscheck_many, fighter_numbers
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.model.redemption import resolution
from cardrules.specs.smt.redemption import redirect as rd
from cardrules.specs.smt.redemption import side_battle_clauses as sb_clauses
from cardrules.specs.smt.redemption import side_battle_vars as sb

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


# --- sb-territory-survivor-enhancements ----------------------------------------------------------------

SURVIVOR = ("all-discarded", "played-in-side-battle-only")


def _sb_config(option: str) -> RuleConfig:
    return RuleConfig.of({"sb-territory-survivor-enhancements": option})


def _sb_start() -> State:
    cards = [hero("h", 0, 1, 5), hero("k", 0, 1, 1), evil("e", 1, 2, 6), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             good_enh("pk", 0), good_enh("pad0", 0, 0, 4), hero("j", 0, 1, 5)]
    base = position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "pad0", "j"]}, 1: {"territory": ["e"]}}, 2)
    return replace(base, placed=frozenset({("pk", "k")}))


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY", "RED-SB-RETURN-TO-BATTLE")
@pytest.mark.parametrize("option", SURVIVOR)
def test_the_situation_reads_what_a_survivor_keeps(option: str) -> None:
    """A survivor selected from a territory: not back, keeps nothing played in the side battle, and
    keeps what it carried in only under played-in-side-battle-only; one selected from the paused
    battle goes back keeping both under either option."""
    rule_set = RuleSet(decisions={"sb-territory-survivor-enhancements": option})
    situation = sb_clauses.side_battle_situation(rule_set)
    v = sb.SBVars.make()
    solver = z3.Solver()
    solver.add(situation.background, situation.domain,
               *[situation.constraints[c].formula for c in (*clauses_in_force("side-battle", rule_set), *sb.BASE_CLAUSES)])
    common = [v.takes_effect, v.ended, z3.Not(v.discarded_x), z3.Not(v.healed_x)]
    for zone, expected in ((sb.TERRITORY, (False, False, option == "played-in-side-battle-only")),
                           (sb.PAUSED_BATTLE, (True, True, True))):
        solver.push()
        solver.add(*common, v.zone_x == zone)
        assert solver.check() == z3.sat
        m = solver.model()
        got = tuple(z3.is_true(m.eval(x, model_completion=True)) for x in (v.back_x, v.keeps_x, v.keeps_carried_x))
        assert got == expected
        solver.add(z3.Or(*[x != z3.BoolVal(e) for x, e in zip((v.back_x, v.keeps_x, v.keeps_carried_x), expected)]))
        assert solver.check() == z3.unsat  # forced
        solver.pop()


@lru_cache(maxsize=None)
def _sb_states(option: str) -> tuple[State, ...]:
    exploration = explore(RedemptionGame(_sb_config(option)), [_sb_start()], [], Bounds(max_turns=1, max_states=5000))
    assert not exploration.stats.truncated
    return tuple(exploration.states)


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY", "RED-BR-UNAFFECTED-NORMAL")
@pytest.mark.parametrize("option", SURVIVOR)
def test_survivor_crosscheck_agrees_over_the_exploration(option: str) -> None:
    report = crosscheck_many(_sb_states(option), _sb_config(option))
    assert not report.disagreements, "\n".join(str(d) for d in report.disagreements[:3])
    assert report.decisions.get("out-of-scope", 0) == 0 and report.decisions.get("encoding-no-answer", 0) == 0
    assert report.decisions["sb-return"] > 0


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY")
@pytest.mark.parametrize("option", SURVIVOR)
def test_a_model_ignoring_the_option_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None, option: str) -> None:
    """The model keeping the carried enhancements under all-discarded, or discarding them under
    played-in-side-battle-only, disagrees with the encoding on pk."""
    wrong = "all-discarded" if option == "played-in-side-battle-only" else "played-in-side-battle-only"
    real = resolution.kept_carried
    monkeypatch.setattr(resolution, "kept_carried",
                        lambda state, battle, fighter, doomed, config: real(state, battle, fighter, doomed, _sb_config(wrong)))
    report = crosscheck_many(_sb_states(option), _sb_config(option))
    assert any(d.what == "br-enhancement" and "pk on k" in str(d) for d in report.disagreements)
