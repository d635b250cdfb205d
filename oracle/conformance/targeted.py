"""Targeted positions and refusals: what sampling the scenarios' graphs never reaches.

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

from cardrules.oracle.conformance.targeted_fftcg import party_without_a_common_element, split_off_the_unit
from cardrules.properties.scenarios import Scenario, load_scenario

POSITIONS_DIR = Path(__file__).with_name("positions")


def load_positions() -> list[Scenario]:
    """The targeted conformance positions, by file name."""
    return [load_scenario(path) for path in sorted(POSITIONS_DIR.glob("*.json"))]

TARGETED_STATES: Mapping[str, int] = {"redemption": 200}
"""Game -> the shallowest expanded states of a graph at which the derivations are tried (bounds the cost of an
entry whose clause no state gives: Redemption has many, the heal ones tried at every state); a game not named
here tries every expanded state."""

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


def _not_interrupted(state: Any) -> list[int]:
    """The ids of the play records that are not interrupted (not pending), sorted (RED-RD-ONLY-INTERRUPTED)."""
    records = state.get("records", []) if isinstance(state, dict) else []
    return sorted(r["id"] for r in records if r.get("status") != "pending")


def redirect_of_an_ability_not_interrupted(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ONLY-INTERRUPTED: a legal redirect play re-aimed at an ability that is not interrupted
    (``#m`` of a play record not pending), ability alone."""
    done = _not_interrupted(state)
    return [f"play {card} on {on} -> #{m}" for card, on in _redirect_plays(state, legal) for m in done]


