"""Candidate vectors from the explored graphs of the embedded scenarios.

A *play* candidate is the shortest path from a scenario's start to a state,
plus one step; a *refusal* candidate is the shortest path to a state plus an
action that is legal elsewhere in the graph but illegal there (the model's
:class:`~cardrules.model.errors.IllegalAction` names the clauses that forbid
it). Each candidate has *coverage features*: the clause IDs in force that
:func:`~cardrules.oracle.trace.coverage.outcomes_exercised` saw run in its last step
and in listing the legal actions before and after it, the outcomes inside the
model in those three (line arcs taken and kinds of value returned, each
paired with nothing else: an arc belongs to one function), the pair (action
kind, outcome), and, for a decision-option suite, whether the option makes
this candidate behave differently from the base rule set. Outcome features
make the set cover keep a vector that takes another branch of a clause
already covered (a party blocked by a Pre-emptive Strike blocker, a split at
the 1000 boundary, a heal window taken), which a mutant of that branch
changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from cardrules.model.errors import IllegalAction, ScenarioError
from cardrules.oracle.conformance.feature_sets import Features, FeatureSpace, space
from cardrules.oracle.conformance.plan import SuitePlan
from cardrules.oracle.conformance.targeted import TARGETED, TARGETED_STATES, Derive, kept_plays
from cardrules.oracle.interrupts import raise_if_lost
from cardrules.oracle.trace.shared import SharedAnswers, View
from cardrules.properties.games import make_game
from cardrules.properties.engines.explore import Bounds, Exploration, Game, explore
from cardrules.properties.scenarios import Scenario

REFUSALS_PER_STATE = 3
"""Foreign actions tried at each state (one per sampled action kind)."""
PLAYS_PER_STATE = 16
"""Outgoing edges of one state kept as play candidates (a deterministic sample beyond that:
blocker damage split in hundreds gives states with hundreds of actions)."""


class GenerationError(Exception):
    """The model crashed on an action the generator tried (not a refusal: a bug of the model or of a
    derivation), named by position, state and action. A refusal is an
    :class:`~cardrules.model.errors.IllegalAction`; anything else the model raises while stepping must not
    pass for "no refusal here", or a derived refusal (or a whole clause's targeted vector) silently
    disappears from the suite."""


def _crashed(where: str, source: int, text: str, error: Exception) -> GenerationError:
    return GenerationError(f"{where}, state {source}: the model crashed on the action {text!r} "
                           f"({type(error).__name__}: {error}) instead of playing or refusing it")


@dataclass(frozen=True)
class Candidate:
    """A candidate vector: the shortest path to state ``source`` of ``graph``, then ``action``."""

    graph: int
    """Index of the scenario graph in :attr:`Sources.graphs`."""
    source: int
    action: str
    kind: str
    """``play`` or ``refusal``."""
    features: Features
    """Its coverage features (a set of names given by hand is taken as :meth:`Features.of` them)."""
    length: int
    """Steps in the vector, the refused action included."""
    refused_by: tuple[str, ...] = ()
    """For a refusal: the clauses the model's IllegalAction names."""
    reason: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.features, Features):
            object.__setattr__(self, "features", Features.of(self.features))


@dataclass
class ScenarioGraph:
    """One scenario explored under the suite's rule set, with per-state listing clauses."""

    scenario: Scenario
    game: Game[Any, Any]
    exploration: Exploration[Any, Any]
    listing: list[frozenset[str]]
    """Clause IDs in force exercised by listing the legal actions of each state, and its outcome features."""
    rule_set: str = "default"
    """The expression of the suite's rule set (names the graph in a :class:`GenerationError`)."""
    legal: list[list[str]] | None = None
    """The sorted legal action texts of each state (:func:`sorted_legal`), as the listing found them."""
    view: View | None = None
    """The model's traced answers under the suite's rule set (:mod:`cardrules.oracle.trace.shared`)."""
    _listing_masks: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def feature_space(self) -> FeatureSpace:
        """The feature space of the scenario's game (:mod:`.feature_sets`)."""
        return space(self.scenario.game)

    def listing_mask(self, state: int) -> int:
        """:attr:`listing` of state number ``state`` as bits of :attr:`feature_space`."""
        if self._listing_masks is None:
            within = self.feature_space
            self._listing_masks = [within.mask_of(features, features) for features in self.listing]
        return self._listing_masks[state]

    @property
    def answers(self) -> View:
        """:attr:`view`; a view of its own for a graph made without one, or whose game was replaced."""
        if self.view is None or self.view.game is not self.game:
            self.view = SharedAnswers().view(self.game)
        return self.view

    def sorted_legal(self, source: int) -> list[str]:
        """:func:`sorted_legal` at state ``source``, as listed when the graph was made."""
        if self.legal is None:
            return sorted_legal(self.game, self.exploration.states[source])
        return self.legal[source]

    @property
    def where(self) -> str:
        return f"{self.scenario.name} under {self.rule_set}"


