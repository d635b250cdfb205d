"""The Redemption model and the independent z3 encoding agree on the rule decisions of side
battles, Battle Resolution and redirects (:mod:`oracle.crosscheck.redemption.decisions`), over every state of
BFS explorations of the embedded scenarios (each rule set they list) and over hypothesis runs,
for the default reading and variants; deliberately broken encodings are caught."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import State
from cardrules.model.redemption.validate import load_state
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.common import ENCODED_BROKEN, config_key
from cardrules.oracle.crosscheck.redemption.decisions import CrosscheckReport, crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.redemption.strategies import REDIRECT_HEAVY, RICH_ABILITIES, transitions
from cardrules.properties.scenarios import load_scenarios
from cardrules.specs.smt.consistency import ClauseConstraint
from cardrules.specs.smt.redemption import resolution as br
from cardrules.specs.smt.redemption import side_battle_clauses as sb_clauses
from cardrules.specs.smt.redemption import side_battle_terms as sb_terms
from cardrules.specs.smt.redemption import side_battle_vars as sb

# Clauses whose z3 outputs the rule-level cross-check compares with the model. Not listed, because
# none of their outputs is queried: RED-SB-INSTANTANEOUS (``lasting``), RED-SB-DEFEAT-NORMAL (the
# side battle ``discarded`` outputs; side battle discards are compared through
# RED-BR-STEP4-DISCARD-RETURN), RED-RD-NUMBERS-ONGOING (``lasting``), RED-RD-TWO-KINDS (no
# redirect of something else is ever offered), RED-RD-BOTH-IS-TWO (one embedded scenario holds a card
# that redirects both; test_redirect_both.py compares its halves over whole explorations of a scope),
# RED-BR-STEP3-END-ABILITIES (``end_fires`` is compared, but no explored state has a deck to draw
# from, so it is never exercised) and RED-BR-ORDER (the step times).
SB = ("RED-SB-SUSPEND", "RED-SB-RESUME", "RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS",
      "RED-SB-CONTROL-ONE-INSIDER", "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE",
      "RED-SB-RETURN-TO-TERRITORY", "RED-SB-TARGETS-TWO", "RED-SB-TARGET-ZONES",
      "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-SAME-ALIGNMENT")
BR = ("RED-BR-FOUR-OUTCOMES", "RED-BR-MISSION-RESULT", "RED-BR-STEP1-OUTCOME", "RED-BR-CHALLENGE-RESULT",
      "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL", "RED-BR-UNAFFECTED-NORMAL", "RED-BR-STEP4-DISCARD-RETURN",
      "RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-HEAL-WINDOW")
RD = ("RED-RD-ONLY-INTERRUPTED", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-ABILITY-TARGET", "RED-RD-NUMBERS-TARGET",
      "RED-RD-NUMBERS-NO-INTERRUPT", "RED-RD-NUMBERS-TRANSFER", "RED-RD-UNTIL-END-OF-PHASE",
      "RED-RD-CARRIER-CHANGES", "RED-RD-PURPOSE", "RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE",
      "RED-RD-SAME-TARGET-ALLOWED", "RED-RD-LOCATION-UNCHANGED")

SCENARIOS = [s for s in load_scenarios() if s.game == "redemption"]
RUNS = [(s.name, r.name) for s in SCENARIOS for r in (*s.rule_sets, *s.mutants)]
"""Every rule set and mutant: under a mutant's broken variant the two encodings agree too."""


def _config(decisions: dict[str, str], versions: dict[str, tuple[str, ...]], broken: tuple[str, ...] = ()) -> RuleConfig:
    return RuleConfig.of(decisions, heal_version=versions.get("heal", ("revised",))[0], broken=broken)


@lru_cache(maxsize=None)
def _states(scenario: str, rule_set: str) -> tuple[tuple[State, ...], RuleConfig]:
    sc = next(s for s in SCENARIOS if s.name == scenario)
    rs = next(r for r in (*sc.rule_sets, *sc.mutants) if r.name == rule_set)
    config = _config(dict(rs.decisions), dict(rs.versions), rs.broken)
    exploration = explore(RedemptionGame(config), [load_state(sc.state)], [],
                          Bounds(max_turns=sc.max_turns, max_states=sc.max_states))
    assert not exploration.stats.truncated
    return tuple(exploration.states), config


def _refusal(config: RuleConfig) -> str | None:
    """Why the encodings refuse ``config`` (a decision option they do not read, a broken variant they do not
    implement), or None."""
    try:
        config_key(config)
    except smt_redemption.OutOfScope as error:
        return str(error)
    return None


def _report(report: CrosscheckReport) -> str:
    return "\n".join(str(d) for d in report.disagreements[:3])


