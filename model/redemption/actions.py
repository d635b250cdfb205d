"""Actions: small frozen values with a canonical text form and a parser.

Every action is taken by the player the state says must decide (the turn's
player, or ``state.prompt.player``), so actions carry no player field.

Text forms (tokens separated by single spaces; card ids have no spaces):

=====================================  ==========================================
``draw``                               draw phase: draw three cards
``next``                               end the current phase
``put C``                              preparation: character C from hand to territory
``attack P H1 [H2 ...]``               battle phase: Heroes enter battle against player P
``block E1 [E2 ...]`` / ``noblock``    the opponent blocks, or declines
``play E on C [-> T1 [T2]]``           play enhancement E on character C; targets are
                                       card ids or ``#n`` (play record n)
``pass``                               the player with initiative passes
``sides X Y``                          side battle user: the first battling player
                                       gets X, the second Y
``use S [-> X Y]``                     a player outside the battle uses the side battle
                                       card S from their hand on X and Y (decision
                                       ``sb-user-outside-battle = any-player``); without
                                       targets S is used blank
``decline``                            special initiative: no answer
``discard``                            heal window: let the pending discard complete
``heal T with X``                      heal character T with X: a healing enhancement
                                       from hand (played on T outside battle, on
                                       T in a heal window) or a character whose
                                       heal ability is activated (RED-HEAL-*)
=====================================  ==========================================

In battle a healing enhancement is played with ``play E on C -> T`` like any
other; a redirect is ``play R on C -> #n [T ...]`` (ability: record ``n`` and
its new targets) or ``play R on C -> X`` (numbers of card X).

``heal`` and ``use`` are the actions not always taken by the player the state
names: in the preparation and discard phases (no prompt) any player may heal,
and the acting player is the holder of X (RED-HEAL-ENH-PHASES); ``use`` is
taken, while a battling player holds initiative, by the holder of S, a player
outside the battle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from cardrules.model.errors import ScenarioError, describe

MAX_ACTION_TEXT = 2000
"""Longest action text read."""
MAX_TOKEN = 64
"""Longest card id or other word of an action."""
NUMBER = re.compile(r"^[0-9]{1,6}$")
"""A player index or play record number: ASCII digits only (``str.isdigit`` also accepts superscripts)."""


@dataclass(frozen=True, slots=True, order=True)
class Draw:
    def text(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True, order=True)
class Next:
    def text(self) -> str:
        return "next"


@dataclass(frozen=True, slots=True, order=True)
class Put:
    card: str

    def text(self) -> str:
        return f"put {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class Attack:
    opponent: int
    heroes: tuple[str, ...]
    """Sorted card ids."""

    def text(self) -> str:
        return f"attack {self.opponent} {' '.join(self.heroes)}"


@dataclass(frozen=True, slots=True, order=True)
class Block:
    blockers: tuple[str, ...]
    """Sorted card ids; empty means no block."""

    def text(self) -> str:
        return f"block {' '.join(self.blockers)}" if self.blockers else "noblock"


@dataclass(frozen=True, slots=True, order=True)
class Play:
    card: str
    on: str
    targets: tuple[str, ...] = ()

    def text(self) -> str:
        base = f"play {self.card} on {self.on}"
        return f"{base} -> {' '.join(self.targets)}" if self.targets else base


@dataclass(frozen=True, slots=True, order=True)
class Pass:
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, order=True)
class Sides:
    first: str
    """Goes to the first battling player (side 0)."""
    second: str

    def text(self) -> str:
        return f"sides {self.first} {self.second}"


@dataclass(frozen=True, slots=True, order=True)
class Use:
    """A player outside the battle uses a side battle card from their hand (decision
    ``sb-user-outside-battle``); the acting player is the card's holder."""

    card: str
    targets: tuple[str, ...] = ()
    """The two selected characters, sorted; empty: used blank."""

    def text(self) -> str:
        return f"use {self.card} -> {' '.join(self.targets)}" if self.targets else f"use {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class Decline:
    def text(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True, order=True)
class CompleteDiscard:
    def text(self) -> str:
        return "discard"


@dataclass(frozen=True, slots=True, order=True)
class Heal:
    target: str
    """The character healed."""
    source: str
    """A healing enhancement in hand, or a character with a heal ability."""

    def text(self) -> str:
        return f"heal {self.target} with {self.source}"


