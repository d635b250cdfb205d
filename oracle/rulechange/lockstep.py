"""``cardrules diff A B``: where two rule sets differ in play, found by exploring them in lockstep.

Both rule sets are played from the same start positions, and the explorer walks the **product** of
the two state graphs: a node is a pair (the state under A, the state under B). While the two agree
the pair is one state (one key, one expansion: an agreeing pair costs what one state costs in a
single exploration, keyed up to the game's symmetry); once they part, both full states are
followed, the pair keyed by both states as they are (a renaming of cards would have to apply to both
at once). At each pair the explorer compares

* the legal actions: an action legal under A and refused under B is a **tightened** difference (B
  forbids what A allowed); legal under B only, a **relaxed** one (B allows more). The branch ends
  there for that action (one side cannot take it);
* for every action legal under both, the successors, by what the rules make visible
  (the game's ``observe``, :func:`observer`: zones and their contents, damage, dull or active, who controls what, the
  outcome, whose decision it is and of what kind; never bookkeeping such as record ids, counters
  or logs). The step is a **changed** difference when a visible field differs after it that did not
  differ before it; successors that differ only in bookkeeping, or only in fields that already
  differed, are no new difference. Either way both successors are explored further: a branch goes
  on past a difference as far as the bounds allow.

Each difference is put in a **class** (:class:`ClassKey`): its kind, its decisive clause
(:mod:`~cardrules.oracle.rulechange.decisive`), the kind of action (the first word of its text:
``heal``, ``play``, ``attack``...) and the differing visible field (for a changed step the first
field, in the projection's order, that newly differs; for a tightened or relaxed one ``legal
actions``, or the first visible field that already differed when the pair had parted before).
Breadth-first order makes the first difference of each class a shortest distinguishing scenario,
kept as a replayable ``cardrules-diff/1`` trace (:mod:`~cardrules.oracle.rulechange.difftrace`,
replayed by :func:`replay_diff`);
each class counts its differing steps. A tightened or relaxed class whose field is one that already
differed (the plays had parted visibly at an earlier changed step) is a **follow-on** class
(:attr:`ClassKey.follow_on`): reported apart, after the primary classes.

Bounds apply to the product (pairs count as states; the turn bound stops a pair when either side is
past it). Each exploration says whether it was complete, complete within its turn or depth bound,
or truncated by its state bound (then "no difference found" only holds for what was explored).
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Literal, NamedTuple

from cardrules.oracle.jsondiff import first_difference
from cardrules.oracle.rulechange.decisive import Attribution, Decisive, decide
from cardrules.properties.engines.exploration import Bounds, Game
from cardrules.properties.scenarios import RuleSetSpec, Scenario

DiffKind = Literal["tightened", "relaxed", "changed"]
KINDS: tuple[DiffKind, ...] = ("tightened", "relaxed", "changed")
FORMAT = "cardrules-diff/1"
LEGAL = "legal actions"
Observe = Callable[[Any], tuple[tuple[str, Hashable], ...]]


def observer(game: str) -> Observe:
    """The game's observable projection (``observe`` of ``model/<game>/observable.py``)."""
    if game == "fftcg":
        from cardrules.model.fftcg.observable import observe as observe_ff

        return observe_ff
    from cardrules.model.redemption.observable import observe as observe_red

    return observe_red


class ClassKey(NamedTuple):
    """What makes two differences the same class of change."""

    kind: DiffKind
    decisive: str
    """The decisive clause(s) as :meth:`Decisive.text` words them."""
    action: str
    """The kind of action: the first word of its text."""
    field: str
    """The differing visible field (see the module docstring)."""

    @property
    def follow_on(self) -> bool:
        """A tightened or relaxed step where the two plays had already parted visibly (its field is one
        that already differed): a consequence of an earlier changed step, reported apart from the
        primary classes."""
        return self.kind != "changed" and self.field != LEGAL


