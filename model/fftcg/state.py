"""Immutable state of a two-player FFTCG game in its attack phase.

Everything is a frozen, slotted dataclass of tuples and frozensets, so states
are hashable and can be compared, stored in sets and explored.

What the model abstracts away: decks, hands, CP and the main/draw phases;
abilities other than Haste, Brave, Pre-emptive Strike and two blocking
restrictions; any effect that makes a Forward leave the field is the single
``remove`` action (the Forward goes to its owner's Break Zone, uncredited).

JSON form (:meth:`State.to_json`, read back by :func:`cardrules.model.fftcg.validate.load_state`, exact
round trip)::

    {
      "turn": 1,                       # turn number, from 1
      "turn_player": 0,                # 0 or 1: whose turn it is (the attacker)
      "phase": "attack",               # only the attack phase is modelled
      "step": "attack-declaration",    # a Step value
      "players": [                     # exactly two
        {"damage": 0,                  # points of damage, 0..7
         "forwards": [FORWARD, ...],   # on the field, in order
         "break_zone": [FORWARD, ...]} # broken or removed, oldest first
      ],
      "attack": null | ATTACK,         # the attack being resolved
      "attacked": ["a1"],              # ids of Forwards that attacked this turn
      "events": [EVENT, ...],          # this turn's event log
      "outcome": null | {"winner": 0, "reason": "seven-damage"},
      "passed": true                   # only under alternating priority, once the turn player passed
    }
    FORWARD = {"id": "a1", "name": "Cloud", "elements": ["fire"], "cost": 3,
               "power": 7000, "p_icon": false, "dull": false, "damage": 0,
               "since_start": true, "haste": false, "brave": false,
               "preemptive": false, "unblockable_by_cost": null,
               "unblockable_by_elements": []}
    ATTACK = {"attackers": ["a1", "a2"], "party": true, "declared": ["a1", "a2"],
              "declared_preemptive": false, "blocked": null, "blocker": null,
              "attackers_dealt": false, "blocker_dealt": false}
    EVENT = {"kind": "damage", "sources": ["a1", "a2"], "target": "b1", "amount": 8000}

On loading, the Forward fields after ``power`` may be omitted (they
default to false/0/null/[], ``since_start`` to true); so may ``attacked``,
``events`` (empty), ``outcome``/``attack`` (null) and ``passed`` (false). Anything malformed
raises :class:`model.errors.ScenarioError` naming the path, and so does a
state that breaks a consistency rule (:func:`cardrules.model.fftcg.validate.problems`): among them a
position the rules' state-based checks would still change (a Forward of
power 0 or less, or of power 1000 or more with damage at least its power, on
the field; a player at 7 damage with no outcome), which is refused, not
settled (decision ``ff-unsettled-position``).

Input bounds (the rules set none; these keep every enumeration of the model
small and are far beyond any printed card): a Forward's power is between
-:data:`MAX_POWER` and :data:`MAX_POWER`, its cost and an
``unblockable_by_cost`` at most :data:`MAX_COST`, damage on a Forward and an
event amount at most :data:`MAX_AMOUNT`; at most :data:`MAX_FORWARDS`
Forwards per player on the field and :data:`MAX_BREAK_ZONE` in a Break Zone,
:data:`MAX_EVENTS` events, turn at most :data:`MAX_TURN`; ids and names at
most :data:`MAX_TEXT` characters. The blocker's split is bounded too: for
every Forward that could block and every party the other player could
declare, the number of ways to divide its power (counted for the worst
unit of any rule variant) is at most :data:`MAX_SPLITS`.
"""

from __future__ import annotations

import re
import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, Callable, Iterator, Literal, TypeVar


_REPLACERS: dict[tuple[Any, ...], Any] = {}
_BUILDERS: dict[type, type | None] = {}

T = TypeVar("T")


def _builder_class(cls: type) -> type | None:
    """A plain class with ``cls``'s very slots, whose instances can become ``cls`` instances by
    ``__class__`` assignment (same layout); None if the layout cannot be matched.

    A copy is filled in as one of these, with ordinary slot stores (no frozen ``__setattr__`` in
    the way), then made a ``cls``: from then on it is as frozen as any ``cls`` instance."""
    if cls not in _BUILDERS:
        slots = cls.__dict__.get("__slots__")
        builder: type[Any] | None = None
        if isinstance(slots, tuple) and cls.__bases__ == (object,):
            builder = type(f"_{cls.__name__}Builder", (), {"__slots__": slots})
            try:
                object.__new__(builder).__class__ = cls
            except TypeError:
                builder = None
        _BUILDERS[cls] = builder
    return _BUILDERS[cls]


