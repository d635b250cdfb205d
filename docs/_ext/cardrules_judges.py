"""Text for judges in the rules views: search synonyms, notes without developer detail, and the
decisions that change a clause's answer.

Pure functions of the catalogue and ``docs/synonyms.toml``, so tests call them without a build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from cardrules.specs.catalogue import Catalogue, Clause, Decision
from cardrules.specs.catalogue.rulesets import MEMBERSHIP_CHANGES
from cardrules.specs.fileio import load_toml

SYNONYMS_FILE = Path(__file__).resolve().parents[1] / "synonyms.toml"
"""Groups of words judges use for the same thing; each rule lists the other words of every group it uses."""

_DEVELOPER = re.compile(
    r"\bmodel\b|\bz3\b|\bSMT\b|\bencoding\b|\bcross-?check|\.py\b|\b[A-Z][A-Za-z]+\.[a-z_]+\b|\bcard field\b"
    r"|\b(?:issue|ticket|PR)\s*#?\d+|\bReconstruction\b|\b(?:oracle|specs|properties|tests)\.",
)
"""A sentence of a catalogue note that speaks of the code or the catalogue's making, not of the game."""

_DECISION_REF = re.compile(r"\bdecision ([a-z0-9]+(?:-[a-z0-9]+)+)")
_CLAUSE_REF = re.compile(r"\b(?:RED|FF)-[A-Z0-9]+(?:-[A-Z0-9]+)+\b")


def load_synonyms(path: Path = SYNONYMS_FILE) -> tuple[tuple[str, ...], ...]:
    """The synonym groups of ``path``: ``[[group]] words = [...]``, each of two or more words."""
    data = load_toml(path)
    groups = data.get("group")
    if not isinstance(groups, list):
        raise ValueError(f"{path.name}: expected [[group]] tables")
    out = []
    for index, group in enumerate(groups, 1):
        words = group.get("words") if isinstance(group, dict) else None
        if not isinstance(words, list) or len(words) < 2 or not all(isinstance(w, str) and w.strip() for w in words):
            raise ValueError(f"{path.name}: group {index}: words must be a list of two or more words")
        out.append(tuple(w.strip().lower() for w in words))
    return tuple(out)


def synonyms_for(text: str, groups: tuple[tuple[str, ...], ...]) -> list[str]:
    """Words of every group that ``text`` uses (as whole words, any case), other than those it already says."""
    lower = text.lower()

    def says(word: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", lower) is not None

    extra: list[str] = []
    for group in groups:
        if any(says(word) for word in group):
            extra += [word for word in group if not says(word) and word not in extra]
    return extra


def judge_note(notes: str) -> str:
    """The sentences of a catalogue note that speak of the game, without those about the code or how the
    catalogue was built; empty when none is left."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z'(])", " ".join(notes.split()))
    return " ".join(s for s in sentences if s and not _DEVELOPER.search(s))


def link_references(text: str, rule_ref: Callable[[str], str], decision_ref: Callable[[str], str]) -> str:
    """``text`` (already escaped reST) with clause IDs and ``decision <id>`` mentions turned into links."""
    text = _DECISION_REF.sub(lambda m: decision_ref(m.group(1)), text)
    return _CLAUSE_REF.sub(lambda m: rule_ref(m.group(0)), text)


ANSWERS_CHANGED: dict[str, tuple[str, ...]] = {
    # Whether a player outside the battle may use a side battle ability at all is settled with the sides
    # (SB 2.1), but the judge asking "player 3 uses a side battle ability" lands on the control cases in
    # which the user, not a battling player, decides: cases 1 and 3.
    "sb-user-outside-battle": ("RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-ONE-INSIDER"),
}
"""Decision -> other clauses whose answer its reading changes, beyond the clause that holds it."""


def decisions_changing(catalogue: Catalogue, clause: Clause) -> list[tuple[Clause, Decision]]:
    """Decisions whose choice changes ``clause``'s answer: its own, those with an option that moves it
    into or out of a wording (:data:`MEMBERSHIP_CHANGES`: the heal redline's reconstruction steps), and
    those :data:`ANSWERS_CHANGED` names for it."""
    found: list[tuple[Clause, Decision]] = [(clause, d) for d in clause.decisions]
    moved = {decision for (decision, _), changes in MEMBERSHIP_CHANGES.items() if clause.id in changes}
    moved |= {decision for decision, clauses in ANSWERS_CHANGED.items() if clause.id in clauses}
    found += [(owner, d) for owner, d in catalogue.decisions.values() if d.id in moved and owner.id != clause.id]
    return found