@dataclass
class Example:
    """One distinguishing scenario: the actions to a pair of states, and the action whose treatment differs."""

    kind: DiffKind
    depth: int
    prefix: list[tuple[str, Any, Any]]
    """(action, state JSON under A, state JSON under B or ``None`` when the same) from the start."""
    action: str
    legal_a: bool
    legal_b: bool
    result_a: Any = None
    """The state JSON after ``action`` under A (when legal there)."""
    result_b: Any = None
    decisive: Decisive = Decisive((), "candidates")
    field: str = LEGAL
    values: tuple[Any, Any] = (None, None)
    """The differing field's visible value under A and under B (changed steps)."""
    parted: tuple[str, ...] = ()
    """The visible fields that already differed before the step."""

    @property
    def clause_ids(self) -> tuple[str, ...]:
        return self.decisive.clauses


@dataclass
class ClassTally:
    """One class of difference within one exploration: how many differing steps, the shortest one."""

    count: int
    example: Example


@dataclass
class ScenarioDiff:
    """The lockstep exploration of one start position under A and B."""

    scenario: str
    states: int = 0
    """Nodes of the product (a pair counts once)."""
    transitions: int = 0
    seconds: float = 0.0
    complete: bool = False
    """Nothing was cut by any bound: every reachable pair explored."""
    truncated: bool = False
    turn_bounded: bool = False
    depth_bounded: bool = False
    max_states: int | None = None
    max_depth: int | None = None
    max_turns: int | None = None
    by_depth: dict[DiffKind, Counter[int]] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    """Per kind: depth -> number of pairs where a difference of that kind shows (follow-on ones aside)."""
    classes: dict[ClassKey, ClassTally] = field(default_factory=dict)
    parted: int = 0
    """Pairs whose two states differ (in anything, bookkeeping included)."""

    @property
    def differs(self) -> bool:
        return bool(self.classes)

    @property
    def class_examples(self) -> dict[ClassKey, Example]:
        """Each class's shortest scenario in this exploration."""
        return {key: tally.example for key, tally in self.classes.items()}

    @property
    def examples(self) -> dict[DiffKind, Example]:
        """Per kind, the shortest scenario of any primary (not follow-on) class of that kind."""
        out: dict[DiffKind, Example] = {}
        for key, tally in self.classes.items():
            if key.follow_on:
                continue
            if key.kind not in out or tally.example.depth < out[key.kind].depth:
                out[key.kind] = tally.example
        return out

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else 0.0

    @property
    def bounds(self) -> dict[str, int | None]:
        return {"max_states": self.max_states, "max_depth": self.max_depth, "max_turns": self.max_turns}

    def limits_text(self) -> str:
        """The bounds in words: ``max 100,000 states, depth unbounded, 2 turns``."""
        states = f"max {self.max_states:,} states" if self.max_states is not None else "states unbounded"
        depth = f"depth {self.max_depth}" if self.max_depth is not None else "depth unbounded"
        turns = f"{self.max_turns} turn(s)" if self.max_turns is not None else "turns unbounded"
        return f"{states}, {depth}, {turns}"

    def bound_text(self) -> str:
        """How the exploration ended: complete, complete within the turn/depth bound, or truncated."""
        if self.truncated:
            return (f"truncated at {self.states:,} states by the state bound: "
                    "states past it were not explored")
        if self.complete:
            return "complete: every reachable state explored"
        within = [f"the turn bound ({self.max_turns} turn(s))"] if self.turn_bounded else []
        within += [f"the depth bound ({self.max_depth})"] if self.depth_bounded else []
        return f"complete within {' and '.join(within)}: {self.states:,} states"


def changed_clauses(game: str, a: RuleSetSpec, b: RuleSetSpec) -> frozenset[str]:
    """The clauses the change touches: those whose decision differs, and those in force under one wording only."""
    only_a, only_b, decided = _clause_split(game, a, b)
    return only_a | only_b | decided


