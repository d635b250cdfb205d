"""Generating conformance suites: candidates, greedy set cover, coverage report.

For each :class:`~cardrules.oracle.conformance.plan.SuitePlan` the scenarios
of its game are explored (bounded), candidates listed
(:mod:`.candidates`) and chosen by greedy set cover over their coverage
features: the candidate adding the most uncovered features first, ties
broken by fewer steps, then play before refusal, then vector id, so the
choice is deterministic. Perft vectors (one per scenario) are added as they
are. A decision-option suite whose candidates never behave differently from
its base rule set (within the bounds) is skipped and said so. A clause in
force that no vector covers is excused only by the clause catalogue: the
clause's ``conformance_excuse``, or the ``conformance_excuse`` of an option
the suite selects (naming that clause); otherwise it is reported uncovered.
"""

from __future__ import annotations

import hashlib
import heapq
import json
from dataclasses import dataclass, field, replace
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Iterator, Mapping, Sequence

from cardrules.oracle.conformance import FORMAT
from cardrules.oracle.conformance.candidates import Candidate, Sources, collect, state_json
from cardrules.oracle.conformance.feature_sets import Features
from cardrules.oracle.conformance.invalid import (PROBLEMS, at_bounds, base_states, choose, invalid_candidates,
                                                  invalid_vector, problems_of)
from cardrules.oracle.conformance.loads import choose_loads
from cardrules.oracle.conformance.plan import SuitePlan, clauses_for
from cardrules.oracle.conformance.profiles import observable_of
from cardrules.oracle.conformance.targeted import load_positions
from cardrules.oracle.conformance.vectors import (Replayed, build_vector, candidate_ids, perft_from,
                                                   shared_perft_vector)
from cardrules.oracle.trace.shared import SharedAnswers, sharing_key
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import Scenario, load_scenarios
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.features import vector_features, vector_states

MAX_STATES = {"fftcg": 400, "redemption": 400}
"""States explored per scenario when generating (how long every suite takes: ``benchmarks/generate.py``)."""


@dataclass
class SuiteResult:
    """One generated suite (or why it was skipped) and its coverage report."""

    plan_id: str
    suite: dict[str, Any] | None
    candidates: int = 0
    chosen: int = 0
    coverage: dict[str, int] = field(default_factory=dict)
    uncovered: list[str] = field(default_factory=list)
    excused: dict[str, str] = field(default_factory=dict)
    skipped: str = ""


def cardrules_version() -> str:
    try:
        return version("cardrules")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def load_excused() -> dict[str, str]:
    """Clause ID -> why no conformance vector exercises it (``conformance_excuse`` in the catalogue)."""
    return {c.id: c.conformance_excuse for c in default_catalogue().clauses if c.conformance_excuse}


def option_excuses(decisions: Mapping[str, str]) -> dict[str, str]:
    """Clause ID -> why a suite selecting these options cannot exercise it (an option's ``conformance_excuse``)."""
    found = default_catalogue().decisions
    out: dict[str, str] = {}
    for decision_id, option_id in sorted(decisions.items()):
        excuse = found[decision_id][1].option(option_id).conformance_excuse if decision_id in found else None
        if excuse is None:
            continue
        for clause in excuse.clauses:
            out.setdefault(clause, f"under {decision_id}={option_id}: {excuse.reason}")
    return out


def with_v4(game: str, vector: dict[str, Any]) -> dict[str, Any]:
    """``vector`` with what ``cardrules-vectors/4`` adds: the features it ``requires`` (those of its clauses
    that its states can show, :func:`~cardrules.specs.catalogue.features.vector_features`)
    and each step's ``observable`` state form (an invalid vector has no steps)."""
    out = dict(vector)
    out["requires"] = sorted(vector_features(game, vector["clauses"], vector_states(vector)))
    if "steps" in vector:
        out["steps"] = [{**step, "observable": _observable(game, step["state"])} for step in vector["steps"]]
    return out


_OBSERVABLE_LIMIT = 50_000
"""JSON states kept with their observable form (:func:`_observable`) before starting afresh."""
_OBSERVABLE: dict[int, tuple[Any, Any]] = {}


