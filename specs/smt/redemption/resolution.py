"""Battle Resolution clauses (``specs/clauses/battle_resolution.toml``, seed 001) over one resolution.

Written from the catalogue, not from the model. The situation: one battle
(a rescue attempt, a battle challenge or a side battle) between side 0 (the
first battling player, the Heroes in a main battle) and side 1 stops and is
resolved. Each side has up to :data:`K` characters, slot ``i`` of side ``s``
used when ``i < n[s]``.

Inputs: the battle kind, the side counts, every character's total strength
and toughness (character plus enhancements on it, after redirects), who has
permanent control of it, whether it came into a side battle from another
battle, whether it is healed in the heal window, whether the Hero side has
access to a Lost Soul of the defender at step 2, the two battling players.
``defeated`` is an input fixed by the background from the numbers
(RED-BASE-DEFEAT: the opposing total strength reaches the toughness).

Outputs: the outcome (:data:`OUTCOMES`), the outcomes steps 2 and 4 read,
the mission result (:data:`MISSIONS`), which side is beaten, which
characters step 4 discards (``doomed``), who gets the heal window for each,
where survivors go (``home``), whether enhancements are discarded, whether
the rescued Lost Soul moves, whether an end-of-battle ability fires, and the
times of the four steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import z3

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import ClauseConstraint, Situation
from cardrules.specs.smt.redemption.common import NONE, Registry, in_range, one_of

K = 4
"""Characters per side the cross-check situation has room for."""
K_CONSISTENCY = 2
"""Characters per side for the consistency and vacuity checks: every clause is per character or
per side, so two per side shows every interaction, and keeps the quantified check fast."""
RESCUE, CHALLENGE, SIDE = range(3)
KINDS = ("rescue attempt", "battle challenge", "side battle")
SIDE0_WINS, SIDE1_WINS, MUTUAL, STALEMATE = range(4)
OUTCOMES = ("side0-wins", "side1-wins", "mutual-destruction", "stalemate")
SUCCESS, FAILURE, NO_MISSION, UNDETERMINED = range(4)
MISSIONS = ("success", "failure", "none", "undetermined")
MAX_PLAYERS = 4
MAX_NUMBER = 99
"""Numbers range over -99..99 (a redirect can take a card below its printed numbers, even below 0):
bounded, so the quantified checks stay quick."""

Grid = tuple[tuple[z3.ExprRef, ...], tuple[z3.ExprRef, ...]]


def _grid(name: str, make: Callable[[str], z3.ExprRef], k: int) -> Grid:
    return tuple(tuple(make(f"br{k}.{name}[{s}][{i}]") for i in range(k)) for s in (0, 1))  # type: ignore[return-value]


@dataclass(frozen=True)
class BRVars:
    """The z3 variables of the resolution situation (grids are indexed ``[side][slot]``)."""

    k: int
    """Slots per side."""
    # inputs
    kind: z3.ArithRef
    n: tuple[z3.ArithRef, z3.ArithRef]
    players: tuple[z3.ArithRef, z3.ArithRef]
    player_count: z3.ArithRef
    strength: Grid
    toughness: Grid
    perm: Grid
    from_battle: Grid
    """Side battle only: it was in a battle when selected (it goes back there if it survives)."""
    healed: Grid
    defeated: Grid
    access: z3.BoolRef
    end_ability: z3.BoolRef
    """A draw-on-success style end-of-battle ability is on a card in this battle."""
    # outputs
    outcome: z3.ArithRef
    outcome_step2: z3.ArithRef
    outcome_step4: z3.ArithRef
    mission: z3.ArithRef
    beaten: tuple[z3.BoolRef, z3.BoolRef]
    doomed: Grid
    window: Grid
    window_player: Grid
    home: Grid
    """For a survivor going to a territory: whose; ``NONE`` when it goes back to a battle."""
    enh_discarded: Grid
    soul_rescued: z3.BoolRef
    end_fires: z3.BoolRef
    t: tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef, z3.ArithRef]
    """When steps 1 to 4 happen."""

    @staticmethod
    def make(k: int = K) -> "BRVars":
        def I(name: str) -> z3.ArithRef:
            return z3.Int(name.replace("br.", f"br{k}.", 1))

        def B(name: str) -> z3.BoolRef:
            return z3.Bool(name.replace("br.", f"br{k}.", 1))

        def grid(name: str, make: Callable[[str], z3.ExprRef]) -> Grid:
            return _grid(name, make, k)

        return BRVars(
            k=k, kind=I("br.kind"), n=(I("br.n[0]"), I("br.n[1]")), players=(I("br.players[0]"), I("br.players[1]")),
            player_count=I("br.player_count"),
            strength=grid("strength", I), toughness=grid("toughness", I), perm=grid("perm", I),
            from_battle=grid("from_battle", B), healed=grid("healed", B), defeated=grid("defeated", B),
            access=B("br.access"), end_ability=B("br.end_ability"),
            outcome=I("br.outcome"), outcome_step2=I("br.outcome_step2"), outcome_step4=I("br.outcome_step4"),
            mission=I("br.mission"), beaten=(B("br.beaten[0]"), B("br.beaten[1]")),
            doomed=grid("doomed", B), window=grid("window", B), window_player=grid("window_player", I),
            home=grid("home", I), enh_discarded=grid("enh_discarded", B), soul_rescued=B("br.soul_rescued"),
            end_fires=B("br.end_fires"), t=(I("br.t1"), I("br.t2"), I("br.t3"), I("br.t4")),
        )

    @property
    def slots(self) -> tuple[tuple[int, int], ...]:
        return tuple((s, i) for s in (0, 1) for i in range(self.k))

    def used(self, s: int, i: int) -> z3.BoolRef:
        return i < self.n[s]

    def inputs(self) -> tuple[z3.ExprRef, ...]:
        out: list[z3.ExprRef] = [self.kind, *self.n, *self.players, self.player_count, self.access, self.end_ability]
        for grid in (self.strength, self.toughness, self.perm, self.from_battle, self.healed, self.defeated):
            out += [x for row in grid for x in row]
        return tuple(out)

    def outputs(self) -> tuple[z3.ExprRef, ...]:
        out: list[z3.ExprRef] = [self.outcome, self.outcome_step2, self.outcome_step4, self.mission, *self.beaten,
                                 self.soul_rescued, self.end_fires, *self.t]
        for grid in (self.doomed, self.window, self.window_player, self.home, self.enh_discarded):
            out += [x for row in grid for x in row]
        return tuple(out)


REG: Registry[BRVars] = Registry()


# --- decision functions ---------------------------------------------------------------------------


def total_strength(v: BRVars, s: int) -> z3.ArithRef:
    """Side ``s``'s total strength (the sum over its characters)."""
    return z3.Sum(*[z3.If(v.used(s, i), v.strength[s][i], 0) for i in range(v.k)])


