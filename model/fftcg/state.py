"""Immutable state of a two-player FFTCG game in its attack phase.

Everything is a frozen, slotted dataclass of tuples and frozensets, so states
are hashable and can be compared, stored in sets and explored.

What the model abstracts away: decks, hands, CP and the main/draw phases;
abilities other than Haste, Brave, Pre-emptive Strike and two blocking
restrictions; any effect that makes a Forward leave the field is the single
``remove`` action (the Forward goes to its owner's Break Zone, uncredited).

JSON form (:meth:`State.to_json` / :meth:`State.from_json`, exact round trip)::

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
      "outcome": null | {"winner": 0, "reason": "seven-damage"}
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

In ``from_json`` the Forward fields after ``power`` may be omitted (they
default to false/0/null/[], ``since_start`` to true); so may ``attacked``,
``events`` (empty) and ``outcome``/``attack`` (null). Anything malformed
raises :class:`model.errors.ScenarioError` naming the path, and so does a
state that breaks a consistency rule (:func:`problems`): among them a
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

import math
import re
import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Iterator, Literal, Mapping

from cardrules.model.errors import ScenarioError, describe

_REPLACERS: dict[tuple[Any, ...], Any] = {}
_BUILDERS: dict[type, type | None] = {}


def _builder_class(cls: type) -> type | None:
    """A plain class with ``cls``'s very slots, whose instances can become ``cls`` instances by
    ``__class__`` assignment (same layout); None if the layout cannot be matched.

    A copy is filled in as one of these, with ordinary slot stores (no frozen ``__setattr__`` in
    the way), then made a ``cls``: from then on it is as frozen as any ``cls`` instance."""
    if cls not in _BUILDERS:
        slots = cls.__dict__.get("__slots__")
        builder: type | None = None
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


def replace(obj: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace`` for the model's frozen, slotted values, without its overhead.

    The search loop makes millions of these; the generic version inspects the
    class's fields on every call, this one runs code compiled once per class
    and set of changed fields (a few dozen in the whole model): no lookup per
    field, each slot filled by a plain store on a same-layout builder object
    that then becomes an instance of the class (:func:`_builder_class`).
    Unknown field names raise TypeError as there; the copy's cached hash is reset.
    """
    key = (obj.__class__, *changes)
    copy = _REPLACERS.get(key)
    if copy is None:
        copy = _REPLACERS[key] = _make_replacer(obj.__class__, key[1:])
    return copy(obj, changes)


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
"""The share units: 1000, or 100 under the broken variant ``party-split-in-hundreds`` (a mutant)."""


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

    @staticmethod
    def from_json(data: Any, where: str) -> Forward:
        r = _Reader(data, where)
        r.only(_FORWARD_FIELDS)
        forward_id = r.text("id")
        if not FORWARD_ID.match(forward_id):
            raise ScenarioError(f"{where}.id", f"{describe(forward_id)} is not a valid id (letters, digits, _ and - only)")
        elements = r.elements("elements", required=True)
        unblockable_cost = r.optional_int("unblockable_by_cost", minimum=0, maximum=MAX_COST)
        return Forward(
            id=forward_id,
            name=r.text("name"),
            elements=elements,
            cost=r.int("cost", minimum=0, maximum=MAX_COST),
            power=r.int("power", minimum=-MAX_POWER, maximum=MAX_POWER),
            p_icon=r.bool("p_icon", False),
            dull=r.bool("dull", False),
            damage=r.int("damage", minimum=0, maximum=MAX_AMOUNT, default=0),
            since_start=r.bool("since_start", True),
            haste=r.bool("haste", False),
            brave=r.bool("brave", False),
            preemptive=r.bool("preemptive", False),
            unblockable_by_cost=unblockable_cost,
            unblockable_by_elements=r.elements("unblockable_by_elements", required=False),
        )


