"""Every side battle, redirect and base clause the rule-decision encodings hold takes part in some
comparison ("Coverage that is measured"): the scenarios redemption-side-battle-reach and
redemption-redirect-opposing reach what no other scenario did, and the comparisons ask the questions
those clauses answer. Each new question is shown to bite: a model misreading it is caught. The
per-turn side battle count z3 reads is the encoding's own, so a model counter that goes wrong and
then acts on it consistently is caught."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Callable

import pytest

from cardrules.model.redemption import abilities as model_abilities
from cardrules.model.redemption import engine as model_engine
from cardrules.model.redemption import redirect as model_redirect
from cardrules.model.redemption import resolution as model_resolution
from cardrules.model.redemption import side_battle as model_side_battle
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.initiative import play_prompt
from cardrules.model.redemption.state import BattleKind, Effect, PlayRecord, RecordStatus, State
from cardrules.model.redemption.validate import load_state
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import CrosscheckReport, crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.scenarios import load_scenarios


def _crosscheck(scenario: str, rule_set: str = "default", limit: int | None = None) -> CrosscheckReport:
    """A fresh exploration (the model may be monkeypatched) and its cross-check; ``limit``: only the
    first states, as ``cardrules smt crosscheck --states``."""
    sc = next(s for s in load_scenarios() if s.name == scenario)
    rs = next(r for r in sc.rule_sets if r.name == rule_set)
    config = RuleConfig.of(dict(rs.decisions), heal_version=dict(rs.versions).get("heal", ("revised",))[0])
    cap = limit or sc.max_states
    exploration = explore(RedemptionGame(config), [load_state(sc.state)], [],
                          Bounds(max_turns=sc.max_turns, max_states=cap))
    return crosscheck_many(exploration.states, config)


@pytest.fixture
def fresh() -> Any:
    smt_redemption.clear_caches()
    yield None
    smt_redemption.clear_caches()


SIDE_BATTLE_REACH = ("RED-BASE-PARALYZED-NO-BATTLE", "RED-SB-INSTANTANEOUS", "RED-SB-NEGATE-CASCADE",
                     "RED-SB-NO-INTERRUPT-FROM-SUSPENDED", "RED-SB-TARGETS-TWO", "RED-SB-DEFEAT-NORMAL")
REDIRECT_REACH = ("RED-RD-PURPOSE", "RED-RD-TWO-KINDS", "RED-RD-ABILITY-INSTANT", "RED-RD-ABILITY-TARGET",
                  "RED-RD-NUMBERS-TARGET", "RED-RD-NEW-TARGETS", "RED-RD-BOTH-IS-TWO",
                  "RED-RD-TARGET-PERSPECTIVE")


@pytest.mark.clause(*SIDE_BATTLE_REACH)
def test_side_battle_reach_compares_its_clauses(fresh: Any) -> None:
    """Within the first 300 states (what the checked-in counts read), with the correct model: no
    disagreement, and each clause decided part of some answer."""
    report = _crosscheck("redemption-side-battle-reach", limit=300)
    assert not report.disagreements, report.disagreements[:2]
    assert {c for c in SIDE_BATTLE_REACH if report.clauses.get(c, 0) == 0} == set()
    for kind in ("sb-interrupt-target", "sb-paused-victim", "sb-negate-cascade", "sb-defeat", "sb-lasting"):
        assert report.decisions.get(kind, 0) > 0, kind


@pytest.mark.clause(*REDIRECT_REACH)
def test_redirect_opposing_compares_its_clauses(fresh: Any) -> None:
    """The whole exploration (34 states): the discard-opposing ability is redirected by player 0,
    not the player who played it, and each redirect clause decided part of some answer (the numbers
    half of the card that redirects both is decided by RED-RD-BOTH-IS-TWO, not by
    RED-RD-NUMBERS-NO-INTERRUPT, which the plain numbers redirects of other scenarios decide)."""
    report = _crosscheck("redemption-redirect-opposing")
    assert not report.disagreements, report.disagreements[:2]
    assert {c for c in REDIRECT_REACH if report.clauses.get(c, 0) == 0} == set()
    assert report.decisions.get("rd-new-targets", 0) > 0


# --- each new question bites ------------------------------------------------------------------------


def _no_cascade(state: State, record_id: int, config: RuleConfig) -> State:
    """Negate without the side battle cascade: only the negated ability itself."""
    record = state.record(record_id)
    if record.status is RecordStatus.ACTIVE:
        state = model_abilities.undo_effect(state, record)
    return model_abilities._set_record(state, replace(record, status=RecordStatus.NEGATED))


def _any_battle_interruptible(state: State) -> tuple[PlayRecord, ...]:
    """Interrupt targets from every battle, ended side battles included."""
    return tuple(r for r in state.records if r.effect in model_abilities.INTERRUPTIBLE
                 and r.status in (RecordStatus.ACTIVE, RecordStatus.ANNOUNCED))


def _victim_anywhere(state: State, record: PlayRecord) -> int | None:
    """Special initiative for a discard's victim wherever it fights, a paused battle included."""
    if record.effect not in model_abilities.DISCARDS:
        return None
    for battle in state.battles:
        for side, fighter in battle.fighters():
            if fighter.card == record.targets[0]:
                victim = battle.players[side]
                return None if victim == record.carried_by else victim
    return None


