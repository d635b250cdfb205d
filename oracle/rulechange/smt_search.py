"""The z3 search of ``cardrules diff``: a situation on which two rule sets disagree, confirmed on the model.

For every area with a z3 consistency situation, z3 is asked directly for a situation on which the
clauses in force under A and under B disagree on something a player sees
(:func:`cardrules.specs.smt.difference.find_difference`: one allows an observed outcome the other
forbids). A proposal's z3 clauses replace or extend the area's under its rule set
(:func:`.smt_view.area_situation`); a clause it changes with no z3 constraint makes the area
``not-encoded`` under it, never searched with the clause's old meaning.

The situation z3 gives is decoded into a model position and an action
(:mod:`cardrules.oracle.crosscheck.redemption.situation_decode`; the search is narrowed to the
situations the decoder builds, and its limits are said), loaded by the model's own loader, and
played under A and under B. Verdicts (:class:`SearchResult`):

* ``difference``: z3 found one and the model confirms it (the action is legal under one rule set
  only, or what the players see after it differs);
* ``encoding-disagreement``: z3 found one the model does not show: the two encodings disagree;
* ``no-difference``: z3 answered unsat: no situation of the encoded area tells A and B apart
  (the scope says which situations, and what the area's situation does not model);
* ``unknown``: z3 ran out of its ``rlimit``, or found a difference the decoder cannot build;
* ``not-encoded``: the reason is given.

FFTCG has no consistency situation; its encoding is a transition system over the cards of a position.
From the start of each embedded FFTCG scenario, z3 looks for the shortest path of A-steps (at most
:data:`FFTCG_DEPTH`) to a step that is in one rule set's transition relation and not in the other's
(:mod:`cardrules.specs.smt.fftcg.difference`); the state and action it gives are decoded by the
cross-check's own decoder and played on the model the same way. A change with no z3 constraint
behind it leaves every FFTCG entry ``not-encoded``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable

from cardrules.properties.scenarios.rulesets import NamedRuleSet
from cardrules.specs.smt.budget import Budget, current

VERDICTS = ("difference", "encoding-disagreement", "no-difference", "unknown", "not-encoded")
FFTCG_DEPTH = 4
"""FFTCG: the A-steps from each embedded scenario's start searched before a differing step."""


