"""The catalogue loader on the shipped catalogue and on broken copies of a small one.

Every validation error must name the file, the clause and the field.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules.specs.catalogue import CatalogueError, default_catalogue, load
from tests.paths import SEEDS

pytestmark = pytest.mark.infrastructure("the clause catalogue's format and loader")


SOURCES = """
[[source]]
id = "seed-003"
title = "party seed"
file = "003.txt"
sections = ["Party Composition", "Forming Parties"]

[[source]]
id = "ff-cr-3.3"
title = "comprehensive rules"
"""

AREA = """
[area]
id = "party"
code = "PARTY"
game = "fftcg"
title = "Party attacks"
summary = "Parties."
default_version = "seed"

[[area.versions]]
id = "seed"
title = "Seed"
description = "The seed wording."

[[clause]]
id = "FF-PARTY-MIN-TWO"
title = "Two or more"
kind = "rule"
versions = ["seed"]
statement = "A party has at least two members."
source = { doc = "seed-003", section = "Party Composition" }

[[clause]]
id = "FF-PARTY-FORMING"
title = "When"
kind = "rule"
versions = ["seed"]
statement = "Parties form in the attack declaration step."
source = { doc = "seed-003", section = "Forming Parties" }
refs = ["FF-PARTY-MIN-TWO"]

[[clause.decisions]]
id = "party-when"
question = "Which step?"
chosen = "declaration"
why = "The text says so."
[[clause.decisions.options]]
id = "declaration"
reading = "Attack declaration."
[[clause.decisions.options]]
id = "preparation"
reading = "Attack preparation."
"""

BASE = """
[area]
id = "ff-base"
code = "BASE"
game = "fftcg"
title = "Base"
summary = "Base rules."
default_version = "base"

[[area.versions]]
id = "base"
title = "Base"
description = "CR 3.3."

