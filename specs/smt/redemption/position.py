"""What the Redemption situations read off a position, derived in z3 from raw facts.

Written from the catalogue, not from the model. The situations (:mod:`.side_battle_clauses`,
:mod:`.resolution`, :mod:`.redirect`) speak of "who controls a character", "where it is" (a
territory, the paused battle, a battle below it, a hand), "who has permanent control", "the side
it was on in its previous battle", "in a battle", "on a side opposed to a player" and "access to a
Lost Soul". None of those is handed over as a fact: the bridge gives z3 only raw facts of the
position, and the constraints here derive the rest (each function names its clauses):

- per card (:class:`CardPos`): its owner (printed), the raw list of the position it sits in
  (``where``: a player's hand, deck, territory, discard pile, Land of Bondage or Land of
  Redemption, a side of a battle on the stack, or on a fighter as an enhancement), the player
  whose list that is (``holder``), the stack level of the battle it sits in (0 = the bottom) and
  the side list it sits in (``raw_side``);
- the battle stack (:class:`StackPos`): its height and each level's two battling players, as the
  battle records list them, and how many cards lie in each player's Land of Bondage;
- the encoding's own log of how each fighter entered the battle it is in (:class:`Entry`): what
  the side battle situation's character inputs were when it was selected (or when it attacked or
  blocked), computed by :func:`entry_of` from the raw position *before* it entered, and carried
  along the play by the cross-check. The log of a position handed without history (a scenario's
  starting position) is that position's given.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Mapping, Sequence, TypeAlias

import z3

from cardrules.specs.catalogue.registry import implements
from cardrules.specs.smt.redemption.common import NONE, one_of

# the raw lists of a position a card can sit in
HAND, DECK, TERRITORY_LIST, DISCARD, BONDAGE, REDEMPTION, FIGHTING, ON_FIGHTER, NOWHERE = range(9)
PLAYER_LISTS = ("hand", "deck", "territory", "discard", "bondage", "redemption")
"""A player's zone lists, in the order of the constants above."""
MAX_PLAYERS = 4

# values of the side battle situation's zone input (same numbering as side_battle_vars.TERRITORY...)
SB_TERRITORY, SB_PAUSED, SB_LOWER, SB_HAND, SB_ELSEWHERE = range(5)

Value: TypeAlias = z3.ArithRef


@dataclass(frozen=True)
class CardPos:
    """One card's raw place, and the permanent controller the encoding's log holds for it
    (``logged_perm``: meaningful only for a card fighting in a battle; see :class:`Entry`)."""

    owner: Value
    where: Value
    holder: Value
    level: Value
    raw_side: Value
    logged_perm: Value

    @staticmethod
    def make(prefix: str) -> "CardPos":
        return CardPos(**{f.name: z3.Int(f"{prefix}.{f.name}") for f in fields(CardPos)})

    @staticmethod
    def of(values: Mapping[str, int]) -> "CardPos":
        return CardPos(**{f.name: z3.IntVal(values[f.name]) for f in fields(CardPos)})

    def fix(self, values: Mapping[str, int]) -> list[z3.BoolRef]:
        """These variables equal ``values`` (raw facts, and the log's values)."""
        return [getattr(self, f.name) == values[f.name] for f in fields(CardPos)]


@dataclass(frozen=True)
class StackPos:
    """The battle stack's raw records: its height, each level's players, and bondage sizes."""

    height: Value
    player0: z3.ArrayRef
    player1: z3.ArrayRef
    bondage: z3.ArrayRef
    """Cards in each player's Land of Bondage."""

    @staticmethod
    def make(prefix: str) -> "StackPos":
        I = z3.IntSort()
        return StackPos(z3.Int(f"{prefix}.height"), z3.Array(f"{prefix}.player0", I, I),
                        z3.Array(f"{prefix}.player1", I, I), z3.Array(f"{prefix}.bondage", I, I))

    @staticmethod
    def of(players: Sequence[tuple[int, int]], bondage: Sequence[int]) -> "StackPos":
        I = z3.IntSort()
        p0, p1, bond = z3.K(I, z3.IntVal(NONE)), z3.K(I, z3.IntVal(NONE)), z3.K(I, z3.IntVal(0))
        for level, (a, b) in enumerate(players):
            p0, p1 = z3.Store(p0, level, a), z3.Store(p1, level, b)
        for player, count in enumerate(bondage):
            bond = z3.Store(bond, player, count)
        return StackPos(z3.IntVal(len(players)), p0, p1, bond)

    def fix(self, players: Sequence[tuple[int, int]], bondage: Sequence[int]) -> list[z3.BoolRef]:
        out = [self.height == len(players)]
        for level, (a, b) in enumerate(players):
            out += [self.player0[level] == a, self.player1[level] == b]
        out += [self.bondage[p] == count for p, count in enumerate(bondage)]
        return out


