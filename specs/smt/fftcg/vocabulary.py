"""The bounded configuration and the typed z3 variables of the FFTCG encoding.

What is abstracted away (as in the clauses' scope): decks, hands, CP, the
main and draw phases, abilities other than Haste, Brave, Pre-emptive Strike
and two blocking restrictions. The turn's event log is kept only as what the
clauses speak of: which Forwards were broken this turn and who is credited
with each break (FF-PARTY-BREAK-CREDIT, FF-BASE-BREAK-DAMAGE), and which left
the field by an effect (FF-PARTY-LEAVE-FIELD). The order of cards in a Break
Zone is not recorded.

Constants (one run): a :class:`Layout`, the fixed Forwards of each player
(indices ``0..n-1``; each Forward has a fixed owner and controller).

Rigid variables (:class:`Cards`, one copy for all time frames): the printed
attributes of every Forward.

Flexible variables (:class:`Frame`, one copy per time frame ``t``, made by
:meth:`Vocabulary.at`), each documented on its field. Scalars are Ints or
Bools; per-Forward groups are tuples indexed like the layout.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Sequence

import z3

from cardrules.specs.smt.transition import FrameGroups, flatten

ELEMENTS: tuple[str, ...] = ("dark", "earth", "fire", "ice", "light", "lightning", "water", "wind")
"""The eight elements (FF-BASE-MULTI-ELEMENT), in a fixed order."""

# --- steps of the attack phase (FF-BASE-ATTACK-STEPS) --------------------------
PREPARATION, DECLARATION, BLOCK, PREEMPTIVE, DAMAGE, COMBAT_END = range(6)
STEPS: tuple[str, ...] = (
    "attack-preparation", "attack-declaration", "block-declaration",
    "damage-preemptive", "damage-resolution", "combat-end",
)
NO_OUTCOME = -1
"""``outcome`` while the game goes on; otherwise the winner (0 or 1)."""
NONE = -1
"""``blocker`` / action ``target`` when there is none."""
LOSING_DAMAGE = 7
"""FF-BASE-SEVEN-DAMAGE-LOSES."""
BREAK_THRESHOLD = 1000
"""FF-BASE-BREAK-DAMAGE: damage breaks only Forwards of power 1000 or more."""

# --- action kinds -------------------------------------------------------------
ATTACK, BLOCK_WITH, NO_BLOCK, SPLIT, REMOVE, PASS, END_TURN = range(7)
KINDS: tuple[str, ...] = ("attack", "block", "noblock", "split", "remove", "pass", "end-turn")


@dataclass(frozen=True, slots=True)
class Layout:
    """The bounded configuration: the Forward ids of each player, fixed per run."""

    ids: tuple[str, ...]
    owners: tuple[int, ...]
    """Owner (and controller) of each Forward, 0 or 1."""

    @staticmethod
    def of(player0: Sequence[str], player1: Sequence[str]) -> Layout:
        ids = (*player0, *player1)
        if len(set(ids)) != len(ids):
            raise ValueError(f"Forward ids repeat: {ids}")
        return Layout(tuple(ids), (0,) * len(player0) + (1,) * len(player1))

    @property
    def n(self) -> int:
        return len(self.ids)

    def index(self, forward_id: str) -> int:
        return self.ids.index(forward_id)

    def of_player(self, player: int) -> tuple[int, ...]:
        return tuple(i for i, o in enumerate(self.owners) if o == player)


@dataclass(frozen=True)
class Cards:
    """Rigid attributes of each Forward (they never change)."""

    power: tuple[z3.ArithRef, ...]
    cost: tuple[z3.ArithRef, ...]
    element: tuple[tuple[z3.BoolRef, ...], ...]
    """``element[i][e]``: Forward i has element ``ELEMENTS[e]``."""
    p_icon: tuple[z3.BoolRef, ...]
    haste: tuple[z3.BoolRef, ...]
    brave: tuple[z3.BoolRef, ...]
    preemptive: tuple[z3.BoolRef, ...]
    ub_cost_set: tuple[z3.BoolRef, ...]
    """"Cannot be blocked by a Forward of cost N or more" applies."""
    ub_cost: tuple[z3.ArithRef, ...]
    """That N (0 when it does not apply)."""
    ub_element: tuple[tuple[z3.BoolRef, ...], ...]
    """``ub_element[i][e]``: cannot be blocked by a Forward of element e."""

    def all(self) -> list[z3.ExprRef]:
        out: list[z3.ExprRef] = []
        for f in fields(self):
            out.extend(flatten(getattr(self, f.name)))
        return out


@dataclass(frozen=True)
class Frame(FrameGroups):
    """The flexible variables of one time frame."""

    turn: z3.ArithRef
    """Turn number, from 1."""
    turn_player: z3.ArithRef
    """0 or 1: the attacking player; the other one defends."""
    step: z3.ArithRef
    """One of the step constants above."""
    outcome: z3.ArithRef
    """NO_OUTCOME, or the winner."""
    pdamage: tuple[z3.ArithRef, z3.ArithRef]
    """Damage of each player (FF-BASE-SEVEN-DAMAGE-LOSES)."""
    field: tuple[z3.BoolRef, ...]
    """On the field (else in its owner's Break Zone)."""
    dull: tuple[z3.BoolRef, ...]
    dmg: tuple[z3.ArithRef, ...]
    """Damage on the Forward."""
    since_start: tuple[z3.BoolRef, ...]
    """Under its controller's control since the turn began."""
    attacked: tuple[z3.BoolRef, ...]
    """Has attacked this turn."""
    in_attack: z3.BoolRef
    """An attack is being resolved (FF-BASE-ONE-ATTACK-AT-A-TIME)."""
    attacker: tuple[z3.BoolRef, ...]
    """Attacking now (a member that left the field is no longer one)."""
    declared: tuple[z3.BoolRef, ...]
    """Was declared as (part of) the attacker."""
    party: z3.BoolRef
    """A party exists now."""
    decl_pre: z3.BoolRef
    """Every declared Forward had Pre-emptive Strike."""
    block_declared: z3.BoolRef
    blocked: z3.BoolRef
    blocker: z3.ArithRef
    """Index of the blocker while it is on the field, else NONE."""
    att_dealt: z3.BoolRef
    """The attacking side has dealt its combat damage."""
    blk_dealt: z3.BoolRef
    broke: tuple[z3.BoolRef, ...]
    """Was broken this turn."""
    removed: tuple[z3.BoolRef, ...]
    """Left the field by an effect this turn."""
    credit: tuple[tuple[z3.BoolRef, ...], ...]
    """``credit[i][j]``: Forward j is credited with breaking Forward i this turn."""
    passed: z3.BoolRef
    """The turn player has passed in this step and the other player holds priority (only ever set under
    ``ff-step-passing = alternating-priority``; every other action clears it)."""


GROUPS: tuple[str, ...] = tuple(f.name for f in fields(Frame))
ATTACK_GROUPS: tuple[str, ...] = (
    "in_attack", "attacker", "declared", "party", "decl_pre", "block_declared", "blocked", "blocker",
    "att_dealt", "blk_dealt",
)


@dataclass(frozen=True)
class ActionVars:
    """The action taken from frame t to t+1 (parameters not used are canonical)."""

    kind: z3.ArithRef
    """One of the action kind constants."""
    pick: tuple[z3.BoolRef, ...]
    """ATTACK: the declared Forwards; otherwise all false."""
    target: z3.ArithRef
    """BLOCK_WITH / REMOVE: the Forward; otherwise NONE."""
    share: tuple[z3.ArithRef, ...]
    """SPLIT: each member's share of the blocker's damage; otherwise (and for non-members) 0."""

    def all(self) -> list[z3.ExprRef]:
        return [self.kind, *self.pick, self.target, *self.share]


@dataclass(frozen=True)
class Vocabulary:
    """The variables of one bounded configuration; :meth:`at` makes frame ``t``."""

    layout: Layout
    prefix: str = ""

    def _name(self, base: str, t: int | None, *index: int) -> str:
        where = "".join(f"[{self.layout.ids[k]}]" if k < self.layout.n else f"[{k}]" for k in index)
        return f"{self.prefix}{base}{where}" + (f"@{t}" if t is not None else "")

    def cards(self) -> Cards:
        n, name = range(self.layout.n), self._name
        def ints(base: str) -> tuple[z3.ArithRef, ...]:
            return tuple(z3.Int(name(base, None, i)) for i in n)
        def bools(base: str) -> tuple[z3.BoolRef, ...]:
            return tuple(z3.Bool(name(base, None, i)) for i in n)
        return Cards(
            power=ints("power"), cost=ints("cost"),
            element=tuple(tuple(z3.Bool(f"{name('element', None, i)}.{e}") for e in ELEMENTS) for i in n),
            p_icon=bools("p_icon"), haste=bools("haste"), brave=bools("brave"), preemptive=bools("preemptive"),
            ub_cost_set=bools("ub_cost_set"), ub_cost=ints("ub_cost"),
            ub_element=tuple(tuple(z3.Bool(f"{name('ub_element', None, i)}.{e}") for e in ELEMENTS) for i in n),
        )

    def at(self, t: int) -> Frame:
        """The flexible variables of time frame ``t`` (names end in ``@t``)."""
        n, name = range(self.layout.n), self._name
        def ints(base: str) -> tuple[z3.ArithRef, ...]:
            return tuple(z3.Int(name(base, t, i)) for i in n)
        def bools(base: str) -> tuple[z3.BoolRef, ...]:
            return tuple(z3.Bool(name(base, t, i)) for i in n)
        return Frame(
            turn=z3.Int(name("turn", t)), turn_player=z3.Int(name("turn_player", t)),
            step=z3.Int(name("step", t)), outcome=z3.Int(name("outcome", t)),
            pdamage=(z3.Int(name("pdamage", t) + ".p0"), z3.Int(name("pdamage", t) + ".p1")),
            field=bools("field"), dull=bools("dull"), dmg=ints("dmg"), since_start=bools("since_start"),
            attacked=bools("attacked"), in_attack=z3.Bool(name("in_attack", t)), attacker=bools("attacker"),
            declared=bools("declared"), party=z3.Bool(name("party", t)), decl_pre=z3.Bool(name("decl_pre", t)),
            block_declared=z3.Bool(name("block_declared", t)), blocked=z3.Bool(name("blocked", t)),
            blocker=z3.Int(name("blocker", t)), att_dealt=z3.Bool(name("att_dealt", t)),
            blk_dealt=z3.Bool(name("blk_dealt", t)), broke=bools("broke"), removed=bools("removed"),
            credit=tuple(tuple(z3.Bool(name("credit", t, i, j)) for j in n) for i in n),
            passed=z3.Bool(name("passed", t)),
        )

    def action_at(self, t: int) -> ActionVars:
        """The action variables of the step from frame ``t`` to ``t+1``."""
        n, name = range(self.layout.n), self._name
        return ActionVars(
            kind=z3.Int(name("act.kind", t)),
            pick=tuple(z3.Bool(name("act.pick", t, i)) for i in n),
            target=z3.Int(name("act.target", t)),
            share=tuple(z3.Int(name("act.share", t, i)) for i in n),
        )


def cards_domain(layout: Layout, c: Cards) -> z3.BoolRef:
    """Ranges of the rigid attributes: cost >= 0, at least one element
    (FF-BASE-MULTI-ELEMENT), ``ub_cost`` canonical (0) when unset."""
    parts: list[z3.BoolRef] = []
    for i in range(layout.n):
        parts += [c.cost[i] >= 0, z3.Or(*c.element[i]),
                  z3.If(c.ub_cost_set[i], c.ub_cost[i] >= 0, c.ub_cost[i] == 0)]
    return z3.And(*parts)


def domain(layout: Layout, s: Frame) -> z3.BoolRef:
    """The type invariant of a frame (TLA+'s TypeOK), with canonical values:

    - ``turn >= 1``, ``turn_player in {0,1}``, ``step in 0..5``, ``outcome in {-1,0,1}``,
      ``0 <= pdamage[p]``, ``0 <= dmg[i]``, ``blocker in {-1} + indices``;
    - a Forward in a Break Zone is active, undamaged, not under control since the start,
      and is no attacker or blocker;
    - no attack: every attack variable is false / NONE;
    - attackers and declared Forwards belong to the turn player, attackers were declared,
      the blocker belongs to the defender and only with a declared block;
    - ``credit[i][j]`` only for a broken ``i``;
    - ``passed`` only while the game goes on, and not in a step the turn player cannot pass yet
      (Attack Declaration before an attack, Block Declaration before the block).
    """
    n = layout.n
    parts: list[z3.BoolRef] = [
        s.turn >= 1, z3.Or(s.turn_player == 0, s.turn_player == 1),
        s.step >= PREPARATION, s.step <= COMBAT_END,
        z3.Or(s.outcome == NO_OUTCOME, s.outcome == 0, s.outcome == 1),
        s.pdamage[0] >= 0, s.pdamage[1] >= 0,
        z3.Or(s.blocker == NONE, *[s.blocker == i for i in range(n)]),
        z3.Implies(z3.Not(s.in_attack), z3.And(
            *[z3.Not(x) for x in (*s.attacker, *s.declared)], z3.Not(s.party), z3.Not(s.decl_pre),
            z3.Not(s.block_declared), z3.Not(s.blocked), s.blocker == NONE, z3.Not(s.att_dealt),
            z3.Not(s.blk_dealt))),
        z3.Implies(z3.Not(s.block_declared), z3.And(z3.Not(s.blocked), s.blocker == NONE)),
        z3.Implies(s.blocker != NONE, s.blocked),
        z3.Implies(s.in_attack, s.step != PREPARATION),
        z3.Implies(z3.Not(s.in_attack), z3.Or(s.step == PREPARATION, s.step == DECLARATION)),
        z3.Implies(s.passed, z3.And(s.outcome == NO_OUTCOME, z3.Or(s.in_attack, s.step != DECLARATION),
                                    z3.Or(s.step != BLOCK, s.block_declared))),
    ]
    for i in range(n):
        owner = layout.owners[i]
        parts += [
            s.dmg[i] >= 0,
            z3.Implies(z3.Not(s.field[i]), z3.And(z3.Not(s.dull[i]), s.dmg[i] == 0, z3.Not(s.since_start[i]),
                                                 z3.Not(s.attacker[i]), s.blocker != i)),
            z3.Implies(s.attacker[i], z3.And(s.declared[i], s.turn_player == owner)),
            z3.Implies(s.declared[i], s.turn_player == owner),
            z3.Implies(s.blocker == i, s.turn_player != owner),
        ]
        for j in range(n):
            parts.append(z3.Implies(s.credit[i][j], s.broke[i]))
    return z3.And(*parts)
