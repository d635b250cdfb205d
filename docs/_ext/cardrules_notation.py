"""Sphinx extension part: the notation page's examples, one position in the players' words and in the compact
text that engine authors read in conformance vectors, rule diffs and counterexamples.

``.. cardrules-notation:: EXAMPLE-ID ...`` renders, for each stored example
(:mod:`cardrules.oracle.examples`), its position as the rules views word it and
the one line the engines print for the same state (``summary`` of
:mod:`cardrules.properties.games`), both computed from the example's state,
so the page cannot drift from either.
"""

from __future__ import annotations

from typing import Any

from cardrules_rst import RstDirective, escape
from docutils import nodes


def compact_text(example: dict[str, Any]) -> str:
    """The engines' one-line summary of an example's position."""
    from cardrules.properties.games import make_game
    from cardrules.properties.scenarios.rulesets import parse_rule_set_expression

    game = make_game(example["game"], parse_rule_set_expression(example["rules"]).spec)
    return str(game.summary(game.state_from_json(example["state"])))


def notation_lines(example_ids: list[str]) -> list[str]:
    """The reST of ``.. cardrules-notation::``: per example, the words, the compact line and the action."""
    from cardrules.oracle.examples import stored_examples

    examples = {e["id"]: e for e in stored_examples()}
    lines: list[str] = []
    for example_id in example_ids:
        example = examples.get(example_id)
        if example is None:
            raise ValueError(f"no stored example {example_id!r}")
        lines += [f".. rubric:: A {'Final Fantasy TCG' if example['game'] == 'fftcg' else 'Redemption'} position", "",
                  f"**In words.** {escape(example['position'])}", "", "**In the compact notation:**", "",
                  ".. code-block:: text", "", f"   {compact_text(example)}", "",
                  f"**Then, in words:** {escape(example['event'])} **As an action text:** "
                  + ", ".join(f"``{a}``" for a in example["actions"]), ""]
    return lines


class NotationDirective(RstDirective):
    """``.. cardrules-notation:: EXAMPLE-ID ...``: stored examples in words and in the compact notation."""

    required_arguments = 1
    optional_arguments = 20

    def run(self) -> list[nodes.Node]:
        from cardrules.oracle.examples import EXAMPLES_FILE

        self.env.note_dependency(str(EXAMPLES_FILE))
        try:
            return self.render(notation_lines(list(self.arguments)))
        except ValueError as problem:
            raise self.error(f"cardrules-notation: {problem}") from None