@dataclass(frozen=True)
class Entry:
    """The encoding's log of how a fighter entered the battle it is in: the side battle
    situation's character inputs at that moment (zone, controller, permanent controller, the
    side it was on), and the id of the battle it came from (-1: none)."""

    zone: int
    ctrl: int
    perm: int
    side: int
    came_from: int = -1


def battle_player(stack: StackPos, level: Value, side: Value) -> z3.ArithRef:
    """The player of side ``side`` of the battle at ``level`` (the battle record's players)."""
    return z3.If(side == 0, stack.player0[level], stack.player1[level])


def fighting(p: CardPos) -> z3.BoolRef:
    return p.where == FIGHTING


@implements("RED-RD-TARGETS-IN-BATTLE", "RED-RD-NUMBERS-IN-BATTLE-ONLY")
def in_any_battle(p: CardPos) -> z3.BoolRef:
    """A card is in a battle: a fighter on a side of a battle on the stack, or on one."""
    return one_of(p.where, FIGHTING, ON_FIGHTER)


@implements("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def same_battle(p: CardPos, q: CardPos) -> z3.BoolRef:
    """Two cards are in the same battle: both in a battle (:func:`in_any_battle`), at the same stack level."""
    return z3.And(in_any_battle(p), in_any_battle(q), p.level == q.level)


@implements("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-TARGET-ZONES")
def control(p: CardPos, stack: StackPos) -> z3.ArithRef:
    """Who controls a character: in a battle, the battling player of its side
    (RED-SB-SIDES-BATTLE-PLAYERS: each battling player controls one side); in a territory or a
    hand, that player (decision ``sb-in-play-zones``: a hand's holder controls its cards); elsewhere
    its owner."""
    return z3.If(fighting(p), battle_player(stack, p.level, p.raw_side),
                 z3.If(one_of(p.where, HAND, TERRITORY_LIST), p.holder, p.owner))


@implements("RED-SB-TARGET-ZONES", "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED")
def sb_zone(p: CardPos, stack: StackPos) -> z3.ArithRef:
    """The side battle situation's zone: the paused battle is the top of the stack (the one play
    is in when the ability is used), a battle below it any lower level."""
    return z3.If(fighting(p), z3.If(p.level == stack.height - 1, SB_PAUSED, SB_LOWER),
                 z3.If(p.where == TERRITORY_LIST, SB_TERRITORY, z3.If(p.where == HAND, SB_HAND, SB_ELSEWHERE)))


@implements("RED-BR-RETURN-PERMANENT-CONTROLLER")
def permanent(p: CardPos) -> z3.ArithRef:
    """Permanent control: a territory's player has it of every character there; a fighter keeps
    the one it had when it entered (the log); a character in a hand is its holder's (who would
    put it into play); elsewhere its owner's."""
    return z3.If(p.where == TERRITORY_LIST, p.holder,
                 z3.If(fighting(p), p.logged_perm, z3.If(p.where == HAND, p.holder, p.owner)))


@implements("RED-SB-RETURN-TO-BATTLE")
def side_now(p: CardPos) -> z3.ArithRef:
    """The side a fighter is on now (its previous side if a side battle takes it): the raw side
    list it sits in; 0 for a card not fighting (unused)."""
    return z3.If(fighting(p), p.raw_side, 0)


@implements("RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-BR-RETURN-PERMANENT-CONTROLLER")
def entry_of(p: CardPos, stack: StackPos) -> tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef, z3.ArithRef]:
    """The log entry of a character that enters a battle, from its raw place just before:
    (zone, controller, permanent controller, side) as the side battle situation reads them when
    selected (for an attacker or blocker from a territory: a territory, its player)."""
    return sb_zone(p, stack), control(p, stack), permanent(p), side_now(p)