def in_force_only(game: str, a: RuleSetSpec, b: RuleSetSpec) -> tuple[frozenset[str], frozenset[str]]:
    """The clauses in force under A only, and under B only."""
    only_a, only_b, _ = _clause_split(game, a, b)
    return only_a, only_b


def _clause_split(game: str, a: RuleSetSpec, b: RuleSetSpec) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

    catalogue = default_catalogue()
    decided: set[str] = set()
    for decision_id in set(a.decisions) | set(b.decisions):
        clause, decision = catalogue.decisions[decision_id]
        if a.decisions.get(decision_id, decision.chosen) != b.decisions.get(decision_id, decision.chosen):
            decided.add(clause.id)
    only: list[set[str]] = [set(), set()]
    for area in catalogue.areas:
        if area.game != game:
            continue
        in_force = [set(clauses_in_force(area.id, RuleSet(
            versions={area.id: frozenset(spec.versions.get(area.id, (area.default_version,)))},
            decisions=dict(spec.decisions)))) for spec in (a, b)]
        only[0] |= in_force[0] - in_force[1]
        only[1] |= in_force[1] - in_force[0]
    return frozenset(only[0]), frozenset(only[1]), frozenset(decided)


def parted_fields(observe_a: tuple[tuple[str, Hashable], ...], observe_b: tuple[tuple[str, Hashable], ...]) -> list[str]:
    """The visible fields that differ, in the projection's order (a field on one side only included)."""
    values_b = dict(observe_b)
    names = [name for name, value in observe_a if values_b.get(name, ...) != value]
    names_a = {name for name, _ in observe_a}
    return names + [name for name, _ in observe_b if name not in names_a]