@pytest.mark.slow
@pytest.mark.clause(*SB, *BR, *RD)
@pytest.mark.parametrize(("scenario", "rule_set"), RUNS, ids=[f"{s}:{r}" for s, r in RUNS])
def test_every_explored_state(scenario: str, rule_set: str) -> None:
    states, config = _states(scenario, rule_set)
    refused = _refusal(config)
    if refused is not None:
        # a reading or broken variant no encoding implements is refused by name, never compared
        # under the chosen reading (the sound rule)
        unread = smt_redemption.unread_variants(config.variants)
        named = unread or tuple(b for b in config.broken if b not in ENCODED_BROKEN)
        assert named and all(name in refused for name in named), refused
        with pytest.raises(smt_redemption.OutOfScope):
            crosscheck_many(states, config)
        return
    report = crosscheck_many(states, config)
    assert report.states == len(states)
    assert not report.disagreements, _report(report)
    # every resolution is inside what is compared, and no encoding failed to answer
    assert report.decisions.get("out-of-scope", 0) == 0
    assert report.decisions.get("encoding-no-answer", 0) == 0
    assert report.decisions.get("br-resolution", 0) > 0 and report.decisions.get("br-return", 0) > 0
    if "side-battles" in scenario:
        assert report.decisions["sb-pairs"] > 0 and report.decisions["sb-start"] > 0
        assert report.decisions.get("sb-user-choice", 0) > 0  # the user's-choice cases are exercised
        assert report.decisions["sb-return"] > 0 and report.decisions["sb-resume"] > 0
    if "redirect" in scenario:
        assert report.decisions["rd-amount"] > 0 and report.decisions["rd-carrier"] > 0
        assert report.decisions["rd-location"] > 0


VARIANTS = (
    # Only decisions the encodings read (oracle.crosscheck.redemption.decisions.READ_DECISIONS); the heal wording
    # version and heal-area decisions are not encoded (no heal clause in the encodings), the
    # previous wording is run once to check the comparison does not depend on it.
    ({}, "revised"), ({}, "previous"),
    ({"sb-return-territory": "permanent-controller"}, "revised"),
    ({"sb-in-battle-meaning": "suspended-battle-only"}, "revised"), ({"sb-in-play-zones": "territory-only"}, "revised"),
    ({"sb-restriction-scope": "card-unplayable"}, "revised"), ({"sb-pair-alignment": "any-alignment"}, "revised"), ({"br-challenge-success": "challenger-not-beaten"}, "revised"),
    ({"br-rescue-access": "challenge-can-become-rescue"}, "revised"),
    ({"sb-healed-fighter-destination": "back-to-previous-battle"}, "revised"),
    ({"br-discard-which": "losing-side-only"}, "revised"), ({"br-heal-window-player": "permanent-controller"}, "revised"),
    ({"rd-amount": "stated-only"}, "revised"), ({"rd-stated-exceeds": "stated-in-full"}, "revised"),
    ({"rd-in-battle": "any-battle"}, "revised"),
    ({"rd-in-battle": "any-battle", "rd-numbers-which-battle": "same-battle-only"}, "revised"),
    ({"sb-territory-survivor-enhancements": "played-in-side-battle-only"}, "revised"),
    ({"sb-user-outside-battle": "any-player"}, "revised"),
    ({"sb-answer-before-start": "never"}, "revised"),
)


