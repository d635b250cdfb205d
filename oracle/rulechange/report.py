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
    touched: list[str] = field(default_factory=list)
    """The clauses the change touches (a decision's clause, clauses in force under one wording only)."""

    @property
    def differs(self) -> bool:
        return any(s.differs for s in self.scenarios)

    @property
    def undecided(self) -> bool:
        return any(entry["verdict"] == "unknown" for entry in self.smt)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "a": self.a.text,
            "b": self.b.text,
            "differs": self.differs,
            "clauses_touched": self.touched,
            "scenarios": [
                {
                    "scenario": s.scenario, "states": s.states, "transitions": s.transitions, "complete": s.complete,
                    "bounds": s.bound_text(), "seconds": round(s.seconds, 3),
                    "states_per_second": round(s.states_per_second),
                    "differences": {k: {str(d): n for d, n in sorted(s.by_depth[k].items())} for k in KINDS
                                    if s.by_depth[k]},
                    "traces": self.traces.get(s.scenario, []),
                }
                for s in self.scenarios
            ],
            "properties": [vars(p) for p in self.properties],
            "smt": self.smt,
            "speed": {
                "product_states": sum(s.states for s in self.scenarios),
                "product_seconds": round(sum(s.seconds for s in self.scenarios), 3),
                "separate_states": self.separate_states,
                "separate_seconds": round(self.separate_seconds, 3),
            },
        }






def _property_changes(report: DiffReport, scenario: Scenario, bounds: Bounds) -> None:
    from cardrules.properties.games import make_game, version_map
    from cardrules.properties.games import properties_for
    from cardrules.properties.engines.explore import explore
    from cardrules.properties.engines.explore import narrative as explore_narrative

    broken: dict[str, dict[str, list[str]]] = {}
    for label, named in (("A", report.a), ("B", report.b)):
        spec = named.spec
        game = make_game(report.game, spec, named.hooks)
        result = explore(game, [game.state_from_json(scenario.state)],
                         properties_for(report.game, version_map(scenario, spec)), bounds, progress=False)
        report.separate_seconds += result.stats.seconds
        report.separate_states += result.stats.states
        broken[label] = {p: explore_narrative(result, p, game).splitlines() for p in result.violations}
    for label, other in (("B", "A"), ("A", "B")):
        for prop in sorted(set(broken[label]) - set(broken[other])):
            report.properties.append(PropertyChange(prop, scenario.name, label, broken[label][prop]))


def _with_proposal(proposal: Any, area: str, situation: Any, clause_ids: list[str]) -> tuple[Any, list[str]]:
    """The situation and clause set of an area under a proposal: withdrawn clauses out, its z3 clauses in."""
    from dataclasses import replace

    ids = [c for c in clause_ids if c not in proposal.withdrawn]
    if proposal.smt_area == area and proposal.smt_constraints is not None:
        extra = dict(proposal.smt_constraints(situation))
        situation = replace(situation, constraints={**situation.constraints, **extra})
        ids += [c for c in extra if c not in ids]
    return situation, ids


def _smt_view(report: DiffReport) -> None:
    """B's clauses (and A's, for contrast) checked for contradictions, per area with a z3 situation."""
    from cardrules.specs.smt.situations import SITUATIONS as builders
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force, decisions_read, unread_options
    from cardrules.oracle.rulechange.guard import ProposalCodeError
    from cardrules.specs.smt.consistency import Verdict, find_contradictions

    for area in default_catalogue().areas:
        if area.game != report.game or area.id not in builders:
            continue
        for label, named in (("A", report.a), ("B", report.b)):
            spec = named.spec
            versions = {area.id: frozenset(spec.versions.get(area.id, (area.default_version,)))}
            decisions = {d: o for d, o in spec.decisions.items()
                         if default_catalogue().decisions[d][0].game == report.game}
            rule_set = RuleSet(versions=versions, decisions=decisions)
            try:
                with decisions_read() as read:
                    situation = builders[area.id](rule_set)
                    clause_ids = list(clauses_in_force(area.id, rule_set))
                unread = [item for item in unread_options(rule_set, read)
                          if default_catalogue().decisions[item.split("=")[0]][0].area == area.id]
                if unread:
                    report.smt.append({"area": area.id, "rule_set": label, "verdict": "not-encoded",
                                       "reason": f"the z3 encoding does not implement {', '.join(unread)}",
                                       "contradictions": []})
                    continue
                if named.proposal is not None:
                    situation, clause_ids = _with_proposal(named.proposal, area.id, situation, clause_ids)
                found = find_contradictions(situation, clause_ids)
            except ProposalCodeError:
                raise  # the proposal's z3 code failed: bad input, never "not encoded"
            except Exception as error:  # an option the encoding does not read: said, not hidden
                report.smt.append({"area": area.id, "rule_set": label, "verdict": "not-encoded",
                                   "reason": f"{type(error).__name__}: {error}", "contradictions": []})
                continue
            report.smt.append({
                "area": area.id, "rule_set": label, "verdict": found.verdict.value,
                "reason": found.reason if found.verdict is Verdict.UNKNOWN else "",
                "contradictions": [list(c.clause_ids) for c in found.contradictions],
            })


def _point_clauses(game: str, name: str) -> tuple[str, ...]:
    from cardrules.model.extension import EXTENSION_POINTS

    point = EXTENSION_POINTS.get((game, name))
    return point.clause_ids if point else ()


