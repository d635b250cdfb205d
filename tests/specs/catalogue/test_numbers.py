"""Citable clause numbers: the shipped file checks out, and each kind of mistake in a copy is one error
naming the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.specs.catalogue import CatalogueError, default_catalogue
from cardrules.specs.catalogue.numbers import NUMBER, NUMBERS_FILE, load_numbers

pytestmark = pytest.mark.infrastructure("the citable numbers of the clause catalogue")


def _load_edited(tmp_path: Path, old: str, new: str) -> None:
    text = NUMBERS_FILE.read_text()
    assert old in text, old
    folder = tmp_path / "numbers"
    folder.mkdir()
    (folder / "numbers.toml").write_text(text.replace(old, new, 1))
    load_numbers(default_catalogue(), folder / "numbers.toml")


def test_every_clause_has_one_well_formed_number() -> None:
    numbering = load_numbers(default_catalogue())
    assert set(numbering.numbers) == default_catalogue().ids
    assert len(set(numbering.numbers.values())) == len(numbering.numbers)
    assert all(NUMBER.match(n) for n in numbering.numbers.values())


def test_numbers_follow_the_source_sections() -> None:
    numbering = load_numbers(default_catalogue())
    # side battle seed: Introduction is its first section, holding the pause and the resume, in that order
    assert numbering.number("RED-SB-SUSPEND") == "SB 1.1"
    assert numbering.number("RED-SB-RESUME") == "SB 1.2"
    # the heal revision's How to Play (2nd section) comes before the redline's sections (6th onwards),
    # so the current destination rule reads before the superseded one
    assert numbering.number("RED-HEAL-TO-PERMANENT-CONTROLLER").startswith("HEAL 2.")
    assert numbering.sort_key("RED-HEAL-TO-PERMANENT-CONTROLLER") < numbering.sort_key("RED-HEAL-PREV-TO-OWNER")


def test_a_typed_number_finds_its_clause() -> None:
    numbering = load_numbers(default_catalogue())
    assert numbering.clause_of("sb 1.1") == "RED-SB-SUSPEND"
    assert numbering.clause_of("SB  1.2") == "RED-SB-RESUME"
    assert numbering.clause_of("SB 99.1") is None


def test_superseded_heal_clause_names_its_current_replacement() -> None:
    numbering = load_numbers(default_catalogue())
    assert numbering.replaced_by["RED-HEAL-PREV-TO-OWNER"] == ("RED-HEAL-TO-PERMANENT-CONTROLLER",)
    assert "RED-HEAL-TO-PERMANENT-CONTROLLER" not in numbering.replaced_by


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('"RED-SB-RESUME" = "SB 1.2"\n', "", "numbers/numbers.toml: RED-SB-RESUME: numbers: clause of side_battle.toml has no number"),
    ('"RED-SB-RESUME" = "SB 1.2"', '"RED-SB-RESUME" = "SB 1.1"', "RED-SB-RESUME: numbers: 'SB 1.1' is also the number of RED-SB-SUSPEND"),
    ('"RED-SB-RESUME" = "SB 1.2"', '"RED-SB-RESUME" = "SB-1-2"', "RED-SB-RESUME: numbers: 'SB-1-2' is not a number"),
    ('"RED-SB-RESUME" = "SB 1.2"', '"RED-SB-RESUME" = "SB 0.2"', "RED-SB-RESUME: numbers: 'SB 0.2' is not a number"),
    ('"RED-SB-RESUME" = "SB 1.2"', '"RED-SB-RESUME" = "RD 9.9"', "RED-SB-RESUME: numbers: 'RD 9.9' must start with its area's 'SB'"),
    ('"RED-SB-RESUME" = "SB 1.2"', '"RED-SB-RESUME" = "SB 1.2"\n"RED-SB-GONE" = "SB 9.9"',
     "RED-SB-GONE: numbers: not a clause in the catalogue"),
    ('"RED-HEAL-PREV-SEARCH" = ["RED-HEAL-NOT-IN-DISCARD-PILE"]\n', "",
     "RED-HEAL-PREV-SEARCH: replaced_by: superseded clause names no current replacement"),
    ('"RED-HEAL-PREV-SEARCH" = ["RED-HEAL-NOT-IN-DISCARD-PILE"]', '"RED-HEAL-PREV-SEARCH" = ["RED-HEAL-PREV-TO-OWNER"]',
     "RED-HEAL-PREV-SEARCH: replaced_by: 'RED-HEAL-PREV-TO-OWNER' is not a current clause of the same area"),
    ('"RED-HEAL-PREV-SEARCH" = ["RED-HEAL-NOT-IN-DISCARD-PILE"]',
     '"RED-HEAL-PREV-SEARCH" = ["RED-HEAL-NOT-IN-DISCARD-PILE"]\n"RED-HEAL-HEALABLE" = ["RED-HEAL-NOT-IN-DISCARD-PILE"]',
     "RED-HEAL-HEALABLE: replaced_by: is in its area's current wording"),
    ('side-battle = "SB"', 'side-battle = "RD"', "side-battle: areas: 'RD' is also the letters of redirect"),
    ('"RED-SB-RESUME" = "SB 1.2"', '"RED-SB-RESUME" = "SB 1.3"\n"RED-SB-RESUME" = "SB 1.4"', "numbers/numbers.toml: "),
])
def test_each_mistake_is_one_error_naming_file_entry_and_field(tmp_path: Path, old: str, new: str, expected: str) -> None:
    with pytest.raises(CatalogueError) as raised:
        _load_edited(tmp_path, old, new)
    message = str(raised.value)
    assert message.startswith("numbers/numbers.toml: ")
    assert expected in message
    assert "\n" not in message
