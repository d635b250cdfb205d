"""The FFTCG model as the explorer and the verifier see it (a :class:`properties.engines.explore.Game`)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Hashable, cast

from cardrules.model.fftcg.actions import Action, parse_action
from cardrules.model.fftcg.config import DEFAULT, RuleConfig
from cardrules.model.fftcg.engine import apply_action, legal_actions, settle, step
from cardrules.model.fftcg.state import Event, EventKind, Forward, Player, State, replace
from cardrules.model.fftcg.validate import load_state

from cardrules.properties.engines.compact import StateCodec
from cardrules.properties.engines.symmetry import interchangeable_classes


def static_signature(forward: Forward) -> Hashable:
    """What a printed card is, apart from its id and its state on the field."""
    return (
        forward.name, forward.elements, forward.cost, forward.power, forward.p_icon, forward.haste,
        forward.brave, forward.preemptive, forward.unblockable_by_cost, forward.unblockable_by_elements,
    )


@dataclass(frozen=True)
class FftcgGame:
    """The party-attack model under one :class:`RuleConfig`."""

    config: RuleConfig = DEFAULT
    name: str = field(default="fftcg", init=False)

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        return legal_actions(state, self.config)

    def step(self, state: State, action: Action) -> State:
        return step(state, action, self.config)

    def successor(self, state: State, action: Action) -> State:
        """``step`` without re-checking legality, for an action ``legal_actions`` listed in ``state``.

        ``legal_actions`` keeps exactly the candidates ``why_illegal`` accepts,
        and ``step`` is ``why_illegal``, then this: so for a listed action the
        result is ``step``'s, without judging the action a second time (the
        explorer's inner loop; every other caller uses ``step``).
        """
        return settle(apply_action(state, action, self.config), self.config)

    @property
    def log_is_write_only(self) -> bool:
        """Whether nothing in force reads the event log to decide an action or a successor: true of the
        model's own rules; not assumed once a rule-change proposal's code is in the rule set (its hooks
        are handed whole states and may read the log), so such a game's states are expanded one by one."""
        return not self.config.hooks

    def split_log(self, state: State) -> tuple[Hashable, tuple[Event, ...]]:
        """Everything in the state but its event log (a tuple of its other fields), and the log.

        The model only writes the log (``State.log`` appends to it, a new turn clears it) and decides
        no legal action and no successor by it, so the explorer lists the actions and successors of
        states that differ only in their logs once (:mod:`cardrules.properties.engines.reuse`, which
        also checks this claim on a sample as it searches).
        """
        return _rest(state), state.events

    def without_log(self, state: State) -> State:
        """The state with :data:`_LOG_SO_FAR`, a placeholder, for its event log: its expansion is that of
        every state with the same :meth:`split_log` rest, but for the log."""
        return replace(state, events=_LOG_SO_FAR)

    def join_log(self, successor: State, log: tuple[Event, ...]) -> State:
        """The successor of the state whose log was ``log``, from the successor of its :meth:`without_log`
        core: ``log`` in place of the placeholder event in the successor's log (which a new turn
        cleared, and a step may have appended to)."""
        events = successor.events
        if events is _LOG_SO_FAR:
            return replace(successor, events=log)
        if type(events) is not tuple or _EARLIER not in events:
            return successor
        spliced: list[Event] = []
        for event in events:
            if event == _EARLIER:
                spliced.extend(log)
            else:
                spliced.append(event)
        return replace(successor, events=tuple(spliced))

    def codec(self) -> StateCodec[State]:
        """A fresh compact codec for one exploration: a state's parts are its two players, its
        attack, the attackers this turn, the event log, and the few values that vary little (turn
        player, step, turn, phase, outcome) as one part: six numbers, 24 bytes a state."""
        return StateCodec(_parts, _build, log_part=_LOG_PART)

    def is_terminal(self, state: State) -> bool:
        return state.outcome is not None

    def canonical_key(self, state: State) -> Hashable:
        """Identical Forwards (same printed card, same owner) are interchangeable.

        Within each class the ids are handed out in the order of each card's
        situation (zone, position, status, role in the attack, events naming
        it), and the state so renamed is the key. Renaming identical cards
        gives an equivalent state, so equal keys mean equivalent states; two
        cards in the very same situation may still be left in two orders, which
        costs a duplicate, never a wrong merge. A state that renaming and
        sorting leave as they are is its own key (the same object: the search
        stores it packed once).

        A key past the first two shortcuts is remembered by state (:data:`_KEYS`): a search reaches
        most states more than once.
        """
        p0, p1 = state.players
        distinct0, cards0, sorted0 = _player_cards(p0)
        distinct1, cards1, sorted1 = _player_cards(p1)
        if distinct0 and distinct1:
            return state  # identical cards share their name (part of the signature): no two here
        classes = _classes(cards0, cards1)
        if not classes:
            return state  # no two identical cards of one owner: no class to rename within
        found = _KEYS.get(state)
        if found is not None:
            return state if found is _ITSELF else found
        key = _renamed_key(state, classes, sorted0 and sorted1)
        if len(_KEYS) >= _MAX_KEYS:
            _KEYS.clear()
        _KEYS[state] = _ITSELF if key is state else key
        return key

    def action_strategy(self, legal: tuple[Action, ...]) -> Any:
        """Random play weighted by kind of action, so parties, blocks and splits come up often."""
        from cardrules.properties.fftcg.strategies import choose_action

        return choose_action(legal)

    def turn(self, state: State) -> int:
        return state.turn

    def action_text(self, action: Action) -> str:
        return str(action)

    def action_from_text(self, text: str) -> Action:
        return parse_action(text)

    def summary(self, state: State) -> str:
        def side(index: int) -> str:
            player = state.players[index]
            forwards = " ".join(
                f"{f.id}({f.power // 1000}k{'/dull' if f.dull else ''}{f'/dmg{f.damage}' if f.damage else ''})"
                for f in player.forwards
            )
            return f"P{index} dmg {player.damage} [{forwards}] bz {len(player.break_zone)}"

        attack = ""
        if state.attack is not None:
            kind = "party" if state.attack.party else "attack"
            blocker = f" blocked by {state.attack.blocker}" if state.attack.blocker else ""
            attack = f"; {kind} {'+'.join(state.attack.attackers) or '(none)'}{blocker}"
        outcome = f"; P{state.outcome.winner} wins" if state.outcome else ""
        return f"turn {state.turn} P{state.turn_player} {state.step.value}; {side(0)}; {side(1)}{attack}{outcome}"

    def state_to_json(self, state: State) -> Any:
        return state.to_json()

    def state_from_json(self, data: Any) -> State:
        return load_state(data)


