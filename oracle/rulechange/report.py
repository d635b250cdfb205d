"""``cardrules diff A B``: the behaviour, property and SMT differences between two rule sets.

Builds on :mod:`cardrules.oracle.rulechange.lockstep` (the lockstep exploration). For every
scenario of the game it also explores A and B apart with every property, to
say which invariants hold under one and break under the other, and it asks
z3 whether B's clauses contradict each other, area by area. Output: a
terminal summary, ``--json``, a Markdown report (``--markdown FILE``), and
one replayable ``cardrules-diff/1`` trace per kind and scenario
(``--traces DIR``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TextIO

from cardrules.oracle.rulechange.lockstep import KINDS, DiffKind, ScenarioDiff, changed_clauses, diff_scenario, example_to_json, narrative
from cardrules.properties.scenarios.rulesets import NamedRuleSet
from cardrules.properties.engines.explore import Bounds
from cardrules.properties.scenarios import Scenario


@dataclass
class PropertyChange:
    """A property that holds under one rule set and is violated under the other, in one scenario."""

    property: str
    scenario: str
    broken_under: str
    """``B`` (newly broken by the change) or ``A`` (mended by it)."""
    counterexample: list[str]


@dataclass
class DiffReport:
    game: str
    a: NamedRuleSet
    b: NamedRuleSet
    scenarios: list[ScenarioDiff] = field(default_factory=list)
    traces: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Scenario -> its distinguishing traces (one per kind found)."""
    narratives: dict[str, dict[DiffKind, list[str]]] = field(default_factory=dict)
    properties: list[PropertyChange] = field(default_factory=list)
    separate_seconds: float = 0.0
    separate_states: int = 0
    smt: list[dict[str, Any]] = field(default_factory=list)
    smt_checked: bool = False
    """Whether the z3 view ran (not ``--no-smt``)."""
    touched: list[str] = field(default_factory=list)
    """The clauses the change touches (a decision's clause, clauses in force under one wording only)."""
    text_only: list[str] = field(default_factory=list)
    """The clauses a proposal changes in text only: nothing executable behind them, nothing compared in play."""
    not_executable: bool = False
    """A proposal changes text only: nothing in play was compared (the verdict is undecided, never a pass)."""
    never_exercised: list[str] = field(default_factory=list)
    """Touched clauses with code behind them whose code never ran in the explorations."""

    @property
    def differs(self) -> bool:
        return any(s.differs for s in self.scenarios)

    @property
    def truncated(self) -> list[ScenarioDiff]:
        """The scenarios the state bound cut short."""
        return [s for s in self.scenarios if s.truncated]

    @property
    def undecided(self) -> bool:
        """Not executable, a z3 ``unknown``, or no difference found in an exploration the state bound cut."""
        return self.not_executable or any(entry["verdict"] == "unknown" for entry in self.smt) \
            or (not self.differs and bool(self.truncated))

    @property
    def verdict(self) -> str:
        """The overall verdict in one line."""
        if self.not_executable:
            return (f"not executable: clauses {', '.join(self.text_only)} change in text only; "
                    "nothing in play was compared")
        if self.differs:
            return "differences found"
        if self.truncated:
            cuts = "; ".join(f"truncated at {cut.states:,} states in scenario {cut.scenario}" for cut in self.truncated)
            return f"no difference found in what was explored; {cuts}"
        if all(s.complete for s in self.scenarios):
            return "no difference found: every scenario explored completely"
        return "no difference found: every scenario explored completely within its turn or depth bound"

    @property
    def smt_note(self) -> str:
        """``no z3 area for this change`` when the z3 view ran and no area of the game has a z3 situation."""
        from cardrules.oracle.rulechange.smt_view import NO_AREA, checked_any

        return NO_AREA if self.smt_checked and not checked_any(self.game, self.smt) else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "a": self.a.text,
            "b": self.b.text,
            "verdict": self.verdict,
            "differs": self.differs,
            "executable": not self.not_executable,
            "complete": all(s.complete for s in self.scenarios) and not self.not_executable,
            "turn_bounded": any(s.turn_bounded for s in self.scenarios),
            "truncated": bool(self.truncated),
            "clauses_touched": self.touched,
            "text_only_clauses": self.text_only,
            "never_exercised_clauses": self.never_exercised,
            "scenarios": [_scenario_json(self, s) for s in self.scenarios],
            "properties": [vars(p) for p in self.properties],
            "smt": self.smt,
            "smt_note": self.smt_note,
            "speed": {
                "product_states": sum(s.states for s in self.scenarios),
                "product_seconds": round(sum(s.seconds for s in self.scenarios), 3),
                "separate_states": self.separate_states,
                "separate_seconds": round(self.separate_seconds, 3),
            },
        }


