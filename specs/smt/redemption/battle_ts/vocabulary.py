"""The bounded configuration and the typed z3 variables of the Redemption battle-phase encoding.

Fragment (what the encoding speaks about): two players; Heroes, Evil Characters, Lost Souls
and enhancements that only add numbers (no special abilities, no statuses, no decks, no
side battles); the turn's main battle from the attack to the end of Battle Resolution,
and the turn around it: the draw phase (with no deck, drawing draws nothing), upkeep,
preparation (characters put from hand into the territory), battle, discard, and on to the
next player's turn.

Constants (one run): a :class:`Layout`, the fixed cards of the game sorted by id, each with
its printed data (type, owner, alignment, brigades, strength, toughness). Printed data
never changes (RED-BASE-CHARACTERS, RED-BASE-ENHANCEMENTS), so it is a constant, not a
variable; the derived predicate :meth:`Layout.matches` ("enhancement e may go on
character c": same alignment, a shared brigade) is precomputed from it.

Flexible variables (:class:`Frame`, one copy per time frame ``t``, made by
:meth:`Vocabulary.at`), each documented on its field. A :class:`Frame` may also hold
arbitrary z3 terms instead of constants: the rule functions of :mod:`.rules` map a
symbolic frame to the symbolic frame after a rule has been applied.

Encoding of the card-indexed groups (``i`` ranges over the layout):

=================  ===========================================================================
``loc[i]``         HAND, TERRITORY, DISCARD, BONDAGE, REDEMPTION, FIGHTER (a character in the
                   battle), ATTACHED (an enhancement on a character in the battle) or PLACED (an
                   enhancement put on a character in its territory outside battle, decision
                   ``red-base-enhancement-timing`` = any-time)
``zp[i]``          the player whose zone holds the card; for a FIGHTER its permanent
                   controller (RED-BR-RETURN-PERMANENT-CONTROLLER); NONE when ATTACHED
``side[i]``        FIGHTER: 0 (the turn player's side, the Heroes) or 1; else NONE
``host[i]``        ATTACHED or PLACED: the index of the character it is on; else NONE
``doomed[i]``      Battle Resolution step 4 will discard it (it stays set after the discard,
                   until the battle ends)
``rec[i]``         the play record id of an enhancement played in this battle (0: none, and
                   for one that went into the battle already placed on its character);
                   ``rec_on[i]`` the character it was played on, ``rec_by[i]`` the player
``dseq[i]``        the position (1, 2, ...) of the card's discard in this turn's list of
                   completed character discards (0: none); ``dctrl[i]`` its permanent
                   controller at the discard
``pcard[i]``       the characters a heal window is about to discard
=================  ===========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Sequence

import z3

from cardrules.specs.smt.transition import FrameGroups

# --- card types, locations, phases, battle values --------------------------------------------
CHARACTER, ENHANCEMENT, LOST_SOUL = range(3)
HAND, TERRITORY, DISCARD, BONDAGE, REDEMPTION, FIGHTER, ATTACHED, PLACED = range(8)
LOCATIONS: tuple[str, ...] = ("hand", "territory", "discard", "bondage", "redemption", "fighter", "attached")
ZONE_LOCATIONS: tuple[int, ...] = (HAND, TERRITORY, DISCARD, BONDAGE, REDEMPTION)
"""Locations that are a player's zone (``zp`` names the player)."""
DRAW, UPKEEP, PREPARATION, BATTLE, DISCARD_PHASE = range(5)
PHASES: tuple[str, ...] = ("draw", "upkeep", "preparation", "battle", "discard")
"""RED-BASE-TURN-PHASES, in order."""
RESCUE, CHALLENGE = range(2)
BATTLE_KINDS: tuple[str, ...] = ("rescue", "challenge")
SIDE0_WINS, SIDE1_WINS, MUTUAL_DESTRUCTION, STALEMATE = range(4)
OUTCOMES: tuple[str, ...] = ("side0-wins", "side1-wins", "mutual-destruction", "stalemate")
"""RED-BR-FOUR-OUTCOMES, named by side (side 0: the Heroes of the turn player)."""
SUCCESS, FAILURE = range(2)
MISSIONS: tuple[str, ...] = ("success", "failure")
"""RED-BR-MISSION-RESULT."""
BLOCK_PROMPT, PLAY_PROMPT, HEAL_PROMPT = range(3)
PROMPTS: tuple[str, ...] = ("block", "play", "heal-window")
NONE = -1
"""The value of an Int that names nothing (no player, card, outcome, prompt...)."""
MAX_GROUP = 3
"""Largest group of Heroes (or blockers) one action sends into battle: the model interface's
bound (the catalogue is silent), kept so that the two action sets can be compared exactly."""
SOULS_TO_WIN = 5
"""RED-BASE-WIN-FIVE-SOULS."""