class _Product:
    """The breadth-first walk of the product graph of one start position (see the module docstring)."""

    def __init__(self, game_a: Game[Any, Any], game_b: Game[Any, Any], bounds: Bounds, attribution: Attribution,
                 result: ScenarioDiff) -> None:
        self.game_a, self.game_b, self.bounds, self.attribution, self.result = game_a, game_b, bounds, attribution, result
        self.observe = observer(game_a.name)
        self.pairs: list[tuple[Any, Any]] = []
        self.parents: list[int] = []
        self.via: list[str | None] = []
        self.depth: list[int] = []
        self.seen: dict[Hashable, int] = {}
        self.queue: deque[int] = deque()

    def add(self, pair: tuple[Any, Any], parent: int, action: str | None, level: int) -> bool:
        """Queue a pair unless seen; False when the state bound stops the search."""
        state_a, state_b = pair
        key = self.game_a.canonical_key(state_a) if state_a is state_b else ("pair", state_a, state_b)
        if key in self.seen:
            return True
        if self.bounds.max_states is not None and len(self.pairs) >= self.bounds.max_states:
            self.result.truncated = True
            return False
        self.seen[key] = len(self.pairs)
        self.pairs.append(pair)
        self.parents.append(parent)
        self.via.append(action)
        self.depth.append(level)
        self.queue.append(len(self.pairs) - 1)
        if state_a is not state_b:
            self.result.parted += 1
        return True

    def path(self, index: int) -> list[tuple[str, Any, Any]]:
        steps: list[tuple[str, Any, Any]] = []
        while self.parents[index] >= 0:
            state_a, state_b = self.pairs[index]
            action = self.via[index]
            assert action is not None
            steps.append((action, self.game_a.state_to_json(state_a),
                          None if state_a is state_b else self.game_b.state_to_json(state_b)))
            index = self.parents[index]
        return steps[::-1]

    def stopped(self, index: int) -> bool:
        """Whether this pair is not expanded (depth or turn bound, or both sides over)."""
        state_a, state_b = self.pairs[index]
        if self.bounds.max_depth is not None and self.depth[index] >= self.bounds.max_depth:
            self.result.depth_bounded = True
            return True
        if self.game_a.is_terminal(state_a) and self.game_b.is_terminal(state_b):
            return True
        if self.bounds.max_turns is not None and max(self.game_a.turn(state_a), self.game_b.turn(state_b)) > self.bounds.max_turns:
            self.result.turn_bounded = True
            return True
        return False

    def note(self, key_parts: tuple[DiffKind, Decisive, str, str], index: int, make: Callable[[], Example]) -> None:
        kind, decisive, action_text, field_name = key_parts
        key = ClassKey(kind, decisive.text(), action_text.split(" ", 1)[0], field_name)
        tally = self.result.classes.get(key)
        if tally is None:
            example = make()
            example.decisive = decisive
            self.result.classes[key] = ClassTally(1, example)
        else:
            tally.count += 1

    def run(self) -> None:
        while self.queue:
            index = self.queue.popleft()
            if self.stopped(index):
                continue
            if not self.expand(index):
                self.queue.clear()
                return

    def expand(self, index: int) -> bool:
        """Compare and step one pair; False when the state bound stops the search."""
        game_a, game_b = self.game_a, self.game_b
        state_a, state_b = self.pairs[index]
        level = self.depth[index]
        parted = [] if state_a is state_b else parted_fields(self.observe(state_a), self.observe(state_b))
        legal_a = {game_a.action_text(a): a for a in game_a.legal_actions(state_a)}
        legal_b = {game_b.action_text(b): b for b in game_b.legal_actions(state_b)}
        kinds_here: set[DiffKind] = set()
        for text in sorted(set(legal_a) ^ set(legal_b)):
            kind: DiffKind = "tightened" if text in legal_a else "relaxed"
            if not parted:  # a follow-on difference is counted in its class only
                kinds_here.add(kind)
            self.one_sided(index, kind, text, parted)
        go_on = True
        for text in sorted(set(legal_a) & set(legal_b)):
            after_a = game_a.step(state_a, legal_a[text])
            after_b = game_b.step(state_b, legal_b[text])
            self.result.transitions += 1
            if after_a == after_b:
                after_b = after_a
            else:
                new = [f for f in parted_fields(self.observe(after_a), self.observe(after_b)) if f not in parted]
                if new:
                    kinds_here.add("changed")
                    self.changed(index, text, (legal_a[text], legal_b[text]), (after_a, after_b), new, parted)
            if go_on and not self.add((after_a, after_b), index, text, level + 1):
                go_on = False
        for kind in kinds_here:
            self.result.by_depth[kind][level] += 1
        return go_on

    def one_sided(self, index: int, kind: DiffKind, text: str, parted: list[str]) -> None:
        state_a, state_b = self.pairs[index]
        game_a, game_b = self.game_a, self.game_b
        refusing, refused_state = (game_b, state_b) if kind == "tightened" else (game_a, state_a)
        decisive = decide(self.attribution, lambda: game_a.legal_actions(state_a), lambda: game_b.legal_actions(state_b),
                          refuse=lambda: refusing.step(refused_state, refusing.action_from_text(text)))
        self.note((kind, decisive, text, parted[0] if parted else LEGAL), index, lambda: Example(
            kind, self.depth[index], self.path(index), text, kind == "tightened", kind == "relaxed",
            parted=tuple(parted)))

    def changed(self, index: int, text: str, actions: tuple[Any, Any], after: tuple[Any, Any], new: list[str],
                parted: list[str]) -> None:
        state_a, state_b = self.pairs[index]
        game_a, game_b = self.game_a, self.game_b
        decisive = decide(self.attribution, lambda: game_a.step(state_a, actions[0]),
                          lambda: game_b.step(state_b, actions[1]))

        def make() -> Example:
            values = dict(self.observe(after[0])).get(new[0]), dict(self.observe(after[1])).get(new[0])
            return Example("changed", self.depth[index], self.path(index), text, True, True,
                           game_a.state_to_json(after[0]), game_b.state_to_json(after[1]),
                           field=new[0], values=values, parted=tuple(parted))

        self.note(("changed", decisive, text, new[0]), index, make)


