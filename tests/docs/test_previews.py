"""Hover previews of clause references, the revision page's play differences, the notation page, and what
the site says when nothing is recorded: the extensions' pure parts, without a site build.

Expected words come from the rules text: seed 001's revised heal wording sends a healed character to
its permanent controller's territory, the redline's previous wording to its owner's; the revised wording
forbids healing a character in a discard pile, the previous one allowed it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers
from tests.docs.extensions import docs_extension
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("judges' aids of the spec site")

PREVIEWS = docs_extension("cardrules_previews")
CHANGES = docs_extension("cardrules_changes")
RECORDED = docs_extension("cardrules_recorded")
SITUATIONS = docs_extension("cardrules_situations")
NOTATION = docs_extension("cardrules_notation")


@pytest.mark.clause("RED-HEAL-PREV-TO-OWNER", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_a_superseded_rules_preview_names_the_rule_that_replaced_it() -> None:
    catalogue, numbers = default_catalogue(), default_numbers()
    data = PREVIEWS.preview_data(catalogue, numbers)
    old, new = data["RED-HEAL-PREV-TO-OWNER"], data["RED-HEAL-TO-PERMANENT-CONTROLLER"]
    assert old["superseded_by"] == [[numbers.number("RED-HEAL-TO-PERMANENT-CONTROLLER"), "RED-HEAL-TO-PERMANENT-CONTROLLER"]]
    assert new["superseded_by"] == []
    assert "territory of its owner" in old["statement"] and "permanent control" in new["statement"]
    # HEAL 2.10: the twelve rules of section 2 fill three pages of four (2.1, 2.5, 2.9 first)
    assert new["page"] == "rules/heal-2-9.html#rule-red-heal-to-permanent-controller"


def test_every_clause_has_a_preview_with_its_number_title_and_statement() -> None:
    catalogue, numbers = default_catalogue(), default_numbers()
    data = PREVIEWS.preview_data(catalogue, numbers)
    assert set(data) == {c.id for c in catalogue.clauses}
    for clause in catalogue.clauses:
        entry = data[clause.id]
        assert entry["number"] == numbers.number(clause.id) and entry["title"] == clause.title
        assert entry["statement"] == " ".join(clause.statement.split())
    script = PREVIEWS.data_script(data)
    assert script.startswith("window.CARDRULES_CLAUSES = ") and script.endswith(";\n")
    assert json.loads(script.removeprefix("window.CARDRULES_CLAUSES = ").rstrip(";\n")) == data


def _revision_cases() -> tuple[list[str], list[str], tuple[str, str]]:
    """The play-differences directive of the heal revision page, as the page writes it."""
    text = (REPO / "docs" / "heal-revision.rst").read_text(encoding="utf-8")
    found = re.search(r"^\.\. cardrules-play-differences:: (\S+) (\S+)\n((?:   .*\n|\n)+)", text, re.MULTILINE)
    assert found, "the heal revision page shows the play differences in words"
    body = [line.strip() for line in found.group(3).splitlines()]
    first = next(line for line in body if line.startswith(":first:")).removeprefix(":first:").strip()
    second = next(line for line in body if line.startswith(":second:")).removeprefix(":second:").strip()
    cases = [line for line in body if line and not line.startswith(":")]
    return [found.group(1), found.group(2)], cases, (first, second)


@pytest.mark.clause("RED-HEAL-PREV-TO-OWNER", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-NOT-IN-DISCARD-PILE")
def test_the_revision_page_shows_where_the_healed_hero_goes_under_each_wording() -> None:
    (a, b), cases, headings = _revision_cases()
    lines = CHANGES.play_difference_lines(a, b, cases, headings)
    text = "\n".join(lines)
    cards = re.findall(r"grid-item-card:: (.*)\n\n      (.*)", text)
    assert [h for h, _ in cards] == [headings[0], headings[1]] * len(cases)
    rulings = [r for _, r in cards]
    # hx, owned by Player 2 and fought for by Player 1, is healed: the owner's territory, then the controller's
    assert "hx goes to Player 2's territory" in rulings[0]
    assert "hx (owned by Player 2) goes to Player 1's territory" in rulings[1]
    # healing a Hero out of the discard pile: allowed before, refused now
    assert "h0 is healed" in rulings[2] and rulings[3].startswith("Not allowed: h0 is in a discard pile")
    assert text.count(".. cardrules-board:: ") == len(cases)  # each case's moment is drawn


def test_a_case_that_plays_the_same_under_both_or_cites_a_rule_not_in_force_is_refused() -> None:
    (a, b), cases, headings = _revision_cases()
    example = cases[0].split("=", 1)[1].split(":", 1)[0].strip()
    with pytest.raises(ValueError, match="same ruling"):
        CHANGES.play_difference_lines(b, b, [example], headings)
    with pytest.raises(ValueError, match="not in force"):
        CHANGES.play_difference_lines(a, b, [f"{example}: RED-HEAL-TO-PERMANENT-CONTROLLER | "], headings)


def test_no_result_message_names_a_local_folder_or_shows_raw_backticks() -> None:
    reason = f"nothing recorded in {REPO}/.cardrules/results/verify.json (run `cardrules verify` from the checkout)"
    shown = RECORDED.plain_reason(reason)
    assert str(REPO) not in shown and "/work/" not in shown
    assert shown == r"nothing recorded in .cardrules/results/verify.json (run ``cardrules verify`` from the checkout)"
    for lines in (RECORDED.verification_lines(reason), RECORDED.score_lines(reason)):
        assert str(REPO) not in "\n".join(lines) and "No recorded" in lines[2]


def test_situation_meanings_keep_their_literals_as_literals() -> None:
    assert SITUATIONS.meaning_text("whose; ``NONE`` when it goes back") == "whose; ``NONE`` when it goes back"
    assert SITUATIONS.meaning_text("a_b and `odd") == r"a\_b and \`odd"


def test_the_notation_page_puts_each_position_in_words_beside_its_compact_line() -> None:
    text = (REPO / "docs" / "notation.rst").read_text(encoding="utf-8")
    ids = re.search(r"^\.\. cardrules-notation:: (.*)$", text, re.MULTILINE)
    assert ids
    lines = "\n".join(NOTATION.notation_lines(ids.group(1).split()))
    # the heal window position: Player 1 (P0) may heal hx, which fights Player 2's e1 in battle 1
    assert "battle 1: hx vs e1; heal-window for P0" in lines
    assert "hx is about to be discarded; Player 1 may heal first." in lines
    assert "``heal hx with hc``" in lines
    assert Path(REPO / "docs" / "index.rst").read_text(encoding="utf-8").count("\n   notation\n") == 1
