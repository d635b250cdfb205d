"""The z3 half of ``cardrules diff``: do B's clauses (and A's, for contrast) contradict each other, per area.

An area is checked when it has a consistency situation
(:data:`cardrules.specs.smt.situations.SITUATIONS`). A verdict is never
computed with a clause's old meaning: when a proposal changes or adds a
clause that neither its z3 module constrains nor a decision or version the
encoding reads stands behind, the area is ``not-encoded`` under that rule set,
naming the clauses; so is an area a proposal changes that has no z3 situation
at all. When no area was checked, the report says "no z3 area for this change".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardrules.properties.scenarios.rulesets import NamedRuleSet

NO_AREA = "no z3 area for this change"


def _with_proposal(proposal: Any, area: str, situation: Any, clause_ids: list[str]) -> tuple[Any, list[str]]:
    """The situation and clause set of an area under a proposal: withdrawn clauses out, its z3 clauses in."""
    ids = [c for c in clause_ids if c not in proposal.withdrawn]
    if proposal.smt_area == area and proposal.smt_constraints is not None:
        extra = dict(proposal.smt_constraints(situation))
        situation = replace(situation, constraints={**situation.constraints, **extra})
        ids += [c for c in extra if c not in ids]
    return situation, ids


def area_of(clause_id: str, game: str) -> str | None:
    """The area of a catalogue clause; for an added clause, the area of the catalogue clauses sharing its
    first two ID segments (``RED-SB-...``) when they are all of one area; else None."""
    from cardrules.specs.catalogue import default_catalogue

    catalogue = default_catalogue()
    if clause_id in catalogue.ids:
        return str(catalogue.clause(clause_id).area)
    prefix = "-".join(clause_id.split("-")[:2]) + "-"
    areas = {c.area for c in catalogue.clauses if c.game == game and c.id.startswith(prefix)}
    return str(areas.pop()) if len(areas) == 1 else None


def unencoded_changes(named: NamedRuleSet, game: str) -> dict[str | None, list[str]]:
    """Area -> the clauses a proposal changes or adds whose new meaning no z3 constraint encodes (its z3
    module does not constrain them, and no decision or version it changes stands behind them)."""
    from cardrules.oracle.rulechange.lockstep import changed_clauses

    proposal = named.proposal
    if proposal is None:
        return {}
    by_decision = changed_clauses(game, proposal.base, proposal.spec)
    out: dict[str | None, list[str]] = {}
    for clause_id in proposal.rewritten:
        if clause_id in proposal.smt_clauses or clause_id in by_decision:
            continue
        out.setdefault(area_of(clause_id, game), []).append(clause_id)
    return out


def _not_encoded(area: str, label: str, reason: str) -> dict[str, Any]:
    return {"area": area, "rule_set": label, "verdict": "not-encoded", "reason": reason, "contradictions": []}


class NotEncoded(Exception):
    """An area's z3 encoding cannot stand for a rule set (the message says why)."""


def area_situation(game: str, area: Any, named: NamedRuleSet) -> tuple[Any, list[str]]:
    """An area's consistency situation and its clauses in force under ``named`` (a proposal's z3 clauses in,
    its withdrawn clauses out); :class:`NotEncoded` when the encoding does not read an option the rule set
    chooses, or cannot be built. A failure of the proposal's z3 code is bad input, raised as it is."""
    from cardrules.oracle.rulechange.guard import ProposalCodeError
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force, decisions_read, unread_options
    from cardrules.specs.smt.situations import ALSO_ENCODED
    from cardrules.specs.smt.situations import SITUATIONS as builders

    catalogue = default_catalogue()
    spec = named.spec
    versions = {area.id: frozenset(spec.versions.get(area.id, (area.default_version,)))}
    decisions = {d: o for d, o in spec.decisions.items() if catalogue.decisions[d][0].game == game}
    rule_set = RuleSet(versions=versions, decisions=decisions)
    try:
        with decisions_read() as read:
            situation = builders[area.id](rule_set)
            clause_ids = [*clauses_in_force(area.id, rule_set), *ALSO_ENCODED.get(area.id, ())]
        unread = [item for item in unread_options(rule_set, read)
                  if catalogue.decisions[item.split("=")[0]][0].area == area.id]
        if unread:
            raise NotEncoded(f"the z3 encoding does not implement {', '.join(unread)}")
        if named.proposal is not None:
            situation, clause_ids = _with_proposal(named.proposal, area.id, situation, clause_ids)
    except (ProposalCodeError, NotEncoded):
        raise  # the proposal's z3 code failed: bad input, never "not encoded"
    except Exception as error:  # an option the encoding does not read: said, not hidden
        raise NotEncoded(f"{type(error).__name__}: {error}") from None
    return situation, clause_ids


def _check_area(game: str, area: Any, label: str, named: NamedRuleSet) -> dict[str, Any]:
    """One area's z3 verdict under one rule set (or why it is not encoded)."""
    from cardrules.specs.smt.consistency import Verdict, find_contradictions

    try:
        situation, clause_ids = area_situation(game, area, named)
    except NotEncoded as reason:
        return _not_encoded(area.id, label, str(reason))
    try:
        found = find_contradictions(situation, clause_ids)
    except Exception as error:  # an option the encoding does not read: said, not hidden
        return _not_encoded(area.id, label, f"{type(error).__name__}: {error}")
    return {
        "area": area.id, "rule_set": label, "verdict": found.verdict.value,
        "reason": found.reason if found.verdict is Verdict.UNKNOWN else "",
        "contradictions": [list(c.clause_ids) for c in found.contradictions],
    }


def unencoded_reason(game: str, area: Any, named: NamedRuleSet, unencoded: dict[str | None, list[str]]) -> str | None:
    """Why an area cannot be checked under a proposal's rule set at all (its changed clauses have no z3
    constraint, or the area has no z3 situation), else None."""
    from cardrules.specs.smt.situations import SITUATIONS as builders

    changed = unencoded.get(area.id)
    rewritten = [c for c in (named.proposal.rewritten if named.proposal else ()) if area_of(c, game) == area.id]
    if changed and area.id in builders:
        return (f"the proposal changes {', '.join(changed)}, which no z3 constraint of it encodes: a verdict "
                "would use the old meaning")
    if rewritten and area.id not in builders:
        return f"area {area.id} has no z3 encoding; the proposal changes {', '.join(rewritten)}"
    return None


def smt_view(game: str, a: NamedRuleSet, b: NamedRuleSet) -> list[dict[str, Any]]:
    """Every area's z3 entries under A and B (see the module docstring)."""
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.smt.situations import SITUATIONS as builders

    entries: list[dict[str, Any]] = []
    unencoded = {label: unencoded_changes(named, game) for label, named in (("A", a), ("B", b))}
    for area in default_catalogue().areas:
        if area.game != game:
            continue
        for label, named in (("A", a), ("B", b)):
            reason = unencoded_reason(game, area, named, unencoded[label])
            if reason is not None:
                entries.append(_not_encoded(area.id, label, reason))
            elif area.id in builders:
                entries.append(_check_area(game, area, label, named))
    for label in ("A", "B"):
        if unencoded[label].get(None):
            entries.append(_not_encoded("(unknown area)", label, "no z3 constraint encodes the added clauses "
                                        + ", ".join(unencoded[label][None])))
    return entries


def checked_any(game: str, entries: list[dict[str, Any]]) -> bool:
    """Whether some entry is about an area with a z3 situation (else the report says :data:`NO_AREA`)."""
    from cardrules.specs.smt.situations import SITUATIONS as builders

    return any(entry["area"] in builders for entry in entries)
