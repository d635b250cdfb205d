"""The glossary (docs/glossary.rst) defines the rule terms the catalogue uses, each linked to its clauses.

Read from the reST source, so no site build is needed: a rule term that the
clauses use must have an entry, every entry of the two games' glossaries
links at least one clause, the clause exists, and the term is used in one of
the clauses it links (a link to an unrelated clause is a wrong link).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from cardrules.specs.catalogue import Clause, default_catalogue
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the glossary of the docs")

GLOSSARY = REPO / "docs" / "glossary.rst"
RULE_SECTIONS = ("Redemption CCG", "Final Fantasy TCG")

RULE_TERMS = (
    # Redemption: side battles, battles and their resolution
    "side battle", "control case", "main battle", "suspended battle", "battle stack", "fighter",
    "Battle Resolution", "outcome", "mutual destruction", "stalemate", "defeat", "block", "mission",
    "rescue attempt", "battle challenge", "Lost Soul", "Land of Bondage", "Land of Redemption", "access",
    "initiative", "special initiative", "interrupt", "negate", "end-of-battle ability",
    # Redemption: cards, zones, statuses
    "character", "Hero", "Evil Character", "alignment", "brigade", "enhancement", "numbers", "strength",
    "toughness", "territory", "Territory Class", "owner", "permanent controller", "status", "paralyzed",
    "preparation phase", "discard phase", "instantaneous", "ongoing", "target",
    # Redemption: heal and redirect
    "heal", "heal window", "healable", "healing enhancement", "discard pile", "being discarded", "restore",
    "redline", "redirect",
    # Final Fantasy TCG
    "Forward", "active", "dull", "Brave", "Haste", "power", "damage", "blocker", "Attack Declaration Step",
    "Combat End Step", "party", "member", "element party", "P icon", "P icon party", "disband", "damage split",
    "Pre-emptive Strike", "First Strike", "break", "Break Zone",
)
"""Rule terms the clause statements, titles and decisions use; each must be a glossary term."""

_CLAUSE_REF = re.compile(r":ref:`[^`<]*<(?:clause|rule)-([a-z0-9-]+)>`")


@dataclass(frozen=True)
class Entry:
    section: str
    terms: tuple[str, ...]
    definition: str

    def clause_labels(self) -> list[str]:
        return _CLAUSE_REF.findall(self.definition)


def glossary_entries(text: str) -> list[Entry]:
    """The entries of every ``.. glossary::`` block: term lines at 3 spaces, the definition at 6."""
    lines = text.splitlines()
    entries: list[Entry] = []
    section = ""
    in_glossary = False
    terms: list[str] = []
    definition: list[str] = []

    def close() -> None:
        if terms:
            entries.append(Entry(section, tuple(terms), " ".join(definition)))
        terms.clear()
        definition.clear()

    for number, line in enumerate(lines):
        if number + 1 < len(lines) and lines[number + 1] and set(lines[number + 1]) == {"-"} and line.strip():
            close()
            section, in_glossary = line.strip(), False
        elif line.startswith(".. glossary::"):
            close()
            in_glossary = True
        elif in_glossary and line.strip() and not line.startswith(" "):
            close()
            in_glossary = False
        elif in_glossary and line.startswith("      "):
            definition.append(line.strip())
        elif in_glossary and line.startswith("   ") and not line.startswith("   :"):
            if definition:
                close()
            terms.append(line.strip())
    close()
    return entries


def _clause_text(clause: Clause) -> str:
    parts = [clause.title, clause.statement, clause.notes]
    for decision in clause.decisions:
        parts += [decision.question, decision.why, *(option.reading for option in decision.options)]
    return " ".join(" ".join(parts).split())


def _uses(text: str, term: str) -> bool:
    """The text uses the term: its words in order, each in any form (dull: dulled; break: broken; ability:
    abilities), with at most two words between them ("damage is split" uses "damage split")."""
    forms = []
    for word in re.split(r"[\s-]+", term):
        if word.lower() == "break":
            forms.append(r"br(?:eak|ok)\w*")
        elif len(word) < 3:
            forms.append(re.escape(word) + r"\b")
        else:
            forms.append(re.escape(word[:-1] if len(word) > 4 and word[-1] in "eys" else word) + r"\w*")
    pattern = r"(?<!\w)" + r"\W+(?:\w+\W+){0,2}".join(forms)
    return re.search(pattern, text, re.IGNORECASE) is not None


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    return glossary_entries(GLOSSARY.read_text(encoding="utf-8"))


def test_the_parser_reads_terms_and_definitions() -> None:
    text = ("Games\n-----\n\n.. glossary::\n   :sorted:\n\n   heal\n   healing\n      Undoes harm\n"
            "      (:ref:`A <clause-red-heal-purpose>`).\n\n   party\n      Forwards.\n\nAfter\n")
    parsed = glossary_entries(text)
    assert parsed == [Entry("Games", ("heal", "healing"), "Undoes harm (:ref:`A <clause-red-heal-purpose>`)."),
                      Entry("Games", ("party",), "Forwards.")]
    assert parsed[0].clause_labels() == ["red-heal-purpose"]


def test_every_rule_term_the_catalogue_uses_has_a_glossary_entry(entries: list[Entry]) -> None:
    defined = {term.lower() for entry in entries for term in entry.terms}
    missing = [term for term in RULE_TERMS if term.lower() not in defined]
    assert missing == [], f"rule terms without a glossary entry in {GLOSSARY.name}: {missing}"


def test_every_listed_rule_term_is_used_by_the_catalogue() -> None:
    text = " ".join(_clause_text(clause) for clause in default_catalogue().clauses)
    unused = [term for term in RULE_TERMS if not _uses(text, term)]
    assert unused == [], f"listed as rule terms but no clause uses them: {unused}"


def test_every_rule_glossary_entry_links_a_clause_that_uses_the_term(entries: list[Entry]) -> None:
    catalogue = default_catalogue()
    clauses = {clause.id.lower(): clause for clause in catalogue.clauses}
    rule_entries = [entry for entry in entries if entry.section in RULE_SECTIONS]
    assert len(rule_entries) >= 40, f"only {len(rule_entries)} rule entries read from {GLOSSARY.name}"
    problems = []
    for entry in rule_entries:
        labels = entry.clause_labels()
        unknown = [label for label in labels if label not in clauses]
        if not labels:
            problems.append(f"{entry.terms}: links no clause")
        elif unknown:
            problems.append(f"{entry.terms}: links unknown clauses {unknown}")
        elif not any(_uses(_clause_text(clauses[label]), term) for label in labels for term in entry.terms):
            problems.append(f"{entry.terms}: none of its clauses ({', '.join(labels)}) uses the term")
    assert problems == [], "\n".join(problems)