def redirect_of_both_with_new_targets_not_interrupted(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ONLY-INTERRUPTED: a legal redirect of both with new targets (``play R on C -> #n T``) re-aimed at
    each ability ``#m`` that is not interrupted, the new targets kept: its numbers alone may be redirected, its
    ability may not."""
    done = _not_interrupted(state)
    for words in _legal_plays_of(state, legal, ("redirect-both",)):
        if len(words) == 7 and words[5].startswith("#"):
            return [f"{' '.join(words[:5])} #{m} {words[6]}" for m in done]
    return []


def redirect_of_an_ability_aimed_at_a_card(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ABILITY-TARGET: a legal redirect play aimed at a card instead of an ability ``#n``; the cards
    whose id ends in the number of an existing play record come first (``e1`` beside ``#1``), the target an
    engine most easily mistakes for an ability reference."""
    records = {str(r["id"]) for r in (state.get("records", []) if isinstance(state, dict) else [])}
    cards = sorted(c["id"] for c in (state.get("cards", []) if isinstance(state, dict) else []))
    cards.sort(key=lambda c: c[1:] not in records)
    return [f"play {card} on {on} -> {c}" for card, on in _redirect_plays(state, legal) for c in cards]


def _legal_plays_of(state: Any, legal: Callable[[], Sequence[str]], abilities: tuple[str, ...]) -> list[list[str]]:
    """The words of every legal ``play R on C -> ...`` of a card whose ability is one of ``abilities``."""
    cards = state.get("cards", []) if isinstance(state, dict) else []
    wanted = {c["id"] for c in cards if c.get("ability") in abilities}
    return [words for text in legal() if len(words := text.split(" ")) >= 6 and words[0] == "play"
            and words[1] in wanted and words[4] == "->"]


def _card_ids(state: Any) -> list[str]:
    return sorted(c["id"] for c in (state.get("cards", []) if isinstance(state, dict) else []))


def redirect_of_an_ability_aimed_at_a_card_named_like_a_record(
    state: Any, legal: Callable[[], Sequence[str]]
) -> list[str]:
    """RED-RD-ABILITY-TARGET: :func:`redirect_of_an_ability_aimed_at_a_card`, only at a state where some card's
    id ends in the number of an existing play record (``e1`` beside ``#1``), and only those cards: an engine
    that reads ``e1`` as ability 1 refuses it for another clause."""
    records = {str(r["id"]) for r in (state.get("records", []) if isinstance(state, dict) else [])}
    cards = sorted(c["id"] for c in (state.get("cards", []) if isinstance(state, dict) else [])
                   if c["id"][1:] in records)
    return [f"play {card} on {on} -> {c}" for card, on in _redirect_plays(state, legal) for c in cards]


def redirect_with_its_targets_reversed(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ABILITY-TARGET: the first legal redirect of an interrupted ability with new targets (``play R on
    C -> #n T``) with its targets given the other way round (``-> T #n``): the ability ``#n`` comes first."""
    for words in _legal_plays_of(state, legal, REDIRECT_ABILITIES):
        if len(words) == 7 and words[5].startswith("#"):
            return [" ".join([*words[:5], words[6], words[5]])]
    return []


def redirect_of_numbers_aimed_outside_battle(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-NUMBERS-TARGET: a legal numbers redirect (``play R on C -> X``) re-aimed at each card that is no
    legal target of it (a card outside the battle), by id."""
    out: list[str] = []
    for words in _legal_plays_of(state, legal, ("redirect-numbers",)):
        head = " ".join(words[:5])
        aimed = {" ".join(w[5:]) for w in _legal_plays_of(state, legal, ("redirect-numbers",)) if w[:5] == words[:5]}
        out.extend(f"{head} {c}" for c in _card_ids(state) if c not in aimed and c not in words[1:4])
        if out:
            return out
    return out


def redirect_of_an_ability_that_does_not_exist(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-ABILITY-TARGET: a legal redirect play aimed at ``#n`` for the next play record number (no such
    ability yet)."""
    number = state.get("next_record", 1) if isinstance(state, dict) else 1
    return [f"play {card} on {on} -> #{number}" for card, on in _redirect_plays(state, legal)]


def redirect_to_an_illegal_new_target(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-NEW-TARGETS: a legal redirect of an interrupted ability (``play R on C -> #n T``) with ``T``
    replaced by each card that is no legal new target of it, by id."""
    plays = _legal_plays_of(state, legal, REDIRECT_ABILITIES)
    for words in plays:
        if len(words) != 7 or not words[5].startswith("#"):
            continue
        head = " ".join(words[:6])
        aimed = {w[6] for w in plays if len(w) == 7 and w[:6] == words[:6]}
        out = [f"{head} {c}" for c in _card_ids(state) if c not in aimed]
        if out:
            return out
    return []


def redirect_of_both_aimed_at_a_redirect(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-RD-NEW-TARGETS: a legal play of a card that redirects both, aimed at ``#m`` alone where ``m`` is a
    redirect's own play record or a blanked one (never a numbers or ability redirect target)."""
    cards = {c["id"]: c.get("ability") for c in (state.get("cards", []) if isinstance(state, dict) else [])}
    records = state.get("records", []) if isinstance(state, dict) else []
    aimed = sorted(r["id"] for r in records if str(r.get("effect", "")).startswith("redirect")
                   or r.get("status") == "blanked")
    return [f"play {card} on {on} -> #{m}" for card, on in _redirect_plays(state, legal)
            if cards.get(card) == "redirect-both" for m in aimed]


def _side_battle_cards(state: Any) -> set[str]:
    cards = state.get("cards", []) if isinstance(state, dict) else []
    return {c["id"] for c in cards if c.get("ability") == "side-battle"}


def side_battle_without_its_two_characters(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-BASE-ENHANCEMENTS, RED-SB-TARGETS-TWO: a side battle card played (``play S on C``) or used from
    outside the battle (``use S``) without the two characters it selects, where a legal play or use selects
    two (it is not a blank play: there is something to select)."""
    cards = _side_battle_cards(state)
    out: list[str] = []
    for text in legal():
        words = text.split(" ")
        if words[0] == "play" and len(words) == 7 and words[1] in cards and words[4] == "->":
            out.append(" ".join(words[:4]))
        elif words[0] == "use" and len(words) == 5 and words[1] in cards and words[2] == "->":
            out.append(f"use {words[1]}")
    return list(dict.fromkeys(out))


def side_battle_used_by_a_battling_player(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-SB-SIDES-BATTLE-PLAYERS: ``use S`` (the way a player outside the battle uses a side battle card,
    decision sb-user-outside-battle) for a side battle card held by a player who fights the battle (they play
    it on a character of theirs instead), with and without a legal pair, while a battling player holds
    initiative to play."""
    battles = state.get("battles", []) if isinstance(state, dict) else []
    if not battles or (state.get("prompt") or {}).get("kind") != "play":
        return []  # a battling player's card, while a battling player holds initiative to play
    zones = state.get("zones", [])
    cards = _side_battle_cards(state)
    held = sorted(c for p in battles[-1].get("players", []) if 0 <= p < len(zones) for c in zones[p].get("hand", [])
                  if c in cards)
    pairs = [" ".join(t.split(" ")[5:]) for t in legal() if t.startswith("play ") and t.split(" ")[1] in cards
             and len(t.split(" ")) == 7]
    return [f"use {c}" + (f" -> {p}" if p else "") for c in held for p in ["", *pairs[:1]]]


def _first_legal_attack(legal: Callable[[], Sequence[str]]) -> list[str] | None:
    """The words of the first legal ``attack P H1 [H2 ...]``, if any."""
    for text in legal():
        words = text.split(" ")
        if len(words) >= 3 and words[0] == "attack":
            return words
    return None


def attack_on_the_attacking_player(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-BASE-RESCUE-OR-CHALLENGE: the first legal attack re-aimed at the turn's player themselves (Heroes are
    sent against an opponent)."""
    words = _first_legal_attack(legal)
    if words is None or not isinstance(state, dict) or not isinstance(state.get("active"), int):
        return []
    return [" ".join(["attack", str(state["active"]), *words[2:]])]


def attack_on_a_player_not_in_the_game(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-BASE-RESCUE-OR-CHALLENGE: the first legal attack re-aimed at player ``n`` in a game of ``n`` players
    (numbered from 0: the first index that names no player)."""
    words = _first_legal_attack(legal)
    if words is None or not isinstance(state, dict) or not isinstance(state.get("zones"), list):
        return []
    return [" ".join(["attack", str(len(state["zones"])), *words[2:]])]


def play_of_a_card_not_in_the_game(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """RED-BASE-ENHANCEMENTS: the first legal ``play E on C ...`` with ``E`` replaced by an id no card of the
    game has (``E`` followed by as many ``x`` as it takes): no enhancement of the player's hand."""
    ids = set(_card_ids(state))
    for text in legal():
        words = text.split(" ")
        if len(words) >= 4 and words[0] == "play" and words[2] == "on":
            card = words[1] + "x"
            while card in ids:
                card += "x"
            return [" ".join(["play", card, *words[2:]])]
    return []


HEAL_VARIANTS_PER_STATE = 12
"""At most this many heal actions :func:`heal_variants` derives at one state."""


def heal_variants(state: Any, legal: Callable[[], Sequence[str]]) -> list[str]:
    """The heals an engine must refuse for one reason or another (the branches of the model's explanation: a
    source without a heal, the wrong moment or player, a target not healable, a character's heal without
    Territory Class or decreased, an enhancement off brigade, ...): each legal ``heal T with X`` with ``T``
    replaced by every other character and ``X`` by every other card with a heal, or at a state with no legal
    heal, every card with a heal aimed at every character; at most :data:`HEAL_VARIANTS_PER_STATE`, in order."""
    cards = state.get("cards", []) if isinstance(state, dict) else []
    characters = sorted(c["id"] for c in cards if c.get("type") == "character")
    sources = _heal_cards(state)
    if not sources:
        return []
    texts = [t for t in legal() if t.startswith("heal ")]
    out: list[str] = []
    for text in texts:
        words = text.split(" ")
        if len(words) != 4:
            continue
        out.extend(f"heal {t} with {words[3]}" for t in characters if t != words[1])
        out.extend(f"heal {words[1]} with {x}" for x in sorted({*sources, *characters}) if x != words[3])
    if not texts:
        out.extend(f"heal {t} with {x}" for x in sources for t in characters if t != x)
    legal_set = set(texts)
    return [t for t in dict.fromkeys(out) if t not in legal_set][:HEAL_VARIANTS_PER_STATE]


HEAL_REFUSAL_CLAUSES = (
    "RED-BASE-INITIATIVE", "RED-HEAL-ENH-PHASES", "RED-HEAL-PREV-ENH-INITIATIVE", "RED-HEAL-WINDOW",
    "RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-PREV-NOT-FROM-HAND-DECK",
    "RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-RESTORES-DECREASE", "RED-HEAL-CHARACTER-TC",
    "RED-HEAL-WINDOW-MEANS", "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-PREV-ENH-TWO-WAYS",
    "RED-HEAL-PREV-PILE-SAME-CHARACTER",
)
"""The clauses a refused heal may be blamed on (the branches of ``model.redemption.healable.explain``): one
targeted refusal each, from :func:`heal_variants`. Not RED-HEAL-TARGETS-HEALED (the model cites it for a source
with no heal ability, which that clause does not state) nor RED-BASE-ENHANCEMENTS (cited for a healing
enhancement named in ``heal`` during battle, where the model's action is ``play E on C``: a matter of the
model's action forms, not of the brigade rule): a targeted vector must not require another engine to cite a
clause for a reason the clause's text does not give."""


TARGETED: Mapping[str, tuple[tuple[str, tuple[Derive, ...]], ...]] = {
    "redemption": (
        ("RED-HEAL-ONLY-CHARACTERS", (legal_heal_aimed_at_a_non_character, any_heal_aimed_at_a_non_character)),
        ("RED-RD-ONLY-INTERRUPTED", (redirect_of_an_ability_not_interrupted,)),
        ("RED-RD-ONLY-INTERRUPTED", (redirect_of_both_with_new_targets_not_interrupted,)),
        ("RED-RD-ABILITY-TARGET", (redirect_of_an_ability_aimed_at_a_card,)),
        ("RED-RD-ABILITY-TARGET", (redirect_of_an_ability_that_does_not_exist,)),
        ("RED-RD-ABILITY-TARGET", (redirect_of_an_ability_aimed_at_a_card_named_like_a_record,)),
        ("RED-RD-ABILITY-TARGET", (redirect_with_its_targets_reversed,)),
        ("RED-RD-NUMBERS-TARGET", (redirect_of_numbers_aimed_outside_battle,)),
        ("RED-RD-NEW-TARGETS", (redirect_to_an_illegal_new_target,)),
        ("RED-RD-NEW-TARGETS", (redirect_of_both_aimed_at_a_redirect,)),
        ("RED-BASE-ENHANCEMENTS", (side_battle_without_its_two_characters,)),
        ("RED-SB-TARGETS-TWO", (side_battle_without_its_two_characters,)),
        ("RED-SB-SIDES-BATTLE-PLAYERS", (side_battle_used_by_a_battling_player,)),
        ("RED-BASE-RESCUE-OR-CHALLENGE", (attack_on_the_attacking_player,)),
        ("RED-BASE-RESCUE-OR-CHALLENGE", (attack_on_a_player_not_in_the_game,)),
        ("RED-BASE-ENHANCEMENTS", (play_of_a_card_not_in_the_game,)),
        *((clause, (heal_variants,)) for clause in HEAL_REFUSAL_CLAUSES),
    ),
    "fftcg": (
        ("FF-BASE-PARTY-SPLIT", (split_off_the_unit,)),
        ("FF-PARTY-ELEMENT", (party_without_a_common_element,)),
    ),
}
"""Game -> (clause ID, derivations tried in order): the first derivation that gives, at some state (shallowest
first), an action the model refuses citing the clause is used. A clause may have several entries (one per
way of breaking it: a redirect aimed at a card, or at an ability that does not exist)."""


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


def _in_both_versions(position: str, actions: tuple[str, ...], shows: str) -> tuple[KeptPlay, ...]:
    """The same kept play in the suites of both Redemption heal versions (heal=revised, heal=previous)."""
    return tuple(KeptPlay(position, actions, shows, rule_set) for rule_set in ("heal=revised", "heal=previous"))


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
    KeptPlay("conformance-redemption-rescue-wins-game",
             ("attack 1 h1", "block e1", "play ds0 on h1", "pass", "discard", "discard"),
             "a mutual destruction (h1 3/1 against e1 1/3) discards both sides' characters when only the losing side's "
             "are discarded: both sides lose (RED-BR-STEP4-DISCARD-RETURN, br-discard-which)",
             "br-discard-which=losing-side-only"),
    KeptPlay("conformance-redemption-heal-window-player", ("play dx1 on e2 -> e1", "decline"),
             "the heal window of e1, discarded by an ability while it fights on player 0's side, is player 0's "
             "(RED-HEAL-WINDOW, heal-window-player)", "heal=revised"),
    *(KeptPlay("conformance-redemption-window-heal-to-owner", ("attack 1 hx", "block e1", "pass", "heal hx with hc"),
               f"hx, healed in Battle Resolution's window, goes to {whose} (RED-HEAL-TO-PERMANENT-CONTROLLER, "
               "RED-HEAL-PREV-TO-OWNER, prev-owner-scope)", rule_set)
      for rule_set, whose in (("heal=revised", "player 0, its permanent controller"),
                              ("heal=previous", "player 1, its owner"))),
    *_in_both_versions("conformance-redemption-numbers-in-side-battle",
                       ("attack 1 h", "block e", "play rn on h -> e", "play sb1 on e -> h k", "pass"),
                       "h's gain from e's redirected numbers counts in the side battle above e's battle: h defeats k "
                       "(RED-RD-NUMBERS-IN-BATTLE-ONLY, rd-numbers-which-battle)"),
    *_in_both_versions("conformance-redemption-redirect-after-a-redirect",
                       ("attack 1 h0", "block e2", "play do1 on e2 -> h0", "play x0 on h0 -> #1", "play rn on h0 -> h0"),
                       "rn, stating 1/3, moves 1/3 of h0's printed 3/3, each number its own (RED-RD-NUMBERS-TRANSFER, "
                       "rd-stated-exceeds); rb0 may not redirect the numbers of rn's own record #3 (RED-RD-BOTH-IS-TWO)"),
    *_in_both_versions("conformance-redemption-redirect-after-a-redirect",
                       ("attack 1 h0", "block e2", "play do1 on e2 -> h0", "play x0 on h0 -> #1", "play rn on h0 -> h0",
                        "play rb0 on h0 -> #1 e2"),
                       "a redirect of both with a new target is two redirects of record #1: do1's numbers move to rb0, "
                       "whatever the new target e2's id reads as (RED-RD-BOTH-IS-TWO)"),
    *_in_both_versions("conformance-redemption-heal-a-fighter-of-the-paused-battle", ("heal h0 with hm",),
                       "hm's heal, used in the side battle, heals h0 fighting in the paused rescue below: h0's poison and "
                       "pz1's ongoing effect end (RED-HEAL-TARGETS-HEALED, heal-in-battle-targets; RED-HEAL-CLEARS-STATUS)"),
    *_in_both_versions("conformance-redemption-interrupt-an-earlier-discard",
                       ("attack 1 h0 h1", "block e3 e4", "play d0 on h0 -> e4", "play d1 on e3 -> h1",
                        "play x1 on e3 -> #1"),
                       "interrupting the earlier of two discards in effect undoes that one only: e4 is back in battle, "
                       "h1's discard stays on record (RED-BASE-INTERRUPT)"),
    *_in_both_versions("conformance-redemption-interrupt-two-decreases",
                       ("attack 1 h0", "block e1 e2", "play dc0 on h0 -> e1", "play x1 on e1 -> #1",
                        "play dc1 on h0 -> e2", "play x2 on e2 -> #3", "pass"),
                       "undoing a decrease of an already decreased e1 leaves it decreased, undoing e2's takes it back; "
                       "at the pass both pending decreases reactivate (RED-BASE-INTERRUPT)"),
    *_in_both_versions("conformance-redemption-reactivate-in-a-side-battle",
                       ("attack 1 h", "block e", "play sb1 on e -> h k", "play dc0 on h -> k", "play x1 on k -> #2",
                        "pass"),
                       "a decrease interrupted in a side battle reactivates at the pass: dc0 is still on h in the side "
                       "battle being fought (RED-BASE-INTERRUPT, decision red-base-interrupt-reactivation)"),
    *_in_both_versions("conformance-redemption-redirect-to-a-card-named-before-a-record",
                       ("attack 1 h0", "block !e1", "play do1 on !e1 -> h0", "play x0 on h0 -> #1",
                        "play ra0 on h0 -> #1 !e1"),
                       "a redirect's targets stay in the order given, the ability #1 first, though the new target's id "
                       "!e1 sorts before it: do1's discard aims at !e1 (RED-RD-ABILITY-TARGET)"),
    KeptPlay("conformance-redemption-reactivate-into-a-heal-window", ("pass",),
             "the first ability reactivated at the pass opens a heal window: the second, #3, waits pending "
             "(RED-BASE-INTERRUPT, RED-HEAL-WINDOW)", "heal=revised"),
    *_in_both_versions("conformance-redemption-band-of-three", ("attack 1 h0 h1 h2", "block e0 e1 e2"),
                       "three Heroes enter battle together and three Evil Characters block together "
                       "(RED-BASE-RESCUE-OR-CHALLENGE, RED-BASE-BLOCKING)"),
)
"""The plays the targeted positions were written for (see the module docstring)."""


def kept_plays(position: str, rule_set: str) -> list[KeptPlay]:
    """The kept plays of one position in the suite of one rule-set expression."""
    return [k for k in KEPT_PLAYS if k.position == position and k.rule_set == rule_set]
