"""The rules views for judges (``docs/_ext/cardrules_rules.py``), rendered without a site build.

Expected orders and marks come from the rules text: seed 001's revised heal wording is the current
one and its redline's wording is the previous one, so a previous-only clause is superseded.
"""

from __future__ import annotations

import json
import re

import pytest

from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers
from tests.docs.extensions import docs_extension

pytestmark = pytest.mark.infrastructure("the rules views of the spec site")


RULES = docs_extension("cardrules_rules")
JUDGES = docs_extension("cardrules_judges")


def _view(area: str) -> str:
    return "\n".join(RULES.rules_lines(default_catalogue(), default_numbers(), area, JUDGES.load_synonyms()))


def _sections(view: str) -> dict[str, str]:
    """Clause ID -> the reST of its rule section (from its label to the next rule's index entry)."""
    parts = re.split(r"(?m)^\.\. index:: ", view)
    out = {}
    for part in parts[1:]:
        found = re.search(r"^\.\. _rule-([a-z0-9-]+):", part, re.MULTILINE)
        assert found, part[:200]
        out[found.group(1).upper()] = part
    return out


def test_heal_lists_the_current_destination_rule_before_the_superseded_one_and_marks_only_that() -> None:
    view = _view("heal")
    current = view.index("· RED-HEAL-TO-PERMANENT-CONTROLLER:")
    old = view.index("· RED-HEAL-PREV-TO-OWNER (superseded by")
    assert current < view.index("Superseded wording\n------------------") < old
    sections = _sections(view)
    assert "Superseded wording: replaced by" not in sections["RED-HEAL-TO-PERMANENT-CONTROLLER"]
    box = sections["RED-HEAL-PREV-TO-OWNER"]
    assert ".. admonition:: Superseded wording: replaced by :ref:`HEAL" in box
    assert "<rule-red-heal-to-permanent-controller>` in the Revised wording (current)" in box
    # the current rule names the one it replaces
    assert "**Replaces** the superseded" in sections["RED-HEAL-TO-PERMANENT-CONTROLLER"]
    assert "<rule-red-heal-prev-to-owner>" in sections["RED-HEAL-TO-PERMANENT-CONTROLLER"]


def test_every_clause_is_one_rule_section_headed_by_number_and_id() -> None:
    catalogue = default_catalogue()
    numbers = default_numbers()
    for area in catalogue.areas:
        sections = _sections(_view(area.id))
        assert set(sections) == {c.id for c in catalogue.select(area=area.id)}, area.id
        for clause_id, text in sections.items():
            assert f"{numbers.number(clause_id)} · {clause_id}" in text
            assert f"<clause-{clause_id.lower()}>" in text  # the link to its formal encodings and tests


def test_an_area_with_one_wording_has_no_superseded_part() -> None:
    assert "Superseded wording" not in _view("side-battle")
    assert "superseded by" not in _view("party")


def test_a_rule_shows_its_decisions_reading_applied_and_the_others_named() -> None:
    sections = _sections(_view("side-battle"))
    once = sections["RED-SB-ONCE-PER-TURN"]
    decision = default_catalogue().decisions["sb-per-turn-limit"][1]
    chosen = " ".join(decision.option(decision.chosen).reading.split())
    assert "Open question: " in once
    assert f"**Reading applied:** {chosen}" in once.replace("\\", "")
    for other in decision.alternatives:
        assert f"``{other.id}``" in once


def test_a_decision_that_moves_a_clause_between_wordings_is_linked_from_that_clause() -> None:
    """Reading the heal window as unchanged text puts the window's suspension rule in the previous
    wording too, so that rule's answer depends on the window's reconstruction decision."""
    sections = _sections(_view("heal"))
    suspends = sections["RED-HEAL-WINDOW-SUSPENDS"]
    assert "Open question (settled at :ref:`" in suspends and "<rule-red-heal-window>`)" in suspends
    assert ".. _decision-redline-window:" in sections["RED-HEAL-WINDOW"]
    assert ".. _decision-redline-window:" not in suspends  # linked there, labelled once


def test_judges_read_no_developer_detail_in_notes_summaries_and_readings() -> None:
    """Statements and questions are shown as the catalogue words them; what the view adds or picks
    (the area summary, notes, readings) speaks of the game, not of the code."""
    for area in default_catalogue().areas:
        lines = RULES.rules_lines(default_catalogue(), default_numbers(), area.id, JUDGES.load_synonyms())
        shown = [lines[0]] + [line for line in lines if re.match(r"\s*\*\*(Note|Reading applied|Other readings)", line)]
        for line in shown:
            for word in (r"\bz3\b", r"\bmodel\b", r"\bencoding\b", r"\bissue \d", r"PlayRecord", r"Reconstruction"):
                assert not re.search(word, line), f"{area.id}: {word} in {line}"