@implements("RED-RD-TARGET-PERSPECTIVE")
def opposing(p: CardPos, stack: StackPos, player: z3.ArithRef | int) -> z3.BoolRef:
    """A discard-opposing ability's restriction read for ``player``: a character fighting on a
    side of a battle ``player`` fights in, the side of another player."""
    in_their_battle = z3.Or(stack.player0[p.level] == player, stack.player1[p.level] == player)
    return z3.And(fighting(p), in_their_battle, battle_player(stack, p.level, p.raw_side) != player)


@implements("RED-RD-CARRIER-CHANGES")
def carried_by(player: z3.ArithRef, carrier: z3.ArithRef) -> z3.ArithRef:
    """Who carries out a played ability: the redirecting player recorded with it (``carrier``), or,
    with none recorded (-1), the player who played it."""
    return z3.If(carrier < 0, player, carrier)


@implements("RED-RD-TARGETS-IN-BATTLE")
def rd_place(p: CardPos, stack: StackPos, active: int, lower: int, nowhere: int) -> z3.ArithRef:
    """The redirect situation's place: in the active battle (the top of the stack), in a battle
    below it, or in no battle (``active``/``lower``/``nowhere`` are the situation's constants)."""
    return z3.If(in_any_battle(p), z3.If(p.level == stack.height - 1, active, lower), nowhere)


PHASES = ("draw", "upkeep", "preparation", "battle", "discard")
"""A turn's phases in order (RED-BASE-TURN-PHASES), by the names a position records them with."""


@implements("RED-RD-UNTIL-END-OF-PHASE", "RED-BASE-TURN-PHASES")
def phase_over(until_turn: Value | int, until_phase: Value | int, now_turn: Value | int, now_phase: Value | int) -> z3.BoolRef:
    """The phase an ongoing redirect lasts to (turn ``until_turn``, phase number ``until_phase``, as
    the redirect's record gives them) has ended at the position's turn and phase: a later turn, or
    a later phase of the same turn (phase numbers: the index in :data:`PHASES`). A battle ending
    is not a phase ending."""
    return z3.Or(now_turn > until_turn, z3.And(now_turn == until_turn, now_phase > until_phase))


def phase_number(name: str) -> int:
    """A phase's place in the turn (:data:`PHASES`), from the name a position records."""
    return PHASES.index(name)


@implements("RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
def rescue_access(stack: StackPos, rescue: z3.BoolRef, defender: z3.ArithRef | int) -> z3.BoolRef:
    """Access to a Lost Soul at step 2 of a rescue: a card (a Lost Soul) lies in the defending
    player's Land of Bondage."""
    return z3.And(rescue, stack.bondage[defender] > 0)


@implements("RED-SB-RETURN-TO-BATTLE")
def came_from_a_battle(entry_zone: z3.ArithRef) -> z3.BoolRef:
    """A fighter's log entry says it was in a battle (the paused one or one below) when it entered."""
    return one_of(entry_zone, SB_PAUSED, SB_LOWER)


def evaluate(expr: z3.ExprRef) -> int | bool:
    """A closed expression (built with :meth:`CardPos.of` / :meth:`StackPos.of`) evaluated by z3."""
    value = z3.simplify(expr)
    if z3.is_int_value(value):
        return value.as_long()
    if z3.is_true(value) or z3.is_false(value):
        return z3.is_true(value)
    raise ValueError(f"not a closed expression: {value}")


def entry_values(p: Mapping[str, int], players: Sequence[tuple[int, int]], bondage: Sequence[int]) -> tuple[int, int, int, int]:
    """:func:`entry_of` evaluated by z3 on a card's raw place (and log) before it enters a battle."""
    out = tuple(evaluate(x) for x in entry_of(CardPos.of(p), StackPos.of(players, bondage)))
    return out  # type: ignore[return-value]
