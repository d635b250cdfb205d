"""``cardrules diff A B``: the behaviour, property and SMT differences between two rule sets.

Builds on :mod:`cardrules.oracle.rulechange.lockstep` (the lockstep exploration of the product of the
two state graphs). It explores every embedded scenario of the game and every start position of each
scope (:mod:`cardrules.properties.scopes`), groups the differences of all of them into classes
(:class:`ReportClass`: kind, decisive clause, kind of action, differing visible field), each with its
count and its shortest scenario. For every embedded scenario it also explores A and B apart with every
property, to say which invariants hold under one and break under the other (scope positions are
compared in play only). With z3 on it asks whether B's clauses contradict each other, area by area,
and searches for differences with z3 where the encoding covers the change. Output: a terminal summary
(:mod:`~cardrules.oracle.rulechange.textreport`), ``--json``, Markdown for a committee's minutes
(:mod:`~cardrules.oracle.rulechange.minutes`) and one replayable ``cardrules-diff/1`` trace per class
(``--traces DIR``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cardrules.oracle.rulechange.lockstep import KINDS, ClassKey, Example, ScenarioDiff, diff_scenario
from cardrules.properties.engines.explore import Bounds
from cardrules.properties.scenarios import Scenario
from cardrules.properties.scenarios.rulesets import NamedRuleSet


@dataclass
class PropertyChange:
    """A property that holds under one rule set and is violated under the other, in one scenario."""

    property: str
    scenario: str
    broken_under: str
    """``B`` (newly broken by the change) or ``A`` (mended by it)."""
    counterexample: list[str]


@dataclass
class ScopeDiff:
    """The lockstep explorations of every start position of one scope."""

    name: str
    description: dict[str, Any]
    positions: list[ScenarioDiff] = field(default_factory=list)

    @property
    def states(self) -> int:
        return sum(p.states for p in self.positions)

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.positions)

    @property
    def complete(self) -> bool:
        """Every position explored completely (no bound cut anything)."""
        return all(p.complete for p in self.positions)

    @property
    def truncated(self) -> list[ScenarioDiff]:
        return [p for p in self.positions if p.truncated]

    @property
    def differs(self) -> bool:
        return any(p.differs for p in self.positions)

    def bound_text(self) -> str:
        """How the positions' explorations ended, in words."""
        cut = self.truncated
        if cut:
            return f"{len(cut)} of {len(self.positions)} position(s) truncated by the state bound"
        if self.complete:
            return "every position explored completely"
        return "every position explored completely within the scope's turn or depth bound"


@dataclass
class ReportClass:
    """One class of difference over the whole report: its count per source and its shortest scenario."""

    key: ClassKey
    count: int
    sources: Counter[str]
    """Embedded scenario or scope name -> differing steps of this class found there."""
    source: str
    """Where the shortest scenario comes from (a scenario, or a scope)."""
    scenario: Scenario
    example: Example
    trace: dict[str, Any]
    narrative: list[str]


