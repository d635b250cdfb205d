"""Board pictures of the examples' positions (``docs/_ext/cardrules_boards.py``), drawn without a site build.

Which examples get one follows the issue's words: a party and its blocker (the
split) in Final Fantasy TCG, the battle stack during a side battle in
Redemption. What a picture must show is read from the example's own state JSON,
the position the example stores and its "Try it" link carries.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import unescape
from typing import Any

import pytest

from cardrules.oracle.examples import examples_for, stored_examples
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers
from tests.docs.extensions import docs_extension

pytestmark = pytest.mark.infrastructure("the board pictures of the spec site's examples")

BOARDS = docs_extension("cardrules_boards")
RULES = docs_extension("cardrules_rules")
JUDGES = docs_extension("cardrules_judges")
SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    return [unescape(t.text or "") for t in ET.fromstring(svg).iter(f"{SVG}text")]


def _words(svg: str) -> str:
    """The picture's text as one string, lines joined by spaces (a wrapped name reads whole again)."""
    return " ".join(_texts(svg))


def _blocked_party() -> dict[str, Any]:
    found = [e for e in examples_for("FF-PARTY-SPLIT-THOUSANDS")
             if e["state"].get("attack") and e["state"]["attack"]["party"] and e["state"]["attack"]["blocker"]]
    assert found, "the split rule's example is a party attack with a blocker"
    return found[0]


def _side_battle() -> dict[str, Any]:
    found = [e for e in stored_examples() if e["game"] == "redemption"
             and [b["kind"] for b in e["state"]["battles"]][-1:] == ["side"]]
    assert found, "some Redemption example is played during a side battle"
    return found[0]


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_the_split_example_draws_the_party_and_its_blocker_with_their_powers() -> None:
    example = _blocked_party()
    state = example["state"]
    svg = BOARDS.board_svg("fftcg", state)
    words = _words(svg)
    forwards = {f["id"]: f for seat in state["players"] for f in seat["forwards"]}
    attack = state["attack"]
    for forward_id in [*attack["attackers"], attack["blocker"]]:
        forward = forwards[forward_id]
        assert forward["name"] in words, forward["name"]
        assert f"{forward['power']} power" in words, forward
    assert "Player 1's attacking party" in words  # the turn player is Player 1 (the model's player 0)
    assert "blocked by Player 2's Forward" in words
    drawn = [g.get("data-card") for g in ET.fromstring(svg).iter(f"{SVG}g")]
    assert drawn == [*attack["attackers"], attack["blocker"]]  # the party first, then the blocker


@pytest.mark.clause("RED-SB-SUSPEND")
def test_a_side_battle_example_draws_the_stack_top_first_with_every_fighter() -> None:
    example = _side_battle()
    state = example["state"]
    words = _words(BOARDS.board_svg("redemption", state))
    battles = state["battles"]
    top, below = battles[-1], battles[-2]
    assert words.index(f"Battle {top['id']}, a side battle (being fought)") < words.index(f"Battle {below['id']},")
    assert "(on hold)" in words
    cards = {c["id"]: c for c in state["cards"]}
    for battle in battles:
        for side in battle["sides"]:
            for fighter in side:
                card = cards[fighter["card"]]
                assert f"{fighter['card']} ({'/'.join(card['brigades'])}, {card['strength']}/{card['toughness']}" \
                    in words, fighter["card"]


def test_the_examples_that_get_a_picture_are_those_whose_position_matters() -> None:
    """A party attack (blocked or not) or a side battle on the stack: drawn; a plain position: not."""
    for example in stored_examples():
        state = example["state"]
        party = example["game"] == "fftcg" and bool(state.get("attack")) and state["attack"]["party"]
        side = example["game"] == "redemption" and any(b["kind"] == "side" for b in state["battles"])
        assert BOARDS.needs_board(example) == (party or side), example["id"]


def test_every_drawn_example_has_its_picture_in_the_rules_view_under_its_rule() -> None:
    catalogue, numbers, synonyms = default_catalogue(), default_numbers(), JUDGES.load_synonyms()
    views = {area.id: "\n".join(RULES.rules_lines(catalogue, numbers, area.id, synonyms)) for area in catalogue.areas}
    shown = set()
    for clause in catalogue.clauses:
        for example in examples_for(clause.id)[:2]:  # the rules view shows at most two examples of a rule
            if BOARDS.needs_board(example):
                assert f".. cardrules-board:: {example['id']}" in views[clause.area], (clause.id, example["id"])
                shown.add(example["id"])
    assert _blocked_party()["id"] in shown


def test_text_is_wrapped_between_words_and_stays_inside_its_box() -> None:
    # 100 units at font 12 hold 13 characters (100 / (12 * 0.64) = 13.02)
    assert BOARDS.wrap("Evil Character e1 (crimson, 1/2) owned by Player 2", 100) == \
        ["Evil", "Character e1", "(crimson,", "1/2) owned by", "Player 2"]
    for example in (_blocked_party(), _side_battle()):
        root = ET.fromstring(BOARDS.board_svg(example["game"], example["state"], zones=True))
        assert float(root.get("viewBox", "").split()[2]) == 360
        for group in root.iter(f"{SVG}g"):
            rect = group.find(f"{SVG}rect")
            assert rect is not None
            right = float(rect.get("x", 0)) + float(rect.get("width", 0))
            for text in group.iter(f"{SVG}text"):
                # a character is at most 0.64 of the font size wide in DejaVu Sans (capital M: 0.86, but
                # no line of these pictures is all capitals); the browser test measures the real widths
                width = len(text.text or "") * 0.64 * float(text.get("font-size", 12))
                assert float(text.get("x", 0)) + width <= right, text.text


def test_the_pictures_words_are_the_examples_words() -> None:
    """A card is named in the picture as in the example's position text (the same narrator)."""
    example = _side_battle()
    position = example["position"]
    for line in _texts(BOARDS.board_svg("redemption", example["state"])):
        for name in re.findall(r"\b(?:Hero|Evil Character) [a-z0-9]+\b", line):
            assert name in position, name
