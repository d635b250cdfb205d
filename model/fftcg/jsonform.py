"""Reading the FFTCG state's JSON form (documented in :mod:`.state`): types and each field's own range.

:func:`read_state` checks only what one field can be on its own (a power within
the input bounds, a known step, ids well formed); the consistency rules between
fields are :mod:`.validate`'s, and :func:`cardrules.model.fftcg.validate.load_state`
is the load that applies both. Every problem is a :class:`ScenarioError` naming
the JSON path.
"""

from __future__ import annotations

from typing import Any, Mapping

from cardrules.model.errors import ScenarioError, describe
from cardrules.model.fftcg.state import (
    ELEMENTS, FORWARD_ID, LOSING_DAMAGE, MAX_AMOUNT, MAX_BREAK_ZONE, MAX_COST, MAX_EVENTS, MAX_FORWARDS, MAX_POWER,
    MAX_TEXT, MAX_TURN, EVENT_KINDS, Attack, Event, Forward, Outcome, Player, State, Step,
)


class JsonReader:
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

    def integer(self, key: str, *, minimum: int, maximum: int, default: int | None = None) -> int:
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

    def optional_integer(self, key: str, *, minimum: int, maximum: int) -> int | None:
        if self.table.get(key) is None:
            return None
        return self.integer(key, minimum=minimum, maximum=maximum)

    def boolean(self, key: str, default: bool | None) -> bool:
        if key not in self.table:
            if default is None:
                raise ScenarioError(self.path(key), "missing")
            return default
        value = self.table[key]
        if not isinstance(value, bool):
            raise ScenarioError(self.path(key), f"expected true or false, found {describe(value)}")
        return value

    def items(self, key: str, *, required: bool = True, maximum: int = 2 * MAX_FORWARDS) -> list[Any]:
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
        items = self.items(key, required=required)
        for i, item in enumerate(items):
            if not isinstance(item, str) or not FORWARD_ID.match(item) or len(item) > MAX_TEXT:
                raise ScenarioError(f"{self.path(key)}[{i}]", f"expected a Forward id, found {describe(item)}")
        if len(set(items)) != len(items):
            raise ScenarioError(self.path(key), "lists an id twice")
        if items != sorted(items):
            raise ScenarioError(self.path(key), "ids must be sorted")
        return tuple(items)

    def elements(self, key: str, *, required: bool) -> frozenset[str]:
        items = self.items(key, required=required, maximum=len(ELEMENTS))
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


_FORWARD_FIELDS = (
    "id", "name", "elements", "cost", "power", "p_icon", "dull", "damage", "since_start",
    "haste", "brave", "preemptive", "unblockable_by_cost", "unblockable_by_elements",
)


def forward_from_json(data: Any, where: str) -> Forward:
    r = JsonReader(data, where)
    r.only(_FORWARD_FIELDS)
    forward_id = r.text("id")
    if not FORWARD_ID.match(forward_id):
        raise ScenarioError(f"{where}.id", f"{describe(forward_id)} is not a valid id (letters, digits, _ and - only)")
    elements = r.elements("elements", required=True)
    unblockable_cost = r.optional_integer("unblockable_by_cost", minimum=0, maximum=MAX_COST)
    return Forward(
        id=forward_id,
        name=r.text("name"),
        elements=elements,
        cost=r.integer("cost", minimum=0, maximum=MAX_COST),
        power=r.integer("power", minimum=-MAX_POWER, maximum=MAX_POWER),
        p_icon=r.boolean("p_icon", False),
        dull=r.boolean("dull", False),
        damage=r.integer("damage", minimum=0, maximum=MAX_AMOUNT, default=0),
        since_start=r.boolean("since_start", True),
        haste=r.boolean("haste", False),
        brave=r.boolean("brave", False),
        preemptive=r.boolean("preemptive", False),
        unblockable_by_cost=unblockable_cost,
        unblockable_by_elements=r.elements("unblockable_by_elements", required=False),
    )