def _observable(game: str, state: Any) -> Any:
    """:func:`~.profiles.observable_of` ``state``, made once per JSON state object (the vectors of one game's
    suites share the JSON of equal states: :func:`~.candidates.state_json`); the form is read, never changed."""
    found = _OBSERVABLE.get(id(state))
    if found is None or found[0] is not state:
        if len(_OBSERVABLE) >= _OBSERVABLE_LIMIT:
            _OBSERVABLE.clear()
        found = _OBSERVABLE[id(state)] = (state, observable_of(game, state))
    return found[1]


def greedy_cover(candidates: Sequence[Candidate], ids: Sequence[str]) -> list[int]:
    """Indices of the candidates chosen by greedy set cover: again and again the candidate adding the most
    uncovered features, ties broken by fewer steps, then play before refusal, then vector id, then index,
    until none adds any.

    Candidates with the same features always add the same number, so only the first of them by the
    tie-breaks can ever be chosen (it wins every tie with the others, and once it is chosen they add
    nothing): the others are set aside before the cover starts (tens of thousands of candidates share a
    few hundred sets of features). The cover is lazy: a heap holds each candidate's gain as last computed,
    an upper bound of its gain now (gains only shrink as features get covered); the top is recomputed and
    taken only if its gain has not shrunk, so it is the plain greedy choice with the same tie-breaks. Sets of
    features are held as integers, a bit per feature (:mod:`.feature_sets`), so a gain is a count of bits."""
    first: dict[int, tuple[int, bool, str, int]] = {}
    spaces = {id(c.features.space) for c in candidates}
    if len(spaces) > 1:  # given by hand in several spaces: one numbering for all
        candidates = [replace(c, features=Features.of(c.features.names())) for c in candidates]
    for i, c in enumerate(candidates):
        rank = (c.length, c.kind != "play", ids[i], i)
        mask = c.features.mask
        held = first.get(mask)
        if held is None or rank < held:
            first[mask] = rank
    masks: dict[int, int] = {}
    heap = []
    for mask, rank in first.items():
        masks[rank[3]] = mask
        heap.append((-mask.bit_count(), *rank))
    heapq.heapify(heap)
    covered = 0
    chosen: list[int] = []
    while heap:
        neg_gain, length, kind, vid, index = heapq.heappop(heap)
        gain = (masks[index] & ~covered).bit_count()
        if gain == 0:
            continue
        if gain != -neg_gain:
            heapq.heappush(heap, (-gain, length, kind, vid, index))
            continue
        chosen.append(index)
        covered |= masks[index]
    return chosen


def invalid_vectors(plan: SuitePlan, sources: Sources, in_force: frozenset[str]) -> list[dict[str, Any]]:
    """Invalid-state vectors (:mod:`.invalid`) for a version suite of a game whose model lists every problem
    of a state, and a depth-1 perft vector (a valid load) from each corrupted state that is not a scenario's
    start: each scenario's richest state and the states chosen so that every shape of valid state is loaded
    (:mod:`.loads`), and from a state exactly at each of the model's input bounds (:func:`.invalid.at_bounds`);
    none for a decision-option suite (loading a state does not depend on the options)."""
    if plan.base is not None or plan.game not in PROBLEMS:
        return []
    graphs = [[state_json(graph.game, s) for s in graph.exploration.states] for graph in sources.graphs]
    bases = [(g, i) for g, states in enumerate(graphs) for i in base_states(states)]
    found = []
    valid: list[dict[str, Any]] = []
    loaded = bases + choose_loads(graphs, bases)
    for g, index in loaded:
        graph = sources.graphs[g]
        found.extend(invalid_candidates(plan.game, graph.scenario.name, [graphs[g][index]]))
        if index == 0 or problems_of(plan.game, graphs[g][index]) != []:
            continue  # a start is loaded by the play vectors; a state the model itself would refuse is no valid load
        tag = hashlib.sha256(json.dumps(graphs[g][index], sort_keys=True).encode()).hexdigest()[:12]
        twin = perft_from(graph.game, graph.exploration.states[index], graph.scenario.name, in_force, 1, tag)
        if twin is not None:
            valid.append(twin)
    for bound, which, changed in at_bounds(plan.game, [graphs[g][i] for g, i in loaded]):
        graph = sources.graphs[loaded[which][0]]
        twin = perft_from(graph.game, graph.game.state_from_json(changed), graph.scenario.name, in_force, 1,
                          f"at-bound-{bound}")
        if twin is not None:
            valid.append(twin)
    return [invalid_vector(c) for c in choose(found)] + valid