def test_notes_keep_game_sentences_and_link_decisions() -> None:
    note = JUDGES.judge_note("The model skips the draw. A party of two splits 5000 six ways. See z3.")
    assert note == "A party of two splits 5000 six ways."
    linked = JUDGES.link_references("as decision sb-pair-alignment says, and RED-SB-SUSPEND",
                                    lambda cid: f"<{cid}>", lambda did: f"[{did}]")
    assert linked == "as [sb-pair-alignment] says, and <RED-SB-SUSPEND>"


def test_synonyms_give_the_other_words_judges_use() -> None:
    groups = (("side battle", "sidebattle", "side-battle"), ("unblocked", "not blocked"))
    assert JUDGES.synonyms_for("A side battle pauses the battle.", groups) == ["sidebattle", "side-battle"]
    assert JUDGES.synonyms_for("An unblocked party deals one damage.", groups) == ["not blocked"]
    assert JUDGES.synonyms_for("A Hero blocks.", groups) == []


def test_side_battle_rules_carry_the_one_word_spelling() -> None:
    sections = _sections(_view("side-battle"))
    with_word = [cid for cid, text in sections.items() if "Also searched as: sidebattle" in text]
    assert "RED-SB-SUSPEND" in with_word and "RED-SB-ONCE-PER-TURN" in with_word


def test_the_shipped_synonym_groups_read() -> None:
    groups = JUDGES.load_synonyms()
    assert ("side battle", "sidebattle", "side-battle") in groups
    assert any("graveyard" in group and "discard pile" in group for group in groups)


def test_the_source_line_says_what_kind_of_rule_it_is() -> None:
    """Seed 000 files the negate cascade under Clarifications and the once-per-turn limit under Special
    Conditions; the base-rule clauses are the project's reading of the base rules."""
    side = _sections(_view("side-battle"))
    assert "section \u201cClarifications\u201d (a clarification)." in side["RED-SB-NEGATE-CASCADE"]
    assert "section \u201cSpecial Conditions\u201d (a special condition)." in side["RED-SB-ONCE-PER-TURN"]
    assert "(an assumption: the base rules, as this project reads them)." in _sections(_view("red-base"))["RED-BASE-DEFEAT"]


def test_a_rule_no_decision_changes_shows_no_open_question() -> None:
    """What a heal undoes reads the same in both wordings and under every reading of the redline."""
    assert "Open question" not in _sections(_view("heal"))["RED-HEAL-PURPOSE"]


EXAMPLES = docs_extension("cardrules_examples")

REWRITTEN_FOR_JUDGES = ("RED-BR-FOUR-OUTCOMES", "FF-BASE-END-OF-TURN", "RED-BASE-TURN-PHASES", "RED-RD-UNTIL-END-OF-PHASE",
                        "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-AS-BEFORE-DISCARD", "RED-HEAL-PREV-TO-OWNER",
                        "RED-HEAL-PREV-ENH-IN-OR-OUT", "RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-NOT-FROM-HAND-DECK",
                        "RED-HEAL-PREV-SEARCH", "RED-HEAL-PREV-DISCARDED-MEANS", "FF-BASE-ATTACK-STEPS")


def test_every_rule_shows_an_example_with_its_anchor_number_and_try_it_link() -> None:
    catalogue, numbers = default_catalogue(), default_numbers()
    for area in catalogue.areas:
        sections = _sections(_view(area.id))
        for clause_id, text in sections.items():
            number = numbers.number(clause_id)
            assert f'<span class="example-anchor" id="example-{clause_id.lower()}-1">' in text, clause_id
            assert ".. admonition:: Example" in text, clause_id
            assert "**Position.**" in text and "**Ruling.**" in text, clause_id
            assert f"({number}" in text or f", {number}" in text, clause_id  # the ruling cites the rule
            assert '<a class="try-it" href="../playground.html?game=' in text, clause_id
            assert f'href="#example-{clause_id.lower()}-1"' in text, clause_id


def test_a_superseded_rule_shows_its_example_inside_its_box_under_the_previous_wording() -> None:
    box = _sections(_view("heal"))["RED-HEAL-PREV-TO-OWNER"]
    after = box.split(".. admonition:: Superseded wording", 1)[1]
    assert "   .. admonition:: Example" in after
    assert "Rule set: ``heal=previous``" in after


def test_the_try_it_link_is_the_playground_format() -> None:
    """The playground reads ``?game=..&rules=..#<base64url of the compact state JSON>``."""
    import base64
    import json

    text = _sections(_view("party"))["FF-PARTY-UNBLOCKED-ONE"]
    href = re.search(r'<a class="try-it" href="([^"]+)"', text).group(1).replace("&amp;", "&")
    page, _, fragment = href.partition("#")
    assert page == "../playground.html?game=fftcg&rules=default"
    state = json.loads(base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4)))
    assert state["attack"]["party"] is True  # the position of the example: a party attacking, not blocked
    assert state["attack"]["blocked"] is False


def test_notes_rewritten_for_judges_are_shown_whole() -> None:
    """These notes used to speak of the code; now every sentence is about the game, so none is dropped."""
    catalogue = default_catalogue()
    by_id = {c.id: c for c in catalogue.clauses}
    for clause_id in REWRITTEN_FOR_JUDGES:
        notes = " ".join(by_id[clause_id].notes.split())
        assert notes and JUDGES.judge_note(notes) == notes, clause_id
    for clause_id in ("FF-BASE-ATTACK-STEPS", "FF-BASE-P-ICON"):
        assert not re.search(r"\bmodel\b", by_id[clause_id].statement), clause_id


