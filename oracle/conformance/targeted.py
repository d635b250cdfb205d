"""Targeted positions and refusals: what sampling the scenarios' graphs never reaches (issue 10, part 2).

Positions: ``positions/*.json`` beside this module are small starting
positions in the embedded scenarios' format, written for the outcomes that
a mutant of a rule changes and the scenarios (explored only so far for a
suite) never show: a party blocked by a Pre-emptive Strike blocker, a damage
split at the 1000 boundary, and so on (each file's ``description`` says
which). ``cardrules conformance generate`` explores each of them, within its
own ``bounds``, beside the scenarios of its game.

Refusals:

The refusal candidates of :mod:`.candidates` re-use action texts seen
elsewhere in a scenario's graph, so a refusal no scenario ever comes close to
(a heal aimed at a card that is not a character) is never tried. Each entry
of :data:`TARGETED` derives, from a state's JSON form and its legal action
texts, the action texts that break one clause; the generator keeps those the
model refuses citing that clause.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardrules.properties.scenarios import Scenario, load_scenario

POSITIONS_DIR = Path(__file__).with_name("positions")


def load_positions() -> list[Scenario]:
    """The targeted conformance positions, by file name."""
    return [load_scenario(path) for path in sorted(POSITIONS_DIR.glob("*.json"))]

Derive = Callable[[Any, Callable[[], Sequence[str]]], list[str]]
"""(state JSON, sorted legal action texts on demand) -> action texts aimed at the clause."""


HEAL_ABILITIES = ("heal", "restore")
"""Card abilities that are heals in the Redemption state JSON (RED-HEAL-RESTORE-IS-HEAL)."""


def _heal_cards(state: Any) -> list[str]:
    """Ids of the cards with a heal ability, sorted."""
    cards = state.get("cards", []) if isinstance(state, dict) else []
    return sorted(c["id"] for c in cards if c.get("ability") in HEAL_ABILITIES)


def _non_characters(state: Any, source: str) -> list[str]:
    """Ids of the cards that are not characters, other than ``source``, sorted."""
    cards = state.get("cards", []) if isinstance(state, dict) else []
    return sorted(c["id"] for c in cards if c.get("type") != "character" and c.get("id") != source)


def legal_heal_aimed_at_a_non_character(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-HEAL-ONLY-CHARACTERS: the first legal ``heal T with S`` re-aimed at a card that is not a character
    (the first by id other than the heal's own source: an enhancement, a lost soul, ...)."""
    if not _heal_cards(state):
        return []
    for text in legal():
        words = text.split(" ")
        if len(words) == 4 and words[0] == "heal" and words[2] == "with":
            others = _non_characters(state, words[3])
            return [f"heal {others[0]} with {words[3]}"] if others else []
    return []


def any_heal_aimed_at_a_non_character(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-HEAL-ONLY-CHARACTERS, where no heal is legal: the first card with a heal ability aimed at a card
    that is not a character (the target is what the clause forbids, whatever the moment)."""
    for source in _heal_cards(state):
        others = _non_characters(state, source)
        if others:
            return [f"heal {others[0]} with {source}"]
    return []


TARGETED: Mapping[str, tuple[tuple[str, tuple[Derive, ...]], ...]] = {
    "redemption": (
        ("RED-HEAL-ONLY-CHARACTERS", (legal_heal_aimed_at_a_non_character, any_heal_aimed_at_a_non_character)),
    ),
    "fftcg": (),
}
"""Game -> (clause ID, derivations tried in order): the first derivation that gives, at some state (shallowest
first), an action the model refuses citing the clause is used."""