def generate_suite(
    plan: SuitePlan,
    scenarios: Sequence[Scenario] | None = None,
    *,
    seed: int = 0,
    max_states: Mapping[str, int] = MAX_STATES,
    excused: Mapping[str, str] | None = None,
    positions: Sequence[Scenario] | None = None,
    shared: SharedAnswers | None = None,
) -> SuiteResult:
    """Generate one suite: explore, list candidates, minimise, build vectors, report coverage.

    Without ``scenarios``: the embedded scenarios and the targeted positions (:mod:`.targeted`; ``positions``
    overrides them); with ``scenarios``: those only, and ``positions`` if given. ``shared``: the model's
    traced answers of the suites generated before in this run (:mod:`cardrules.oracle.trace.shared`); the
    suite is the same with or without them."""
    if scenarios is None:
        scenarios = load_scenarios()
        positions = load_positions() if positions is None else positions
    positions = positions or ()
    excused = {**option_excuses(plan.decisions), **load_excused()} if excused is None else excused
    in_force_order = clauses_for(plan)
    in_force = frozenset(in_force_order)
    sources: Sources = collect(plan, scenarios, in_force, max_states=max_states[plan.game], seed=seed,
                               positions=positions, shared=shared)
    candidates = sources.candidates
    result = SuiteResult(plan.id, None, candidates=len(candidates))
    # play_candidates is the one maker of a "differs-from:" feature, naming the plan's base
    if plan.base is not None and not any(f"differs-from:{plan.base.id}" in c.features for c in candidates):
        result.skipped = (f"no difference found within the scenarios' bounds: every candidate behaves as under "
                          f"{plan.base.id} (at most {max_states[plan.game]} states per scenario)")
        return result
    ids = candidate_ids(sources.graphs, candidates)
    chosen = greedy_cover(candidates, ids)
    replayed: Replayed = {}
    vectors = [build_vector(sources.graphs[candidates[i].graph], candidates[i], in_force, replayed) for i in chosen]
    perfts = [v for g in sources.graphs if (v := shared_perft_vector(g, in_force)) is not None]
    invalid = invalid_vectors(plan, sources, in_force)
    order = {"play": 0, "refusal": 1, "perft": 2, "invalid": 3}
    vectors = [with_v4(plan.game, v) for v in sorted(vectors + perfts + invalid, key=lambda v: (order[v["kind"]], v["id"]))]
    result.chosen = len(chosen)
    for clause in in_force_order:
        result.coverage[clause] = sum(clause in v["clauses"] for v in vectors)
        if result.coverage[clause] == 0:
            if excused.get(clause):
                result.excused[clause] = excused[clause]
            else:
                result.uncovered.append(clause)
    scenario_names = ", ".join(g.scenario.name for g in sources.graphs)
    result.suite = {
        "format": FORMAT,
        "suite": plan.id,
        "game": plan.game,
        "description": f"{plan.game} under {plan.expression}: vectors chosen by set cover from the explored "
        f"graphs of {scenario_names} (at most {max_states[plan.game]} states each, a targeted position within its "
        f"own bounds, seed {seed})",
        "rule_set": plan.rule_set_json(),
        "cardrules_version": cardrules_version(),
        "clauses_in_force": list(in_force_order),
        "vectors": vectors,
    }
    return result


def families(plans: Sequence[SuitePlan]) -> list[list[int]]:
    """Indices of ``plans`` grouped by what their model answers can be shared across
    (:func:`~cardrules.oracle.trace.shared.sharing_key`: the game, whatever the decision options and
    versions), each group in the given order, the largest group first."""
    groups: dict[Any, list[int]] = {}
    for index, plan in enumerate(plans):
        groups.setdefault(sharing_key(make_game(plan.game, plan.spec)), []).append(index)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def generate_family(plans: Sequence[SuitePlan], seed: int = 0) -> Iterator[SuiteResult]:
    """:func:`generate_suite` of each plan in turn, yielded as each is made, all sharing the model's traced
    answers (one :class:`~cardrules.oracle.trace.shared.SharedAnswers`): the same suites as generated one
    by one."""
    with SharedAnswers() as shared:
        for plan in plans:
            yield generate_suite(plan, seed=seed, shared=shared)