@dataclass
class DiffReport:
    game: str
    a: NamedRuleSet
    b: NamedRuleSet
    scenarios: list[ScenarioDiff] = field(default_factory=list)
    scopes: list[ScopeDiff] = field(default_factory=list)
    classes: list[ReportClass] = field(default_factory=list)
    """Every class of difference, in the order first found."""
    traces: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Embedded scenario -> the shortest trace of each class found there; a scope position -> those of
    the classes whose shortest scenario it holds."""
    follow_on_traces: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Likewise for the follow-on classes (:attr:`~cardrules.oracle.rulechange.lockstep.ClassKey.follow_on`)."""
    properties: list[PropertyChange] = field(default_factory=list)
    separate_seconds: float = 0.0
    separate_states: int = 0
    smt: list[dict[str, Any]] = field(default_factory=list)
    smt_checked: bool = False
    """Whether the z3 view ran (not ``--no-smt``)."""
    smt_search: list[Any] = field(default_factory=list)
    """The z3 difference search's results (``SearchResult``), when it ran."""
    touched: list[str] = field(default_factory=list)
    """The clauses the change touches (a decision's clause, clauses in force under one wording only)."""
    text_only: list[str] = field(default_factory=list)
    """The clauses a proposal changes in text only: nothing executable behind them, nothing compared in play."""
    not_executable: bool = False
    """A proposal changes text only: nothing in play was compared (the verdict is undecided, never a pass)."""
    never_exercised: list[str] = field(default_factory=list)
    """Touched clauses with code behind them whose code never ran in the explorations."""

    @property
    def explorations(self) -> list[ScenarioDiff]:
        """Every lockstep exploration: the embedded scenarios, then each scope's positions."""
        return self.scenarios + [p for scope in self.scopes for p in scope.positions]

    @property
    def differs(self) -> bool:
        return bool(self.classes)

    @property
    def narratives(self) -> dict[str, dict[str, list[str]]]:
        """Embedded scenario -> kind -> the shortest scenario of that kind in words (a summary by kind;
        the report itself goes by class)."""
        from cardrules.oracle.rulechange.difftrace import narrative

        if not hasattr(self, "_game_a"):
            from cardrules.properties.games import make_game

            self._game_a = make_game(self.game, self.a.spec, self.a.hooks)
        return {s.scenario: {kind: narrative(example, self._game_a) for kind, example in s.examples.items()}
                for s in self.scenarios}

    @property
    def search_verdicts(self) -> set[str]:
        return {result.verdict for result in self.smt_search}

    @property
    def truncated(self) -> list[ScenarioDiff]:
        """The explorations the state bound cut short."""
        return [s for s in self.explorations if s.truncated]

    @property
    def undecided(self) -> bool:
        """Not executable, a z3 ``unknown``, or no difference found in an exploration the state bound cut."""
        return self.not_executable or any(entry["verdict"] == "unknown" for entry in self.smt) \
            or "unknown" in self.search_verdicts or (not self.differs and bool(self.truncated))

    @property
    def verdict(self) -> str:
        """The overall verdict in one line."""
        if self.not_executable:
            return (f"not executable: clauses {', '.join(self.text_only)} change in text only; "
                    "nothing in play was compared")
        if self.differs:
            return f"differences found: {len(self.classes)} class(es) of difference"
        if "difference" in self.search_verdicts or "encoding-disagreement" in self.search_verdicts:
            return "differences found by the z3 search"
        if self.truncated:
            cuts = "; ".join(f"truncated at {cut.states:,} states in scenario {cut.scenario}" for cut in self.truncated[:3])
            more = f"; and {len(self.truncated) - 3} more" if len(self.truncated) > 3 else ""
            return f"no difference found in what was explored; {cuts}{more}"
        if all(s.complete for s in self.explorations):
            return "no difference found: every scenario explored completely"
        return "no difference found: every scenario explored completely within its turn or depth bound"

    @property
    def unseen_here(self) -> dict[str, str]:
        """``decision=option`` -> why no embedded scenario or named scope shows its play (the catalogue's
        ``unseen_here``), for the options A or B selects, when no difference was found."""
        from cardrules.specs.catalogue import default_catalogue

        if self.differs or self.not_executable:
            return {}
        decisions = default_catalogue().decisions
        out: dict[str, str] = {}
        for named in (self.a, self.b):
            for decision_id, option_id in sorted(named.spec.decisions.items()):
                option = next((o for o in decisions[decision_id][1].options if o.id == option_id), None)
                if option is not None and option.unseen_here:
                    out[f"{decision_id}={option_id}"] = option.unseen_here
        return out

    @property
    def smt_note(self) -> str:
        """``no z3 area for this change`` when the z3 view ran and no area of the game has a z3 situation."""
        from cardrules.oracle.rulechange.smt_view import NO_AREA, checked_any

        return NO_AREA if self.smt_checked and not checked_any(self.game, self.smt) else ""


def class_label(key: ClassKey) -> str:
    """A class in one line: ``changed, heal, field P0 territory; decisive: X (A) / Y (B)``."""
    return f"{key.kind}, {key.action}, field {key.field}; decisive: {key.decisive}"