_FORWARD_FIELDS = (
    "id", "name", "elements", "cost", "power", "p_icon", "dull", "damage", "since_start",
    "haste", "brave", "preemptive", "unblockable_by_cost", "unblockable_by_elements",
)


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

    @staticmethod
    def from_json(data: Any, where: str) -> Player:
        r = _Reader(data, where)
        r.only(("damage", "forwards", "break_zone"))
        return Player(
            damage=r.int("damage", minimum=0, maximum=LOSING_DAMAGE, default=0),
            forwards=tuple(
                Forward.from_json(item, f"{where}.forwards[{i}]")
                for i, item in enumerate(r.list("forwards", maximum=MAX_FORWARDS))
            ),
            break_zone=tuple(
                Forward.from_json(item, f"{where}.break_zone[{i}]")
                for i, item in enumerate(r.list("break_zone", required=False, maximum=MAX_BREAK_ZONE))
            ),
        )


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

    @staticmethod
    def from_json(data: Any, where: str) -> Attack:
        r = _Reader(data, where)
        r.only(("attackers", "party", "declared", "declared_preemptive", "blocked", "blocker",
                "attackers_dealt", "blocker_dealt"))
        blocked = r.table.get("blocked")
        if blocked is not None and not isinstance(blocked, bool):
            raise ScenarioError(f"{where}.blocked", "expected true, false or null")
        blocker = r.table.get("blocker")
        if blocker is not None and not isinstance(blocker, str):
            raise ScenarioError(f"{where}.blocker", "expected a Forward id or null")
        return Attack(
            attackers=r.sorted_ids("attackers"),
            party=r.bool("party", None),
            declared=r.sorted_ids("declared"),
            declared_preemptive=r.bool("declared_preemptive", False),
            blocked=blocked,
            blocker=blocker,
            attackers_dealt=r.bool("attackers_dealt", False),
            blocker_dealt=r.bool("blocker_dealt", False),
        )


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

    @staticmethod
    def from_json(data: Any, where: str) -> Event:
        r = _Reader(data, where)
        r.only(("kind", "sources", "target", "amount"))
        kind = r.text("kind")
        if kind not in EVENT_KINDS:
            raise ScenarioError(f"{where}.kind", f"unknown event kind {describe(kind)}; known: {list(EVENT_KINDS)}")
        sources = r.list("sources", required=False, maximum=MAX_FORWARDS * 2)
        for i, source in enumerate(sources):
            if not isinstance(source, str) or len(source) > MAX_TEXT:
                raise ScenarioError(f"{where}.sources[{i}]", f"expected a Forward id, found {describe(source)}")
        target = r.table.get("target", "")
        if not isinstance(target, str) or len(target) > MAX_TEXT:
            raise ScenarioError(f"{where}.target", f"expected a Forward id or player (p0, p1), found {describe(target)}")
        amount = r.int("amount", minimum=0, maximum=MAX_AMOUNT, default=0)
        return Event(kind=kind, sources=tuple(sources), target=target, amount=amount)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: a value, not a flag (FF-BASE-SEVEN-DAMAGE-LOSES)."""

    winner: int
    reason: Literal["seven-damage"] = "seven-damage"

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}

    @staticmethod
    def from_json(data: Any, where: str) -> Outcome:
        r = _Reader(data, where)
        r.only(("winner", "reason"))
        winner = r.int("winner", minimum=0, maximum=1)
        reason = r.text("reason")
        if reason != "seven-damage":
            raise ScenarioError(f"{where}.reason", f"unknown reason {describe(reason)}; known: ['seven-damage']")
        return Outcome(winner=winner)


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

    _hash: int | None = field(default=None, init=False, repr=False, compare=False)
    """Cached hash: states are hashed over and over by the explorer; immutable, so computed once."""

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash((self.players, self.turn_player, self.step, self.turn, self.phase, self.attack, self.attacked, self.events, self.outcome))
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
        }

    @staticmethod
    def from_json(data: Any) -> State:
        """The state of this JSON form, refused (:class:`ScenarioError`, naming the first problem) if
        it is malformed, breaks one of the consistency rules (:func:`problems`) or one of the model's
        input bounds."""
        state = State.read_json(data)
        found = problems(state)
        if found:
            raise ScenarioError(*found[0])
        _check_split_budget(state)
        return state

    @staticmethod
    def read_json(data: Any) -> State:
        """The state of this JSON form, checked for types and the fields' own ranges only (no
        consistency rule, no split budget): :meth:`from_json` is the load; this is for tools that
        list every problem of a state (the conformance suites' invalid vectors)."""
        r = _Reader(data, "")
        r.only(("turn", "turn_player", "phase", "step", "players", "attack", "attacked", "events", "outcome"))
        turn_player = r.int("turn_player", minimum=0, maximum=1)
        phase = r.table.get("phase", "attack")
        if phase != "attack":
            raise ScenarioError("phase", f"only the attack phase is modelled, got {describe(phase)}")
        step_text = r.text("step")
        try:
            step_value = Step(step_text)
        except ValueError:
            raise ScenarioError("step", f"unknown step {describe(step_text)}; known: {[s.value for s in Step]}") from None
        raw_players = r.list("players")
        if len(raw_players) != 2:
            raise ScenarioError("players", f"expected exactly 2 players, found {len(raw_players)}")
        players = (Player.from_json(raw_players[0], "players[0]"), Player.from_json(raw_players[1], "players[1]"))
        attack = r.table.get("attack")
        outcome = r.table.get("outcome")
        state = State(
            players=players,
            turn_player=turn_player,
            step=step_value,
            turn=r.int("turn", minimum=1, maximum=MAX_TURN, default=1),
            attack=Attack.from_json(attack, "attack") if attack is not None else None,
            attacked=frozenset(r.sorted_ids("attacked", required=False)),
            events=tuple(
                Event.from_json(e, f"events[{i}]")
                for i, e in enumerate(r.list("events", required=False, maximum=MAX_EVENTS))
            ),
            outcome=Outcome.from_json(outcome, "outcome") if outcome is not None else None,
        )
        return state


LOAD_CHECKS: list[Callable[[State], list[tuple[str, str]]]] = []
"""Checks of the rules' modules that :func:`problems` runs too, each listing (JSON path, problem): the
state-based checks (:func:`model.fftcg.damage.unsettled`) live with the rules they apply, above this
module, so they register here (:func:`load_check`) instead of being imported. The package imports
:mod:`model.fftcg.engine`, hence :mod:`model.fftcg.damage`, before any of its modules is used, so the
list is complete whenever a state is loaded."""


def load_check(check: Callable[[State], list[tuple[str, str]]]) -> Callable[[State], list[tuple[str, str]]]:
    """Register ``check`` in :data:`LOAD_CHECKS` (once) and return it unchanged."""
    if check not in LOAD_CHECKS:
        LOAD_CHECKS.append(check)
    return check


def problems(state: State) -> list[tuple[str, str]]:
    """Every consistency problem of ``state`` as (JSON path, problem), in document order; empty for a
    position play can reach. Structural: ids unique, the step and the attack agree, attackers and the
    blocker on the right side of the field, a party of two or more, an attack with no party of one
    attacker before Combat End. Then the rules' state-based checks, which every position between
    actions has had applied (:func:`model.fftcg.damage.unsettled`, decision ``ff-unsettled-position``).
    Not the model's input bounds (:func:`_check_split_budget`). Accepted although play never makes
    it: ``party`` still true in the Combat End Step (play disbands every party on entering it,
    :func:`model.fftcg.party.disband_at_combat_end`)."""
    found: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for p, player in enumerate(state.players):
        if player.damage > LOSING_DAMAGE:
            found.append((f"players[{p}].damage", f"at most {LOSING_DAMAGE}, got {player.damage}"))
        for zone, cards in (("forwards", player.forwards), ("break_zone", player.break_zone)):
            for i, forward in enumerate(cards):
                where = f"players[{p}].{zone}[{i}].id"
                if forward.id in seen:
                    found.append((where, f"id {forward.id!r} is also used at {seen[forward.id]}"))
                else:
                    seen[forward.id] = where
    found.extend(_attack_problems(state))
    for check in LOAD_CHECKS:
        found.extend(check(state))
    return found


def _attack_problems(state: State) -> list[tuple[str, str]]:
    attack = state.attack
    if attack is None:
        if state.step in (Step.BLOCK, Step.PREEMPTIVE, Step.DAMAGE, Step.COMBAT_END):
            return [("attack", f"step {state.step.value} needs an attack")]
        return []
    found: list[tuple[str, str]] = []
    if state.step is Step.PREPARATION:
        found.append(("attack", "no attack can be in progress in attack preparation"))
    attacking = state.players[state.turn_player]
    for i, forward_id in enumerate(attack.attackers):
        if attacking.forward(forward_id) is None:
            found.append((f"attack.attackers[{i}]", f"{forward_id!r} is not a Forward of the turn player on the field"))
        if forward_id not in attack.declared:
            found.append((f"attack.attackers[{i}]", f"{forward_id!r} was not declared"))
    if not attack.declared:
        found.append(("attack.declared", "an attack declares at least one Forward"))
    if attack.party and len(attack.attackers) < 2:
        found.append(("attack.party", "a party has at least two members (FF-PARTY-MIN-TWO)"))
    if not attack.party and len(attack.attackers) >= 2 and state.step is not Step.COMBAT_END:
        found.append((
            "attack.attackers",
            f"{len(attack.attackers)} attackers ({', '.join(attack.attackers)}) and no party: an attack is one "
            f"Forward or one party (FF-BASE-ONE-ATTACK-AT-A-TIME), and two or more attackers stay a party "
            f"until it disbands in the Combat End Step (FF-PARTY-DISBAND-UNDER-TWO, FF-PARTY-DISBAND-COMBAT-END)",
        ))
    if attack.blocker is not None:
        if state.players[state.defender].forward(attack.blocker) is None:
            found.append(("attack.blocker", f"{attack.blocker!r} is not a Forward of the defending player on the field"))
        if attack.blocked is not True:
            found.append(("attack.blocked", "must be true when there is a blocker"))
    return found


def split_count_bound(power: int, members: int) -> int:
    """How many ways at most a blocker of ``power`` can divide its damage among ``members``.

    The largest count over the share units of the rule variants
    (:data:`SPLIT_UNITS`): the ways to write the divisible power as
    ``members`` ordered shares, times ``members`` when a remainder is left
    (the variant where one member also takes it).
    """
    if members < 2:
        return 1
    power = max(power, 0)
    counts = [
        math.comb(power // unit + members - 1, members - 1) * (members if power % unit else 1)
        for unit in SPLIT_UNITS
    ]
    return max(counts)


def _check_split_budget(state: State) -> None:
    """Every blocker's split among every party the other player could form stays within MAX_SPLITS."""
    for p, player in enumerate(state.players):
        members = len(state.players[1 - p].forwards)
        for i, forward in enumerate(player.forwards):
            count = split_count_bound(forward.power, members)
            if count > MAX_SPLITS:
                raise ScenarioError(
                    f"players[{p}].forwards[{i}].power",
                    f"a blocker of power {forward.power} against a party of the other player's {members} Forwards "
                    f"has up to {count:.3g} ways to divide its damage; the model enumerates at most "
                    f"MAX_SPLITS = {MAX_SPLITS:,} (lower the power or field fewer Forwards)",
                )


class _Reader:
    """Reads typed fields of one JSON object, naming the path when one is bad."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise ScenarioError(where, f"expected an object, found {type(data).__name__}")
        self.table: Mapping[str, Any] = data
        self.where = where

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def only(self, allowed: tuple[str, ...]) -> None:
        unknown = sorted(set(self.table) - set(allowed))
        if unknown:
            raise ScenarioError(self.path(unknown[0][:MAX_TEXT]), f"unknown field; known: {list(allowed)}")

    def text(self, key: str) -> str:
        value = self.table.get(key)
        if key not in self.table:
            raise ScenarioError(self.path(key), "missing")
        if not isinstance(value, str) or not value:
            raise ScenarioError(self.path(key), f"expected a non-empty string, found {describe(value)}")
        if len(value) > MAX_TEXT:
            raise ScenarioError(self.path(key), f"at most {MAX_TEXT} characters, found {len(value)}")
        return value

    def int(self, key: str, *, minimum: int, maximum: int, default: int | None = None) -> int:
        if key not in self.table:
            if default is None:
                raise ScenarioError(self.path(key), "missing")
            return default
        value = self.table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScenarioError(self.path(key), f"expected an integer, found {describe(value)}")
        if not minimum <= value <= maximum:
            raise ScenarioError(self.path(key), f"must be between {minimum} and {maximum}, got {describe(value)}")
        return value

    def optional_int(self, key: str, *, minimum: int, maximum: int) -> int | None:
        if self.table.get(key) is None:
            return None
        return self.int(key, minimum=minimum, maximum=maximum)

    def bool(self, key: str, default: bool | None) -> bool:
        if key not in self.table:
            if default is None:
                raise ScenarioError(self.path(key), "missing")
            return default
        value = self.table[key]
        if not isinstance(value, bool):
            raise ScenarioError(self.path(key), f"expected true or false, found {describe(value)}")
        return value

    def list(self, key: str, *, required: bool = True, maximum: int = 2 * MAX_FORWARDS) -> list[Any]:
        if key not in self.table:
            if required:
                raise ScenarioError(self.path(key), "missing")
            return []
        value = self.table[key]
        if not isinstance(value, list):
            raise ScenarioError(self.path(key), f"expected a list, found {describe(value)}")
        if len(value) > maximum:
            raise ScenarioError(self.path(key), f"at most {maximum} entries, found {len(value)}")
        return value

    def sorted_ids(self, key: str, *, required: bool = True) -> tuple[str, ...]:
        items = self.list(key, required=required)
        for i, item in enumerate(items):
            if not isinstance(item, str) or not FORWARD_ID.match(item) or len(item) > MAX_TEXT:
                raise ScenarioError(f"{self.path(key)}[{i}]", f"expected a Forward id, found {describe(item)}")
        if len(set(items)) != len(items):
            raise ScenarioError(self.path(key), "lists an id twice")
        if items != sorted(items):
            raise ScenarioError(self.path(key), "ids must be sorted")
        return tuple(items)

    def elements(self, key: str, *, required: bool) -> frozenset[str]:
        items = self.list(key, required=required, maximum=len(ELEMENTS))
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise ScenarioError(f"{self.path(key)}[{i}]", f"expected an element name, found {describe(item)}")
            if item not in ELEMENTS:
                raise ScenarioError(f"{self.path(key)}[{i}]", f"unknown element {describe(item)}; known: {sorted(ELEMENTS)}")
        if len(set(items)) != len(items):
            raise ScenarioError(self.path(key), "lists an element twice")
        if required and not items:
            raise ScenarioError(self.path(key), "a Forward has at least one element")
        return frozenset(items)