BROKEN = ("two-side-battles-per-turn",)
"""Broken variants (verify's mutants) both encodings implement: they agree under those too."""


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
@pytest.mark.parametrize("broken", BROKEN)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_runs_under_a_broken_variant(broken: str, data: st.DataObject) -> None:
    config = RuleConfig.of({}, broken=[broken])
    run = data.draw(transitions(config, steps=25, abilities=RICH_ABILITIES))
    report = crosscheck_many([before for before, _, _ in run], config)
    assert not report.disagreements, _report(report)
    assert report.decisions.get("out-of-scope", 0) == 0


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
    assert report.decisions.get("out-of-scope", 0) == 0


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
        good = sb_clauses.control_same_mixed(v, rs)  # type: ignore[arg-type]
        ib_x = sb_terms.in_a_battle(v.zone_x, rs)  # type: ignore[arg-type]
        return ClauseConstraint(good.clause_id, good.premise,
                                z3.And(v.chooser == -1, z3.If(ib_x, v.side_x != v.ctrl_x, v.side_y != v.ctrl_x)))

    monkeypatch.setitem(sb_clauses.REG.factories, "RED-SB-CONTROL-SAME-MIXED", broken)
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
        from cardrules.specs.catalogue.rulesets import RuleSet

        return br.four_outcomes(v, RuleSet(decisions={"br-outcome-several-characters": "any-defeated"}))

    monkeypatch.setitem(br.REG.factories, "RED-BR-FOUR-OUTCOMES", broken)
    states, config = _states("redemption-rescue-and-resolution", "default")
    report = crosscheck_many(states, config)
    assert {d.what for d in report.disagreements} >= {"br-outcome"}
    assert all("RED-BR-FOUR-OUTCOMES" in d.clause_ids for d in report.disagreements if d.what == "br-outcome")


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_numbers_moved_to_the_wrong_card_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The redirect amount read as half the printed numbers is caught at the redirect plays."""
    from cardrules.specs.smt.redemption import redirect as rd

    monkeypatch.setattr(rd, "amount", lambda v, rs: (v.printed_s / 2, v.printed_t / 2))
    states, config = _states("redemption-heal-and-redirect", "heal-revised")
    report = crosscheck_many(states, config)
    assert "rd-amount" in {d.what for d in report.disagreements}


@pytest.mark.clause("RED-BR-RETURN-PERMANENT-CONTROLLER")
@pytest.mark.parametrize(("scenario", "home"), [("redemption-plain-battle", "none"),
                                               ("redemption-rescue-and-resolution", "other-side")])
def test_survivors_sent_elsewhere_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None, scenario: str,
                                            home: str) -> None:
    """RED-BR-RETURN-PERMANENT-CONTROLLER mis-encoded: a main battle survivor goes nowhere
    (``home = NONE``), or to the other side's battling player; the survivors' homes are now
    read from z3 (``home``), so both are caught."""
    def broken(v: br.BRVars, rs: object) -> ClauseConstraint:
        good = br.return_permanent_controller(v, rs)  # type: ignore[arg-type]

        def applies(s: int, i: int) -> z3.BoolRef:
            return z3.And(v.used(s, i), z3.Not(v.doomed[s][i]), br.returns_to_permanent_controller(v, rs, s, i))  # type: ignore[arg-type]

        target = (lambda s, i: z3.IntVal(-1)) if home == "none" else (lambda s, i: v.players[1 - s])
        conclusion = z3.And(*[z3.Implies(applies(s, i), v.home[s][i] == target(s, i)) for s, i in v.slots])
        return ClauseConstraint(good.clause_id, good.premise, conclusion)

    monkeypatch.setitem(br.REG.factories, "RED-BR-RETURN-PERMANENT-CONTROLLER", broken)
    states, config = _states(scenario, "default")
    report = crosscheck_many(states, config)
    assert report.disagreements and {d.what for d in report.disagreements} == {"br-return"}
    assert all("RED-BR-RETURN-PERMANENT-CONTROLLER" in d.clause_ids for d in report.disagreements)


@pytest.mark.clause("RED-BR-UNAFFECTED-NORMAL")
def test_enhancements_kept_by_main_battle_survivors_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """RED-BR-UNAFFECTED-NORMAL mis-encoded: a main battle survivor keeps its enhancements; the
    enhancements' fate is now read from z3 (``enh_discarded``)."""
    def broken(v: br.BRVars, rs: object) -> ClauseConstraint:
        conclusion = z3.And(
            v.soul_rescued == z3.And(v.kind == br.RESCUE, v.mission == br.SUCCESS),
            *[z3.Implies(v.used(s, i), v.enh_discarded[s][i] == v.doomed[s][i]) for s, i in v.slots],
        )
        return ClauseConstraint("RED-BR-UNAFFECTED-NORMAL", z3.BoolVal(True), conclusion)

    monkeypatch.setitem(br.REG.factories, "RED-BR-UNAFFECTED-NORMAL", broken)
    states, config = _states("redemption-rescue-and-resolution", "default")
    report = crosscheck_many(states, config)
    assert "br-enhancement" in {d.what for d in report.disagreements}


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_encoding_without_an_answer_is_a_disagreement(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """An encoding that allows no numbers after a redirect is reported as ``encoding-no-answer``,
    not counted as out of scope."""
    from cardrules.specs.smt.redemption import redirect as rd

    original = rd.REG.factories["RED-RD-NUMBERS-TRANSFER"]

    def unsatisfiable(v: rd.RDVars, rs: object) -> ClauseConstraint:
        good = original(v, rs)  # type: ignore[arg-type]
        return ClauseConstraint(good.clause_id, good.premise, z3.And(good.conclusion, v.moved_s != v.moved_s))

    monkeypatch.setitem(rd.REG.factories, "RED-RD-NUMBERS-TRANSFER", unsatisfiable)
    states, config = _states("redemption-heal-and-redirect", "heal-revised")
    report = crosscheck_many(states, config)
    assert "encoding-no-answer" in {d.what for d in report.disagreements}
    assert report.decisions.get("out-of-scope", 0) == 0


@pytest.mark.clause("RED-RD-LOCATION-UNCHANGED")
def test_location_changed_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """RED-RD-LOCATION-UNCHANGED read backwards (a redirect moves the card): the model's card
    stays, and ``location_changed`` is now read from z3."""
    from cardrules.specs.smt.redemption import redirect as rd

    monkeypatch.setitem(rd.REG.factories, "RED-RD-LOCATION-UNCHANGED",
                        lambda v, rs: ClauseConstraint("RED-RD-LOCATION-UNCHANGED", v.allowed, v.location_changed))
    states, config = _states("redemption-heal-and-redirect", "heal-revised")
    report = crosscheck_many(states, config)
    assert "rd-location" in {d.what for d in report.disagreements}


# --- a player outside the battle (decision sb-user-outside-battle) -----------------------------------


@pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-SAME-UNMIXED")
@pytest.mark.parametrize("rule_set", ["default", "outsider-may-use", "outsider-may-use-card-unplayable"])
def test_outside_users_are_compared(rule_set: str) -> None:
    """The outsider scenario: P2's side battle cards are compared in every position a battling player
    holds initiative to play. By default z3 lets no pair of P2's take effect and the model offers no
    ``use`` (whether P2 may play the card at all is the initiative base rule's, not compared); under
    ``any-player`` P2's side battles are started and compared (control with P2 choosing in cases 1
    and 3, count, players), and P2's second card is compared once P2's allowance is used up."""
    states, config = _states("redemption-side-battle-outsider", rule_set)
    report = crosscheck_many(states, config)
    assert not report.disagreements, _report(report)
    decisions = report.decisions
    assert decisions["sb-outside-user"] > 0
    if rule_set == "default":
        assert decisions["sb-refused"] == decisions["sb-outside-user"] == decisions["sb-outside-no-moment"]
        assert "sb-start" not in decisions
    else:
        assert decisions["sb-start"] > 0 and decisions["sb-user-choice"] > 0 and decisions["sb-playable"] > 0


@pytest.mark.clause("RED-SB-CONTROL-OUTSIDERS", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_a_choice_given_to_a_battling_player_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The model broken: an outsider's side battle in cases 1 and 3 asks the first battling player to
    choose the sides, not the user; z3 names the user (``chooser``)."""
    from dataclasses import replace

    from cardrules.model.redemption import side_battle as model_sb

    original = model_sb.use_side_battle

    def first_player_chooses(state: State, record: object, config: RuleConfig) -> State:
        after = original(state, record, config)  # type: ignore[arg-type]
        if after.prompt is not None and after.prompt.kind.value == "choose-sides":
            return replace(after, prompt=replace(after.prompt, player=after.battles[-1].players[0]))
        return after

    monkeypatch.setattr(model_sb, "use_side_battle", first_player_chooses)
    states, config = _states("redemption-side-battle-outsider", "outsider-may-use")
    report = crosscheck_many(states, config)
    assert report.disagreements and {d.what for d in report.disagreements} == {"sb-control"}
    assert all(d.action.startswith("use sb2") for d in report.disagreements)


@pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS")
def test_an_encoding_refusing_outside_users_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The encoding broken: RED-SB-SIDES-BATTLE-PLAYERS read as battling-players-only whatever the
    rule set says; under ``any-player`` the model's ``use`` plays are then pairs z3 refuses."""
    from cardrules.specs.catalogue.rulesets import RuleSet

    monkeypatch.setitem(sb_clauses.REG.factories, "RED-SB-SIDES-BATTLE-PLAYERS",
                        lambda v, rs: sb_clauses.sides_battle_players(v, RuleSet()))
    states, config = _states("redemption-side-battle-outsider", "outsider-may-use")
    report = crosscheck_many(states, config)
    assert "sb-pairs" in {d.what for d in report.disagreements}


@pytest.mark.infrastructure("the cross-check refuses rule sets the encoding does not read")
def test_unread_variants_are_refused() -> None:
    """A non-chosen option of a decision on an encoded area's clause that the encodings do not
    read is out of scope (the encodings would silently run the chosen reading); heal-area
    decisions are not encoded and pass."""
    assert smt_redemption.unread_variants((("br-rescued-soul", "rescuer-chooses"),)) == ("br-rescued-soul=rescuer-chooses",)
    assert smt_redemption.unread_variants((("br-rescued-soul", "lowest-id"), ("redline-window", "unchanged"))) == ()
    assert smt_redemption.unread_variants((("br-discard-which", "losing-side-only"),)) == ()