_EARLIER = Event(cast(EventKind, "(the log before this step)"))
"""A placeholder event the model never writes: it stands for a state's log in :meth:`FftcgGame.without_log`."""
_LOG_SO_FAR: tuple[Event, ...] = (_EARLIER,)

_rest = operator.attrgetter(*(f.name for f in fields(State) if f.compare and f.name != "events"))
"""A state's compared fields but its event log, as a tuple: the rest :meth:`FftcgGame.split_log` gives
(derived from the class, so a field added to ``State`` is never left out)."""

_ITSELF = object()
"""In :data:`_KEYS`: the state is its own key."""
_KEYS: dict[State, State | object] = {}
"""State -> its canonical key (:data:`_ITSELF` for a state that is its own key), by value."""
_MAX_KEYS = 100_000


def _renamed_key(state: State, classes: list[list[str]], zones_sorted: bool) -> State:
    """:meth:`FftcgGame.canonical_key` of a state with ``classes`` of interchangeable Forwards
    (``zones_sorted``: both players' zones are in id order)."""
    on_field = {f.id: (index, f) for index, player in enumerate(state.players) for f in player.forwards}
    mapping: dict[str, str] = {}
    for ids in classes:
        for old, new in zip(sorted(ids, key=lambda fid: _situation(state, fid, on_field)), ids):
            if old != new:
                mapping[old] = new
    attack = state.attack
    if not mapping and zones_sorted and (
            attack is None or (_is_sorted(attack.attackers) and _is_sorted(attack.declared))):
        return state  # what _rename gives back for a state renaming and sorting leave as it is
    return _rename(state, mapping)


@lru_cache(maxsize=4096)
def _player_cards(player: Player) -> tuple[bool, tuple[tuple[str, Hashable], ...], bool]:
    """Of one player's Forwards (field, then Break Zone): whether no two share a name; each one's id and
    static signature; whether both zones are in id order. Remembered by player (a player's hash is
    cached, and most successors keep their parent's players)."""
    forwards = (*player.forwards, *player.break_zone)
    names = [f.name for f in forwards]
    in_order = _is_sorted(tuple(f.id for f in player.forwards)) and _is_sorted(tuple(f.id for f in player.break_zone))
    return len(set(names)) == len(names), tuple((f.id, static_signature(f)) for f in forwards), in_order


