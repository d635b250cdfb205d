"""From a consistency situation z3 chose to a Redemption position and action the model can play.

The difference search (:mod:`cardrules.specs.smt.difference`) answers with a situation: a value for
every input variable of an area's consistency situation (``heal.place``, ``sb.count`` ...). This
module turns such an answer into a start position (the model's JSON form, loaded by the model's
public loader) and the action to take there, so that the model can be asked what each rule set does.

Only some situations are positions a small table can be built for; each area has *shapes*, and a
shape fixes the inputs it does not build (:attr:`Shape.fixed`) and may tie others together
(:attr:`Shape.ties`). The search is narrowed to the shapes (:meth:`Decoder.restrict`), so every
answer it gives can be decoded; what the shapes leave out is :attr:`Decoder.limits`, said in every
report. The decoder reads the situation's inputs only, never an output: the model decides those.

Shapes:

* ``heal``, *window*: a character fighting for the player with permanent control of it (owned by
  either player) loses a rescue and is defeated; Battle Resolution's heal window is open for that
  player, who holds a healing enhancement of the character's brigade; the action heals it with it.
* ``heal``, *pile*: in the preparation or discard phase, a character lies in its owner's discard
  pile, discarded this turn (by an ability, by Battle Resolution, or from a hand), and a player
  (the pile's owner or not) holds a healing enhancement of its brigade; the action heals it.
* ``side-battle``, *rescue*: two players; the turn's player rescues and holds a side battle
  enhancement, having started ``sb.count`` side battles this turn (0 to 2); the actions play it
  (on the rescuer, selecting the blocker and an Evil character of the blocker's territory, or with
  its ability blanked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import z3

from cardrules.specs.smt.redemption import heal as h
from cardrules.specs.smt.redemption import side_battle_vars as sbv

Value = int | bool
Position = tuple[dict[str, Any], str]
"""A position's JSON form and the start of the text of the actions to take there (every legal action
whose text starts so is played)."""


@dataclass(frozen=True)
class Shape:
    name: str
    fixed: Mapping[str, Value]
    ties: Callable[[Mapping[str, z3.ExprRef]], z3.BoolRef]
    build: Callable[[Mapping[str, Value]], Position]

    def holds(self, names: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
        return z3.And(*[names[n] == v for n, v in self.fixed.items()], self.ties(names))

    def matches(self, inputs: Mapping[str, Value]) -> bool:
        return all(inputs.get(n) == v for n, v in self.fixed.items())


@dataclass(frozen=True)
class Decoder:
    area: str
    shapes: tuple[Shape, ...]
    limits: str
    """What situations the shapes leave out (said with every verdict the search narrowed to them)."""

    def restrict(self, names: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
        return z3.Or(*[shape.holds(names) for shape in self.shapes])

    def decode(self, inputs: Mapping[str, Value]) -> Position:
        for shape in self.shapes:
            if shape.matches(inputs):
                return shape.build(inputs)
        raise ValueError(f"no {self.area} shape fits the situation {dict(inputs)}")


# --- JSON pieces ---------------------------------------------------------------------------------


def _card(card_id: str, kind: str, owner: int, good: bool, ability: str | None = None, size: int = 2) -> dict[str, Any]:
    return {"id": card_id, "type": kind, "owner": owner, "alignment": "good" if good else "evil",
            "brigades": ["blue" if good else "crimson"], "strength": size if kind == "character" else 0,
            "toughness": size if kind == "character" else 0, "territory_class": False, "ability": ability}


def _zones(players: int = 2) -> list[dict[str, list[str]]]:
    return [{"hand": [], "deck": [], "territory": [], "discard": [], "bondage": [], "redemption": []}
            for _ in range(players)]


def _position(cards: list[dict[str, Any]], zones: list[dict[str, list[str]]], **fields: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "cards": sorted(cards, key=lambda c: str(c["id"])), "zones": zones, "active": 0, "turn": 1,
        "phase": "battle", "battles": [], "prompt": None, "records": [], "statuses": [], "battles_started": 0,
        "side_battles": [0] * len(zones), "next_battle": 1, "next_record": 1, "last_outcome": None,
        "last_mission": None, "winner": None, "decreased": [], "discards": [], "searches": [], "placed": [],
    }
    state.update(fields)
    return state


def _fighter(card: str, permanent: int) -> dict[str, Any]:
    return {"card": card, "permanent": permanent, "enhancements": [],
            "origins": [{"kind": "territory", "player": permanent, "battle": -1, "side": -1}]}


# --- heal ----------------------------------------------------------------------------------------

_HEAL_COMMON: dict[str, Value] = {
    "heal.is_character": True, "heal.means": h.ENHANCEMENT, "heal.worded_heal": True, "heal.says_restore": False,
    "heal.able": True, "heal.brigade_match": True, "heal.healer_has_tc": False, "heal.holders_territory": False,
    "heal.poisoned": False, "heal.diseased": False, "heal.paralyzed": False, "heal.decreased": False,
}


def _heal_window(inputs: Mapping[str, Value]) -> Position:
    """Battle Resolution's heal window for the character ``t`` of its permanent controller ``c``."""
    owner, c = int(inputs["heal.owner"]), int(inputs["heal.permanent_controller"])
    cards = [_card("t", "character", owner, True), _card("e", "character", 1 - c, False, size=4),
             _card("hx", "enhancement", c, True, "heal")]
    zones = _zones()
    zones[c]["hand"].append("hx")
    battle = {"id": 1, "kind": "rescue", "players": [c, 1 - c], "sides": [[_fighter("t", c)], [_fighter("e", 1 - c)]],
              "last_player": 1 - c, "opened_by": -1, "outcome": "side1-wins", "mission": "failure", "defeated": ["t"]}
    state = _position(cards, zones, active=c, battles=[battle], battles_started=1, next_battle=2,
                      prompt={"kind": "heal-window", "player": c, "record": -1, "cards": ["t"]},
                      last_outcome="side1-wins", last_mission="failure")
    return state, "heal t with hx"