[[clause]]
id = "FF-BASE-SEVEN-DAMAGE"
title = "Seven damage loses"
kind = "assumption"
versions = ["base"]
statement = "A player with seven damage loses."
source = { doc = "ff-cr-3.3", section = "12.4.1" }
"""


def write(directory: Path, area: str = AREA, base: str = BASE, sources: str = SOURCES) -> Path:
    (directory / "sources.toml").write_text(sources)
    (directory / "party.toml").write_text(area)
    (directory / "ff_base.toml").write_text(base)
    return directory


def test_small_catalogue_loads(tmp_path: Path) -> None:
    catalogue = load(write(tmp_path))
    assert [c.id for c in catalogue.clauses] == ["FF-BASE-SEVEN-DAMAGE", "FF-PARTY-MIN-TWO", "FF-PARTY-FORMING"]
    forming = catalogue.clause("FF-PARTY-FORMING")
    assert forming.refs == ("FF-PARTY-MIN-TWO",)
    assert forming.decisions[0].chosen == "declaration"
    assert [o.id for o in forming.decisions[0].alternatives] == ["preparation"]
    assert forming.source.text(catalogue.sources) == "003.txt, Forming Parties"
    assert catalogue.select(kind="assumption")[0].id == "FF-BASE-SEVEN-DAMAGE"


def test_a_conformance_excuse_is_read_per_clause_or_inherited_from_its_area(tmp_path: Path) -> None:
    reason = "Data the coverage hook cannot see run."
    area = AREA.replace('default_version = "seed"', f'default_version = "seed"\nconformance_excuse = "{reason}"', 1)
    own = "Its own reason, in more than twenty characters."
    area = area.replace('id = "FF-PARTY-MIN-TWO"\n', f'id = "FF-PARTY-MIN-TWO"\nconformance_excuse = "{own}"\n', 1)
    catalogue = load(write(tmp_path, area=area))
    assert catalogue.clause("FF-PARTY-MIN-TWO").conformance_excuse == own
    assert catalogue.clause("FF-PARTY-FORMING").conformance_excuse == reason
    assert catalogue.clause("FF-BASE-SEVEN-DAMAGE").conformance_excuse == ""
    assert catalogue.clause("FF-PARTY-FORMING").crosscheck_excuse == ""
    assert catalogue.decisions["party-when"][1].option("preparation").conformance_excuse is None


def test_an_option_may_name_the_clauses_its_suite_cannot_exercise(tmp_path: Path) -> None:
    reason = "Parties never form under this reading."
    area = AREA.replace('reading = "Attack preparation."',
                        f'reading = "Attack preparation."\nconformance_excuse = {{ clauses = ["FF-PARTY-MIN-TWO"], reason = "{reason}" }}')
    excuse = load(write(tmp_path, area=area)).decisions["party-when"][1].option("preparation").conformance_excuse
    assert excuse is not None and excuse.clauses == ("FF-PARTY-MIN-TWO",) and excuse.reason == reason


# (replace this, with that) -> the error must contain file, clause, field and this problem
BROKEN: list[tuple[str, str, str, str, str]] = [
    ('id = "FF-PARTY-MIN-TWO"\ntitle = "Two or more"\n', 'title = "Two or more"\n', "party.toml", "clause[0]: id", "missing required field"),
    ('kind = "rule"\nversions = ["seed"]\nstatement = "A party', 'kind = "law"\nversions = ["seed"]\nstatement = "A party', "party.toml", "FF-PARTY-MIN-TWO: kind", "unknown kind 'law'"),
    ('id = "FF-PARTY-FORMING"', 'id = "FF-PARTY-forming"', "party.toml", "FF-PARTY-forming: id", "does not match"),
    ('id = "FF-PARTY-FORMING"', 'id = "RED-HEAL-FORMING"', "party.toml", "RED-HEAL-FORMING: id", "must start with 'FF-PARTY-'"),
    ('versions = ["seed"]\nstatement = "Parties', 'versions = ["cr33"]\nstatement = "Parties', "party.toml", "FF-PARTY-FORMING: versions", "'cr33' is not a version"),
    ('doc = "seed-003", section = "Forming Parties"', 'doc = "seed-009", section = "Forming Parties"', "party.toml", "FF-PARTY-FORMING: source.doc", "unknown source 'seed-009'"),
    ('section = "Forming Parties"', 'section = "Forming"', "party.toml", "FF-PARTY-FORMING: source.section", "'Forming' is not a section of seed-003"),
    ('refs = ["FF-PARTY-MIN-TWO"]', 'refs = ["FF-PARTY-MAX-TWO"]', "party.toml", "FF-PARTY-FORMING: refs", "'FF-PARTY-MAX-TWO' is not a clause"),
    ('refs = ["FF-PARTY-MIN-TWO"]', 'refs = ["FF-PARTY-FORMING"]', "party.toml", "FF-PARTY-FORMING: refs", "cannot refer to itself"),
    # a self-reference is caught wherever it stands: first of several refs, or on a clause with no decisions
    ('refs = ["FF-PARTY-MIN-TWO"]', 'refs = ["FF-PARTY-FORMING", "FF-PARTY-MIN-TWO"]', "party.toml", "FF-PARTY-FORMING: refs", "cannot refer to itself"),
    ('statement = "A party has at least two members."', 'statement = "A party has at least two members."\nrefs = ["FF-PARTY-MIN-TWO"]', "party.toml", "FF-PARTY-MIN-TWO: refs", "cannot refer to itself"),
    ('chosen = "declaration"', 'chosen = "damage"', "party.toml", "FF-PARTY-FORMING: decisions[0].chosen", "'damage' is not one of the options"),
    ('[[clause.decisions.options]]\nid = "preparation"\nreading = "Attack preparation."\n', "", "party.toml", "FF-PARTY-FORMING: decisions[0].options", "at least two options"),
    ('statement = "A party has at least two members."', 'statement = ""', "party.toml", "FF-PARTY-MIN-TWO: statement", "must not be empty"),
    ('statement = "A party has at least two members."', 'statement = 3', "party.toml", "FF-PARTY-MIN-TWO: statement", "expected a string"),
    ('statement = "A party has at least two members."', 'statement = "x"\ncolour = "red"', "party.toml", "FF-PARTY-MIN-TWO: colour", "unknown field"),
    ('default_version = "seed"', 'default_version = "cr33"', "party.toml", "area.default_version", "'cr33' is not a declared version"),
    ('id = "party"', 'id = "parties"', "party.toml", "area.id", "unknown area 'parties'"),
    ('code = "PARTY"', 'code = "PTY"', "party.toml", "area.code", "uses code 'PARTY'"),
    ('game = "fftcg"', 'game = "mtg"', "party.toml", "area.game", "unknown game 'mtg'"),
    ('kind = "rule"\nversions = ["seed"]\nstatement = "A party', 'kind = "assumption"\nversions = ["seed"]\nstatement = "A party', "party.toml", "FF-PARTY-MIN-TWO: kind", "assumption clauses belong in the base files"),
    ('[area]', '[area', "party.toml", "", "not valid TOML"),
    ('statement = "A party has at least two members."', 'statement = "x"\nconformance_excuse = "n/a"', "party.toml", "FF-PARTY-MIN-TWO: conformance_excuse", "say why no conformance vector exercises it"),
    ('statement = "A party has at least two members."', 'statement = "x"\nconformance_excuse = ""', "party.toml", "FF-PARTY-MIN-TWO: conformance_excuse", "at least 20 characters"),
    ('default_version = "seed"', 'default_version = "seed"\nconformance_excuse = " "', "party.toml", "area.conformance_excuse", "say why"),
    ('reading = "Attack preparation."', 'reading = "Attack preparation."\nconformance_excuse = { clauses = ["FF-PARTY-MIN-TWO"], reason = "short" }', "party.toml", "FF-PARTY-FORMING: decisions[0].options[1].conformance_excuse.reason", "at least 20 characters"),
    ('reading = "Attack preparation."', 'reading = "Attack preparation."\nconformance_excuse = { clauses = ["FF-PARTY-MAX-TWO"], reason = "Long enough to be a reason." }', "party.toml", "FF-PARTY-FORMING: party-when.preparation.conformance_excuse", "'FF-PARTY-MAX-TWO' is not a clause"),
]


@pytest.mark.parametrize(("old", "new", "file", "where", "problem"), BROKEN)
def test_each_validation_error_names_file_clause_and_field(
    tmp_path: Path, old: str, new: str, file: str, where: str, problem: str
) -> None:
    assert old in AREA, "the fixture text to break must exist"
    write(tmp_path, area=AREA.replace(old, new, 1))
    with pytest.raises(CatalogueError) as caught:
        load(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{file}: {where}") if where else message.startswith(file)
    assert problem in message


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    duplicate = BASE + AREA[AREA.index("[[clause]]\nid = \"FF-PARTY-MIN-TWO\""):].split("[[clause]]\nid = \"FF-PARTY-FORMING\"")[0]
    duplicate = duplicate.replace("FF-PARTY-MIN-TWO", "FF-BASE-SEVEN-DAMAGE").replace('kind = "rule"', 'kind = "assumption"')
    duplicate = duplicate.replace('versions = ["seed"]', 'versions = ["base"]').replace('doc = "seed-003", section = "Party Composition"', 'doc = "ff-cr-3.3", section = "1"')
    write(tmp_path, base=duplicate)
    with pytest.raises(CatalogueError, match=r"^ff_base.toml: FF-BASE-SEVEN-DAMAGE: id: duplicate clause ID"):
        load(tmp_path)


def test_duplicate_decision_id(tmp_path: Path) -> None:
    second = AREA.replace('id = "FF-PARTY-FORMING"', 'id = "FF-PARTY-FORMING-TWICE"', 1)
    area = AREA + second[second.index('[[clause]]\nid = "FF-PARTY-FORMING-TWICE"'):]
    write(tmp_path, area=area)
    with pytest.raises(CatalogueError, match=r"FF-PARTY-FORMING-TWICE: decisions.id: decision 'party-when' is also used"):
        load(tmp_path)


def test_missing_sources_file(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match=r"^sources.toml: not found"):
        load(tmp_path)


def test_missing_area_table(tmp_path: Path) -> None:
    write(tmp_path, area=AREA[AREA.index("[[clause]]"):])
    with pytest.raises(CatalogueError, match=r"^party.toml: area: missing the \[area\] table"):
        load(tmp_path)


# --- the shipped catalogue ---------------------------------------------------


def test_shipped_catalogue_covers_every_area_and_seed() -> None:
    catalogue = default_catalogue()
    assert {a.id for a in catalogue.areas} == {
        "side-battle", "heal", "battle-resolution", "redirect", "party", "red-base", "ff-base",
    }
    cited = {c.source.doc for c in catalogue.clauses}
    assert {"seed-000", "seed-001", "seed-002", "seed-003"} <= cited
    # the seeds alone hold roughly sixty rule sentences; heal counts twice (two wordings)
    seed_clauses = [c for c in catalogue.clauses if c.source.doc.startswith("seed-")]
    assert len(seed_clauses) >= 60


def test_heal_has_both_wordings_and_the_revised_is_default() -> None:
    catalogue = default_catalogue()
    heal = catalogue.area("heal")
    assert heal.default_version == "revised"
    assert {v.id for v in heal.versions} == {"revised", "previous"}
    revised = {c.id for c in catalogue.select(area="heal", version="revised")}
    previous = {c.id for c in catalogue.select(area="heal", version="previous")}
    # the redline's two contradictions are split between the wordings, never inside one
    assert "RED-HEAL-TO-PERMANENT-CONTROLLER" in revised - previous
    assert "RED-HEAL-PREV-TO-OWNER" in previous - revised
    assert "RED-HEAL-NOT-IN-DISCARD-PILE" in revised - previous
    assert "RED-HEAL-PREV-ENH-TWO-WAYS" in previous - revised
    # the reconstruction is recorded phrase by phrase: a decision where a phrase has two
    # readings, a note where a single redline allows only one (the phrase is missing from the
    # revised wording, so it is old text)
    redline = {d.id for c in catalogue.select(area="heal") for d in c.decisions if d.id.startswith("redline-")}
    assert redline == {
        "redline-window", "redline-enh-phases", "redline-healable", "redline-discard-pile",
        "redline-destination", "redline-not-completed", "redline-enh-placement",
        # whether the Battle Resolution sentence is old or inserted, and which words govern where the
        # redline's new words differ from the revised block
        "redline-resolution-sentence", "redline-draft-words",
    }
    for clause_id in ("RED-HEAL-PREV-AS-BEFORE-DISCARD", "RED-HEAL-PREV-ENH-IN-OR-OUT", "RED-HEAL-PREV-SEARCH",
                      "RED-HEAL-PREV-DISCARDED-MEANS"):
        assert "missing from the revised wording" in catalogue.clause(clause_id).notes.lower()


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds is not beside this checkout")
def test_no_clause_pastes_its_source_sentence() -> None:
    """Statements are in the project's own words: no run of 9 words copied from the seed."""
    catalogue = default_catalogue()
    run = 9
    for clause in catalogue.clauses:
        source = catalogue.sources[clause.source.doc]
        if not source.file:
            continue
        seed = _words((SEEDS / source.file).read_text())
        seed_runs = {tuple(seed[i : i + run]) for i in range(len(seed) - run + 1)}
        words = _words(clause.statement)
        copied = [" ".join(words[i : i + run]) for i in range(len(words) - run + 1) if tuple(words[i : i + run]) in seed_runs]
        assert not copied, f"{clause.id} copies its source: {copied[0]!r}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds is not beside this checkout")
def test_cited_seed_files_exist() -> None:
    catalogue = default_catalogue()
    for source in catalogue.sources.values():
        if source.file:
            assert (SEEDS / source.file).is_file(), source.file