def _make_replacer(cls: type, changed: tuple[str, ...]) -> Any:
    """Compile ``copy(obj, changes)`` for one class and one set of changed fields (the keys of
    ``changes``, in the order given): one slot store per field, no per-call introspection."""
    fields = dataclasses.fields(cls)
    init = {f.name for f in fields if f.init}
    unknown = [name for name in changed if name not in init]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    names = [f.name for f in fields]
    """Every field, ``_hash`` (a cached hash, reset) and any other field outside ``__init__`` (copied) included."""
    builder = _builder_class(cls)
    namespace: dict[str, Any] = {"CLS": cls, "BUILDER": builder, "NEW": object.__new__}
    lines = ["def copy(obj, changes):", f"    new = NEW({'BUILDER' if builder is not None else 'CLS'})"]
    for name in names:
        value = "None" if name == "_hash" else f"changes[{name!r}]" if name in changed else f"obj.{name}"
        if builder is not None:
            lines.append(f"    new.{name} = {value}")
        else:  # through the slot's descriptor, past the frozen __setattr__
            namespace[f"set_{name}"] = getattr(cls, name).__set__
            lines.append(f"    set_{name}(new, {value})")
    if builder is not None:
        lines.append("    new.__class__ = CLS")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own field names
    return namespace["copy"]


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace`` for the model's frozen, slotted values, without its overhead.

    The search loop makes millions of these; the generic version inspects the
    class's fields on every call, this one runs code compiled once per class
    and set of changed fields (a few dozen in the whole model): no lookup per
    field, each slot filled by a plain store on a same-layout builder object
    that then becomes an instance of the class (:func:`_builder_class`).
    Unknown field names raise TypeError as there; the copy's cached hash is reset.
    """
    key: tuple[Any, ...] = (obj.__class__, *changes)
    copy: Callable[[T, dict[str, Any]], T] = _REPLACERS.get(key) or _compiled(key)  # one line: see _compiled
    return copy(obj, changes)


@lru_cache(maxsize=None)
def _compiled(key: tuple[Any, ...]) -> Any:
    """The copy function of ``key`` (class, changed fields), compiled and kept in :data:`_REPLACERS`.

    A ``functools`` cache, so that a tracer of the model's lines (:mod:`cardrules.oracle.trace.coverage`)
    leaves it out, with all it calls, as a remembered function: it runs once per process, so what it
    does says what was copied before, not what the step being traced did (and :func:`replace` asks for
    it on the line it asks the fast path, so the first copy takes the same lines as the others)."""
    copy = _REPLACERS[key] = _make_replacer(key[0], key[1:])
    return copy


ELEMENTS: frozenset[str] = frozenset({"fire", "ice", "wind", "earth", "lightning", "water", "light", "dark"})
"""The eight elements, lower case."""

LOSING_DAMAGE = 7
"""A player with this much damage loses (FF-BASE-SEVEN-DAMAGE-LOSES)."""

FORWARD_ID = re.compile(r"^[A-Za-z0-9_-]+$")
"""Forward ids: letters, digits, ``_`` and ``-`` (no spaces, no ``=``)."""

MAX_POWER = 99_999
"""Largest power (and smallest, negated) a Forward may be given as input."""
MAX_COST = 99
"""Largest cost, and largest N of "cannot be blocked by a Forward of cost N or more"."""
MAX_AMOUNT = 10 * MAX_POWER
"""Largest damage on a Forward, or amount of an event, given as input (a party of ten at full power)."""
MAX_FORWARDS = 12
"""Most Forwards one player may have on the field in an input state (2**12 attack declarations)."""
MAX_BREAK_ZONE = 100
"""Most Forwards in one Break Zone in an input state."""
MAX_EVENTS = 1000
"""Most entries of the turn's event log in an input state."""
MAX_TURN = 1_000_000
"""Largest turn number in an input state."""
MAX_TEXT = 64
"""Longest id or name."""
MAX_SPLITS = 200_000
"""Most ways a blocker's power may be divided among a party (the legal split enumeration)."""
SPLIT_UNITS = (1000, 100)
"""The share units of the rule variants: 1000, or 100 under the broken variant ``party-split-in-hundreds``
(a mutant). A proposal's step (extension point ``blocker-split-unit``) is checked against
:data:`MAX_SPLITS` each time the model asks for it (:mod:`cardrules.model.fftcg.contracts`)."""


