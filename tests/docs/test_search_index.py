"""The built site's search index holds what judges search with: the one-word ``sidebattle`` on the side
battle rules, each citable number and clause ID as an entry of its rules view, and each superseded rule
heading marked with the current rule that replaced it (which the search scorer opens instead, on the
rules view's page that holds it)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers

pytestmark = [pytest.mark.infrastructure("the spec site's search index"), pytest.mark.slow]


def _index(site: Path) -> dict[str, Any]:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    start = text.index("(") + 1
    return json.loads(text[start:text.rindex(")")])  # type: ignore[no-any-return]


def _view(docname: str, area: str) -> bool:
    """Whether a document is a page of an area's rules view (``rules/heal-2-9``, split by section)."""
    return re.fullmatch(rf"rules/{re.escape(area)}-\d+-\d+", docname) is not None


def _docs(index: dict[str, Any], value: int | list[int]) -> set[str]:
    return {index["docnames"][i] for i in ([value] if isinstance(value, int) else value)}


def test_the_one_word_spelling_is_a_term_of_the_side_battle_rules(built_site: Path) -> None:
    index = _index(built_site)
    docs = _docs(index, index["terms"]["sidebattl"] if "sidebattl" in index["terms"] else index["terms"]["sidebattle"])
    assert any(_view(doc, "side-battle") for doc in docs), docs


def test_every_number_and_clause_id_is_a_main_entry_of_its_rules_view(built_site: Path) -> None:
    index = _index(built_site)
    numbers = default_numbers()
    for clause in default_catalogue().clauses:
        for entry in (numbers.number(clause.id).lower(), clause.id.lower()):
            places = {(index["docnames"][file], main) for file, _, main in index["indexentries"][entry]}
            assert any(main and _view(doc, clause.area) for doc, main in places), (entry, places)


def test_a_superseded_heading_names_the_current_rule_found_on_its_page(built_site: Path) -> None:
    index = _index(built_site)
    numbers = default_numbers()
    heal = {file for file, doc in enumerate(index["docnames"]) if _view(doc, "heal")}
    assert len(heal) > 1  # the heal rules, split into pages
    titles = {title for title, places in index["alltitles"].items() if any(file in heal for file, _ in places)}
    old, new = numbers.number("RED-HEAL-PREV-TO-OWNER"), numbers.number("RED-HEAL-TO-PERMANENT-CONTROLLER")
    superseded = [t for t in titles if t.startswith(f"{old} \u00b7 RED-HEAL-PREV-TO-OWNER")]
    assert len(superseded) == 1 and f"(superseded by {new})" in superseded[0]
    assert any(t.startswith(f"{new} \u00b7 RED-HEAL-TO-PERMANENT-CONTROLLER:") for t in titles)
    # a current rule's heading is never marked
    assert not any("superseded by" in t for t in titles if "RED-HEAL-PREV-" not in t)