def _scenario_json(report: DiffReport, s: ScenarioDiff) -> dict[str, Any]:
    """One scenario of the JSON report: its exploration, bounds, differences and traces."""
    return {
        "scenario": s.scenario, "states": s.states, "transitions": s.transitions,
        "complete": s.complete, "turn_bounded": s.turn_bounded, "depth_bounded": s.depth_bounded,
        "truncated": s.truncated, "bounds": s.bounds, "exploration": s.bound_text(),
        "seconds": round(s.seconds, 3), "states_per_second": round(s.states_per_second),
        "differences": {k: {str(d): n for d, n in sorted(s.by_depth[k].items())} for k in KINDS if s.by_depth[k]},
        "traces": report.traces.get(s.scenario, []),
    }


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
             max_states: int | None = None, with_smt: bool = True, quiet: bool = True) -> DiffReport:
    """Diff A and B on every scenario of ``game``: behaviour, properties, and (optionally) SMT.

    A proposal whose every change is text only is not explored (nothing in play differs because of
    it): the report says so and is undecided.
    """
    from cardrules.oracle.progress import RunProgress
    from cardrules.oracle.rulechange.exercised import ClauseWatch
    from cardrules.oracle.rulechange.smt_view import smt_view
    from cardrules.properties.games import make_game

    report = DiffReport(game, a, b)
    proposals = [named.proposal for named in (a, b) if named.proposal is not None]
    report.text_only = sorted({c for p in proposals for c in p.text_only})
    report.not_executable = any(p.only_text for p in proposals)
    touched = changed_clauses(game, a.spec, b.spec) | {c for p in proposals for c in p.touched}
    touched |= {c for named in (a, b) for name, _ in named.hooks for c in _point_clauses(game, name)}
    report.touched = sorted(touched)
    if report.not_executable:
        return report
    watch = ClauseWatch(game, frozenset(touched) - frozenset(report.text_only), (*a.hooks, *b.hooks))
    games = {"A": make_game(game, a.spec, watch.wrap(a.hooks)), "B": make_game(game, b.spec, watch.wrap(b.hooks))}
    with RunProgress("diff", len(scenarios), quiet=quiet) as progress:
        for scenario in scenarios:
            with progress.phase(scenario.name) as phase:
                _diff_one(report, scenario, games, touched, max_states, watch)
                phase.result = _phase_text(report.scenarios[-1])
    report.never_exercised = list(watch.never)
    if with_smt:
        report.smt = smt_view(game, a, b)
        report.smt_checked = True
    return report


def _phase_text(result: ScenarioDiff) -> str:
    kinds = ", ".join(k for k in KINDS if k in result.examples) or "no difference"
    return f"{result.states:,} states, {kinds}"


def _diff_one(report: DiffReport, scenario: Scenario, games: dict[str, Any], touched: frozenset[str],
              max_states: int | None, watch: Any) -> None:
    """Lockstep exploration (the touched clauses' code watched) and separate property checks of one
    scenario, added to ``report``."""
    game, a, b = report.game, report.a, report.b
    game_a, game_b = games["A"], games["B"]
    bounds = Bounds(max_depth=scenario.max_depth, max_turns=scenario.max_turns,
                    max_states=max_states if max_states is not None else scenario.max_states)
    with watch.watching():
        result = diff_scenario(scenario, game_a, game_b, bounds, touched)
    report.scenarios.append(result)
    report.traces[scenario.name] = [example_to_json(e, game, scenario, a.spec, b.spec)
                                    for e in result.examples.values()]
    for trace in report.traces[scenario.name]:
        for side, named in (("a", a), ("b", b)):
            if named.proposal is not None:
                trace[f"proposal_{side}"] = str(named.proposal.path.resolve())
    report.narratives[scenario.name] = {k: narrative(e, game_a) for k, e in result.examples.items()}
    _property_changes(report, scenario, bounds, games)