@dataclass
class Sources:
    """Everything the generator chooses from, for one suite."""

    graphs: list[ScenarioGraph]
    candidates: list[Candidate]


def action_kind(text: str) -> str:
    """The kind of an action: the first word of its canonical text."""
    return text.split(" ", 1)[0]


def sorted_legal(game: Game[Any, Any], state: Any) -> list[str]:
    """Sorted canonical texts of the legal actions (none at a terminal state)."""
    if game.is_terminal(state):
        return []
    return sorted(game.action_text(a) for a in game.legal_actions(state))


def _listing(view: View, state: Any, in_force: frozenset[str]) -> tuple[frozenset[str], list[str]]:
    """Clauses in force and outcome features of listing the legal actions at ``state``, and the sorted
    texts of the actions listed (:func:`sorted_legal`: the model is pure, so the actions listed under the
    tracer are those listed without it)."""
    game = view.game
    if game.is_terminal(state):
        return frozenset(), []
    actions, clauses, outcomes = view.traced("legal", state, None, lambda: game.legal_actions(state))
    return (clauses & in_force) | outcomes, sorted(game.action_text(a) for a in actions)


def _lists_same(game: Game[Any, Any], base: Game[Any, Any], state: Any, listed: list[str] | None = None) -> bool:
    """The base rule set lists the same actions at ``state`` (``listed``: :func:`sorted_legal` of ``game``
    there, if already known)."""
    return (sorted_legal(game, state) if listed is None else listed) == sorted_legal(base, state)


def _behaves_same(game: Game[Any, Any], base: Game[Any, Any], state: Any, action: Any, successor: Any,
                  where: str, source: int, lists_same: bool | None = None) -> bool:
    """The base rule set lists the same actions here (``lists_same`` if already known, :func:`_lists_same`)
    and gives the same successor for ``action`` (a crash of the base rule set is a :class:`GenerationError`,
    not a difference). Equal states have equal JSON forms, so only unequal ones are compared as JSON."""
    if not (_lists_same(game, base, state) if lists_same is None else lists_same):
        return False
    try:
        other = base.step(state, action)
    except IllegalAction:  # the base rule set refuses it: a difference
        return False
    except Exception as error:
        raise _crashed(f"{where} (its base rule set)", source, game.action_text(action), error) from error
    return bool(other == successor or game.state_to_json(other) == game.state_to_json(successor))


def explore_scenario(
    scenario: Scenario, plan: SuitePlan, max_states: int | None, in_force: frozenset[str],
    shared: SharedAnswers | None = None,
) -> ScenarioGraph:
    """Explore one scenario under the plan's rule set (bounded, ``None``: the scenario's own bound), keeping
    edges; the model's answers from ``shared`` (those of other rule sets of the run, where they hold)."""
    game = make_game(scenario.game, plan.spec)
    view = (shared or SharedAnswers()).view(game)
    root = game.state_from_json(scenario.state)
    limit = scenario.max_states if max_states is None else min(max_states, scenario.max_states or max_states)
    bounds = Bounds(max_states=limit, max_turns=scenario.max_turns)
    # the view answers every listing and step from the traced answers; states kept as objects and
    # expanded one by one (the same states, in the same order, as a compact search with reuse)
    exploration = explore(view, [root], [], bounds, keep_edges=True, progress=False, compact=False, reuse=False)
    listed = [_listing(view, s, in_force) for s in exploration.states]
    return ScenarioGraph(scenario, game, exploration, [features for features, _ in listed], plan.expression,
                         [texts for _, texts in listed], view)


