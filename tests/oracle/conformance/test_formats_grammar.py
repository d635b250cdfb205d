"""The action grammar: it matches every action text of the suites and the explored scenarios, accepts
exactly the texts the model's parser accepts, and gives the canonical text the model writes."""

from __future__ import annotations

import random
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg import actions as ff_actions
from cardrules.model.redemption import actions as red_actions
from cardrules.oracle.conformance.formats.grammar import GRAMMARS, ebnf, examples, matches, normal_form

from .test_formats_support import explored, generated_suites

pytestmark = pytest.mark.infrastructure("the conformance formats for implementers")

PARSERS = {"fftcg": ff_actions.parse_action, "redemption": red_actions.parse}
ACTION_TYPES = {"fftcg": ff_actions.Action, "redemption": red_actions.Action}


def _canonical(game: str, text: str) -> str | None:
    """The model's canonical text of ``text``, or None when its parser refuses it."""
    try:
        return GRAMMARS[game].canonical(text)
    except ScenarioError:
        return None


def _suite_texts(suites_dir: Path) -> dict[str, set[str]]:
    texts: dict[str, set[str]] = {"fftcg": set(), "redemption": set()}
    for suite in generated_suites(suites_dir):
        found = texts[suite["game"]]
        for vector in suite["vectors"]:
            found.update(vector.get("legal_actions", ()))
            found.update(vector.get("divide", {}))
            for step in vector.get("steps", ()):
                found.add(step["action"])
                found.update(step["legal_actions"])
            if "refuse" in vector:
                found.add(vector["refuse"]["action"])
    return texts


def test_every_action_text_of_the_suites_is_in_normal_form(suites_dir: Path) -> None:
    for game, texts in _suite_texts(suites_dir).items():
        assert len(texts) > 20
        for text in texts:
            assert normal_form(game, text) == text, (game, text)


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_every_action_met_exploring_the_scenarios_is_in_normal_form(game: str) -> None:
    texts = explored(game).actions
    verbs = {t.split()[0] for t in texts}
    assert len(verbs) >= 5
    for text in texts:
        assert normal_form(game, text) == text, text


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_each_form_is_one_kind_of_action_of_the_model_and_every_kind_has_a_form(game: str) -> None:
    kinds = set()
    for text in examples(game):
        action = PARSERS[game](text)
        kinds.add(type(action))
        assert _canonical(game, text) == normal_form(game, text) == text
    assert kinds == set(typing.get_args(ACTION_TYPES[game]))
    assert all(f'"{form.name.split("-")[0]}' in ebnf(game) for form in GRAMMARS[game].forms)


VOCABULARY = {
    "fftcg": ["attack", "block", "noblock", "split", "remove", "pass", "end-turn", "a1", "a2", "b1", "A_9-z",
              "a1=3000", "a2=0", "a1=0003000", "a1=999990", "a1=999991", "a1=12345678", "a1=", "=5", "a1=3=0",
              "a1=٣", "a.1", "é", "a" * 64, "a" * 65, "#1", "->", "on", "²"],
    "redemption": ["draw", "next", "put", "attack", "block", "noblock", "play", "pass", "sides", "use",
                   "decline", "discard", "heal", "on", "with", "->", "h1", "e1", "c1", "#1", "#0012", "#",
                   "#x", "#1234567", "1", "007", "1234567", "٣", "²", "é", "=", "x" * 64, "x" * 65],
}
SPACES = [" ", "  ", "\t", "\u00a0", "\u2003", "\x1c", "\n"]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(game=st.sampled_from(["fftcg", "redemption"]), seed=st.integers(0, 2**32), size=st.integers(1, 6))
def test_the_grammar_and_the_parser_accept_the_same_texts(game: str, seed: int, size: int) -> None:
    rng = random.Random(seed)
    words = VOCABULARY[game]
    tokens = [rng.choice(words[:13] if n == 0 and rng.random() < 0.8 else words) for n in range(size)]
    text = "".join(rng.choice(SPACES) + t for t in tokens)[rng.randint(0, 1):] + rng.choice(["", " ", "\n"])
    assert normal_form(game, text) == _canonical(game, text), repr(text)


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_mutated_texts_of_the_explored_actions_get_the_same_verdict(game: str) -> None:
    """Each explored text with a token dropped, doubled, swapped with its neighbour or replaced by a word
    of the vocabulary: grammar and parser agree, on acceptance and on the normal form."""
    rng = random.Random(1)
    texts = sorted(explored(game).actions)
    agreed = refused = 0
    for text in rng.sample(texts, min(300, len(texts))):
        tokens = text.split()
        at = rng.randrange(len(tokens))
        variants = [tokens[:at] + tokens[at + 1:], tokens[:at + 1] + tokens[at:],
                    tokens[:at] + [rng.choice(VOCABULARY[game])] + tokens[at + 1:],
                    tokens[:at] + tokens[at + 1:at + 2] + tokens[at:at + 1] + tokens[at + 2:]]
        for variant in variants:
            mutated = " ".join(variant)
            expected = _canonical(game, mutated)
            assert normal_form(game, mutated) == expected, repr(mutated)
            agreed += 1
            refused += expected is None
    assert agreed >= 200 and refused >= 20


def test_the_length_bound_is_the_parsers() -> None:
    for game, grammar in GRAMMARS.items():
        head = "attack" if game == "fftcg" else "put"
        fits = head + " " + "x" * (grammar.max_length - len(head) - 1)
        assert len(fits) == grammar.max_length
        over = fits + " "
        assert matches(game, over) is (_canonical(game, over) is not None) is False
        assert (normal_form(game, fits) is None) is (_canonical(game, fits) is None)