def test_the_outsider_question_is_linked_from_the_control_case_a_judge_lands_on() -> None:
    """'Player 3 uses a side battle ability': the reading that only the two battling players may use one is
    settled at SB 2.1, and shown, linked, on the control cases where the user decides (cases 1 and 3)."""
    sections = _sections(_view("side-battle"))
    for clause_id in ("RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-ONE-INSIDER"):
        text = sections[clause_id]
        assert "Open question (settled at :ref:`SB 2.1" in text, clause_id
        assert "May a player who is not one of the two battling players use a side battle" in text
    assert ".. _decision-sb-user-outside-battle:" in sections["RED-SB-SIDES-BATTLE-PLAYERS"]


def _pages(area: str) -> tuple:
    return RULES.rules_pages(default_catalogue(), default_numbers(), area)


def test_the_heal_rules_are_split_by_section_into_pages_of_a_few_rules() -> None:
    """HEAL 1 has two rules (one page); HEAL 2 twelve (three pages of four); HEAL 3 to 5 four together; the
    superseded HEAL 6 to 10, twelve rules, follow on pages of their own, HEAL 6 (four), HEAL 7 (four), then
    HEAL 8 to 10 (two, one, one)."""
    pages = _pages("heal")
    assert [p.name for p in pages] == ["heal-1-1", "heal-2-1", "heal-2-5", "heal-2-9", "heal-3-1",
                                       "heal-6-1", "heal-7-1", "heal-8-1"]
    assert [p.superseded for p in pages] == [False] * 5 + [True] * 3
    numbers = default_numbers()
    assert [numbers.number(c) for c in pages[3].clause_ids] == ["HEAL 2.9", "HEAL 2.10", "HEAL 2.11", "HEAL 2.12"]
    assert [numbers.number(c) for c in pages[4].clause_ids] == ["HEAL 3.1", "HEAL 3.2", "HEAL 4.1", "HEAL 5.1"]
    area = default_catalogue().area("heal")
    assert pages[3].title(area, numbers) == "Heal abilities: HEAL 2.9 to 2.12"
    assert pages[7].title(area, numbers) == "Heal abilities, superseded wording: HEAL 8.1 to 10.1"


def test_every_rule_is_on_exactly_one_page_in_reading_order_and_links_find_it() -> None:
    catalogue, numbers = default_catalogue(), default_numbers()
    for area in catalogue.areas:
        pages = _pages(area.id)
        shown = [cid for page in pages for cid in page.clause_ids]
        whole = [s for s in _sections(_view(area.id))]  # the whole area's view, in its order
        assert shown == whole, area.id
        assert all(0 < len(page.clause_ids) <= RULES.MAX_RULES_PER_PAGE for page in pages), area.id
        assert len({page.name for page in pages}) == len(pages)
        for page in pages:
            text = "\n".join(RULES.page_lines(catalogue, numbers, area.id, page.name, JUDGES.load_synonyms()))
            assert set(_sections(text)) == set(page.clause_ids), page.name
            assert ("not in force" in text) == page.superseded, page.name
            for clause_id in page.clause_ids:
                assert RULES.rule_page(catalogue, numbers, clause_id) == f"rules/{page.name}"


def test_an_areas_rules_index_lists_every_page_and_rule_and_hides_them_in_its_toctree() -> None:
    catalogue, numbers = default_catalogue(), default_numbers()
    pages = _pages("side-battle")
    index = "\n".join(RULES.area_index_lines(catalogue, numbers, "side-battle", pages))
    for page in pages:
        assert f"<{page.name}>`" in index and f"\n   {page.name}" in index
    for clause in catalogue.select(area="side-battle"):
        assert f"{numbers.number(clause.id)} ({clause.id}) <rule-{clause.id.lower()}>`: " in index
    assert ":hidden:" in index


def test_an_old_bookmark_to_a_rule_on_the_areas_index_goes_on_to_its_page() -> None:
    """While an area's rules were one page, ``rules/heal.html#rule-<id>`` was every heal rule's address: the
    index now sends each such address to the page showing the rule (HEAL 2.9 is on ``heal-2-9``)."""
    catalogue, numbers = default_catalogue(), default_numbers()
    index = "\n".join(RULES.area_index_lines(catalogue, numbers, "heal", _pages("heal")))
    script = re.search(r"var pages=(\{.*?\});", index)
    assert script is not None
    pages = json.loads(script.group(1))
    nine = next(c for c in catalogue.select(area="heal") if numbers.number(c.id) == "HEAL 2.9")
    assert pages[f"rule-{nine.id.lower()}"] == "heal-2-9.html"
    assert set(pages) == {f"rule-{c.id.lower()}" for c in catalogue.select(area="heal")}
    assert "location.replace(" in index
