"""Suites generated together, sharing the model's traced answers, are the suites generated one by one."""

from __future__ import annotations

import pytest

from cardrules.oracle.cli.conformance import _chunks
from cardrules.oracle.conformance.generate import families, generate_suite
from cardrules.oracle.conformance.plan import default_plans, make_plan
from cardrules.oracle.trace.shared import SharedAnswers
from cardrules.properties.scenarios import load_scenarios

pytestmark = pytest.mark.infrastructure("conformance suites generated in groups that share traced answers")


def test_the_suites_group_by_game_and_heal_wording_whatever_their_options() -> None:
    plans = default_plans()
    groups = families(plans)
    named = [{plans[i].id for i in group} for group in groups]
    assert len(groups) == 3 and sorted(i for g in groups for i in g) == list(range(len(plans)))
    fftcg = next(g for g in named if "fftcg-default" in g)
    revised = next(g for g in named if "redemption-heal-revised" in g)
    previous = next(g for g in named if "redemption-heal-previous" in g)
    assert fftcg == {p.id for p in plans if p.game == "fftcg"}
    # a Redemption option suite without a heal wording reads the revised one, the model's default
    assert "redemption-sb-return-territory-permanent-controller" in revised
    assert all(i.startswith("redemption-heal-previous") for i in previous)
    assert not revised & previous


def test_groups_are_split_for_workers_that_would_wait_or_a_group_longer_than_a_share() -> None:
    groups = [list(range(6)), [6, 7, 8, 9], [10, 11, 12]]
    assert _chunks(groups, 1) == groups
    assert _chunks(groups, 2) == groups  # three groups keep two workers busy, none above half the plans
    # four workers: a share is 13 / 4 = 3.25 plans, so the groups of 6 and 4 are halved, in order
    assert _chunks(groups, 4) == [[0, 1, 2], [3, 4, 5], [10, 11, 12], [6, 7], [8, 9]]
    # a group of 58 among 97 plans is more than one of two workers' share: halved
    big = [list(range(58)), list(range(58, 79)), list(range(79, 97))]
    assert [len(c) for c in _chunks(big, 2)] == [29, 29, 21, 18]


@pytest.mark.parametrize("options", [{"sb-return-territory": "permanent-controller"},
                                     {"heal-window-opens": "always"}])
def test_an_option_suite_made_after_its_base_is_the_suite_made_alone(options: dict[str, str]) -> None:
    scenarios = [s for s in load_scenarios() if s.name in ("redemption-side-battles-3p", "redemption-heal-windows-taken")]
    assert scenarios
    base = make_plan("redemption", {"heal": ("revised",)}, {})
    option = make_plan("redemption", {"heal": ("revised",)}, options)
    alone = generate_suite(option, scenarios, positions=())
    with SharedAnswers() as shared:
        first = generate_suite(base, scenarios, positions=(), shared=shared)
        together = generate_suite(option, scenarios, positions=(), shared=shared)
    assert shared.given > shared.recorded // 2  # the option suite was mostly answered from its base's
    assert together.suite == alone.suite and together.skipped == alone.skipped
    assert first.suite == generate_suite(base, scenarios, positions=()).suite