def _property_changes(report: DiffReport, scenario: Scenario, bounds: Bounds, games: dict[str, Any]) -> None:
    from cardrules.properties.games import version_map
    from cardrules.properties.games import properties_for
    from cardrules.properties.engines.explore import explore
    from cardrules.properties.engines.explore import narrative as explore_narrative

    broken: dict[str, dict[str, list[str]]] = {}
    for label, named in (("A", report.a), ("B", report.b)):
        spec = named.spec
        game = games[label]
        result = explore(game, [game.state_from_json(scenario.state)],
                         properties_for(report.game, version_map(scenario, spec)), bounds, progress=False)
        report.separate_seconds += result.stats.seconds
        report.separate_states += result.stats.states
        broken[label] = {p: explore_narrative(result, p, game).splitlines() for p in result.violations}
    for label, other in (("B", "A"), ("A", "B")):
        for prop in sorted(set(broken[label]) - set(broken[other])):
            report.properties.append(PropertyChange(prop, scenario.name, label, broken[label][prop]))


def _point_clauses(game: str, name: str) -> tuple[str, ...]:
    from cardrules.model.extension import EXTENSION_POINTS

    point = EXTENSION_POINTS.get((game, name))
    return point.clause_ids if point else ()


def run_diff(game: str, a: NamedRuleSet, b: NamedRuleSet, scenarios: list[Scenario],
             max_states: int | None = None, with_smt: bool = True, quiet: bool = True,
             scopes: tuple[Any, ...] = ()) -> DiffReport:
    """Diff A and B on every scenario of ``game`` and every position of each scope (``Scope`` objects of
    :mod:`cardrules.properties.scopes`): behaviour, properties (scenarios only), and (optionally) z3.

    A proposal whose every change is text only is not explored (nothing in play differs because of
    it): the report says so and is undecided.
    """
    from cardrules.oracle.progress import RunProgress
    from cardrules.oracle.rulechange.decisive import attribution
    from cardrules.oracle.rulechange.exercised import ClauseWatch
    from cardrules.oracle.rulechange.lockstep import in_force_only
    from cardrules.properties.games import make_game

    report = DiffReport(game, a, b)
    proposals = [named.proposal for named in (a, b) if named.proposal is not None]
    report.text_only = sorted({c for p in proposals for c in p.text_only})
    report.not_executable = any(p.only_text for p in proposals)
    touched = _touched(game, a, b)
    report.touched = sorted(touched)
    if report.not_executable:
        return report
    watch = ClauseWatch(game, frozenset(touched) - frozenset(report.text_only), (*a.hooks, *b.hooks))
    games = {"A": make_game(game, a.spec, watch.wrap(a.hooks)), "B": make_game(game, b.spec, watch.wrap(b.hooks))}
    only_a, only_b = in_force_only(game, a.spec, b.spec)
    context = _Context(report, games, attribution(game, touched, only_a & touched, only_b & touched), watch, max_states)
    with RunProgress("diff", len(scenarios) + len(scopes), quiet=quiet) as progress:
        for scenario in scenarios:
            with progress.phase(scenario.name) as phase:
                context.scenario(scenario)
                phase.result = _phase_text(report.scenarios[-1])
        for scope in scopes:
            with progress.phase(f"scope {scope.name}") as phase:
                context.scope(scope, phase)
                phase.result = f"{len(report.scopes[-1].positions):,} positions, {report.scopes[-1].states:,} states"
    report.classes.sort(key=lambda found: found.key.follow_on)  # primary classes first, found order kept
    _scope_traces(report)
    report.never_exercised = list(watch.never)
    if with_smt:
        _run_smt(report)
    return report


def _touched(game: str, a: NamedRuleSet, b: NamedRuleSet) -> frozenset[str]:
    from cardrules.oracle.rulechange.lockstep import changed_clauses

    proposals = [named.proposal for named in (a, b) if named.proposal is not None]
    touched = changed_clauses(game, a.spec, b.spec) | {c for p in proposals for c in p.touched}
    touched |= {c for named in (a, b) for name, _ in named.hooks for c in _point_clauses(game, name)}
    return frozenset(touched)