def diff_scenario(
    scenario: Scenario, game_a: Game[Any, Any], game_b: Game[Any, Any], bounds: Bounds | None = None,
    attribution: Attribution | None = None,
) -> ScenarioDiff:
    """Explore ``scenario`` under A and B in lockstep (see the module docstring).

    ``attribution``: the clauses the change touches and the code behind them, to name each
    difference's decisive clause (:func:`~cardrules.oracle.rulechange.decisive.attribution`).
    """
    from cardrules.oracle.rulechange.decisive import Attribution as Empty

    bounds = bounds or Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states,
                              max_turns=scenario.max_turns)
    attribution = attribution or Empty(frozenset(), frozenset(), frozenset(), {}, {})
    result = ScenarioDiff(scenario.name, max_states=bounds.max_states, max_depth=bounds.max_depth,
                          max_turns=bounds.max_turns)
    started = time.perf_counter()
    product = _Product(game_a, game_b, bounds, attribution, result)
    root = game_a.state_from_json(scenario.state)
    product.add((root, root), -1, None, 0)
    product.run()
    result.states = len(product.pairs)
    result.complete = not (result.truncated or result.turn_bounded or result.depth_bounded)
    result.seconds = time.perf_counter() - started
    return result


def scenarios_for(game: str, scenarios: list[Scenario]) -> list[Scenario]:
    """The scenarios of one game."""
    return [s for s in scenarios if s.game == game]


def _replay_steps(trace: dict[str, Any], game_a: Game[Any, Any], game_b: Game[Any, Any]) -> tuple[Any, Any, str]:
    """Play the steps under both rule sets; the two final states, or a message naming the first mismatch."""
    state_a = state_b = game_a.state_from_json(trace["initial_state"])
    for number, step in enumerate(trace["steps"]):
        text = step["action"]
        after_a = game_a.step(state_a, game_a.action_from_text(text))
        after_b = game_b.step(state_b, game_b.action_from_text(text))
        if "state" in step:
            recorded_a = recorded_b = game_a.state_from_json(step["state"])
        else:
            recorded_a, recorded_b = game_a.state_from_json(step["state_a"]), game_b.state_from_json(step["state_b"])
        if after_a != recorded_a or after_b != recorded_b:
            return None, None, f"steps[{number}] ({text}): the rule sets do not reach the recorded state"
        state_a, state_b = after_a, after_b
    return state_a, state_b, ""


def replay_diff(trace: dict[str, Any], game_a: Game[Any, Any], game_b: Game[Any, Any]) -> tuple[bool, str]:
    """Replay a ``cardrules-diff/1`` trace under both rule sets; True when the difference is reproduced."""
    state_a, state_b, problem = _replay_steps(trace, game_a, game_b)
    if problem:
        return False, problem
    text = trace["action"]
    legal_a = text in {game_a.action_text(a) for a in game_a.legal_actions(state_a)}
    legal_b = text in {game_b.action_text(b) for b in game_b.legal_actions(state_b)}
    if (legal_a, legal_b) != (trace["a"]["legal"], trace["b"]["legal"]):
        return False, f"'{text}': legal under A {legal_a}, under B {legal_b}; recorded otherwise"
    if trace["kind"] == "changed":
        after_a = game_a.step(state_a, game_a.action_from_text(text))
        after_b = game_b.step(state_b, game_b.action_from_text(text))
        observe = observer(game_a.name)
        before = set(parted_fields(observe(state_a), observe(state_b)))
        if not [f for f in parted_fields(observe(after_a), observe(after_b)) if f not in before]:
            return False, f"'{text}': no visible field newly differs between the rule sets' results"
        if (game_a.state_to_json(after_a), game_b.state_to_json(after_b)) != (trace["a"]["state"], trace["b"]["state"]):
            found = first_difference(trace["a"]["state"], game_a.state_to_json(after_a), "a.state")
            return False, f"'{text}': the results differ from the recorded ones" + (f" (at {found[0]})" if found else "")
    return True, f"{len(trace['steps'])} steps reproduced under both rule sets; '{text}' is {trace['kind']}"