def player_from_json(data: Any, where: str) -> Player:
    r = JsonReader(data, where)
    r.only(("damage", "forwards", "break_zone"))
    return Player(
        damage=r.integer("damage", minimum=0, maximum=LOSING_DAMAGE, default=0),
        forwards=tuple(
            forward_from_json(item, f"{where}.forwards[{i}]")
            for i, item in enumerate(r.items("forwards", maximum=MAX_FORWARDS))
        ),
        break_zone=tuple(
            forward_from_json(item, f"{where}.break_zone[{i}]")
            for i, item in enumerate(r.items("break_zone", required=False, maximum=MAX_BREAK_ZONE))
        ),
    )


def attack_from_json(data: Any, where: str) -> Attack:
    r = JsonReader(data, where)
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
        party=r.boolean("party", None),
        declared=r.sorted_ids("declared"),
        declared_preemptive=r.boolean("declared_preemptive", False),
        blocked=blocked,
        blocker=blocker,
        attackers_dealt=r.boolean("attackers_dealt", False),
        blocker_dealt=r.boolean("blocker_dealt", False),
    )


def event_from_json(data: Any, where: str) -> Event:
    r = JsonReader(data, where)
    r.only(("kind", "sources", "target", "amount"))
    kind = r.text("kind")
    if kind not in EVENT_KINDS:
        raise ScenarioError(f"{where}.kind", f"unknown event kind {describe(kind)}; known: {list(EVENT_KINDS)}")
    sources = r.items("sources", required=False, maximum=MAX_FORWARDS * 2)
    for i, source in enumerate(sources):
        if not isinstance(source, str) or len(source) > MAX_TEXT:
            raise ScenarioError(f"{where}.sources[{i}]", f"expected a Forward id, found {describe(source)}")
    target = r.table.get("target", "")
    if not isinstance(target, str) or len(target) > MAX_TEXT:
        raise ScenarioError(f"{where}.target", f"expected a Forward id or player (p0, p1), found {describe(target)}")
    amount = r.integer("amount", minimum=0, maximum=MAX_AMOUNT, default=0)
    return Event(kind=kind, sources=tuple(sources), target=target, amount=amount)  # type: ignore[arg-type]


def outcome_from_json(data: Any, where: str) -> Outcome:
    r = JsonReader(data, where)
    r.only(("winner", "reason"))
    winner = r.integer("winner", minimum=0, maximum=1)
    reason = r.text("reason")
    if reason != "seven-damage":
        raise ScenarioError(f"{where}.reason", f"unknown reason {describe(reason)}; known: ['seven-damage']")
    return Outcome(winner=winner)


def read_state(data: Any) -> State:
    """The state of this JSON form, checked for types and the fields' own ranges only (no
    consistency rule, no split budget): :meth:`from_json` is the load; this is for tools that
    list every problem of a state (the conformance suites' invalid vectors)."""
    r = JsonReader(data, "")
    r.only(("turn", "turn_player", "phase", "step", "players", "attack", "attacked", "events", "outcome", "passed"))
    turn_player = r.integer("turn_player", minimum=0, maximum=1)
    phase = r.table.get("phase", "attack")
    if phase != "attack":
        raise ScenarioError("phase", f"only the attack phase is modelled, got {describe(phase)}")
    step_text = r.text("step")
    try:
        step_value = Step(step_text)
    except ValueError:
        raise ScenarioError("step", f"unknown step {describe(step_text)}; known: {[s.value for s in Step]}") from None
    raw_players = r.items("players")
    if len(raw_players) != 2:
        raise ScenarioError("players", f"expected exactly 2 players, found {len(raw_players)}")
    players = (player_from_json(raw_players[0], "players[0]"), player_from_json(raw_players[1], "players[1]"))
    attack = r.table.get("attack")
    outcome = r.table.get("outcome")
    state = State(
        players=players,
        turn_player=turn_player,
        step=step_value,
        turn=r.integer("turn", minimum=1, maximum=MAX_TURN, default=1),
        attack=attack_from_json(attack, "attack") if attack is not None else None,
        attacked=frozenset(r.sorted_ids("attacked", required=False)),
        events=tuple(
            event_from_json(e, f"events[{i}]")
            for i, e in enumerate(r.items("events", required=False, maximum=MAX_EVENTS))
        ),
        outcome=outcome_from_json(outcome, "outcome") if outcome is not None else None,
        passed=r.boolean("passed", default=False),
    )
    return state