_CAUSES = {h.BY_ABILITY: "ability", h.BY_BATTLE_RESOLUTION: "rule", h.FROM_HAND_OR_DECK: "hand"}


def _heal_pile(inputs: Mapping[str, Value]) -> Position:
    """The character ``t`` in its owner's discard pile, discarded this turn; the healer holds ``hx``."""
    owner, c = int(inputs["heal.owner"]), int(inputs["heal.permanent_controller"])
    healer = owner if inputs["heal.holders_pile"] else 1 - owner
    cards = [_card("t", "character", owner, True), _card("hx", "enhancement", healer, True, "heal")]
    zones = _zones()
    zones[owner]["discard"].append("t")
    zones[healer]["hand"].append("hx")
    event = {"card": "t", "cause": _CAUSES[int(inputs["heal.cause"])], "pile": owner, "controller": c,
             "alignment": "good", "brigades": ["blue"], "enhancements": [], "healed": False}
    phase = "preparation" if inputs["heal.phase"] == h.PREPARATION else "discard"
    return _position(cards, zones, phase=phase, discards=[event]), "heal t with hx"


def _pile_ties(v: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
    healer = z3.If(v["heal.holders_pile"], v["heal.owner"], 1 - v["heal.owner"])
    return z3.And(z3.Or(*[v["heal.cause"] == c for c in _CAUSES]),
                  z3.Or(v["heal.phase"] == h.PREPARATION, v["heal.phase"] == h.DISCARD),
                  v["heal.holder_is_controller"] == (healer == v["heal.permanent_controller"]))


HEAL = Decoder("heal", (
    Shape("window", {**_HEAL_COMMON, "heal.place": h.BEING_DISCARDED, "heal.cause": h.BY_BATTLE_RESOLUTION,
                     "heal.phase": h.BATTLE, "heal.holder_is_controller": True, "heal.has_initiative": True,
                     "heal.holders_pile": False, "heal.same_target": False},
          lambda v: z3.BoolVal(True), _heal_window),
    Shape("pile", {**_HEAL_COMMON, "heal.place": h.DISCARD_PILE, "heal.this_turn": True, "heal.same_target": True,
                   "heal.has_initiative": False},
          _pile_ties, _heal_pile),
), "two players; a Hero healed with a healing enhancement of its brigade, either in Battle Resolution's heal "
   "window or from a discard pile in the preparation or discard phase; not built: heals by a character's "
   "ability or on a card in a territory or in battle, statuses and decreases, a heal window of an ability's "
   "discard, more than two players")


# --- side battle ---------------------------------------------------------------------------------

_SB_FIXED: dict[str, Value] = {
    "sb.players": 2, "sb.p0": 0, "sb.p1": 1, "sb.m0": 0, "sb.m1": 1, "sb.nested": False, "sb.user": 0,
    "sb.used": True, "sb.same_card": False, "sb.ctrl_x": 1, "sb.zone_x": sbv.PAUSED_BATTLE, "sb.ctrl_y": 1,
    "sb.zone_y": sbv.TERRITORY, "sb.hero_x": False, "sb.hero_y": False, "sb.owner_x": 1, "sb.owner_y": 1,
    "sb.perm_x": 1, "sb.perm_y": 1, "sb.paralyzed_x": False, "sb.paralyzed_y": False, "sb.prev_side_x": 1,
    "sb.prev_side_y": 0, "sb.defeated_x": False, "sb.defeated_y": False, "sb.healed_x": False,
    "sb.healed_y": False, "sb.ended": False, "sb.sb_negated": False, "sb.effect_in_sb": False,
    "sb.effect_interruptible": False, "sb.victim_in_paused": False, "sb.ability_in_active": True,
}


def _side_battle_rescue(inputs: Mapping[str, Value]) -> Position:
    """Player 0 rescues with ``h0`` against ``e1``, ``e2`` at home with player 1; ``sb0`` in player 0's hand."""
    cards = [_card("h0", "character", 0, True, size=3), _card("e1", "character", 1, False),
             _card("e2", "character", 1, False), _card("sb0", "enhancement", 0, True, "side-battle")]
    zones = _zones()
    zones[0]["hand"].append("sb0")
    zones[1]["territory"].append("e2")
    battle = {"id": 1, "kind": "rescue", "players": [0, 1], "sides": [[_fighter("h0", 0)], [_fighter("e1", 1)]],
              "last_player": 1, "opened_by": -1, "outcome": None, "mission": None, "defeated": []}
    state = _position(cards, zones, battles=[battle], battles_started=1, next_battle=2,
                      prompt={"kind": "play", "player": 0, "record": -1, "cards": []},
                      side_battles=[int(inputs["sb.count"]), 0])
    return state, "play sb0"


SIDE_BATTLE = Decoder("side-battle", (
    Shape("rescue", _SB_FIXED, lambda v: z3.And(v["sb.count"] >= 0, v["sb.count"] <= 2), _side_battle_rescue),
), "two players; the turn's player, rescuing, plays a side battle enhancement selecting the blocker and an Evil "
   "character of the blocker's territory, with 0 to 2 side battles started earlier this turn; not built: other "
   "selections and users, nested battles, the end of a side battle (survivors, negation, interrupts)")

DECODERS: Mapping[str, Decoder] = {"heal": HEAL, "side-battle": SIDE_BATTLE}
"""Area -> its decoder (areas without one are searched, but a difference found there cannot be replayed)."""