def beaten_side(v: BRVars, rs: RuleSet, s: int) -> z3.BoolRef:
    """Decision ``br-outcome-several-characters``: all-defeated: every character of the side is
    defeated (an empty side counts as beaten); any-defeated: empty or one defeated."""
    marks = [z3.Implies(v.used(s, i), v.defeated[s][i]) for i in range(v.k)]
    if rs.option("br-outcome-several-characters") == "any-defeated":
        return z3.Or(v.n[s] == 0, *[z3.And(v.used(s, i), v.defeated[s][i]) for i in range(v.k)])
    return z3.And(*marks)


def outcome_of(b0: z3.BoolRef, b1: z3.BoolRef) -> z3.ArithRef:
    """One side beaten: the other wins; both: mutual destruction; neither: stalemate."""
    return z3.If(z3.And(b0, b1), MUTUAL, z3.If(b1, SIDE0_WINS, z3.If(b0, SIDE1_WINS, STALEMATE)))


def challenge_won(outcome: z3.ArithRef, rs: RuleSet) -> z3.BoolRef:
    """Decision ``br-challenge-success``: challenger-wins: ``outcome = side0-wins``;
    challenger-not-beaten: ``outcome != side1-wins``."""
    if rs.option("br-challenge-success") == "challenger-not-beaten":
        return outcome != SIDE1_WINS
    return outcome == SIDE0_WINS