def _kept_edges(
    ex: Exploration[Any, Any], rng: random.Random, always: frozenset[tuple[int, int]] = frozenset()
) -> list[tuple[int, int, Any]]:
    """The explored edges, at most :data:`PLAYS_PER_STATE` per source state (tree edges and the (source,
    target) edges of ``always`` always kept)."""
    assert ex.edges is not None
    by_source: dict[int, list[tuple[int, int, Any]]] = {}
    for edge in ex.edges:
        by_source.setdefault(edge[0], []).append(edge)
    kept: list[tuple[int, int, Any]] = []
    for source in sorted(by_source):
        edges = by_source[source]
        if len(edges) > PLAYS_PER_STATE:
            tree = [e for e in edges if (ex.parent[e[1]] == source and ex.via[e[1]] is e[2])
                    or (e[0], e[1]) in always]
            others = [e for e in edges if e not in tree]
            chosen = set(map(id, tree + rng.sample(others, max(0, PLAYS_PER_STATE - len(tree)))))
            edges = [e for e in edges if id(e) in chosen]
        kept.extend(edges)
    return kept


def kept_play_edges(graph: ScenarioGraph, expression: str) -> dict[tuple[int, int], str]:
    """(source, target) of the explored edge of each kept play of the graph's position in the suite of
    ``expression`` (:data:`~.targeted.KEPT_PLAYS`) -> its feature ``kept:POSITION:N``; ValueError when a play
    is not a path of the explored graph (a position's bounds or an action text out of step with it)."""
    ex = graph.exploration
    assert ex.edges is not None
    out_of: dict[int, dict[str, int]] = {}
    for source, target, action in ex.edges:
        out_of.setdefault(source, {}).setdefault(graph.game.action_text(action), target)
    found: dict[tuple[int, int], str] = {}
    for number, kept in enumerate(kept_plays(graph.scenario.name, expression)):
        state = 0
        for step, text in enumerate(kept.actions):
            reached = out_of.get(state, {}).get(text)
            if reached is None:
                raise ValueError(f"kept play {number} of {graph.scenario.name}: {text!r} (step {step + 1}) is not "
                                 f"an explored move under {expression}")
            if step == len(kept.actions) - 1:
                found[(state, reached)] = f"kept:{graph.scenario.name}:{number}"
            state = reached
    return found


def play_candidates(
    graph_index: int, graph: ScenarioGraph, in_force: frozenset[str], base: Game[Any, Any] | None, base_id: str,
    rng: random.Random, kept: Mapping[tuple[int, int], str] | None = None,
) -> list[Candidate]:
    """One play candidate per explored edge (sampled, see :func:`_kept_edges`), with its features; an edge of
    ``kept`` (see :func:`kept_play_edges`) also has its own feature, so the set cover keeps it."""
    game, ex, view, within = graph.game, graph.exploration, graph.answers, graph.feature_space
    kept = kept or {}
    differs = [False] * len(ex.states)
    listed = graph.listing_mask
    lists_same: dict[int, bool] = {}  # per source state: the base rule set lists the same actions there
    out: list[Candidate] = []
    for source, target, action in _kept_edges(ex, rng, frozenset(kept)):
        state = ex.states[source]
        successor, clauses, outcomes = view.traced("step", state, action, lambda: game.step(state, action))
        if isinstance(successor, IllegalAction):
            raise successor.with_traceback(None)
        text = game.action_text(action)
        outcome = "ends-game" if game.is_terminal(successor) else "continues"
        features = (_in_force_mask(within, clauses, in_force) | _outcome_mask(within, "stepping:", outcomes)
                    | listed(source) | listed(target) | within.bit(f"outcome:{action_kind(text)}:{outcome}"))
        if (source, target) in kept:
            features |= within.bit(kept[(source, target)])
        if base is not None:
            here = differs[source]
            if not here:
                if source not in lists_same:
                    lists_same[source] = _lists_same(game, base, state, graph.sorted_legal(source))
                here = not _behaves_same(game, base, state, action, successor, graph.where, source,
                                         lists_same[source])
            if ex.parent[target] == source and ex.via[target] is action:
                differs[target] = here
            if here:
                features |= within.bit(f"differs-from:{base_id}")
        out.append(Candidate(graph_index, source, text, "play", Features(within, features), ex.depth[source] + 1))
    return out


