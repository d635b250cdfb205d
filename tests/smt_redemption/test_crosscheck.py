"""The Redemption model and the independent z3 encoding agree on the rule decisions of side
battles, Battle Resolution and redirects (:mod:`oracle.smt_redemption`), over every state of
BFS explorations of the embedded scenarios (each rule set they list) and over hypothesis runs,
for the default reading and variants; deliberately broken encodings are caught."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.redemption.config import RuleConfig
from model.redemption.state import State
from oracle import smt_redemption
from oracle.smt_redemption import CrosscheckReport, crosscheck_many
from properties.explore import Bounds, explore
from properties.redemption_game import RedemptionGame
from properties.redemption_strategies import REDIRECT_HEAVY, RICH_ABILITIES, transitions
from properties.scenarios import load_scenarios
from specs.smt.consistency import ClauseConstraint
from specs.smt.redemption import resolution as br
from specs.smt.redemption import side_battle as sb

SB = ("RED-SB-SUSPEND", "RED-SB-RESUME", "RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS",
      "RED-SB-CONTROL-ONE-INSIDER", "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE",
      "RED-SB-RETURN-TO-TERRITORY", "RED-SB-INSTANTANEOUS", "RED-SB-TARGETS-TWO", "RED-SB-TARGET-ZONES",
      "RED-SB-DEFEAT-NORMAL", "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-SAME-ALIGNMENT")
BR = ("RED-BR-FOUR-OUTCOMES", "RED-BR-MISSION-RESULT", "RED-BR-STEP1-OUTCOME", "RED-BR-CHALLENGE-RESULT",
      "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL", "RED-BR-UNAFFECTED-NORMAL", "RED-BR-STEP4-DISCARD-RETURN",
      "RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-HEAL-WINDOW")
RD = ("RED-RD-ONLY-INTERRUPTED", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-ABILITY-TARGET", "RED-RD-NUMBERS-TARGET",
      "RED-RD-NUMBERS-NO-INTERRUPT", "RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING", "RED-RD-UNTIL-END-OF-PHASE",
      "RED-RD-CARRIER-CHANGES", "RED-RD-PURPOSE", "RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE",
      "RED-RD-SAME-TARGET-ALLOWED", "RED-RD-LOCATION-UNCHANGED", "RED-RD-TWO-KINDS", "RED-RD-BOTH-IS-TWO")

SCENARIOS = [s for s in load_scenarios() if s.game == "redemption"]
RUNS = [(s.name, r.name) for s in SCENARIOS for r in s.rule_sets]


def _config(decisions: dict[str, str], versions: dict[str, tuple[str, ...]]) -> RuleConfig:
    return RuleConfig.of(decisions, heal_version=versions.get("heal", ("revised",))[0])


@lru_cache(maxsize=None)
def _states(scenario: str, rule_set: str) -> tuple[tuple[State, ...], RuleConfig]:
    sc = next(s for s in SCENARIOS if s.name == scenario)
    rs = next(r for r in sc.rule_sets if r.name == rule_set)
    config = _config(dict(rs.decisions), dict(rs.versions))
    exploration = explore(RedemptionGame(config), [State.from_json(sc.state)], [],
                          Bounds(max_turns=sc.max_turns, max_states=sc.max_states))
    assert not exploration.stats.truncated
    return tuple(exploration.states), config


def _report(report: CrosscheckReport) -> str:
    return "\n".join(str(d) for d in report.disagreements[:3])


@pytest.mark.clause(*SB, *BR, *RD)
@pytest.mark.parametrize(("scenario", "rule_set"), RUNS, ids=[f"{s}:{r}" for s, r in RUNS])
def test_every_explored_state(scenario: str, rule_set: str) -> None:
    states, config = _states(scenario, rule_set)
    report = crosscheck_many(states, config)
    assert report.states == len(states)
    assert not report.disagreements, _report(report)
    assert report.decisions.get("br-resolution", 0) > 0
    if "side-battles" in scenario:
        assert report.decisions["sb-pairs"] > 0 and report.decisions["sb-start"] > 0
        assert report.decisions.get("sb-user-choice", 0) > 0  # the user's-choice cases are exercised
    if "redirect" in scenario:
        assert report.decisions["rd-amount"] > 0 and report.decisions["rd-carrier"] > 0


VARIANTS = (
    ({}, "revised"), ({}, "previous"), ({"redline-window": "inserted"}, "previous"),
    ({"sb-per-turn-limit": "two"}, "revised"), ({"sb-return-territory": "permanent-controller"}, "revised"),
    ({"sb-in-battle-meaning": "suspended-battle-only"}, "revised"), ({"sb-in-play-zones": "territory-only"}, "revised"),
    ({"sb-restriction-scope": "card-unplayable"}, "revised"), ({"br-challenge-success": "challenger-not-beaten"}, "revised"),
    ({"br-discard-which": "losing-side-only"}, "revised"), ({"br-heal-window-player": "permanent-controller"}, "revised"),
    ({"rd-amount": "stated-only"}, "revised"), ({"rd-in-battle": "any-battle"}, "revised"),
)


@pytest.mark.clause(*SB, *BR, *RD)
@pytest.mark.parametrize(("decisions", "heal"), VARIANTS, ids=[f"{d or 'default'}-{h}" for d, h in VARIANTS])
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_runs(decisions: dict[str, str], heal: str, data: st.DataObject) -> None:
    config = RuleConfig.of(decisions, heal_version=heal)
    abilities = data.draw(st.sampled_from([REDIRECT_HEAVY, RICH_ABILITIES]))
    run = data.draw(transitions(config, steps=25, abilities=abilities))
    report = crosscheck_many([before for before, _, _ in run], config)
    assert not report.disagreements, _report(report)


# --- broken encodings are caught ---------------------------------------------------------------------


@pytest.fixture
def fresh() -> Iterator[None]:
    smt_redemption.clear_caches()
    yield
    smt_redemption.clear_caches()


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED")
def test_case_four_given_to_the_wrong_player_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """Case 4 mis-encoded: the character that was in battle goes to the *other* player."""
    def broken(v: sb.SBVars, rs: object) -> ClauseConstraint:
        good = sb.control_same_mixed(v, rs)  # type: ignore[arg-type]
        ib_x = sb.in_a_battle(v.zone_x, rs)  # type: ignore[arg-type]
        return ClauseConstraint(good.clause_id, good.premise,
                                z3.And(v.chooser == -1, z3.If(ib_x, v.side_x != v.ctrl_x, v.side_y != v.ctrl_x)))

    monkeypatch.setitem(sb.REG.factories, "RED-SB-CONTROL-SAME-MIXED", broken)
    states, config = _states("redemption-side-battles-3p", "default")
    report = crosscheck_many(states, config)
    assert {d.what for d in report.disagreements} == {"sb-control"}
    shown = report.disagreements[0]
    assert "RED-SB-CONTROL-SAME-MIXED" in shown.clause_ids and shown.action.startswith("play sb0")


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BR-STEP4-DISCARD-RETURN")
def test_any_defeated_outcome_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """RED-BR-FOUR-OUTCOMES read 'beaten as soon as one character is defeated' (the other option
    of br-outcome-several-characters) while the model keeps 'all defeated': caught on the
    two-Hero battles of the rescue scenario."""
    def broken(v: br.BRVars, rs: object) -> ClauseConstraint:
        from specs.rulesets import RuleSet

        return br.four_outcomes(v, RuleSet(decisions={"br-outcome-several-characters": "any-defeated"}))

    monkeypatch.setitem(br.REG.factories, "RED-BR-FOUR-OUTCOMES", broken)
    states, config = _states("redemption-rescue-and-resolution", "default")
    report = crosscheck_many(states, config)
    assert {d.what for d in report.disagreements} >= {"br-outcome"}
    assert all("RED-BR-FOUR-OUTCOMES" in d.clause_ids for d in report.disagreements if d.what == "br-outcome")


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_numbers_moved_to_the_wrong_card_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The redirect amount read as half the printed numbers is caught at the redirect plays."""
    from specs.smt.redemption import redirect as rd

    monkeypatch.setattr(rd, "amount", lambda v, rs: (v.printed_s / 2, v.printed_t / 2))
    states, config = _states("redemption-heal-and-redirect", "heal-revised")
    report = crosscheck_many(states, config)
    assert "rd-amount" in {d.what for d in report.disagreements}