class Step(StrEnum):
    """Steps of the attack phase (FF-BASE-ATTACK-STEPS), in order."""

    PREPARATION = "attack-preparation"
    DECLARATION = "attack-declaration"
    BLOCK = "block-declaration"
    PREEMPTIVE = "damage-preemptive"
    """The Pre-emptive Strike part of Damage Resolution."""
    DAMAGE = "damage-resolution"
    """The ordinary part of Damage Resolution."""
    COMBAT_END = "combat-end"


EventKind = Literal["damage", "break", "hit", "remove", "disband"]
EVENT_KINDS: tuple[str, ...] = ("damage", "break", "hit", "remove", "disband")


@dataclass(frozen=True, slots=True)
class Forward:
    """A Forward card on the field or in a Break Zone."""

    id: str
    """Unique in the game; names may repeat."""
    name: str
    elements: frozenset[str]
    """One or more of :data:`ELEMENTS` (FF-BASE-MULTI-ELEMENT)."""
    cost: int
    power: int
    p_icon: bool = False
    """The printed P icon (FF-BASE-P-ICON)."""
    dull: bool = False
    damage: int = 0
    """Damage on it this turn."""
    since_start: bool = True
    """Under its controller's control since the start of the turn."""
    haste: bool = False
    brave: bool = False
    preemptive: bool = False
    """Pre-emptive Strike (FF-BASE-PREEMPTIVE)."""
    unblockable_by_cost: int | None = None
    """"Cannot be blocked by a Forward of cost N or more": N, or None."""
    unblockable_by_elements: frozenset[str] = frozenset()
    """"Cannot be blocked by a Forward of element E": those elements."""

    _hash: int | None = field(default=None, init=False, repr=False, compare=False)
    """Cached hash: states are hashed over and over by the explorer; immutable, so computed once."""

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash((self.id, self.name, self.elements, self.cost, self.power, self.p_icon, self.dull, self.damage, self.since_start, self.haste, self.brave, self.preemptive, self.unblockable_by_cost, self.unblockable_by_elements))
            object.__setattr__(self, "_hash", cached)
        return cached

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "elements": sorted(self.elements),
            "cost": self.cost,
            "power": self.power,
            "p_icon": self.p_icon,
            "dull": self.dull,
            "damage": self.damage,
            "since_start": self.since_start,
            "haste": self.haste,
            "brave": self.brave,
            "preemptive": self.preemptive,
            "unblockable_by_cost": self.unblockable_by_cost,
            "unblockable_by_elements": sorted(self.unblockable_by_elements),
        }


@dataclass(frozen=True, slots=True)
class Player:
    """One player's side of the game."""

    damage: int = 0
    """Points of damage received (FF-BASE-SEVEN-DAMAGE-LOSES)."""
    forwards: tuple[Forward, ...] = ()
    """Forwards on the field, in order."""
    break_zone: tuple[Forward, ...] = ()
    """Forwards broken or removed, oldest first."""

    _hash: int | None = field(default=None, init=False, repr=False, compare=False)
    """Cached hash: states are hashed over and over by the explorer; immutable, so computed once."""

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash((self.damage, self.forwards, self.break_zone))
            object.__setattr__(self, "_hash", cached)
        return cached

    def forward(self, forward_id: str) -> Forward | None:
        for forward in self.forwards:
            if forward.id == forward_id:
                return forward
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "damage": self.damage,
            "forwards": [f.to_json() for f in self.forwards],
            "break_zone": [f.to_json() for f in self.break_zone],
        }