# --- action kinds -----------------------------------------------------------------------------
ATTACK, BLOCK, NO_BLOCK, PLAY, PASS, DECLINE_HEAL, NEXT, DRAW_CARDS, PUT = range(9)
KINDS: tuple[str, ...] = ("attack", "block", "noblock", "play", "pass", "discard", "next", "draw", "put")


@dataclass(frozen=True, slots=True)
class CardData:
    """The printed data of one card (constant)."""

    id: str
    type: int
    """CHARACTER, ENHANCEMENT or LOST_SOUL."""
    owner: int
    good: bool
    """Hero / good enhancement (else Evil Character / evil enhancement); False for Lost Souls."""
    brigades: frozenset[str] = frozenset()
    strength: int = 0
    toughness: int = 0

    @property
    def is_hero(self) -> bool:
        return self.type == CHARACTER and self.good

    @property
    def is_evil_character(self) -> bool:
        return self.type == CHARACTER and not self.good


@dataclass(frozen=True, slots=True)
class Layout:
    """The bounded configuration: every card of the game, sorted by id, and two players."""

    cards: tuple[CardData, ...]
    players: int = 2

    def __post_init__(self) -> None:
        ids = [c.id for c in self.cards]
        if ids != sorted(set(ids)):
            raise ValueError(f"card ids must be unique and sorted: {ids}")
        if self.players != 2:
            raise ValueError("the battle encoding covers two-player games only")

    @property
    def n(self) -> int:
        return len(self.cards)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def index(self, card_id: str) -> int:
        return self.ids.index(card_id)

    def of_type(self, card_type: int) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cards) if c.type == card_type)

    def matches(self, e: int, c: int) -> bool:
        """Enhancement ``e`` may be played on character ``c``: same alignment and a shared
        brigade (RED-BASE-ENHANCEMENTS)."""
        enh, char = self.cards[e], self.cards[c]
        return (enh.type == ENHANCEMENT and char.type == CHARACTER and enh.good == char.good
                and bool(enh.brigades & char.brigades))


