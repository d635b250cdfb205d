"""Targeted positions and refusals: what sampling the scenarios' graphs never reaches (issue 10, part 2).

Positions: ``positions/*.json`` beside this module are small starting
positions in the embedded scenarios' format, written for the outcomes that
a mutant of a rule changes and the scenarios (explored only so far for a
suite) never show: a party blocked by a Pre-emptive Strike blocker, a damage
split at the 1000 boundary, and so on (each file's ``description`` says
which). ``cardrules conformance generate`` explores each of them, within its
own ``bounds``, beside the scenarios of its game.

Kept plays: a position may name in :data:`KEPT_PLAYS` the plays whose
outcome it was written for (a Brave party member staying active, a turn
ending with dull Forwards on both sides); the set cover keeps each of them
as a vector of the suite it names, as their outcome differs from another
vector's only in values (which member is dulled, who is credited), not in
the model's branches that the coverage features tell apart.

Refusals:

The refusal candidates of :mod:`.candidates` re-use action texts seen
elsewhere in a scenario's graph, so a refusal no scenario ever comes close to
(a heal aimed at a card that is not a character) is never tried. Each entry
of :data:`TARGETED` derives, from a state's JSON form and its legal action
texts, the action texts that break one clause; the generator keeps those the
model refuses citing that clause.
"""

from __future__ import annotations

from dataclasses import dataclass
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


REDIRECT_ABILITIES = ("redirect-ability", "redirect-both")
"""Card abilities that may redirect an ability in the Redemption state JSON (RED-RD-TWO-KINDS)."""


def _redirect_plays(state: Any, legal: Callable[[], Sequence[str]]) -> list[tuple[str, str]]:
    """(redirect card, the character it is played on) of every legal play of a card that may redirect an
    ability, in the order of the legal action texts, each pair once."""
    cards = state.get("cards", []) if isinstance(state, dict) else []
    redirects = {c["id"] for c in cards if c.get("ability") in REDIRECT_ABILITIES}
    out: list[tuple[str, str]] = []
    for text in legal():
        words = text.split(" ")
        if len(words) >= 4 and words[0] == "play" and words[2] == "on" and words[1] in redirects:
            if (words[1], words[3]) not in out:
                out.append((words[1], words[3]))
    return out


def redirect_of_an_ability_not_interrupted(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ONLY-INTERRUPTED: a legal redirect play re-aimed at an ability that is not interrupted
    (``#m`` of a play record not pending), ability alone."""
    records = state.get("records", []) if isinstance(state, dict) else []
    done = sorted(r["id"] for r in records if r.get("status") != "pending")
    return [f"play {card} on {on} -> #{m}" for card, on in _redirect_plays(state, legal) for m in done]


def redirect_of_an_ability_aimed_at_a_card(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ABILITY-TARGET: a legal redirect play aimed at a card instead of an ability ``#n``; the cards
    whose id ends in the number of an existing play record come first (``e1`` beside ``#1``), the target an
    engine most easily mistakes for an ability reference."""
    records = {str(r["id"]) for r in (state.get("records", []) if isinstance(state, dict) else [])}
    cards = sorted(c["id"] for c in (state.get("cards", []) if isinstance(state, dict) else []))
    cards.sort(key=lambda c: c[1:] not in records)
    return [f"play {card} on {on} -> {c}" for card, on in _redirect_plays(state, legal) for c in cards]


def split_off_the_unit(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """FF-BASE-PARTY-SPLIT: the first legal split of the blocker's damage with 500 moved from its (first)
    largest share to the next member: the same members and total, in shares that are not whole thousands."""
    for text in legal():
        words = text.split(" ")
        if words[0] != "split" or len(words) < 3:
            continue
        members = [w.split("=", 1)[0] for w in words[1:]]
        amounts = [int(w.split("=", 1)[1]) for w in words[1:]]
        largest = amounts.index(max(amounts))
        if amounts[largest] < 500:
            return []
        amounts[largest] -= 500
        amounts[(largest + 1) % len(amounts)] += 500
        return ["split " + " ".join(f"{m}={a}" for m, a in zip(members, amounts))]
    return []


TARGETED: Mapping[str, tuple[tuple[str, tuple[Derive, ...]], ...]] = {
    "redemption": (
        ("RED-HEAL-ONLY-CHARACTERS", (legal_heal_aimed_at_a_non_character, any_heal_aimed_at_a_non_character)),
        ("RED-RD-ONLY-INTERRUPTED", (redirect_of_an_ability_not_interrupted,)),
        ("RED-RD-ABILITY-TARGET", (redirect_of_an_ability_aimed_at_a_card,)),
    ),
    "fftcg": (
        ("FF-BASE-PARTY-SPLIT", (split_off_the_unit,)),
    ),
}
"""Game -> (clause ID, derivations tried in order): the first derivation that gives, at some state (shallowest
first), an action the model refuses citing the clause is used."""


@dataclass(frozen=True)
class KeptPlay:
    """A play of a targeted position that the suite of ``rule_set`` keeps as a vector: the shortest path to the
    state reached by ``actions`` without the last one, then the last one."""

    position: str
    actions: tuple[str, ...]
    shows: str
    """What the play shows (the outcome a misreading of the rule changes)."""
    rule_set: str = "default"
    """The expression of the suite plan that keeps it."""


KEPT_PLAYS: tuple[KeptPlay, ...] = (
    KeptPlay("conformance-fftcg-brave-and-cost-restriction", ("attack a1",),
             "a Brave Forward attacking alone stays active (FF-BASE-ATTACK-DULLS)"),
    KeptPlay("conformance-fftcg-brave-and-cost-restriction", ("attack a1 a2",),
             "a Brave party member stays active, its partner is dulled (FF-PARTY-DULL-ALL, party-brave-members)"),
    KeptPlay("conformance-fftcg-brave-and-cost-restriction", ("attack a2", "pass"),
             "a cost 3 Forward cannot block an attacker unblockable by cost 3 or more, a cost 2 one can (FF-BASE-BLOCK)"),
    KeptPlay("conformance-fftcg-end-turn-dull-forwards",
             ("attack a1", "pass", "noblock", "pass", "pass", "pass", "end-turn", "end-turn"),
             "each turn's end makes only the new turn player's Forwards active, over two turns (FF-BASE-END-OF-TURN)"),
    KeptPlay("conformance-fftcg-party-member-leaves-preemptive",
             ("block b1", "remove a3", "pass", "pass"),
             "the members left all have Pre-emptive Strike and deal first; the break is credited to them only "
             "(FF-PARTY-PREEMPTIVE-ALL, FF-PARTY-BREAK-CREDIT)"),
    KeptPlay("conformance-fftcg-smallest-power", ("attack a2", "pass", "block b1", "pass", "pass"),
             "a blocker of power 1 deals 1 damage; power 1 Forwards are not broken (FF-BASE-BLOCKED-EXCHANGE, "
             "FF-BASE-BREAK-ZERO-POWER, FF-BASE-BREAK-DAMAGE)"),
    KeptPlay("conformance-fftcg-smallest-power", ("attack a1 a2", "pass", "block b2", "pass", "split a1=4000 a2=0"),
             "a party member of power 1 deals its own damage event of 1 (FF-PARTY-BLOCKED-SUM, party-damage-source)"),
)
"""The plays the targeted positions were written for (see the module docstring)."""


def kept_plays(position: str, rule_set: str) -> list[KeptPlay]:
    """The kept plays of one position in the suite of one rule-set expression."""
    return [k for k in KEPT_PLAYS if k.position == position and k.rule_set == rule_set]