MUTANTS: list[tuple[str, Any, str, Callable[..., Any], str, str]] = [
    ("no-negate-cascade", model_abilities, "negate", _no_cascade, "sb-negate-cascade", "RED-SB-NEGATE-CASCADE"),
    ("interrupt-ended-side-battle", model_abilities, "interruptible_records", _any_battle_interruptible,
     "sb-interrupt-target", "RED-SB-NO-INTERRUPT-FROM-SUSPENDED"),
    ("paralyzed-may-fight", model_side_battle, "may_enter_battle", lambda state, card: True, "sb-pairs",
     "RED-BASE-PARALYZED-NO-BATTLE"),
    ("paused-victim-gets-initiative", model_abilities, "special_initiative_for", _victim_anywhere, "sb-paused-victim",
     "RED-SB-NO-INTERRUPT-FROM-SUSPENDED"),
]


@pytest.mark.clause("RED-SB-NEGATE-CASCADE", "RED-SB-NO-INTERRUPT-FROM-SUSPENDED", "RED-BASE-PARALYZED-NO-BATTLE")
@pytest.mark.parametrize(("name", "module", "attribute", "mutant", "kind", "clause"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_side_battle_misreadings_are_caught(monkeypatch: pytest.MonkeyPatch, fresh: Any, name: str, module: Any,
                                            attribute: str, mutant: Callable[..., Any], kind: str, clause: str) -> None:
    monkeypatch.setattr(module, attribute, mutant)
    report = _crosscheck("redemption-side-battle-reach", limit=300)
    wrong = [d for d in report.disagreements if d.what == kind]
    assert wrong, Counter(d.what for d in report.disagreements)
    assert all(clause in d.clause_ids for d in wrong)


@pytest.mark.clause("RED-RD-TARGET-PERSPECTIVE")
def test_new_targets_read_from_the_original_player_are_caught(monkeypatch: pytest.MonkeyPatch, fresh: Any) -> None:
    """Model mutant: a redirected ability's new targets are those legal for the player who played it
    (player 1: player 0's h0), not for the redirecting player 0 (player 1's e1)."""
    original = model_redirect.new_targets

    def as_original_player(state: State, player: int, record: PlayRecord, config: RuleConfig,
                           targets_of: Any) -> tuple[tuple[str, ...], ...]:
        return original(state, record.player, record, config, targets_of)

    monkeypatch.setattr(model_redirect, "new_targets", as_original_player)
    report = _crosscheck("redemption-redirect-opposing")
    wrong = [d for d in report.disagreements if d.what == "rd-new-targets"]
    assert wrong and wrong[0].smt == ["e1"] and wrong[0].model == ["h0"]


@pytest.mark.clause("RED-RD-ABILITY-INSTANT")
def test_a_redirected_ability_left_waiting_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: Any) -> None:
    """Model mutant: the redirect gives the ability its new targets and carrier but leaves it pending,
    to act later, instead of carrying it out at once."""
    original = model_engine.use_ability

    def left_waiting(state: State, record: PlayRecord, config: RuleConfig) -> State:
        if record.effect is Effect.REDIRECT_BOTH and len(record.targets) >= 2:
            state, ability = model_redirect.split_both(state, record, config)
            assert ability is not None
            record = ability
        elif record.effect is not Effect.REDIRECT_ABILITY:
            return original(state, record, config)
        state, taken = model_redirect.take_over(state, record, config)
        return play_prompt(model_abilities._set_record(state, replace(taken, status=RecordStatus.PENDING)), config)

    monkeypatch.setattr(model_engine, "use_ability", left_waiting)
    report = _crosscheck("redemption-redirect-opposing")
    wrong = [d for d in report.disagreements if d.what == "rd-carrier"]
    assert wrong and all("RED-RD-ABILITY-INSTANT" in d.clause_ids for d in wrong), report.disagreements[:2]


# --- the side battle count is the encoding's own ----------------------------------------------------


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_a_counter_reset_by_the_model_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: Any) -> None:
    """Model mutant: the end of a side battle resets every player's count of side battles initiated
    this turn, so the user may start a second one with another card, and the model's counter agrees
    with that at every step (0 before, 1 after). The bridge hands z3 the encoding's own count (its
    ``count_after``, carried in its log), still 1: z3 refuses the second side battle. A bridge that
    read the model's counter would agree with the model here."""
    original = model_resolution.finish_resolution

    def reset_after_side_battle(state: State, config: RuleConfig) -> State:
        side = state.battles[-1].kind is BattleKind.SIDE
        state = original(state, config)
        return replace(state, side_battles=(0,) * state.players) if side else state

    monkeypatch.setattr(model_resolution, "finish_resolution", reset_after_side_battle)
    report = _crosscheck("redemption-side-battles-3p", limit=300)
    wrong = [d for d in report.disagreements if d.what == "sb-pairs"]
    assert wrong and all(d.smt == [] for d in wrong), wrong[:1]
    assert any("RED-SB-ONCE-PER-TURN" in d.clause_ids for d in wrong)