def refusal_candidates(
    graph_index: int, graph: ScenarioGraph, in_force: frozenset[str], rng: random.Random
) -> list[Candidate]:
    """Up to :data:`REFUSALS_PER_STATE` refused actions per expanded state, of sampled kinds."""
    game, ex, within = graph.game, graph.exploration, graph.feature_space
    assert ex.edges is not None
    pool: dict[str, set[str]] = {}
    for _, _, action in ex.edges:
        text = game.action_text(action)
        pool.setdefault(action_kind(text), set()).add(text)
    kinds = sorted(pool)
    in_order = {kind: sorted(texts) for kind, texts in pool.items()}  # sorted once, filtered per state
    expanded = sorted({source for source, _, _ in ex.edges})
    out: list[Candidate] = []
    for source in expanded:
        state = ex.states[source]
        legal = set(graph.sorted_legal(source))
        for kind in rng.sample(kinds, min(REFUSALS_PER_STATE, len(kinds))):
            foreign = [t for t in in_order[kind] if t not in legal]
            if not foreign:
                continue
            text = rng.choice(foreign)
            found = _refusal(graph.answers, state, text, graph.where, source)
            if found is None:
                continue
            refused, outcomes = found
            cited = tuple(c for c in refused.clause_ids if c in in_force)
            features = (_refused_by_mask(within, cited) | graph.listing_mask(source) | within.bit(f"refused:{kind}")
                        | _outcome_mask(within, "refusing:", outcomes))
            out.append(Candidate(graph_index, source, text, "refusal", Features(within, features),
                                 ex.depth[source] + 1, cited, refused.reason))
    return out


def targeted_candidates(graph_index: int, graph: ScenarioGraph, in_force: frozenset[str]) -> list[Candidate]:
    """Per entry of :data:`~.targeted.TARGETED` whose clause is in force: one refusal aimed at it, from the
    first derivation that gives one at some state (shallowest first, among the first
    :data:`~.targeted.TARGETED_STATES` expanded, for its game), kept when the model refuses it citing that clause."""
    ex = graph.exploration
    assert ex.edges is not None
    limit = TARGETED_STATES.get(graph.scenario.game)
    expanded = sorted({source for source, _, _ in ex.edges}, key=lambda s: (ex.depth[s], s))[:limit]
    tried = _Tried(graph.answers, ex.states, graph.where, graph.sorted_legal)
    out: list[Candidate] = []
    made: dict[tuple[int, str], int] = {}
    for clause, derivations in TARGETED.get(graph.scenario.game, ()):
        if clause not in in_force:
            continue
        found = next((hit for derive in derivations for source in expanded
                      if (hit := tried.aimed(source, derive, clause)) is not None), None)
        if found is None:
            continue
        source, text = found
        aim = f"targeted:{clause}:{derivations[0].__name__}"
        within = graph.feature_space
        if (source, text) in made:  # the same refusal aimed at another of the clauses it names
            kept = out[made[source, text]]
            out[made[source, text]] = replace(kept, features=Features(within, kept.features.mask | within.bit(aim)))
            continue
        refused, outcomes = _refusal(graph.answers, ex.states[source], text, graph.where, source) or (None, frozenset())
        assert refused is not None
        cited = tuple(c for c in refused.clause_ids if c in in_force)
        features = (_refused_by_mask(within, cited) | graph.listing_mask(source) | within.bit(aim)
                    | _outcome_mask(within, "refusing:", outcomes))
        made[source, text] = len(out)
        out.append(Candidate(graph_index, source, text, "refusal", Features(within, features), ex.depth[source] + 1,
                             cited, refused.reason))
    return out


