"""Suites generated together, sharing the model's traced answers, are the suites generated one by one."""

from __future__ import annotations

import pytest

from cardrules.oracle.conformance.generate import families, generate_suite
from cardrules.oracle.conformance.output import suite_text
from cardrules.oracle.conformance.parallel import generate_parallel
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


def test_answers_carried_to_another_process_answer_as_in_the_one_that_recorded_them() -> None:
    """The base's answers pickled (what a worker process loads): the option suite made with them is the one
    made alone, and mostly answered from them."""
    scenarios = [s for s in load_scenarios() if s.name == "redemption-side-battles-3p"]
    base = make_plan("redemption", {"heal": ("revised",)}, {})
    option = make_plan("redemption", {"heal": ("revised",)}, {"sb-return-territory": "permanent-controller"})
    with SharedAnswers() as shared:
        generate_suite(base, scenarios, positions=(), shared=shared)
        data = shared.to_bytes()
    loaded = SharedAnswers.from_bytes(data)
    with loaded:
        carried = generate_suite(option, scenarios, positions=(), shared=loaded)
    assert loaded.given > loaded.recorded  # answered mostly from the base's answers
    assert carried.suite == generate_suite(option, scenarios, positions=()).suite


def test_suites_made_on_worker_processes_are_those_made_in_one_process_in_the_plans_order() -> None:
    """Two families (FFTCG; Redemption revised), each a base and option suites: the bases first, then the
    option suites as jobs of their own, on two workers. The results and file texts are those of one process,
    in the plans' order, and every suite is announced once as it is done."""
    scenarios = [s for s in load_scenarios() if s.name in ("fftcg-preemptive-blocker-survives", "redemption-side-battles-3p")]
    plans = [make_plan("fftcg", {}, {}), make_plan("redemption", {"heal": ("revised",)}, {}),
             make_plan("fftcg", {}, {"ff-base-blocker-dulls": "dulls"}),
             make_plan("redemption", {"heal": ("revised",)}, {"sb-return-territory": "permanent-controller"}),
             make_plan("redemption", {"heal": ("revised",)}, {"sb-user-outside-battle": "any-player"})]
    announced: list[int] = []
    started: list[bool] = []
    results, texts = generate_parallel(plans, 0, 2, lambda index, result, seconds: announced.append(index),
                                       on_start=lambda: started.append(True), scenarios=scenarios, positions=())
    alone = [generate_suite(plan, scenarios, positions=()) for plan in plans]
    assert [r.plan_id for r in results] == [p.id for p in plans]
    assert [r.suite for r in results] == [r.suite for r in alone]
    assert [r.skipped for r in results] == [r.skipped for r in alone]
    assert texts == [suite_text(r) for r in alone]
    assert sorted(announced) == list(range(len(plans))) and started == [True]
    # each family's base is done before any of its option suites
    assert announced.index(0) < announced.index(2) and announced.index(1) < min(announced.index(3), announced.index(4))


@pytest.mark.parametrize("scenario, shared_with_pairing_read_otherwise", [
    ("redemption-plain-battle", True),  # no side battle to pair characters for: the reading is never asked
    ("redemption-side-battles-3p", False),  # a side battle may be initiated from the start: pairing is asked
])
def test_a_perft_vector_is_counted_once_for_rule_sets_that_answer_what_it_asked_alike(
        scenario: str, shared_with_pairing_read_otherwise: bool) -> None:
    """The perft vector of a scenario's start under the default rule set is given again (the same vector)
    under ``sb-pair-alignment=any-alignment`` where counting never asked that reading, and counted again
    where it did; either way it is the vector counted directly."""
    from cardrules.oracle.conformance.candidates import explore_scenario
    from cardrules.oracle.conformance.plan import clauses_for
    from cardrules.oracle.conformance.vectors import perft_vector, shared_perft_vector

    [found] = [s for s in load_scenarios() if s.name == scenario]
    shared = SharedAnswers()
    vectors = []
    for plan in (make_plan("redemption", {"heal": ("revised",)}, {}),
                 make_plan("redemption", {"heal": ("revised",)}, {"sb-pair-alignment": "any-alignment"})):
        in_force = frozenset(clauses_for(plan))
        graph = explore_scenario(found, plan, 400, in_force, shared)
        vectors.append(shared_perft_vector(graph, in_force))
        assert vectors[-1] == perft_vector(graph, in_force)
    assert (vectors[0] is vectors[1]) == shared_with_pairing_read_otherwise
