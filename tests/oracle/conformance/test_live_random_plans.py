"""Random play draws its start positions from every live plan of a game: for Redemption both heal versions."""

from __future__ import annotations

import json
import random
import sys

import pytest

from cardrules.oracle.conformance.declaration import LEGACY
from cardrules.oracle.conformance.live import live_plans
from cardrules.oracle.conformance.random_play import draw_start, game_rng, random_divergences
from cardrules.properties.scenarios import Scenario, load_scenarios

from .conftest import ADAPTERS

BOTH = {"redemption-heal-revised", "redemption-heal-previous"}


def _scenarios(game: str) -> list[Scenario]:
    return [s for s in load_scenarios() if s.game == game]


@pytest.mark.clause("RED-HEAL-WINDOW")
def test_redemption_games_start_under_both_heal_versions_deterministically() -> None:
    plans, scenarios = live_plans(LEGACY, ["redemption"]), _scenarios("redemption")
    assert {p.id for p in plans} == BOTH
    draws = [draw_start(plans, scenarios, game_rng(29, "redemption", n)) for n in range(8)]
    assert {plan.id for plan, _ in draws} == BOTH
    again = [draw_start(plans, scenarios, game_rng(29, "redemption", n)) for n in range(8)]
    assert [(p.id, s.name) for p, s in draws] == [(p.id, s.name) for p, s in again]


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_a_game_with_one_live_plan_draws_the_scenario_as_before() -> None:
    # With one plan nothing more is drawn: game n starts at the scenario its generator picks first, as it did when
    # random play used the first live plan only (so a seed plays the same FFTCG games as then).
    plans, scenarios = live_plans(LEGACY, ["fftcg"]), _scenarios("fftcg")
    assert len(plans) == 1
    for n in range(5):
        rng = game_rng(7, "fftcg", n)
        assert draw_start(plans, scenarios, rng) == (plans[0], random.Random(f"7:fftcg:{n}").choice(scenarios))
        # the walk goes on with the generator exactly after the scenario's draw
        expected = random.Random(f"7:fftcg:{n}")
        expected.choice(scenarios)
        assert rng.random() == expected.random()


@pytest.mark.clause("RED-HEAL-WINDOW")
def test_each_divergence_is_replayed_under_the_plan_its_game_drew() -> None:
    # An engine that breaks (an internal error) on every 'next': every game that plays one diverges, and the
    # shrunk divergence's suite carries the rule set of the live plan that game drew.
    broken = [sys.executable, str(ADAPTERS / "protocol_declaring.py"),
              json.dumps({"fail_on": {"word": "next", "error": "internal"}})]
    plans, scenarios = live_plans(LEGACY, ["redemption"]), _scenarios("redemption")
    found = random_divergences(broken, LEGACY, "redemption", 29, 4, 6, 20.0)
    assert found
    drawn = {n: draw_start(plans, scenarios, game_rng(29, "redemption", n))[0] for n in range(4)}
    for divergence in found:
        number = int(divergence.suite["suite"].rsplit("-game-", 1)[1])
        plan = drawn[number]
        assert divergence.suite["rule_set"] == plan.rule_set_json()
        assert divergence.suite["suite"].startswith(f"random-{plan.id}-seed-29")
        assert divergence.result.verdict == "error"
        assert [s["action"] for s in divergence.suite["vectors"][0]["steps"]][-1] == "next"
    assert {d.suite["rule_set"]["expression"] for d in found} == {"heal=revised", "heal=previous"}