@lru_cache(maxsize=4096)
def _classes(cards0: tuple[tuple[str, Hashable], ...], cards1: tuple[tuple[str, Hashable], ...]) -> list[list[str]]:
    """The classes of interchangeable Forwards (same printed card, same owner) of the two players, by
    their :func:`_player_cards` (empty when no two are alike)."""
    signatures = [(0, signature) for _, signature in cards0] + [(1, signature) for _, signature in cards1]
    if len(set(signatures)) == len(signatures):
        return []
    return interchangeable_classes(
        (fid, signature) for (fid, _), signature in zip((*cards0, *cards1), signatures))


def _is_sorted(values: tuple[str, ...]) -> bool:
    return all(a <= b for a, b in zip(values, values[1:]))


_LOG_PART = 4
"""The event log's index among :func:`_parts`."""


def _parts(state: State) -> tuple[Any, ...]:
    return (state.players[0], state.players[1], state.attack, state.attacked, state.events,
            (state.turn_player, state.step, state.turn, state.phase, state.outcome, state.passed))


_BLANK = State(players=(Player(), Player()))
"""Every field of a built state is given: ``replace`` of this blank is ``State(...)`` with those
fields (State has no ``__post_init__``), by the model's compiled copy."""


def _build(parts: tuple[Any, ...]) -> State:
    p0, p1, attack, attacked, events, (turn_player, step, turn, phase, outcome, passed) = parts
    return replace(_BLANK, players=(p0, p1), turn_player=turn_player, step=step, turn=turn, phase=phase,
                   attack=attack, attacked=attacked, events=events, outcome=outcome, passed=passed)


def _situation(state: State, fid: str, on_field: dict[str, tuple[int, Forward]]) -> tuple[object, ...]:
    """Everything the state says about one Forward, without its id (``on_field``: id -> (controller,
    Forward) of every Forward on the field)."""
    attack = state.attack
    index, forward = on_field.get(fid) or (None, None)
    zone: tuple[object, ...]
    if forward is not None:
        zone = (0, index, forward.dull, forward.damage, forward.since_start)
    else:
        zone = (1,)
    roles = (
        attack is not None and fid in attack.attackers,
        attack is not None and fid in attack.declared,
        attack is not None and attack.blocker == fid,
        fid in state.attacked,
    )
    events = tuple((n, e.kind, fid in e.sources, e.target == fid) for n, e in enumerate(state.events)
                   if fid in e.sources or e.target == fid)
    return (zone, roles, events)


def _rename(state: State, mapping: dict[str, str]) -> State:
    """The same state with Forward ids replaced by ``mapping`` (identical cards only), zones sorted by id.

    What renaming and sorting leave equal is kept as the same object (its cached hash with it); a
    state left wholly equal is returned itself."""

    def ids(values: tuple[str, ...]) -> tuple[str, ...]:
        renamed = tuple(sorted(mapping.get(v, v) for v in values))
        return values if renamed == values else renamed

    def zone(forwards: tuple[Forward, ...]) -> tuple[Forward, ...]:
        renamed = sorted((replace(f, id=mapping[f.id]) if f.id in mapping else f for f in forwards),
                         key=lambda f: f.id)
        return forwards if all(a is b for a, b in zip(renamed, forwards)) else tuple(renamed)

    def player(p: Player) -> Player:
        forwards, break_zone = zone(p.forwards), zone(p.break_zone)
        return p if forwards is p.forwards and break_zone is p.break_zone else \
            replace(p, forwards=forwards, break_zone=break_zone)

    def event(e: Event) -> Event:
        if e.target not in mapping and not any(s in mapping for s in e.sources):
            return e
        return replace(e, sources=tuple(mapping.get(s, s) for s in e.sources), target=mapping.get(e.target, e.target))

    players = tuple(player(p) for p in state.players)
    attack = state.attack
    if attack is not None:
        blocker = mapping.get(attack.blocker, attack.blocker) if attack.blocker else None
        attackers, declared = ids(attack.attackers), ids(attack.declared)
        if attackers is not attack.attackers or declared is not attack.declared or blocker != attack.blocker:
            attack = replace(attack, attackers=attackers, declared=declared, blocker=blocker)
    events = tuple(event(e) for e in state.events)
    attacked = state.attacked
    if any(v in mapping for v in attacked):
        attacked = frozenset(mapping.get(v, v) for v in attacked)
    if (all(a is b for a, b in zip(players, state.players)) and attack is state.attack and attacked is state.attacked
            and all(a is b for a, b in zip(events, state.events))):
        return state
    return replace(state, players=players, attack=attack, attacked=attacked, events=events)