class _Tried:
    """The derivations' actions tried at the states of one graph, each once: the state JSON, the legal
    actions and the clauses of each refusal are remembered (several entries share a derivation)."""

    def __init__(self, view: View, states: Sequence[Any], where: str,
                 listed: Callable[[int], list[str]] | None = None) -> None:
        self.view, self.game, self.states, self.where = view, view.game, states, where
        self.listed = listed
        """:func:`sorted_legal` by state number, if the graph already knows it."""
        self.json: dict[int, Any] = {}
        self.legal: dict[int, list[str]] = {}
        self.derived: dict[tuple[int, Derive], Sequence[str]] = {}
        self.refused: dict[tuple[int, str], tuple[str, ...] | None] = {}

    def _legal(self, source: int) -> list[str]:
        if source not in self.legal:
            self.legal[source] = (sorted_legal(self.game, self.states[source]) if self.listed is None
                                  else self.listed(source))
        return self.legal[source]

    def aimed(self, source: int, derive: Derive, clause: str) -> tuple[int, str] | None:
        """The first action ``derive`` gives at state ``source`` that the model refuses citing ``clause``."""
        if (source, derive) not in self.derived:
            if source not in self.json:
                self.json[source] = state_json(self.game, self.states[source])
            self.derived[source, derive] = derived(derive, self.json[source], lambda: self._legal(source))
        for text in self.derived[source, derive]:
            if (source, text) not in self.refused:
                self.refused[source, text] = _clauses_refusing(self.view, self.states[source], text, self.where, source)
            cited = self.refused[source, text]
            if cited is not None and clause in cited:
                return source, text
        return None


_DERIVED_LIMIT = 100_000
"""Derivations' answers :func:`derived` keeps before it starts afresh."""
_DERIVED: dict[tuple[Derive, int], tuple[Any, "Sequence[str] | None", tuple[str, ...]]] = {}


def derived(derive: Derive, state: Any, legal: Callable[[], Sequence[str]]) -> tuple[str, ...]:
    """``derive(state, legal)``'s actions, worked out once per process for each state JSON object (:func:`state_json`
    gives one object for equal states) and, where the derivation asked for them, each list of legal actions
    (the one thing it is given that depends on the rule set): the suites of a game derive at mostly the same
    states."""
    key = (derive, id(state))
    found = _DERIVED.get(key)
    if found is not None and found[0] is state and (found[1] is None or found[1] == legal()):
        return found[2]
    asked: list[Sequence[str]] = []

    def listed() -> Sequence[str]:
        if not asked:
            asked.append(legal())
        return asked[0]

    actions = tuple(derive(state, listed))
    if len(_DERIVED) >= _DERIVED_LIMIT:
        _DERIVED.clear()
    _DERIVED[key] = (state, asked[0] if asked else None, actions)  # the state kept, so that its id stays its own
    return actions


_JSON_LIMIT = 50_000
"""States whose JSON form :func:`state_json` keeps before it starts afresh."""
_JSON: dict[Any, Any] = {}


def state_json(game: Game[Any, Any], state: Any) -> Any:
    """``game.state_to_json(state)``, made once per process for equal states: a state's JSON form does not
    depend on the rule set, and the suites of one game explore mostly the same states. The same object is
    given to every caller, who reads it and never changes it (the derivations of :data:`~.targeted.TARGETED`,
    the states of the vectors: :mod:`.vectors`)."""
    found = _JSON.get(state)
    if found is None:
        if len(_JSON) >= _JSON_LIMIT:
            _JSON.clear()
        found = _JSON[state] = game.state_to_json(state)
    return found


def _attempt(game: Game[Any, Any], state: Any, text: str, where: str, source: int) -> IllegalAction | None:
    """The model's refusal of ``text`` at ``state`` (state ``source`` of the graph named by ``where``), or
    None if it plays it; a text that does not parse, or anything but an IllegalAction raised while stepping,
    is a :class:`GenerationError` (a derivation or the model is wrong: never a silent "no refusal")."""
    try:
        action = game.action_from_text(text)
    except ScenarioError as error:
        raise GenerationError(f"{where}, state {source}: the tried action {text!r} does not parse ({error}): a "
                              "derivation is out of step with the action grammar") from error
    try:
        game.step(state, action)
    except IllegalAction as refused:
        return refused
    except Exception as error:
        raise _crashed(where, source, text, error) from error
    return None


