"""Actions and their canonical text form.

One action per line of text, words separated by single spaces::

    attack a1              declare Forward a1 as the attacker
    attack a1 a2 a3        declare a party (ids sorted, two or more)
    block b1               block the attack with Forward b1
    noblock                do not block
    split a1=3000 a2=2000  divide the blocker's damage (every member, ids sorted)
    remove a1              Forward a1 leaves the field (any such effect)
    pass                   go on to the next step / resolve this damage step
    end-turn               end the turn

:func:`parse_action` reads this text back (tolerating extra spaces and
unsorted ids); anything else raises :class:`model.errors.ScenarioError`.
``str(action)`` is the canonical text; ``parse_action(str(a)) == a``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from cardrules.model.errors import ScenarioError, describe
from cardrules.model.fftcg.state import FORWARD_ID, MAX_AMOUNT, MAX_FORWARDS, MAX_TEXT

MAX_ACTION_TEXT = (MAX_TEXT + 8) * MAX_FORWARDS * 2
"""Longest action text read (a split naming every Forward of a full field, with room to spare)."""

AMOUNT = re.compile(r"^[0-9]{1,7}$")
"""A split share: ASCII digits only (``str.isdigit`` also accepts superscripts)."""


@dataclass(frozen=True, slots=True)
class DeclareAttack:
    """Declare one Forward, or a party of two or more, as the attacker."""

    forwards: tuple[str, ...]
    """Sorted, distinct Forward ids."""

    def __str__(self) -> str:
        return "attack " + " ".join(self.forwards)

    def sort_key(self) -> tuple[object, ...]:
        return (0, len(self.forwards), self.forwards)


@dataclass(frozen=True, slots=True)
class Block:
    """Block the current attack with a Forward of the defending player."""

    blocker: str

    def __str__(self) -> str:
        return f"block {self.blocker}"

    def sort_key(self) -> tuple[object, ...]:
        return (1, self.blocker)


@dataclass(frozen=True, slots=True)
class NoBlock:
    """Decline to block."""

    def __str__(self) -> str:
        return "noblock"

    def sort_key(self) -> tuple[object, ...]:
        return (2,)


@dataclass(frozen=True, slots=True)
class Split:
    """How the blocker's damage is divided among the party's members."""

    shares: tuple[tuple[str, int], ...]
    """(member id, damage) for every member, sorted by id."""

    def __str__(self) -> str:
        return "split " + " ".join(f"{fid}={amount}" for fid, amount in self.shares)

    def sort_key(self) -> tuple[object, ...]:
        return (3, tuple(-amount for _, amount in self.shares))

    def amount(self, forward_id: str) -> int:
        return dict(self.shares).get(forward_id, 0)


@dataclass(frozen=True, slots=True)
class Remove:
    """A Forward leaves the field (stand-in for any leave-the-field effect)."""

    forward: str

    def __str__(self) -> str:
        return f"remove {self.forward}"

    def sort_key(self) -> tuple[object, ...]:
        return (4, self.forward)


@dataclass(frozen=True, slots=True)
class Pass:
    """Both players pass: go on to the next step, or resolve this damage step."""

    def __str__(self) -> str:
        return "pass"

    def sort_key(self) -> tuple[object, ...]:
        return (5,)


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn: End Phase, then the other player's turn begins."""

    def __str__(self) -> str:
        return "end-turn"

    def sort_key(self) -> tuple[object, ...]:
        return (6,)


Action = Union[DeclareAttack, Block, NoBlock, Split, Remove, Pass, EndTurn]


def attack(*forward_ids: str) -> DeclareAttack:
    """``attack("a2", "a1")`` == ``DeclareAttack(("a1", "a2"))``."""
    return DeclareAttack(tuple(sorted(forward_ids)))


def split(**shares: int) -> Split:
    """``split(a1=3000, a2=2000)``: a :class:`Split` with shares sorted by id."""
    return Split(tuple(sorted(shares.items())))


def _forward_id(word: str, where: str) -> str:
    if not FORWARD_ID.match(word) or len(word) > MAX_TEXT:
        raise ScenarioError(where, f"{describe(word)} is not a Forward id")
    return word


def parse_action(text: str) -> Action:
    """Read an action from its text form (see the module docstring)."""
    if not isinstance(text, str):
        raise ScenarioError("action", f"expected text, found {describe(text)}")
    if len(text) > MAX_ACTION_TEXT:
        raise ScenarioError("action", f"at most {MAX_ACTION_TEXT} characters, found {len(text)}")
    words = text.split()
    if not words:
        raise ScenarioError("action", "empty action")
    verb, args = words[0], words[1:]
    where = f"action {describe(text.strip())}"

    def no_args() -> None:
        if args:
            raise ScenarioError(where, f"{verb} takes no arguments")

    def one_id() -> str:
        if len(args) != 1:
            raise ScenarioError(where, f"{verb} takes exactly one Forward id")
        return _forward_id(args[0], where)

    if verb == "attack":
        if not args:
            raise ScenarioError(where, "attack names at least one Forward")
        ids = [_forward_id(a, where) for a in args]
        if len(set(ids)) != len(ids):
            raise ScenarioError(where, "a Forward is named twice")
        return attack(*ids)
    if verb == "block":
        return Block(one_id())
    if verb == "remove":
        return Remove(one_id())
    if verb == "noblock":
        no_args()
        return NoBlock()
    if verb == "pass":
        no_args()
        return Pass()
    if verb == "end-turn":
        no_args()
        return EndTurn()
    if verb == "split":
        if not args:
            raise ScenarioError(where, "split names every party member as id=amount")
        shares: dict[str, int] = {}
        for arg in args:
            fid, sep, amount = arg.partition("=")
            if not sep or not AMOUNT.match(amount) or int(amount) > MAX_AMOUNT:
                raise ScenarioError(where, f"{describe(arg)} is not id=amount (amount an integer from 0 to {MAX_AMOUNT})")
            _forward_id(fid, where)
            if fid in shares:
                raise ScenarioError(where, f"{describe(fid)} is named twice")
            shares[fid] = int(amount)
        return Split(tuple(sorted(shares.items())))
    raise ScenarioError(where, f"unknown action {describe(verb)}; known: attack block noblock split remove pass end-turn")
