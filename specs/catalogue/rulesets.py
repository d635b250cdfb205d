"""Rule sets: which clauses are in force for a choice of versions and decisions.

A rule set is catalogue data, not an encoding, so both the executable model
and the SMT encoding may read it. The only place where a decision changes
*which clauses* are in force (rather than how one clause reads) is the heal
redline reconstruction: choosing another reading of a redline phrase moves
clauses between the two heal wordings. :data:`MEMBERSHIP_CHANGES` lists those
moves, and :func:`clauses_in_force` applies them.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Mapping

from cardrules.specs.catalogue.broken import BROKEN_VARIANTS
from cardrules.specs.catalogue import Catalogue, default_catalogue

# (decision id, option id) -> {clause id: (versions added, versions removed)}
MEMBERSHIP_CHANGES: Mapping[tuple[str, str], Mapping[str, tuple[frozenset[str], frozenset[str]]]] = {
    # The heal window was unchanged text: the previous wording had it too (by
    # default it was inserted by the revision). Battle Resolution's heal
    # (RED-HEAL-AT-RESOLUTION) is in both wordings unless redline-resolution-sentence says otherwise.
    ("redline-window", "unchanged"): {
        cid: (frozenset({"previous"}), frozenset())
        for cid in ("RED-HEAL-WINDOW", "RED-HEAL-WINDOW-SUSPENDS", "RED-HEAL-WINDOW-MEANS")
    },
    # Both destination sentences were old text: the previous wording had both.
    ("redline-destination", "both-old"): {
        "RED-HEAL-TO-PERMANENT-CONTROLLER": (frozenset({"previous"}), frozenset()),
    },
    # Both discard-pile sentences were old text.
    ("redline-discard-pile", "both-old"): {
        "RED-HEAL-NOT-IN-DISCARD-PILE": (frozenset({"previous"}), frozenset()),
    },
    # The healed discard never completing was old text too.
    ("redline-not-completed", "half-old"): {
        "RED-HEAL-DISCARD-NOT-COMPLETED": (frozenset({"previous"}), frozenset()),
    },
    # The sentence on healing Battle Resolution's discards was inserted by the revision: the previous
    # wording did not have it.
    ("redline-resolution-sentence", "inserted"): {
        "RED-HEAL-AT-RESOLUTION": (frozenset(), frozenset({"previous"})),
    },
    # The sentence on healing enhancements in the preparation and discard phases was inserted by the
    # revision: the previous wording only says they may be played in or outside battle.
    ("redline-enh-phases", "inserted"): {
        "RED-HEAL-ENH-PHASES": (frozenset(), frozenset({"previous"})),
    },
}


class RuleSetError(ValueError):
    """An unknown area, version, decision or option was asked for."""


_READS: list[set[str]] = []


@contextmanager
def decisions_read() -> Iterator[set[str]]:
    """Collect the decision IDs an encoding asks a rule set for while the block runs.

    An encoding that never asks for a decision does not read it, so an option
    of that decision given by a user would be silently ignored; callers refuse
    such options by name instead.
    """
    _READS.append(set())
    try:
        yield _READS[-1]
    finally:
        _READS.pop()


def unread_options(rule_set: "RuleSet", read: set[str]) -> list[str]:
    """``decision=option`` items of ``rule_set`` that the encoding did not read and that differ from the default.

    An option that only moves clauses between wordings counts as read when
    :data:`MEMBERSHIP_CHANGES` has it.
    """
    catalogue = default_catalogue()
    out = []
    for decision_id, option_id in sorted(rule_set.decisions.items()):
        found = catalogue.decisions.get(decision_id)
        if found is None or found[1].chosen == option_id:
            continue
        if (decision_id, option_id) in MEMBERSHIP_CHANGES:
            continue
        if decision_id in read and not any(d == decision_id for d, _ in MEMBERSHIP_CHANGES):
            continue
        out.append(f"{decision_id}={option_id}")
    return out


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A choice of one version per area (or several, to read them as one text) and decision options."""

    versions: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Area id -> the versions read together (default: the area's default version)."""
    decisions: Mapping[str, str] = field(default_factory=dict)
    """Decision id -> option id (default: the option chosen in the catalogue)."""
    broken: frozenset[str] = frozenset()
    """Broken variants in force (:mod:`cardrules.specs.catalogue.broken`; a scenario's mutants only)."""

    def is_broken(self, name: str) -> bool:
        """Whether the broken variant ``name`` is in force (:class:`RuleSetError` for an unknown one)."""
        if name not in BROKEN_VARIANTS:
            raise RuleSetError(f"unknown broken variant {name!r}")
        return name in self.broken

    def option(self, decision_id: str, catalogue: Catalogue | None = None) -> str:
        """The option in force for a decision (noted by :func:`decisions_read` while one is open)."""
        if _READS:
            _READS[-1].add(decision_id)
        catalogue = catalogue or default_catalogue()
        if decision_id in self.decisions:
            return self.decisions[decision_id]
        try:
            return catalogue.decisions[decision_id][1].chosen
        except KeyError:
            raise RuleSetError(f"unknown decision {decision_id!r}") from None

    def validate(self, catalogue: Catalogue | None = None) -> None:
        catalogue = catalogue or default_catalogue()
        areas = {a.id: a for a in catalogue.areas}
        for area_id, versions in self.versions.items():
            if area_id not in areas:
                raise RuleSetError(f"unknown area {area_id!r}; known: {', '.join(sorted(areas))}")
            known = {v.id for v in areas[area_id].versions}
            for version in versions:
                if version not in known:
                    raise RuleSetError(f"area {area_id!r} has no version {version!r}; known: {', '.join(sorted(known))}")
        decisions = catalogue.decisions
        for decision_id, option_id in self.decisions.items():
            if decision_id not in decisions:
                raise RuleSetError(f"unknown decision {decision_id!r}")
            options = [o.id for o in decisions[decision_id][1].options]
            if option_id not in options:
                raise RuleSetError(f"decision {decision_id!r} has no option {option_id!r}; options: {', '.join(options)}"
                                   f"{decisions[decision_id][1].rejected_hint(option_id)}")
        for name in sorted(self.broken):
            if name not in BROKEN_VARIANTS:
                raise RuleSetError(f"unknown broken variant {name!r}")


_IN_FORCE: dict[tuple[object, ...], tuple[Catalogue, tuple[str, ...]]] = {}
"""(area, catalogue's id, the rule set's versions, decisions and broken variants) -> (the catalogue, kept so that
its id is not reused; the clauses in force): :func:`clauses_in_force` worked out once per question."""
_IN_FORCE_LIMIT = 4096


def clauses_in_force(area_id: str, rule_set: RuleSet, catalogue: Catalogue | None = None) -> tuple[str, ...]:
    """IDs of the area's clauses in force under ``rule_set``, in catalogue order. Remembered per question,
    except while :func:`decisions_read` is collecting (it is to see every decision asked)."""
    catalogue = catalogue or default_catalogue()
    if _READS:
        return _clauses_in_force(area_id, rule_set, catalogue)
    try:
        key = (area_id, id(catalogue), frozenset((a, frozenset(v)) for a, v in rule_set.versions.items()),
               frozenset(rule_set.decisions.items()), frozenset(rule_set.broken))
        found = _IN_FORCE.get(key)
    except TypeError:  # a value that cannot be a key: validated and answered as ever, not remembered
        return _clauses_in_force(area_id, rule_set, catalogue)
    if found is None:
        if len(_IN_FORCE) >= _IN_FORCE_LIMIT:
            _IN_FORCE.clear()
        found = _IN_FORCE[key] = (catalogue, _clauses_in_force(area_id, rule_set, catalogue))
    return found[1]


def _clauses_in_force(area_id: str, rule_set: RuleSet, catalogue: Catalogue) -> tuple[str, ...]:
    rule_set.validate(catalogue)
    area = catalogue.area(area_id)
    wanted = rule_set.versions.get(area_id, frozenset({area.default_version}))
    changes: dict[str, tuple[set[str], set[str]]] = {}
    for (decision_id, option_id), moves in MEMBERSHIP_CHANGES.items():
        if decision_id in catalogue.decisions and rule_set.option(decision_id, catalogue) == option_id:
            for clause_id, (added, removed) in moves.items():
                entry = changes.setdefault(clause_id, (set(), set()))
                entry[0].update(added)
                entry[1].update(removed)
    result = []
    for clause in catalogue.select(area=area_id):
        versions = set(clause.versions)
        if clause.id in changes:
            extra, dropped = changes[clause.id]
            versions = (versions | extra) - dropped
        if versions & wanted:
            result.append(clause.id)
    return tuple(result)