Action = Union[Draw, Next, Put, Attack, Block, Play, Pass, Sides, Use, Decline, CompleteDiscard, Heal]


def sort_key(action: Action) -> str:
    """Deterministic order of actions: by their canonical text."""
    return action.text()


def _card_id(token: str, text: str) -> str:
    if not token or token.startswith("#") or token in {"on", "->", "with"} or len(token) > MAX_TOKEN:
        raise ScenarioError(f"action {describe(text)}", f"{describe(token)} is not a card id")
    return token


def parse(text: str) -> Action:
    """Read an action from its canonical text; malformed text raises ScenarioError."""
    if not isinstance(text, str):
        raise ScenarioError("action", f"expected text, found {describe(text)}")
    if len(text) > MAX_ACTION_TEXT:
        raise ScenarioError("action", f"at most {MAX_ACTION_TEXT} characters, found {len(text)}")
    words = text.split()
    where = f"action {describe(text)}"
    if not words:
        raise ScenarioError(where, "empty action")
    head, rest = words[0], words[1:]
    simple: dict[str, Action] = {
        "draw": Draw(), "next": Next(), "pass": Pass(), "noblock": Block(()),
        "decline": Decline(), "discard": CompleteDiscard(),
    }
    if head in simple:
        if rest:
            raise ScenarioError(where, f"'{head}' takes no arguments")
        return simple[head]
    if head == "put":
        if len(rest) != 1:
            raise ScenarioError(where, "expected 'put CARD'")
        return Put(_card_id(rest[0], text))
    if head == "attack":
        if len(rest) < 2 or not NUMBER.match(rest[0]):
            raise ScenarioError(where, "expected 'attack PLAYER HERO [HERO ...]'")
        heroes = tuple(_card_id(t, text) for t in rest[1:])
        if len(set(heroes)) != len(heroes):
            raise ScenarioError(where, "names a Hero twice")
        return Attack(int(rest[0]), tuple(sorted(heroes)))
    if head == "block":
        if not rest:
            raise ScenarioError(where, "expected 'block EVIL [EVIL ...]' (or 'noblock')")
        blockers = tuple(_card_id(t, text) for t in rest)
        if len(set(blockers)) != len(blockers):
            raise ScenarioError(where, "names a blocker twice")
        return Block(tuple(sorted(blockers)))
    if head == "play":
        if len(rest) < 3 or rest[1] != "on":
            raise ScenarioError(where, "expected 'play CARD on CHARACTER [-> TARGET ...]'")
        card, on = _card_id(rest[0], text), _card_id(rest[2], text)
        tail = rest[3:]
        if not tail:
            return Play(card, on)
        if tail[0] != "->" or len(tail) < 2:
            raise ScenarioError(where, "targets follow '->'")
        targets = tail[1:]
        for target in targets:
            if target.startswith("#") and not NUMBER.match(target[1:]):
                raise ScenarioError(where, f"{describe(target)} is not a play record reference '#n'")
            if target == "->":
                raise ScenarioError(where, "'->' appears twice")
            if target in {"on", "with"} or len(target) > MAX_TOKEN:
                raise ScenarioError(where, f"{describe(target)} is not a card id or '#n'")
        return Play(card, on, tuple(targets))
    if head == "heal":
        if len(rest) != 3 or rest[1] != "with":
            raise ScenarioError(where, "expected 'heal CHARACTER with CARD'")
        return Heal(_card_id(rest[0], text), _card_id(rest[2], text))
    if head == "use":
        if not rest or (len(rest) > 1 and (len(rest) != 4 or rest[1] != "->")):
            raise ScenarioError(where, "expected 'use CARD' or 'use CARD -> CHARACTER CHARACTER'")
        card = _card_id(rest[0], text)
        if len(rest) == 1:
            return Use(card)
        x, y = _card_id(rest[2], text), _card_id(rest[3], text)
        return Use(card, tuple(sorted((x, y))))
    if head == "sides":
        if len(rest) != 2 or rest[0] == rest[1]:
            raise ScenarioError(where, "expected 'sides CHARACTER CHARACTER' (two different characters)")
        return Sides(_card_id(rest[0], text), _card_id(rest[1], text))
    raise ScenarioError(where, f"unknown action {describe(head)}")