def _run_smt(report: DiffReport) -> None:
    """The z3 contradiction view, and the z3 search for a state where A and B disagree."""
    from cardrules.oracle.rulechange.smt_search import search_differences
    from cardrules.oracle.rulechange.smt_view import smt_view

    report.smt = smt_view(report.game, report.a, report.b)
    report.smt_checked = True
    report.smt_search = list(search_differences(report.game, report.a, report.b))


def _phase_text(result: ScenarioDiff) -> str:
    kinds = ", ".join(k for k in KINDS if result.by_depth[k]) or "no difference"
    return f"{result.states:,} states, {kinds}"


@dataclass
class _Context:
    """What every exploration of one run shares."""

    report: DiffReport
    games: dict[str, Any]
    attribution: Any
    watch: Any
    max_states: int | None

    def explore(self, scenario: Scenario, max_states: int | None) -> ScenarioDiff:
        bounds = self.bounds(scenario, max_states)
        with self.watch.watching():
            return diff_scenario(scenario, self.games["A"], self.games["B"], bounds, self.attribution)

    def bounds(self, scenario: Scenario, max_states: int | None) -> Bounds:
        return Bounds(max_depth=scenario.max_depth, max_turns=scenario.max_turns,
                      max_states=self.max_states if self.max_states is not None else max_states)

    def scenario(self, scenario: Scenario) -> None:
        """Lockstep exploration and separate property checks of one embedded scenario."""
        result = self.explore(scenario, scenario.max_states)
        self.report.scenarios.append(result)
        self.report.traces[scenario.name] = [self.trace(example, scenario) for key, example
                                             in result.class_examples.items() if not key.follow_on]
        self.report.follow_on_traces[scenario.name] = [self.trace(example, scenario) for key, example
                                                       in result.class_examples.items() if key.follow_on]
        self.merge(result, scenario, scenario.name)
        _property_changes(self.report, scenario, self.bounds(scenario, scenario.max_states), self.games)

    def scope(self, scope: Any, phase: Any = None) -> None:
        """Lockstep exploration of every start position of a scope (compared in play only)."""
        from cardrules.properties.scopes import enumerate_positions

        found = ScopeDiff(scope.name, scope.describe())
        self.report.scopes.append(found)
        for number, position in enumerate(enumerate_positions(scope), 1):
            result = self.explore(position, position.max_states)
            found.positions.append(result)
            self.merge(result, position, f"scope {scope.name}")
            if phase is not None:
                phase.count(number, "positions")

    def trace(self, example: Example, scenario: Scenario) -> dict[str, Any]:
        from cardrules.oracle.rulechange.difftrace import example_to_json

        trace = example_to_json(example, self.report.game, scenario, self.report.a.spec, self.report.b.spec)
        for side, named in (("a", self.report.a), ("b", self.report.b)):
            if named.proposal is not None:
                trace[f"proposal_{side}"] = str(named.proposal.path.resolve())
        return trace

    def merge(self, result: ScenarioDiff, scenario: Scenario, source: str) -> None:
        """Add an exploration's classes to the report's: counts summed, the shortest scenario kept."""
        from cardrules.oracle.rulechange.difftrace import narrative

        known = {c.key: c for c in self.report.classes}
        for key, tally in result.classes.items():
            found = known.get(key)
            if found is None:
                self.report.classes.append(ReportClass(key, 0, Counter(), "", scenario, tally.example, {}, []))
                found = known[key] = self.report.classes[-1]
            found.count += tally.count
            found.sources[source] += tally.count
            if not found.trace or tally.example.depth < found.example.depth:
                found.source, found.scenario, found.example = source, scenario, tally.example
                found.trace = self.trace(tally.example, scenario)
                found.narrative = narrative(tally.example, self.games["A"])


def _scope_traces(report: DiffReport) -> None:
    """A scope position's traces: those of the classes whose shortest scenario it holds."""
    for found in report.classes:
        if found.source.startswith("scope "):
            traces = report.follow_on_traces if found.key.follow_on else report.traces
            traces.setdefault(found.scenario.name, []).append(found.trace)