def run_diff(game: str, a: NamedRuleSet, b: NamedRuleSet, scenarios: list[Scenario],
             max_states: int | None = None, with_smt: bool = True, quiet: bool = True) -> DiffReport:
    """Diff A and B on every scenario of ``game``: behaviour, properties, and (optionally) SMT."""
    from cardrules.properties.games import make_game

    report = DiffReport(game, a, b)
    game_a, game_b = make_game(game, a.spec, a.hooks), make_game(game, b.spec, b.hooks)
    touched = changed_clauses(game, a.spec, b.spec) | {
        c for named in (a, b) if named.proposal is not None for c in named.proposal.touched}
    touched |= {c for named in (a, b) for name, _ in named.hooks for c in _point_clauses(game, name)}
    report.touched = sorted(touched)
    from cardrules.oracle.progress import RunProgress

    with RunProgress("diff", len(scenarios), quiet=quiet) as progress:
        for scenario in scenarios:
            with progress.phase(scenario.name) as phase:
                _diff_one(report, scenario, game_a, game_b, touched, max_states)
                phase.result = _phase_text(report.scenarios[-1])
    if with_smt:
        _smt_view(report)
    return report


def _phase_text(result: ScenarioDiff) -> str:
    kinds = ", ".join(k for k in KINDS if k in result.examples) or "no difference"
    return f"{result.states:,} states, {kinds}"


def _diff_one(report: DiffReport, scenario: Scenario, game_a: Any, game_b: Any, touched: frozenset[str],
              max_states: int | None) -> None:
    """Lockstep exploration and separate property checks of one scenario, added to ``report``."""
    game, a, b = report.game, report.a, report.b
    bounds = Bounds(max_depth=scenario.max_depth, max_turns=scenario.max_turns,
                    max_states=max_states if max_states is not None else scenario.max_states)
    result = diff_scenario(scenario, game_a, game_b, bounds, touched)
    report.scenarios.append(result)
    report.traces[scenario.name] = [example_to_json(e, game, scenario, a.spec, b.spec)
                                    for e in result.examples.values()]
    for trace in report.traces[scenario.name]:
        for side, named in (("a", a), ("b", b)):
            if named.proposal is not None:
                trace[f"proposal_{side}"] = str(named.proposal.path.resolve())
    report.narratives[scenario.name] = {k: narrative(e, game_a) for k, e in result.examples.items()}
    _property_changes(report, scenario, bounds)


def print_report(report: DiffReport, out: TextIO) -> None:
    print(f"cardrules diff ({report.game}): A = {report.a.text}   B = {report.b.text}", file=out)
    print(f"clauses the change touches: {', '.join(report.touched) or 'none'}", file=out)
    for s in report.scenarios:
        kinds = ", ".join(f"{k} in {sum(s.by_depth[k].values())} state(s)" for k in KINDS if s.by_depth[k])
        print(f"\n{s.scenario}: {kinds or 'no difference found'} ({s.bound_text()}; "
              f"{s.states_per_second:,.0f} states/s)", file=out)
        for kind, lines in report.narratives[s.scenario].items():
            depths = ", ".join(f"depth {d}: {n}" for d, n in sorted(s.by_depth[kind].items()))
            print(f"  {kind} (states per depth: {depths}); shortest scenario:", file=out)
            for line in lines:
                print(f"    {line}", file=out)
    if report.properties:
        print("\nproperties:", file=out)
        for p in report.properties:
            verb = "newly broken under B" if p.broken_under == "B" else "broken under A, holds under B"
            print(f"  {p.property} / {p.scenario}: {verb}", file=out)
    else:
        print("\nproperties: every property has the same verdict under A and B", file=out)
    for entry in report.smt:
        cores = "; ".join("{" + ", ".join(c) + "}" for c in entry["contradictions"])
        print(f"smt {entry['area']} under {entry['rule_set']}: {entry['verdict']}"
              + (f": {cores}" if cores else "") + (f" ({entry['reason']})" if entry.get("reason") else ""), file=out)
    total = sum(s.states for s in report.scenarios)
    seconds = sum(s.seconds for s in report.scenarios)
    print(f"\nlockstep exploration: {total:,} states in {seconds:.2f}s; A and B explored apart (with every "
          f"property): {report.separate_states:,} states in {report.separate_seconds:.2f}s", file=out)


def markdown(report: DiffReport) -> str:
    """The report as Markdown, for a committee's minutes."""
    lines = [f"# What changes from `{report.a.text}` to `{report.b.text}` ({report.game})", ""]
    for s in report.scenarios:
        lines += [f"## Scenario `{s.scenario}`", "", f"Explored {s.states:,} states: {s.bound_text()}.", ""]
        if not s.differs:
            lines += ["No difference in play found.", ""]
        for kind, story in report.narratives[s.scenario].items():
            lines += [f"### {kind.capitalize()}", "", "```text", *story, "```", ""]
    lines += ["## Properties", ""]
    lines += [f"- `{p.property}` in `{p.scenario}`: broken under {p.broken_under} only" for p in report.properties] \
        or ["Every property has the same verdict under both rule sets."]
    lines += ["", "## Contradictions (z3)", ""]
    for entry in report.smt:
        cores = "; ".join(", ".join(c) for c in entry["contradictions"])
        lines.append(f"- {entry['area']} under {entry['rule_set']}: {entry['verdict']}" + (f" ({cores})" if cores else ""))
    return "\n".join(lines) + "\n"