def returns_to_permanent_controller(v: BRVars, rs: RuleSet, s: int, i: int) -> z3.BoolRef:
    """Whether RED-BR-RETURN-PERMANENT-CONTROLLER governs a survivor: main battles always; in a side
    battle the side battle rules are the more specific ones (RED-SB-RETURN-TO-BATTLE for those from
    a battle; RED-SB-RETURN-TO-TERRITORY, decision ``sb-return-territory``, for the others)."""
    if rs.option("sb-return-territory") == "permanent-controller":
        return z3.Or(v.kind != SIDE, z3.Not(v.from_battle[s][i]))
    return v.kind != SIDE


# --- clauses ---------------------------------------------------------------------------------


@REG.clause("RED-BR-FOUR-OUTCOMES")
def four_outcomes(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``beaten_s = beaten_side(s)`` and ``outcome = outcome_of(beaten_0, beaten_1)``."""
    conclusion = z3.And(
        v.beaten[0] == beaten_side(v, rs, 0), v.beaten[1] == beaten_side(v, rs, 1),
        v.outcome == outcome_of(v.beaten[0], v.beaten[1]),
    )
    return ClauseConstraint("RED-BR-FOUR-OUTCOMES", z3.BoolVal(True), conclusion)


@REG.clause("RED-BR-MISSION-RESULT")
def mission_result(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``kind != side -> mission in {success, failure}``; ``kind = side -> mission = none`` (the note).
    As written: under decision ``br-rescue-draw = undetermined`` this clause and RED-BR-RESCUE-FAIL
    contradict each other for a drawn rescue (a finding, kept; the model plays that reading by leaving
    such a rescue neither)."""
    conclusion = z3.If(v.kind == SIDE, v.mission == NO_MISSION, one_of(v.mission, SUCCESS, FAILURE))
    return ClauseConstraint("RED-BR-MISSION-RESULT", z3.BoolVal(True), conclusion)


@REG.clause("RED-BR-ORDER")
def order(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``t1 < t2 < t3 < t4``."""
    return ClauseConstraint("RED-BR-ORDER", z3.BoolVal(True), z3.And(v.t[0] < v.t[1], v.t[1] < v.t[2], v.t[2] < v.t[3]))


@REG.clause("RED-BR-STEP1-OUTCOME")
def step1_outcome(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``outcome_step2 = outcome and outcome_step4 = outcome`` (never recomputed)."""
    return ClauseConstraint(
        "RED-BR-STEP1-OUTCOME", z3.BoolVal(True), z3.And(v.outcome_step2 == v.outcome, v.outcome_step4 == v.outcome)
    )


@REG.clause("RED-BR-CHALLENGE-RESULT")
def challenge_result(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``kind = challenge -> mission = (challenge_won(outcome_step2) ? success : failure)``."""
    conclusion = v.mission == z3.If(challenge_won(v.outcome_step2, rs), SUCCESS, FAILURE)
    return ClauseConstraint("RED-BR-CHALLENGE-RESULT", z3.And(v.kind == CHALLENGE, z3.Not(judged_as_rescue(v, rs))),
                            conclusion)


def judged_as_rescue(v: BRVars, rs: RuleSet) -> z3.BoolRef:
    """Step 2 judges a rescue: a rescue attempt, or (decision ``br-rescue-access =
    challenge-can-become-rescue``) a battle challenge in which the Hero has gained access."""
    if rs.option("br-rescue-access") == "challenge-can-become-rescue":
        return z3.Or(v.kind == RESCUE, z3.And(v.kind == CHALLENGE, v.access))
    return v.kind == RESCUE


@REG.clause("RED-BR-RESCUE-SUCCESS")
def rescue_success(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``kind = rescue and outcome_step2 = side0-wins and access -> mission = success and soul_rescued``."""
    premise = z3.And(judged_as_rescue(v, rs), v.outcome_step2 == SIDE0_WINS, v.access)
    return ClauseConstraint("RED-BR-RESCUE-SUCCESS", premise, z3.And(v.mission == SUCCESS, v.soul_rescued))


@REG.clause("RED-BR-RESCUE-FAIL")
def rescue_fail(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``kind = rescue and (side1-wins or not access) -> mission = failure``; mutual destruction and
    stalemate (decision ``br-rescue-draw``): failure (not-success-is-failure) or undetermined."""
    lost = z3.Or(v.outcome_step2 == SIDE1_WINS, z3.Not(v.access))
    draw = one_of(v.outcome_step2, MUTUAL, STALEMATE)
    undetermined = rs.option("br-rescue-draw") == "undetermined"
    conclusion = z3.If(lost, v.mission == FAILURE, v.mission == (UNDETERMINED if undetermined else FAILURE))
    return ClauseConstraint("RED-BR-RESCUE-FAIL", z3.And(judged_as_rescue(v, rs), z3.Or(lost, draw)), conclusion)


@REG.clause("RED-BR-STEP3-END-ABILITIES")
def step3_end_abilities(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``end_ability -> end_fires = (mission = success) and t2 < t3`` (reads steps 1 and 2)."""
    conclusion = z3.And(v.end_fires == (v.mission == SUCCESS), v.t[1] < v.t[2])
    return ClauseConstraint("RED-BR-STEP3-END-ABILITIES", v.end_ability, conclusion)


@REG.clause("RED-BR-UNAFFECTED-NORMAL")
def unaffected_normal(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """Ordinary fate of cards no ability touches: ``mission = success and kind = rescue -> soul_rescued``;
    ``mission != success -> not soul_rescued``; every character's enhancements are discarded,
    except a side battle survivor's from another battle (RED-SB-RETURN-TO-BATTLE is the specific rule)."""
    kept = [[z3.And(v.kind == SIDE, v.from_battle[s][i], z3.Not(v.doomed[s][i])) for i in range(v.k)] for s in (0, 1)]
    conclusion = z3.And(
        v.soul_rescued == z3.And(judged_as_rescue(v, rs), v.mission == SUCCESS),
        *[z3.Implies(z3.And(v.used(s, i), z3.Not(kept[s][i])), v.enh_discarded[s][i]) for s, i in v.slots],
    )
    return ClauseConstraint("RED-BR-UNAFFECTED-NORMAL", z3.BoolVal(True), conclusion)


@REG.clause("RED-BR-STEP4-DISCARD-RETURN")
def step4_discard_return(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """Decision ``br-discard-which``: ``doomed = defeated`` (defeated-characters) or
    ``doomed = defeated and beaten(side)`` (losing-side-only), reading ``outcome_step4``."""
    losing_only = rs.option("br-discard-which") == "losing-side-only"

    def side_beaten(s: int) -> z3.BoolRef:
        mine, theirs = (SIDE1_WINS, SIDE0_WINS) if s == 0 else (SIDE0_WINS, SIDE1_WINS)
        return one_of(v.outcome_step4, mine, MUTUAL)

    parts = []
    for s, i in v.slots:
        rule = z3.And(v.defeated[s][i], side_beaten(s)) if losing_only else v.defeated[s][i]
        parts.append(z3.Implies(v.used(s, i), v.doomed[s][i] == rule))
    return ClauseConstraint("RED-BR-STEP4-DISCARD-RETURN", z3.BoolVal(True), z3.And(*parts))


@REG.clause("RED-BR-RETURN-PERMANENT-CONTROLLER")
def return_permanent_controller(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """A survivor (not doomed, or healed) under this rule goes to ``home = perm``."""
    def applies(s: int, i: int) -> z3.BoolRef:
        return z3.And(v.used(s, i), z3.Not(v.doomed[s][i]), returns_to_permanent_controller(v, rs, s, i))

    conclusion = z3.And(*[z3.Implies(applies(s, i), v.home[s][i] == v.perm[s][i]) for s, i in v.slots])
    return ClauseConstraint("RED-BR-RETURN-PERMANENT-CONTROLLER", z3.Or(*[applies(s, i) for s, i in v.slots]), conclusion)


@REG.clause("RED-BR-HEAL-WINDOW")
def heal_window(v: BRVars, rs: RuleSet) -> ClauseConstraint:
    """``doomed -> window and window_player = players[s]`` (decision ``br-heal-window-player``:
    battle-controller) or ``= perm`` (permanent-controller)."""
    by_perm = rs.option("br-heal-window-player") == "permanent-controller"

    def applies(s: int, i: int) -> z3.BoolRef:
        return z3.And(v.used(s, i), v.doomed[s][i])

    conclusion = z3.And(*[
        z3.Implies(applies(s, i), z3.And(v.window[s][i], v.window_player[s][i] == (v.perm[s][i] if by_perm else v.players[s])))
        for s, i in v.slots
    ])
    return ClauseConstraint("RED-BR-HEAL-WINDOW", z3.Or(*[applies(s, i) for s, i in v.slots]), conclusion)


# --- the situation -----------------------------------------------------------------------------


def background(v: BRVars, rs: RuleSet | None = None) -> z3.BoolRef:
    """Facts of every resolution (inputs only).

    * kinds, side counts and players in range; two distinct battling players;
    * numbers are in -MAX_NUMBER..MAX_NUMBER (numbers redirects lower a card, RED-RD-NUMBERS-TRANSFER);
    * RED-BASE-DEFEAT: ``defeated[s][i] = (total strength of the other side >= toughness[s][i])``;
    * only side battles have fighters from another battle; a healed character was defeated;
    * access to a Lost Soul only matters for a rescue (false otherwise); with decision
      ``br-rescue-access = challenge-can-become-rescue`` a battle challenge may have gained it.
    """
    gained = rs is not None and rs.option("br-rescue-access") == "challenge-can-become-rescue"
    no_access = v.kind == SIDE if gained else v.kind != RESCUE
    facts = [in_range(v.kind, RESCUE, SIDE), in_range(v.player_count, 2, MAX_PLAYERS), v.players[0] != v.players[1],
             z3.Implies(no_access, z3.Not(v.access))]
    for s in (0, 1):
        facts += [in_range(v.n[s], 0, v.k), v.players[s] >= 0, v.players[s] < v.player_count]
    for s, i in v.slots:
        facts += [
            in_range(v.strength[s][i], -MAX_NUMBER, MAX_NUMBER), in_range(v.toughness[s][i], -MAX_NUMBER, MAX_NUMBER), v.perm[s][i] >= 0, v.perm[s][i] < v.player_count,
            v.defeated[s][i] == z3.And(v.used(s, i), total_strength(v, 1 - s) >= v.toughness[s][i]),
            z3.Implies(z3.Or(v.kind != SIDE, z3.Not(v.used(s, i))), z3.Not(v.from_battle[s][i])),
            z3.Implies(v.healed[s][i], v.defeated[s][i]),
        ]
    return z3.And(*facts)


def domain(v: BRVars) -> z3.BoolRef:
    """Output ranges."""
    parts = [in_range(v.outcome, 0, 3), in_range(v.outcome_step2, 0, 3), in_range(v.outcome_step4, 0, 3),
             in_range(v.mission, 0, 3)]
    parts += [z3.And(v.home[s][i] >= NONE, v.home[s][i] < v.player_count) for s, i in v.slots]
    return z3.And(*parts)


def describe(v: BRVars) -> Callable[[z3.ModelRef], dict[str, object]]:
    def read(model: z3.ModelRef) -> dict[str, object]:
        def num(x: z3.ExprRef) -> int:
            return model.eval(x, model_completion=True).as_long()

        def flag(x: z3.ExprRef) -> bool:
            return z3.is_true(model.eval(x, model_completion=True))

        out: dict[str, object] = {"kind": KINDS[num(v.kind)], "players": [num(p) for p in v.players],
                                  "access to a Lost Soul": flag(v.access), "end-of-battle ability": flag(v.end_ability)}
        for s in (0, 1):
            out[f"side {s}"] = [
                {"strength": num(v.strength[s][i]), "toughness": num(v.toughness[s][i]), "permanent": num(v.perm[s][i]),
                 "defeated": flag(v.defeated[s][i]), "from a battle": flag(v.from_battle[s][i])}
                for i in range(num(v.n[s]))
            ]
        return out

    return read


def resolution_situation(rule_set: RuleSet | None = None, k: int = K_CONSISTENCY) -> Situation:
    """The Battle Resolution situation with ``k`` slots per side, one constraint per clause,
    read under ``rule_set``."""
    rule_set = rule_set or RuleSet()
    v = BRVars.make(k)
    return Situation(
        name="battle-resolution", inputs=v.inputs(), outputs=v.outputs(), background=background(v, rule_set),
        domain=domain(v), constraints=REG.build(v, rule_set), describe=describe(v),
    )