@dataclass(frozen=True, slots=True)
class Attack:
    """The attack being resolved (FF-BASE-ONE-ATTACK-AT-A-TIME)."""

    attackers: tuple[str, ...]
    """Ids of the Forwards attacking now, sorted. Members leave it when they leave the field."""
    party: bool
    """A party exists now: True from a party declaration until it disbands (FF-PARTY-DISBAND-MEANING)."""
    declared: tuple[str, ...]
    """Ids of every Forward declared as attacker, sorted; never changes."""
    declared_preemptive: bool = False
    """Every declared Forward had Pre-emptive Strike (for the ``at-formation`` variant)."""
    blocked: bool | None = None
    """None until the block declaration; then whether the attack was blocked."""
    blocker: str | None = None
    """Id of the blocking Forward while it is on the field."""
    attackers_dealt: bool = False
    """The attacking side has dealt its combat damage (FF-BASE-PREEMPTIVE: once per attack)."""
    blocker_dealt: bool = False
    """The blocker has dealt its combat damage."""

    def to_json(self) -> dict[str, Any]:
        return {
            "attackers": list(self.attackers),
            "party": self.party,
            "declared": list(self.declared),
            "declared_preemptive": self.declared_preemptive,
            "blocked": self.blocked,
            "blocker": self.blocker,
            "attackers_dealt": self.attackers_dealt,
            "blocker_dealt": self.blocker_dealt,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the turn's event log.

    - ``damage``: ``sources`` dealt ``amount`` damage to Forward ``target``;
    - ``break``: ``target`` was broken, credited to ``sources`` (may be empty);
    - ``hit``: ``sources`` dealt ``amount`` damage to player ``target`` ("p0"/"p1");
    - ``remove``: ``target`` left the field by an effect;
    - ``disband``: the party of ``sources`` disbanded.
    """

    kind: EventKind
    sources: tuple[str, ...] = ()
    target: str = ""
    amount: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "sources": list(self.sources), "target": self.target, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: a value, not a flag (FF-BASE-SEVEN-DAMAGE-LOSES)."""

    winner: int
    reason: Literal["seven-damage"] = "seven-damage"

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class State:
    """The whole game state. ``turn_player`` attacks; the other player defends."""

    players: tuple[Player, Player]
    turn_player: int = 0
    step: Step = Step.PREPARATION
    turn: int = 1
    phase: Literal["attack"] = "attack"
    attack: Attack | None = None
    attacked: frozenset[str] = field(default_factory=frozenset)
    """Ids of Forwards that have attacked this turn (FF-BASE-CAN-ATTACK)."""
    events: tuple[Event, ...] = ()
    """This turn's event log; cleared when the turn ends."""
    outcome: Outcome | None = None
    """Set once the game is over."""
    passed: bool = field(default=False, metadata={"omit_at_default": True})
    """Only under ``ff-step-passing = alternating-priority``: the turn player has passed in this step
    and the other player holds priority (FF-BASE-ATTACK-STEPS). Always false under the chosen
    one-pass-for-both, and written in the JSON form only when true."""

    _hash: int | None = field(default=None, init=False, repr=False, compare=False)
    """Cached hash: states are hashed over and over by the explorer; immutable, so computed once."""

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash((self.players, self.turn_player, self.step, self.turn, self.phase, self.attack, self.attacked,
                           self.events, self.outcome, self.passed))
            object.__setattr__(self, "_hash", cached)
        return cached

    # --- queries ---------------------------------------------------------

    @property
    def defender(self) -> int:
        return 1 - self.turn_player

    def locate(self, forward_id: str) -> tuple[int, Forward] | None:
        """The controller and Forward with this id on the field, or None."""
        for index, player in enumerate(self.players):
            forward = player.forward(forward_id)
            if forward is not None:
                return index, forward
        return None

    def forward(self, forward_id: str) -> Forward:
        """The Forward with this id on the field (KeyError if it is not there)."""
        found = self.locate(forward_id)
        if found is None:
            raise KeyError(forward_id)
        return found[1]

    def on_field(self) -> Iterator[tuple[int, Forward]]:
        """(controller, Forward) of every Forward on the field, player 0's first, in zone order."""
        return iter([(index, forward) for index, player in enumerate(self.players) for forward in player.forwards])

    # --- updates (pure) ----------------------------------------------------

    def with_player(self, index: int, player: Player) -> State:
        players = (player, self.players[1]) if index == 0 else (self.players[0], player)
        return replace(self, players=players)

    def with_forward(self, forward: Forward) -> State:
        """Replace the on-field Forward with the same id."""
        index, _ = self.locate(forward.id) or (None, None)
        if index is None:
            raise KeyError(forward.id)
        player = self.players[index]
        forwards = tuple(forward if f.id == forward.id else f for f in player.forwards)
        return self.with_player(index, replace(player, forwards=forwards))

    def log(self, *events: Event) -> State:
        return replace(self, events=self.events + events)

    # --- JSON --------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "turn_player": self.turn_player,
            "phase": self.phase,
            "step": self.step.value,
            "players": [p.to_json() for p in self.players],
            "attack": self.attack.to_json() if self.attack is not None else None,
            "attacked": sorted(self.attacked),
            "events": [e.to_json() for e in self.events],
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
        } | ({"passed": True} if self.passed else {})