@dataclass(frozen=True)
class SearchResult:
    """One area's answer."""

    area: str
    verdict: str
    reason: str = ""
    """Why the verdict is ``not-encoded``, ``unknown`` or ``encoding-disagreement``; what ``no-difference`` covers."""
    limits: str = ""
    """What the searched situations leave out (the area's encoding, and the decoder's shapes)."""
    situation: dict[str, Any] = field(default_factory=dict)
    """The situation z3 found, in words."""
    z3_outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Rule set label -> an outcome its clauses allow there (the observed outputs)."""
    position: dict[str, Any] | None = None
    """The decoded start position (the model's JSON form)."""
    action: str = ""
    """The actions played there: every legal action whose text starts with this."""
    model_outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Rule set label -> ``{"actions": the legal ones, "after": action -> the observed fields after it that
    differ from the other rule set's}`` on the model."""

    def to_json(self) -> dict[str, Any]:
        return {"area": self.area, "verdict": self.verdict, "reason": self.reason, "limits": self.limits,
                "situation": self.situation, "z3_outcomes": self.z3_outcomes, "position": self.position,
                "action": self.action, "model_outcomes": self.model_outcomes}


def _jsonable(value: Any) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted((_jsonable(v) for v in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def _replay(game: str, a: NamedRuleSet, b: NamedRuleSet, state_json: dict[str, Any],
            prefix: str) -> dict[str, dict[str, Any]]:
    """Every action starting with ``prefix`` on the decoded position under A and B: which are legal, and for
    each, the observed fields after it that differ from the other rule set's (after the same action, or the
    position itself where the other does not allow it)."""
    from cardrules.model.fftcg.observable import observe as fftcg_observe
    from cardrules.model.redemption.observable import observe as redemption_observe
    from cardrules.properties.games import make_game

    observe: Any = fftcg_observe if game == "fftcg" else redemption_observe
    start: dict[str, dict[str, Hashable]] = {}
    after: dict[str, dict[str, dict[str, Hashable]]] = {}
    for label, named in (("A", a), ("B", b)):
        engine = make_game(game, named.spec, named.hooks)
        state = engine.state_from_json(state_json)
        start[label] = dict(observe(state))
        after[label] = {engine.action_text(x): dict(observe(engine.step(state, x)))
                        for x in engine.legal_actions(state) if engine.action_text(x).startswith(prefix)}
    out: dict[str, dict[str, Any]] = {}
    for label, other in (("A", "B"), ("B", "A")):
        shown: dict[str, dict[str, Any]] = {}
        for text, seen in sorted(after[label].items()):
            there = after[other].get(text, start[other])
            shown[text] = {k: _jsonable(seen.get(k)) for k in sorted({*seen, *there}) if seen.get(k) != there.get(k)}
        out[label] = {"actions": sorted(after[label]), "after": shown}
    return out


def _confirmed(outcomes: dict[str, dict[str, Any]]) -> bool:
    a, b = outcomes["A"], outcomes["B"]
    return bool(a["actions"] != b["actions"] or any(a["after"].values()) or any(b["after"].values()))


def _search_area(game: str, area: Any, a: NamedRuleSet, b: NamedRuleSet, budget: Budget) -> SearchResult:
    """One area: the search, the decode and the replay (see the module docstring)."""
    from cardrules.oracle.crosscheck.redemption.situation_decode import DECODERS
    from cardrules.oracle.rulechange.smt_view import NotEncoded, area_situation
    from cardrules.specs.smt.difference import ENCODING_LIMITS, Outcome, Side, find_difference

    try:
        side_a, side_b = (Side(label, *_situation(game, area, named, area_situation))
                          for label, named in (("A", a), ("B", b)))
    except NotEncoded as problem:
        return SearchResult(area.id, "not-encoded", str(problem))
    decoder = DECODERS.get(area.id)
    limits = ENCODING_LIMITS.get(area.id, "")
    narrowed = limits + (f"; searched only where the decoder builds a position: {decoder.limits}" if decoder else "")
    # the disjoint question (two copies of the outputs under the quantifier) only where the decoder narrows it
    found = find_difference(area.id, side_a, side_b, restrict=decoder.restrict if decoder else None, budget=budget,
                            disjoint_first=decoder is not None)
    if found.outcome is Outcome.UNKNOWN:
        return SearchResult(area.id, "unknown", f"z3: {found.reason}", narrowed)
    if found.outcome is Outcome.NONE and found.kind == "same-meaning":
        return SearchResult(area.id, "no-difference", "no difference in any state of the encoded area: the clauses "
                            "in force under A and B allow the same outcomes in every situation", limits)
    if found.outcome is Outcome.NONE and found.kind == "unobserved-only":
        return SearchResult(area.id, "no-difference", "no difference in any state of the encoded area that a player "
                            "sees: the clauses differ only in what an engine keeps track of", limits)
    if found.outcome is Outcome.NONE:
        if decoder is not None:
            wider = find_difference(area.id, side_a, side_b, budget=budget, disjoint_first=False)
            if wider.outcome is not Outcome.NONE:
                why = (f"z3: {wider.reason}" if wider.outcome is Outcome.UNKNOWN else "z3 found a difference in a "
                       "situation the decoder does not build, so the model could not be asked")
                return SearchResult(area.id, "unknown", why, narrowed, dict(wider.words), _seen(wider.seen))
        return SearchResult(area.id, "no-difference", "no difference in any state of the encoded area that a player "
                            "sees: where both rule sets allow some outcome, they allow the same ones (where one "
                            "allows none, its clauses contradict each other: the consistency check says so)",
                            limits)
    if decoder is None:
        return SearchResult(area.id, "unknown", "z3 found a difference, but no decoder turns this area's situation "
                            "into a model position", limits, dict(found.words), _seen(found.seen))
    from cardrules.model.errors import ScenarioError

    state_json, action = decoder.decode(found.inputs)
    try:
        outcomes = _replay(game, a, b, state_json, action)
    except ScenarioError as error:
        return SearchResult(area.id, "unknown", f"z3 found a difference the model cannot be asked about: {error}",
                            narrowed, dict(found.words), _seen(found.seen), state_json, action)
    verdict = "difference" if _confirmed(outcomes) else "encoding-disagreement"
    reason = "" if verdict == "difference" else ("z3 says the rule sets differ here; the model allows the same "
                                                  "actions, with the same effect, under both: the two encodings "
                                                  "disagree")
    return SearchResult(area.id, verdict, reason, narrowed, dict(found.words), _seen(found.seen), state_json, action,
                        outcomes)


def _situation(game: str, area: Any, named: NamedRuleSet, build: Any) -> tuple[Any, tuple[str, ...]]:
    situation, clause_ids = build(game, area, named)
    return situation, tuple(clause_ids)


def _seen(seen: Any) -> dict[str, dict[str, Any]]:
    return {label: dict(values) for label, values in seen.items()}


def search_differences(game: str, a: NamedRuleSet, b: NamedRuleSet, *,
                       budget: Budget | None = None) -> list[SearchResult]:
    """Every area's answer (see the module docstring), in catalogue order; ``budget``: the one in force by default."""
    from cardrules.oracle.rulechange.smt_view import unencoded_changes, unencoded_reason
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.smt.situations import SITUATIONS as builders

    budget = budget or current()
    unencoded = {label: unencoded_changes(named, game) for label, named in (("A", a), ("B", b))}
    results: list[SearchResult] = []
    for area in default_catalogue().areas:
        if area.game != game:
            continue
        reasons = [f"{label}: {why}" for label, named in (("A", a), ("B", b))
                   if (why := unencoded_reason(game, area, named, unencoded[label])) is not None]
        if reasons:
            results.append(SearchResult(area.id, "not-encoded", "; ".join(reasons)))
        elif area.id in builders:
            results.append(_search_area(game, area, a, b, budget))
    for label in ("A", "B"):
        if unencoded[label].get(None):
            results.append(SearchResult("(unknown area)", "not-encoded", f"{label}: no z3 constraint encodes the "
                                        "added clauses " + ", ".join(unencoded[label][None])))
    if game == "fftcg":
        changed = [c for label in ("A", "B") for cs in unencoded[label].values() for c in cs]
        results += _fftcg_transitions(a, b, budget, changed)
    return results


def _fftcg_transitions(a: NamedRuleSet, b: NamedRuleSet, budget: Budget, changed: list[str]) -> list[SearchResult]:
    """FFTCG: from each embedded scenario's start, the shortest path of A-steps to a step the two variants of
    the transition system disagree on (:func:`cardrules.specs.smt.fftcg.difference.first_step_difference`),
    decoded and played on the model under A and B."""
    from cardrules.model.errors import ScenarioError
    from cardrules.model.games import game_model
    from cardrules.oracle.crosscheck.fftcg import OutOfScope, decode_action, decode_state, transition_system
    from cardrules.oracle.rulechange.lockstep import scenarios_for
    from cardrules.properties.games import make_game
    from cardrules.properties.scenarios.loader import load_scenarios
    from cardrules.specs.smt.difference import Outcome
    from cardrules.specs.smt.fftcg.difference import first_step_difference

    out: list[SearchResult] = []
    model = game_model("fftcg")
    try:
        engines = {label: make_game("fftcg", named.spec, named.hooks) for label, named in (("A", a), ("B", b))}
    except ScenarioError as error:
        return [SearchResult("transitions", "not-encoded", f"the model cannot play it: {error}")]
    for scenario in scenarios_for("fftcg", list(load_scenarios())):
        area = f"transitions from {scenario.name}"
        if changed:
            out.append(SearchResult(area, "not-encoded", f"the change touches {', '.join(sorted(set(changed)))}, "
                                    "which no z3 constraint encodes: a verdict would use the old meaning"))
            continue
        start = engines["A"].state_from_json(scenario.state)
        try:
            systems = [transition_system(start, model.config_for(named.spec.versions, named.spec.decisions,
                                                                 named.spec.broken)) for named in (a, b)]
        except (OutOfScope, ValueError, LookupError) as problem:  # an option the encoding does not read
            out.append(SearchResult(area, "not-encoded", f"{type(problem).__name__}: {problem}"))
            continue
        limits = (f"the cards of scenario {scenario.name}, from its start position, at most {FFTCG_DEPTH} steps "
                  "under A before the differing step")
        if systems[0].variants == systems[1].variants:
            out.append(SearchResult(area, "no-difference", "no difference in any state of the encoded transition "
                                    "system: A and B select the same options of it", "the cards of scenario "
                                    f"{scenario.name}"))
            continue
        found = first_step_difference(systems[0], systems[1], depth=FFTCG_DEPTH, budget=budget)
        if found.outcome is Outcome.UNKNOWN:
            out.append(SearchResult(area, "unknown", f"z3: {found.reason}", limits))
        elif found.outcome is Outcome.NONE:
            out.append(SearchResult(area, "no-difference", "no step of the encoded transition system tells A and B "
                                    "apart within the bound", limits))
        else:
            ts, k, m = systems[0], found.depth, found.model
            names = {f.id: f.name for p in start.players for f in (*p.forwards, *p.break_zone)}
            state = decode_state(m, ts.layout, ts.cards, ts.at(k), names)
            action = engines["A"].action_text(decode_action(m, ts.layout, ts.action_at(k), ts.at(k)))
            position = engines["A"].state_to_json(state)
            outcomes = _replay("fftcg", a, b, position, action)
            verdict = "difference" if _confirmed(outcomes) else "encoding-disagreement"
            reason = "" if verdict == "difference" else ("z3 says the transition systems differ on this step; the "
                                                          "model plays it the same way under both")
            out.append(SearchResult(area, verdict, reason, limits, {"steps before": k}, {}, position, action,
                                    outcomes))
    return out


def _outcome_words(outcome: dict[str, Any]) -> list[str]:
    if not outcome["actions"]:
        return ["no such action is legal"]
    out = []
    for text in outcome["actions"]:
        shown = "; ".join(f"{k} {v}" for k, v in outcome["after"].get(text, {}).items())
        out.append(f"'{text}'" + (f", then {shown}" if shown else ", then as under the other rule set"))
    return out


def _lines(result: SearchResult) -> list[str]:
    """The detail lines of one result (shared by the text and markdown forms)."""
    out: list[str] = []
    if result.reason:
        out.append(result.reason)
    if result.situation:
        out.append("situation: " + ", ".join(f"{k}: {v}" for k, v in result.situation.items()))
    for label, seen in result.z3_outcomes.items():
        out.append(f"z3 under {label} allows: " + ", ".join(f"{k} = {v}" for k, v in seen.items()))
    if result.action:
        out.append(f"model, actions '{result.action}...' on the decoded position:")
        for label, outcome in result.model_outcomes.items():
            out += [f"  under {label}: {words}" for words in _outcome_words(outcome)]
    if result.limits:
        out.append(f"limits: {result.limits}")
    return out


def search_text(results: list[SearchResult]) -> list[str]:
    """The z3 search's lines of the text report."""
    out = ["z3 search for a difference:"]
    for result in results:
        out.append(f"  {result.area}: {result.verdict}")
        out += [f"    {line}" for line in _lines(result)]
    return out


def search_markdown(results: list[SearchResult]) -> list[str]:
    """The z3 search's section of the markdown report."""
    out = ["## z3 search for a difference", ""]
    for result in results:
        out.append(f"- **{result.area}**: {result.verdict}")
        out += [("    - " if line.startswith("  ") else "  - ") + line.strip() for line in _lines(result)]
    out.append("")
    return out