def _clauses_refusing(view: View, state: Any, text: str, where: str, source: int) -> tuple[str, ...] | None:
    """The clauses the model names refusing ``text`` at ``state`` (not traced: an answer already recorded,
    else the model untraced, its answer kept for the suites after), or None if it plays it (a crash is a
    :class:`GenerationError`, see :func:`_attempt`)."""
    game = view.game
    refused = view.result("attempt", state, text, lambda: _attempt(game, state, text, where, source), remember=True)
    return None if refused is None else tuple(refused.clause_ids)


def _in_force_mask(within: FeatureSpace, clauses: frozenset[str], in_force: frozenset[str]) -> int:
    """The clauses of ``clauses`` in force, as bits (worked out once per pair of sets: the shared answers
    give the same set object to every step that ran the same clauses)."""
    return within.mask_of(("in-force", clauses, in_force), (c for c in clauses if c in in_force))


def _outcome_mask(within: FeatureSpace, prefix: str, outcomes: frozenset[str]) -> int:
    """Each outcome feature of ``outcomes`` with ``prefix`` before it, as bits: ``stepping:`` for a played
    step's, kept apart from those of listing the actions (the same arc or returned value seen while
    stepping is another outcome: a vector must step through it to check it), ``refusing:`` for a refused
    step's (the same arc refusing is another outcome than the same arc on the way to a play)."""
    return within.mask_of((prefix, outcomes), (f"{prefix}{f}" for f in outcomes))


def _refused_by_mask(within: FeatureSpace, cited: tuple[str, ...]) -> int:
    """A ``refused-by:`` feature per clause a refusal cites, as bits."""
    return within.mask_of(("refused-by", cited), (f"refused-by:{c}" for c in cited))


def _refusal(view: View, state: Any, text: str, where: str, source: int
             ) -> tuple[IllegalAction, frozenset[str]] | None:
    """The model's refusal of ``text`` at ``state`` and the outcome features of the refused step, or None
    if it plays it (a crash is a :class:`GenerationError`, see :func:`_attempt`)."""
    game = view.game
    refused, _, outcomes = view.traced("attempt", state, text, lambda: _attempt(game, state, text, where, source))
    return None if refused is None else (refused, outcomes)


def collect(
    plan: SuitePlan,
    scenarios: Sequence[Scenario],
    in_force: frozenset[str],
    *,
    max_states: int,
    seed: int,
    on_scenario: Callable[[str], None] | None = None,
    positions: Sequence[Scenario] = (),
    shared: SharedAnswers | None = None,
) -> Sources:
    """Explore every scenario of the plan's game (at most ``max_states`` states each), then every targeted
    position of it (:mod:`.targeted`, within its own bounds), and list the candidates, in a deterministic
    order. The model's traced answers come from ``shared`` where they hold (a fresh one if None)."""
    rng = random.Random(seed)
    shared = SharedAnswers() if shared is None else shared
    base = shared.view(make_game(plan.game, plan.base.spec)) if plan.base is not None else None
    base_id = plan.base.id if plan.base is not None else ""
    graphs: list[ScenarioGraph] = []
    candidates: list[Candidate] = []
    sources = [(s, max_states) for s in scenarios] + [(p, None) for p in positions]
    for scenario, limit in sources:
        if scenario.game != plan.game:
            continue
        raise_if_lost()
        if on_scenario is not None:
            on_scenario(scenario.name)
        graph = explore_scenario(scenario, plan, limit, in_force, shared)
        graphs.append(graph)
        index = len(graphs) - 1
        kept = kept_play_edges(graph, plan.expression) if limit is None else {}
        candidates.extend(play_candidates(index, graph, in_force, base, base_id, rng, kept))
        candidates.extend(refusal_candidates(index, graph, in_force, rng))
        candidates.extend(targeted_candidates(index, graph, in_force))
    return Sources(graphs, candidates)