@dataclass(frozen=True)
class Frame(FrameGroups):
    """The flexible variables of one time frame (or symbolic terms for them)."""

    turn: z3.ArithRef
    active: z3.ArithRef
    """Whose turn it is (the attacker of the turn's main battle)."""
    phase: z3.ArithRef
    """Index into PHASES (RED-BASE-TURN-PHASES)."""
    battles_started: z3.ArithRef
    """Main battles started this turn (decision red-base-battles-per-turn: at most one; under many, 1 once
    one was started)."""
    next_battle: z3.ArithRef
    """Id the next battle gets."""
    next_record: z3.ArithRef
    """Id the next play record gets."""
    last_outcome: z3.ArithRef
    """Outcome of the last main battle resolved, or NONE."""
    last_mission: z3.ArithRef
    winner: z3.ArithRef
    """NONE, or the player who won (RED-BASE-WIN-FIVE-SOULS)."""
    battle: z3.BoolRef
    """A main battle is on the stack."""
    bid: z3.ArithRef
    """Its id (0 without a battle)."""
    kind: z3.ArithRef
    """RESCUE or CHALLENGE (RED-BASE-RESCUE-OR-CHALLENGE); NONE without a battle."""
    defender: z3.ArithRef
    """The second battling player; NONE without a battle."""
    last: z3.ArithRef
    """Who played (or put in) the last card, for initiative in a tie (RED-BASE-INITIATIVE)."""
    outcome: z3.ArithRef
    """Step 1's outcome once resolution has begun (RED-BR-STEP1-OUTCOME), else NONE."""
    mission: z3.ArithRef
    """Step 2's result once resolution has begun (RED-BR-MISSION-RESULT), else NONE."""
    pkind: z3.ArithRef
    """The open decision (BLOCK/PLAY/HEAL prompt), or NONE: the turn player acts."""
    pplayer: z3.ArithRef
    """Who must take the open decision, or NONE."""
    dcount: z3.ArithRef
    """Completed character discards this turn."""
    passed: z3.BoolRef
    """The player with initiative has just passed and the other battling player is asked to play
    (decision red-base-pass-ends = both-pass; never set under one-pass)."""
    loc: tuple[z3.ArithRef, ...]
    zp: tuple[z3.ArithRef, ...]
    side: tuple[z3.ArithRef, ...]
    host: tuple[z3.ArithRef, ...]
    doomed: tuple[z3.BoolRef, ...]
    rec: tuple[z3.ArithRef, ...]
    rec_on: tuple[z3.ArithRef, ...]
    rec_by: tuple[z3.ArithRef, ...]
    dseq: tuple[z3.ArithRef, ...]
    dctrl: tuple[z3.ArithRef, ...]
    pcard: tuple[z3.BoolRef, ...]

    def with_(self, **changes: object) -> Frame:
        """A copy with some groups replaced (``dataclasses.replace``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


GROUPS: tuple[str, ...] = tuple(f.name for f in fields(Frame))
CARD_GROUPS: frozenset[str] = frozenset({"loc", "zp", "side", "host", "doomed", "rec", "rec_on", "rec_by", "dseq",
                                         "dctrl", "pcard"})
BOOL_GROUPS: frozenset[str] = frozenset({"battle", "doomed", "pcard", "passed"})


@dataclass(frozen=True)
class ActionVars:
    """The action taken from frame t to t+1 (parameters not used are canonical)."""

    kind: z3.ArithRef
    pick: tuple[z3.BoolRef, ...]
    """ATTACK: the Heroes sent in; BLOCK: the blockers; otherwise all false."""
    target: z3.ArithRef
    """ATTACK: the opponent attacked; PLAY: the enhancement played; PUT: the character put into
    play; otherwise NONE."""
    on: z3.ArithRef
    """PLAY: the character it is played on; otherwise NONE."""

    def all(self) -> list[z3.ExprRef]:
        return [self.kind, *self.pick, self.target, self.on]


@dataclass(frozen=True)
class Vocabulary:
    """The variables of one bounded configuration; :meth:`at` makes frame ``t``."""

    layout: Layout
    prefix: str = ""

    def at(self, t: int) -> Frame:
        """The flexible variables of time frame ``t`` (names end in ``@t``)."""
        values: dict[str, object] = {}
        for f in fields(Frame):
            make = z3.Bool if f.name in BOOL_GROUPS else z3.Int
            if f.name in CARD_GROUPS:
                values[f.name] = tuple(make(f"{self.prefix}{f.name}[{cid}]@{t}") for cid in self.layout.ids)
            else:
                values[f.name] = make(f"{self.prefix}{f.name}@{t}")
        return Frame(**values)  # type: ignore[arg-type]

    def action_at(self, t: int) -> ActionVars:
        """The action variables of the step from frame ``t`` to ``t+1``."""
        p = self.prefix
        return ActionVars(
            kind=z3.Int(f"{p}act.kind@{t}"),
            pick=tuple(z3.Bool(f"{p}act.pick[{cid}]@{t}") for cid in self.layout.ids),
            target=z3.Int(f"{p}act.target@{t}"),
            on=z3.Int(f"{p}act.on@{t}"),
        )


def one_of(x: z3.ArithRef, values: Sequence[int]) -> z3.BoolRef:
    return z3.Or(*[x == v for v in values])


def domain(L: Layout, s: Frame) -> z3.BoolRef:
    """The type invariant of a frame of the fragment (TLA+'s TypeOK), canonical values included:

    - ``turn >= 1``, ``active in {0,1}``, ``phase in 0..4``, ``battles_started in {0,1}``,
      ``winner, last_outcome, last_mission`` NONE or in range, ``next_battle, next_record >= 1``;
    - where each card type may be: characters in a hand, territory, discard pile or the battle;
      enhancements in a hand, a discard pile or on a fighter; Lost Souls in a Land of Bondage or of
      Redemption; ``zp`` a player exactly for the zone locations and fighters;
    - without a battle: every battle variable canonical (``bid = 0``, NONE, false, no record),
      no prompt; with one: ``defender = 1 - active``, ``bid < next_battle``, ``last`` a player;
    - a fighter: side 0 Heroes controlled by the turn player, side 1 Evil Characters controlled
      by the defender (RED-BASE-HERO-VS-EVIL); an enhancement on a fighter whose brigade and
      alignment match (RED-BASE-ENHANCEMENTS), with a play record naming that fighter, or with none
      when it came into the battle placed on it; a placed enhancement on a matching character in a
      territory, in no zone;
    - ``outcome = NONE <-> mission = NONE``; before step 1 nothing is doomed; after step 3 no
      enhancement is on a fighter and the only possible prompt is a heal window;
    - BLOCK: the defender decides and side 1 is empty; PLAY: a battling player decides; a heal
      window's cards are doomed fighters of the deciding player; a pass is pending only at a PLAY prompt;
    - play record ids distinct and below ``next_record``; discard positions ``1..dcount``, each once.
    """
    n = range(L.n)
    chars, enhs, souls = L.of_type(CHARACTER), L.of_type(ENHANCEMENT), L.of_type(LOST_SOUL)
    players = (0, 1)
    b = s.battle
    parts: list[z3.BoolRef] = [
        s.turn >= 1, one_of(s.active, players), s.phase >= DRAW, s.phase <= DISCARD_PHASE,
        one_of(s.battles_started, (0, 1)), one_of(s.winner, (NONE, 0, 1)),
        one_of(s.last_outcome, (NONE, *range(4))), one_of(s.last_mission, (NONE, SUCCESS, FAILURE)),
        s.next_battle >= 1, s.next_record >= 1, s.dcount >= 0,
        z3.If(b, z3.And(s.bid >= 1, s.bid < s.next_battle, one_of(s.kind, (RESCUE, CHALLENGE)),
                        s.defender == 1 - s.active, one_of(s.last, players), s.phase == BATTLE),
              z3.And(s.bid == 0, s.kind == NONE, s.defender == NONE, s.last == NONE, s.outcome == NONE,
                     s.pkind == NONE)),
        z3.If(s.pkind == NONE, s.pplayer == NONE, z3.And(b, one_of(s.pplayer, players))),
        one_of(s.pkind, (NONE, BLOCK_PROMPT, PLAY_PROMPT, HEAL_PROMPT)),
        (s.outcome == NONE) == (s.mission == NONE),
        one_of(s.outcome, (NONE, *range(4))), one_of(s.mission, (NONE, SUCCESS, FAILURE)),
        z3.Implies(s.outcome != NONE, z3.Or(s.pkind == NONE, s.pkind == HEAL_PROMPT)),
        z3.Implies(s.pkind == HEAL_PROMPT, s.outcome != NONE),
        z3.Implies(s.pkind == BLOCK_PROMPT, s.pplayer == s.defender),
        z3.Implies(s.passed, s.pkind == PLAY_PROMPT),
    ]
    for i in n:
        card = L.cards[i]
        fighter = s.loc[i] == FIGHTER
        parts += [
            z3.If(one_of(s.loc[i], ZONE_LOCATIONS), one_of(s.zp[i], players),
                  z3.If(fighter, s.zp[i] == z3.If(s.side[i] == 0, s.active, s.defender), s.zp[i] == NONE)),
            z3.If(fighter, z3.And(b, s.side[i] == (0 if card.good else 1)), s.side[i] == NONE),
            z3.Implies(s.doomed[i], z3.And(s.outcome != NONE, i in chars)),
            z3.Implies(s.pcard[i], z3.And(fighter, s.doomed[i], s.pkind == HEAL_PROMPT, s.zp[i] == s.pplayer)),
            z3.Implies(fighter, z3.Implies(s.pkind == BLOCK_PROMPT, s.side[i] == 0)),
            z3.If(s.rec[i] > 0, z3.And(b, s.rec[i] < s.next_record, one_of(s.rec_by[i], players),
                                       one_of(s.rec_on[i], [c for c in chars if L.matches(i, c)])),
                  z3.And(s.rec[i] == 0, s.rec_on[i] == NONE, s.rec_by[i] == NONE)),
            z3.If(s.dseq[i] > 0, z3.And(s.dseq[i] <= s.dcount, s.loc[i] == DISCARD, one_of(s.dctrl[i], players)),
                  z3.And(s.dseq[i] == 0, s.dctrl[i] == NONE)),
        ]
        if i in chars:
            parts.append(one_of(s.loc[i], (HAND, TERRITORY, DISCARD, FIGHTER)))
        elif i in enhs:
            parts.append(one_of(s.loc[i], (HAND, DISCARD, ATTACHED, PLACED)))
        else:
            parts.append(one_of(s.loc[i], (BONDAGE, REDEMPTION)))
        if i in enhs:
            hosts = [c for c in chars if L.matches(i, c)]
            parts.append(z3.If(
                s.loc[i] == ATTACHED,
                z3.And(s.outcome == NONE, z3.Implies(s.rec[i] > 0, s.host[i] == s.rec_on[i]),
                       z3.Or(*[z3.And(s.host[i] == c, s.loc[c] == FIGHTER) for c in hosts])),
                z3.If(s.loc[i] == PLACED,
                      z3.And(s.rec[i] == 0, z3.Or(*[z3.And(s.host[i] == c, s.loc[c] == TERRITORY) for c in hosts])),
                      s.host[i] == NONE)))
        else:
            parts += [s.host[i] == NONE, s.rec[i] == 0, s.dseq[i] == 0 if i in souls else z3.BoolVal(True)]
        for j in n:
            if j > i:
                parts.append(z3.Implies(s.rec[i] > 0, s.rec[i] != s.rec[j]))
                parts.append(z3.Implies(s.dseq[i] > 0, s.dseq[i] != s.dseq[j]))
    parts.append(s.dcount == z3.Sum(*[z3.If(s.dseq[i] > 0, 1, 0) for i in n], z3.IntVal(0)))
    return z3.And(*parts)
