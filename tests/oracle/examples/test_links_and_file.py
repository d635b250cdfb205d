"""The "Try it" links, the examples file being current, and what the examples package may import."""

from __future__ import annotations

import ast
import base64
import json

import pytest

from cardrules.oracle.examples import EXAMPLES_FILE
from cardrules.oracle.examples.generate import build, compact_document
from cardrules.oracle.examples.links import playground_link, position_from_fragment
from cardrules.specs.fileio import read_text
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the examples' links and file")


def test_a_link_carries_game_rules_and_the_position_as_base64url_of_compact_json() -> None:
    state = {"b": [1, 2], "a": "x y/z+?"}
    link = playground_link("redemption", "heal=previous,sb-user-outside-battle=any-player", state)
    page, _, fragment = link.partition("#")
    assert page == ("../playground.html?game=redemption"
                    "&rules=heal%3Dprevious%2Csb-user-outside-battle%3Dany-player")
    assert "=" not in fragment and "+" not in fragment and "/" not in fragment
    compact = '{"a":"x y/z+?","b":[1,2]}'
    assert base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4)).decode() == compact
    assert position_from_fragment(fragment) == state


def test_the_default_rule_set_link() -> None:
    assert playground_link("fftcg", "default", {}).startswith("../playground.html?game=fftcg&rules=default#")


@pytest.mark.slow
def test_the_stored_examples_are_what_generation_writes_today() -> None:
    """``python -m cardrules.oracle.examples`` writes the file again when the model or the catalogue changes."""
    assert read_text(EXAMPLES_FILE, 16_000_000) == compact_document(build())


def test_the_file_is_one_example_a_line() -> None:
    lines = read_text(EXAMPLES_FILE, 16_000_000).splitlines()
    assert lines[0].startswith('{"format":"cardrules-examples/1"')
    assert all(json.loads(line.rstrip(","))["id"] for line in lines[1:-1])


def test_the_package_never_imports_the_z3_encoding() -> None:
    for path in sorted((REPO / "oracle" / "examples").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any("specs.smt" in n or n.startswith("z3") for n in names), path.name
