"""A redirect of both ability and numbers is two redirects, each under its own rule (RED-RD-BOTH-IS-TWO):
the z3 encoding says what each half requires (the ability half an interrupted ability, the numbers half
only a card in battle), and the cross-check compares both halves in every state of whole explorations
where a card that redirects both may be played, not only the count at the one play.

The explorations: every start position of the test scope ``scopes/redirect-both.toml`` (player 0 holds
such a card, maybe an interrupt or a side battle; player 1 maybe a discard, a discard of an opposing
character or a poison), each explored whole, and the scenario redemption-redirect-opposing, where the
ability half meets an interrupted ability. Model misreadings of the halves are caught: the numbers half
made to need an interrupted ability too, and the ability half offered for an ability not interrupted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardrules.model.redemption import redirect as model_redirect
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import Effect, RecordStatus, State
from cardrules.model.redemption.validate import load_state
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import CrosscheckReport, crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.scenarios import load_scenarios
from cardrules.properties.scenarios.loader import Scenario
from cardrules.properties.scopes.enumerate import enumerate_positions
from cardrules.properties.scopes.format import load_scope

SCOPE = Path(__file__).parent / "scopes" / "redirect-both.toml"
SCENARIO = "redemption-redirect-opposing"


@pytest.fixture
def fresh() -> Any:
    smt_redemption.clear_caches()
    yield None
    smt_redemption.clear_caches()


def _explored(scenario: Scenario, config: RuleConfig) -> list[State]:
    exploration = explore(RedemptionGame(config), [load_state(scenario.state)], [],
                          Bounds(max_turns=scenario.max_turns, max_states=scenario.max_states))
    assert not exploration.stats.truncated, scenario.name
    return list(exploration.states)


def _crosscheck() -> CrosscheckReport:
    config = RuleConfig()
    scenarios = [*enumerate_positions(load_scope(str(SCOPE), "redemption")),
                 next(s for s in load_scenarios() if s.name == SCENARIO)]
    return crosscheck_many([s for scenario in scenarios for s in _explored(scenario, config)], config)


@pytest.mark.clause("RED-RD-BOTH-IS-TWO")
def test_both_halves_are_compared_over_whole_explorations(fresh: Any) -> None:
    report = _crosscheck()
    assert not report.disagreements, report.disagreements[:2]
    assert report.states > 2000
    # a comparison in every state where the card may be played (or is refused every target), not the one play
    assert report.clauses.get("RED-RD-BOTH-IS-TWO", 0) >= 30


def _numbers_half_needs_an_interrupt(state: State, player: int, effect: Effect, config: RuleConfig,
                                     targets_of: Any = None) -> tuple[tuple[str, ...], ...]:
    """Mutant: ``#n`` alone (the numbers half) only for an interrupted ability's card."""
    found = ORIGINAL(state, player, effect, config, targets_of)
    if effect is not Effect.REDIRECT_BOTH:
        return found
    pending = {f"#{r.id}" for r in state.records if r.status is RecordStatus.PENDING}
    return tuple(t for t in found if len(t) > 1 or t[0] in pending)


def _ability_half_without_interrupt(state: State, player: int, effect: Effect, config: RuleConfig,
                                    targets_of: Any = None) -> tuple[tuple[str, ...], ...]:
    """Mutant: the ability half also for an active (not interrupted) ability."""
    found = ORIGINAL(state, player, effect, config, targets_of)
    if effect is not Effect.REDIRECT_BOTH:
        return found
    extra = []
    for target in found:
        record = state.record(int(target[0][1:]))
        if len(target) == 1 and record.status is RecordStatus.ACTIVE:
            extra += [(target[0], *t) for t in model_redirect.new_targets(state, player, record, config, targets_of)]
    return tuple(dict.fromkeys((*found, *extra)))


ORIGINAL = model_redirect.redirect_options


@pytest.mark.clause("RED-RD-BOTH-IS-TWO", "RED-RD-NUMBERS-NO-INTERRUPT")
@pytest.mark.parametrize(("mutant", "kind"), [(_numbers_half_needs_an_interrupt, "rd-numbers-targets"),
                                              (_ability_half_without_interrupt, "rd-ability-targets")],
                         ids=["numbers-half-needs-interrupt", "ability-half-without-interrupt"])
def test_a_misread_half_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: Any, mutant: Any, kind: str) -> None:
    monkeypatch.setattr(model_redirect, "redirect_options", mutant)
    report = _crosscheck()
    wrong = [d for d in report.disagreements if d.what == kind]
    assert wrong, sorted({d.what for d in report.disagreements})
    assert all("RED-RD-BOTH-IS-TWO" in d.clause_ids for d in wrong)