def print_report(report: DiffReport, out: TextIO) -> None:
    """The report as text: per scenario its differences and exploration, then properties, z3, the verdict."""
    print(f"cardrules diff ({report.game}): A = {report.a.text}   B = {report.b.text}", file=out)
    print(f"clauses the change touches: {', '.join(report.touched) or 'none'}", file=out)
    if report.not_executable:
        print(f"\n{report.verdict}", file=out)
        return
    if report.text_only:
        print(f"changed in text only (not compared in play): {', '.join(report.text_only)}", file=out)
    if report.never_exercised:
        print(f"changed but never exercised (their code never ran in the exploration): "
              f"{', '.join(report.never_exercised)}", file=out)
    for s in report.scenarios:
        _print_scenario(report, s, out)
    if report.properties:
        print("\nproperties:", file=out)
        for p in report.properties:
            verb = "newly broken under B" if p.broken_under == "B" else "broken under A, holds under B"
            print(f"  {p.property} / {p.scenario}: {verb}", file=out)
    else:
        print("\nproperties: every property has the same verdict under A and B", file=out)
    _print_smt(report, out)
    total = sum(s.states for s in report.scenarios)
    seconds = sum(s.seconds for s in report.scenarios)
    print(f"\nlockstep exploration: {total:,} states in {seconds:.2f}s; A and B explored apart (with every "
          f"property): {report.separate_states:,} states in {report.separate_seconds:.2f}s", file=out)
    print(f"verdict: {report.verdict}", file=out)


def _print_scenario(report: DiffReport, s: ScenarioDiff, out: TextIO) -> None:
    kinds = ", ".join(f"{k} in {sum(s.by_depth[k].values())} state(s)" for k in KINDS if s.by_depth[k])
    print(f"\n{s.scenario}: {kinds or 'no difference found'} ({s.bound_text()}; "
          f"{s.states_per_second:,.0f} states/s)", file=out)
    print(f"  bounds: {s.limits_text()}", file=out)
    for kind, lines in report.narratives[s.scenario].items():
        depths = ", ".join(f"depth {d}: {n}" for d, n in sorted(s.by_depth[kind].items()))
        print(f"  {kind} (states per depth: {depths}); shortest scenario:", file=out)
        for line in lines:
            print(f"    {line}", file=out)


def _print_smt(report: DiffReport, out: TextIO) -> None:
    for entry in report.smt:
        cores = "; ".join("{" + ", ".join(c) + "}" for c in entry["contradictions"])
        print(f"smt {entry['area']} under {entry['rule_set']}: {entry['verdict']}"
              + (f": {cores}" if cores else "") + (f" ({entry['reason']})" if entry.get("reason") else ""), file=out)
    if report.smt_note:
        print(f"smt: {report.smt_note}", file=out)


def markdown(report: DiffReport) -> str:
    """The report as Markdown, for a committee's minutes."""
    lines = [f"# What changes from `{report.a.text}` to `{report.b.text}` ({report.game})", "",
             f"Verdict: {report.verdict}.", ""]
    if report.text_only and not report.not_executable:
        lines += [f"Changed in text only (not compared in play): {', '.join(report.text_only)}.", ""]
    if report.never_exercised:
        lines += [f"Changed but never exercised: {', '.join(report.never_exercised)}.", ""]
    for s in report.scenarios:
        lines += [f"## Scenario `{s.scenario}`", "", f"Explored {s.states:,} states: {s.bound_text()} "
                  f"(bounds: {s.limits_text()}).", ""]
        if not s.differs:
            lines += ["No difference in play found.", ""]
        for kind, story in report.narratives[s.scenario].items():
            lines += [f"### {kind.capitalize()}", "", "```text", *story, "```", ""]
    if report.not_executable:
        return "\n".join(lines) + "\n"
    lines += ["## Properties", ""]
    lines += [f"- `{p.property}` in `{p.scenario}`: broken under {p.broken_under} only" for p in report.properties] \
        or ["Every property has the same verdict under both rule sets."]
    lines += ["", "## Contradictions (z3)", ""]
    for entry in report.smt:
        cores = "; ".join(", ".join(c) for c in entry["contradictions"])
        lines.append(f"- {entry['area']} under {entry['rule_set']}: {entry['verdict']}" + (f" ({cores})" if cores else "")
                     + (f": {entry['reason']}" if entry["verdict"] == "not-encoded" else ""))
    if report.smt_note:
        lines.append(f"- {report.smt_note}")
    return "\n".join(lines) + "\n"
