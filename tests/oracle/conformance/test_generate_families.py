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


def test_the_suites_group_by_game_whatever_their_options_and_heal_wording() -> None:
    """Answers are shared across decision options and across the heal wordings (an answer that ran the
    code reading the wording counts it as read), so there is one group per game, the revised wording's
    suite (the model's default) first."""
    plans = default_plans()
    groups = families(plans)
    named = [[plans[i].id for i in group] for group in groups]
    assert len(groups) == 2 and sorted(i for g in groups for i in g) == list(range(len(plans)))
    fftcg = next(g for g in named if "fftcg-default" in g)
    redemption = next(g for g in named if "redemption-heal-revised" in g)
    assert set(fftcg) == {p.id for p in plans if p.game == "fftcg"} and fftcg[0] == "fftcg-default"
    assert set(redemption) == {p.id for p in plans if p.game == "redemption"}
    assert redemption[:2] == ["redemption-heal-revised", "redemption-heal-previous"]


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


def test_a_worker_keeps_to_its_own_family_then_starts_one_then_helps_the_largest_from_its_end() -> None:
    """Worked by hand: worker 0 starts family A's base; worker 1 starts family B's; while A's base runs,
    worker 0 has none of its own ready; once ready it takes A's suites from the front; worker 1, with B
    done, helps A from the end of A's list, and keeps to that end."""
    from cardrules.oracle.conformance.parallel import _Family, _next_job

    a = _Family(0, [2, 3, 4, 5], "a.pickle")
    b = _Family(1, [6], "b.pickle")
    waiting = [a, b]
    assert _next_job(0, waiting) == ("base", a, 0)
    assert _next_job(1, waiting) == ("base", b, 1)
    assert _next_job(0, waiting) is None  # A's base is still running, B is worker 1's and not ready
    a.ready = True
    assert _next_job(0, waiting) == ("option", a, 2)
    b.ready = True
    assert _next_job(1, waiting) == ("option", b, 6)
    assert _next_job(1, waiting) == ("option", a, 5)  # nothing of its own left: helps A, from the end
    assert a.holders == {0, 1} and a.options == [3, 4]
    assert _next_job(1, waiting) == ("option", a, 4)  # now holding A's answers, it keeps to A's end
    assert _next_job(0, waiting) == ("option", a, 3)
    assert _next_job(0, waiting) is None and _next_job(1, waiting) is None  # every suite given out


def test_another_versions_base_waits_for_the_answers_it_starts_from() -> None:
    """The previous heal wording's base starts from the revised one's answers: no worker starts it before
    those are ready, and then it is started before any help is given."""
    from cardrules.oracle.conformance.parallel import _Family, _next_job

    revised = _Family(0, [3, 4], "revised.pickle")
    previous = _Family(1, [5], "previous.pickle", start_from=revised)
    fftcg = _Family(2, [], "fftcg.pickle")
    waiting = [revised, previous, fftcg]
    assert _next_job(0, waiting) == ("base", revised, 0)
    assert _next_job(1, waiting) == ("base", fftcg, 2)  # the previous wording's must wait
    fftcg.ready = True
    assert _next_job(1, waiting) is None
    revised.ready = True
    assert _next_job(1, waiting) == ("base", previous, 1)


def test_another_versions_base_goes_first_to_a_worker_holding_the_answers_it_starts_from() -> None:
    """The worker that made the revised wording's base, idle again, starts the previous wording's base before
    the revised wording's option suites: it holds the answers that base starts from (and what the suites made
    with them remembered), so it makes it without loading them; the other worker, holding none, is not given
    it but helps with the revised options."""
    from cardrules.oracle.conformance.parallel import _Family, _next_job

    revised = _Family(0, [3, 4], "revised.pickle")
    previous = _Family(1, [5], "previous.pickle", start_from=revised)
    fftcg = _Family(2, [], "fftcg.pickle")
    waiting = [revised, previous, fftcg]
    assert _next_job(0, waiting) == ("base", revised, 0)
    assert _next_job(1, waiting) == ("base", fftcg, 2)
    revised.ready = fftcg.ready = True
    assert _next_job(0, waiting) == ("base", previous, 1)
    assert _next_job(1, waiting) == ("option", revised, 4)  # helps, from the end
    assert _next_job(0, waiting) == ("option", revised, 3)
    assert previous.maker == 0 and previous.holders == {0}


def test_another_versions_base_waits_for_an_idle_worker_holding_its_answers_even_when_asked_later() -> None:
    """Idle workers are asked in order: worker 0, holding nothing of the revised wording's, is not given the
    previous wording's base while worker 1, which made the revised base and is idle too, is asked after it;
    worker 0 helps with the revised options instead. Were worker 1 busy, worker 0 would start it (no worker
    waits for another)."""
    from cardrules.oracle.conformance.parallel import _Family, _next_job

    fftcg = _Family(0, [], "fftcg.pickle", maker=0, holders={0}, ready=True)
    revised = _Family(1, [3, 4], "revised.pickle", maker=1, holders={1}, ready=True)
    previous = _Family(2, [5], "previous.pickle", start_from=revised)
    waiting = [fftcg, revised, previous]
    both = frozenset({0, 1})
    assert _next_job(0, waiting, both) == ("option", revised, 4)
    assert _next_job(1, waiting, both) == ("base", previous, 2)

    revised.holders, revised.options, previous.maker, previous.holders = {1}, [3, 4], -1, set()
    assert _next_job(0, waiting, frozenset({0})) == ("base", previous, 2)  # worker 1 busy
