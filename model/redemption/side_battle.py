"""Side battles: targets, the per-turn limit, who controls which side, and
starting the new battle on top of the stack.

Clause IDs: RED-SB-SUSPEND, RED-SB-SIDES-BATTLE-PLAYERS, RED-SB-CONTROL-*,
RED-SB-TARGETS-TWO, RED-SB-TARGET-ZONES, RED-SB-SAME-ALIGNMENT,
RED-SB-ONCE-PER-TURN, RED-SB-RESTRICT-AFTER, RED-SB-INSTANTANEOUS.
Survivors' returns and the resume are in :mod:`model.redemption.resolution`;
the negation cascade in :mod:`model.redemption.abilities`. The dispatcher
routes a played side battle ability here (:func:`begin`); a side battle card a
player outside the battle uses from their hand (decision
``sb-user-outside-battle = any-player``) is in
:mod:`model.redemption.side_battle_outside`.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace
from itertools import combinations

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import Play
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.initiative import opener, play_prompt
from cardrules.model.redemption.ops import leave_territory, remove_fighter, remove_from, set_record
from cardrules.model.redemption.standing import may_enter_battle
from cardrules.model.redemption import side_battle_undo
from cardrules.model.redemption.state import (
    Battle,
    BattleKind,
    Effect,
    Fighter,
    Origin,
    OriginKind,
    PlayRecord,
    Prompt,
    PromptKind,
    RecordStatus,
    State,
    Undo,
)
from cardrules.model.extension import extension_point, pair_or_none, truth_value, whole_number
from cardrules.specs.catalogue.registry import implements


@extension_point("redemption", "side-battles-per-turn", "How many side battles a player may initiate in a "
                 "turn; given the rule configuration, returns a whole number.", "RED-SB-ONCE-PER-TURN",
                 parameters=("config",), returns=whole_number(0, 9))
# 0..9: the seed allows one; a committee's change is a small number. Each side battle takes a side
# battle card played from hand and no scenario's player holds nine, so a larger answer (a million)
# can only mean "no limit", plays like nine, and is refused as a likely mistake.
@implements("RED-SB-ONCE-PER-TURN")
def catalogue_limit(config: RuleConfig) -> int:
    """1 (RED-SB-ONCE-PER-TURN); 2 under the broken variant ``two-side-battles-per-turn`` (a mutant verify must catch)."""
    return 2 if config.is_broken("two-side-battles-per-turn") else 1


@implements("RED-SB-ONCE-PER-TURN")
def per_turn_limit(config: RuleConfig) -> int:
    """Side battles a player may initiate per turn (the ``side-battles-per-turn`` extension point)."""
    return int(config.hook("side-battles-per-turn", catalogue_limit)(config))


@extension_point("redemption", "side-battle-allowed", "Whether a player may still initiate a side battle this "
                 "turn; given the state (its side battle counts, and its play records: every side battle card played "
                 "in the turn's battle, by whom, with its status, negated included, and the battle it opened), the "
                 "player and the rule configuration, returns True or False.",
                 "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER",
                 parameters=("state", "player", "config"), returns=truth_value())
@implements("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def catalogue_allowed(state: State, player: int, config: RuleConfig) -> bool:
    """True while ``player`` has initiated fewer side battles this turn than the per-turn limit
    (:func:`per_turn_limit`, RED-SB-ONCE-PER-TURN). When a side battle counts is decision
    ``sb-initiated-when`` (:func:`counts_on_use`, :func:`restore_allowance`): by default once it has
    started, and a later negation of its card does not give the allowance back."""
    return state.side_battles[player] < per_turn_limit(config)


@implements("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def restricted(state: State, player: int, config: RuleConfig) -> bool:
    """Whether side battle abilities on cards ``player`` uses are restricted
    this turn because they have used up their side battles (RED-SB-RESTRICT-AFTER):
    the ``side-battle-allowed`` extension point says no."""
    return not config.hook("side-battle-allowed", catalogue_allowed)(state, player, config)


@implements("RED-SB-CONTROL-ONE-INSIDER")
def controller(state: State, card_id: str, user: int, config: RuleConfig = DEFAULT) -> int:
    """Who controls a candidate fighter: in a battle, the player of the side it fights on
    (decision ``sb-control-meaning = battle-side``) or its permanent controller
    (``permanent-controller``); its territory's player, or the user for a card in the user's hand."""
    found = state.fighter(card_id)
    if found is not None:
        index, side, fighter = found
        if config.option("sb-control-meaning") == "permanent-controller":
            return fighter.permanent
        return state.battles[index].players[side]
    for player, zones in enumerate(state.zones):
        if card_id in zones.territory:
            return player
    return user


@implements("RED-SB-CONTROL-SAME-UNMIXED")
def was_in_battle(state: State, card_id: str, config: RuleConfig) -> bool:
    """'In a battle when selected' (decision ``sb-in-battle-meaning``)."""
    found = state.fighter(card_id)
    if found is None:
        return False
    if config.option("sb-in-battle-meaning") == "suspended-battle-only":
        return found[0] == len(state.battles) - 1
    return True


@implements("RED-BASE-PARALYZED-NO-BATTLE")
def may_be_selected(state: State, card_id: str, config: RuleConfig) -> bool:
    """Whether a side battle ability may put ``card_id`` into its battle: not when it is paralyzed
    (RED-BASE-PARALYZED-NO-BATTLE, decision ``red-base-paralyzed-selected`` = cannot-be-selected);
    under may-be-selected the status stops only its controller sending it in (attack, block)."""
    return may_enter_battle(state, card_id) or config.option("red-base-paralyzed-selected") == "may-be-selected"


@implements("RED-SB-TARGET-ZONES", "RED-SB-SAME-ALIGNMENT", "RED-BASE-PARALYZED-NO-BATTLE")
def candidates(state: State, user: int, config: RuleConfig) -> tuple[str, ...]:
    """Characters a side battle ability of ``user`` may select: in play (any
    territory, or any battle on the stack unless decision ``sb-in-play-zones``
    says territory only) or in the user's hand (RED-SB-TARGET-ZONES); not
    paralyzed (RED-BASE-PARALYZED-NO-BATTLE, :func:`may_be_selected`)."""
    found: set[str] = set()
    for zones in state.zones:
        found.update(zones.territory)
    if config.option("sb-in-play-zones") == "territory-or-battle":
        for battle in state.battles:
            found.update(f.card for _, f in battle.fighters())
    found.update(c for c in state.zones[user].hand if state.card(c).type.value == "character")
    return tuple(sorted(c for c in found if may_be_selected(state, c, config)))


@implements("RED-SB-TARGETS-TWO", "RED-SB-SAME-ALIGNMENT")
def target_pairs(state: State, user: int, config: RuleConfig) -> tuple[tuple[str, str], ...]:
    """Every legal pair of fighters: two distinct characters (RED-SB-TARGETS-TWO)
    of the same alignment, Hero-Hero or Evil-Evil (RED-SB-SAME-ALIGNMENT), unless
    decision ``sb-pair-alignment = any-alignment`` allows a mixed pair."""
    pool = candidates(state, user, config)
    return tuple((x, y) for x, y in combinations(pool, 2) if alignment_allowed(state, x, y, config))


@implements("RED-SB-SAME-ALIGNMENT")
def alignment_allowed(state: State, x: str, y: str, config: RuleConfig) -> bool:
    """Whether ``x`` and ``y`` may fight each other in a side battle (decision ``sb-pair-alignment``)."""
    if config.option("sb-pair-alignment") == "any-alignment":
        return True
    return state.card(x).alignment is state.card(y).alignment


def side_battle_targets(state: State, user: int, config: RuleConfig) -> tuple[tuple[str, str], ...]:
    """Target options of a side battle ability used by ``user``: none once the
    user's side battles are used up (RED-SB-RESTRICT-AFTER), else :func:`target_pairs`."""
    if restricted(state, user, config):
        return ()
    return target_pairs(state, user, config)


def check_pair(state: State, user: int, targets: tuple[str, ...], action: str, config: RuleConfig) -> None:
    """Raise IllegalAction naming the clause a selection breaks."""
    if len(targets) != 2 or targets[0] == targets[1]:
        raise IllegalAction(action, "a side battle ability selects exactly two different characters", ("RED-SB-TARGETS-TWO",))
    for target in targets:
        if not state.has_card(target) or state.card(target).type.value != "character":
            raise IllegalAction(action, f"{target} is not a character", ("RED-SB-TARGETS-TWO",))
    x, y = targets
    if not alignment_allowed(state, x, y, config):
        raise IllegalAction(action, "the two fighters must both be Heroes or both Evil Characters", ("RED-SB-SAME-ALIGNMENT",))
    pool = candidates(state, user, config)
    for target in targets:
        if not may_be_selected(state, target, config):
            raise IllegalAction(action, f"{target} is paralyzed", ("RED-BASE-PARALYZED-NO-BATTLE",))
        if target not in pool:
            raise IllegalAction(action, f"{target} is neither in play nor in your hand", ("RED-SB-TARGET-ZONES",))


@implements("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-TARGETS-TWO")
def check_play(state: State, user: int, play: Play, config: RuleConfig) -> bool:
    """Raise IllegalAction if a side battle card may not be played so: once the
    user's side battles are used up it is unplayable or played blank (decision
    ``sb-restriction-scope``, RED-SB-RESTRICT-AFTER); else its two targets are
    checked (:func:`check_pair`). True when the play is a restricted one played
    blank, with nothing more to check."""
    return check_selection(state, user, play.targets, play.text(), config)


@implements("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-TARGETS-TWO")
def check_selection(state: State, user: int, targets: tuple[str, ...], action: str, config: RuleConfig) -> bool:
    """:func:`check_play` for a selection ``targets`` made by ``user`` (``action``: its text, for errors)."""
    if restricted(state, user, config):
        if config.option("sb-restriction-scope") == "card-unplayable" or targets:
            raise IllegalAction(
                action,
                f"player {user} has already initiated their side battle(s) this turn",
                ("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER"),
            )
        return True
    if targets:
        check_pair(state, user, targets, action, config)
    return False


SIDE_CLAUSES = (
    "RED-SB-SIDES-BATTLE-PLAYERS",
    "RED-SB-CONTROL-OUTSIDERS",
    "RED-SB-CONTROL-ONE-INSIDER",
    "RED-SB-CONTROL-SAME-UNMIXED",
    "RED-SB-CONTROL-SAME-MIXED",
)
"""The clauses that say which battling player takes which selected character."""


@extension_point("redemption", "side-battle-sides", "Which selected character each battling player takes in "
                 "a side battle; given the state, the two selected characters, the user and the rule configuration, "
                 "returns (side 0's card, side 1's card), or None when the user chooses.", *SIDE_CLAUSES[1:],
                 parameters=("state", "x", "y", "user", "config"),
                 returns=pair_or_none("None, or a tuple of the two selected characters' ids (x, y) in some order",
                                      lambda state, x, y, user, config: (x, y)))
@implements(*SIDE_CLAUSES)
def catalogue_sides(state: State, x: str, y: str, user: int, config: RuleConfig) -> tuple[str, str] | None:
    """Which selected character each battling player controls, as ``(side 0's, side 1's)``;
    ``None`` when the user must choose (cases 1 and 3).

    The battling players are those of the battle being suspended
    (RED-SB-SIDES-BATTLE-PLAYERS, decision ``sb-nested-battle-players``).

    - case 1 (RED-SB-CONTROL-OUTSIDERS): neither is a battling player's: user chooses;
    - case 2 (RED-SB-CONTROL-ONE-INSIDER): one battling player controls exactly one:
      they keep it, the other battling player takes the other; under decision
      ``sb-different-player = outsiders-only`` only when the other is an outsider's, and a pair
      of one character of each battling player falls under no case: the user chooses;
    - case 3 (RED-SB-CONTROL-SAME-UNMIXED): one battling player controls both and
      neither or both were in battle: user chooses;
    - case 4 (RED-SB-CONTROL-SAME-MIXED): one battling player controls both, exactly
      one in battle: they keep that one, the other player takes the other.
    """
    battle = state.active_battle
    assert battle is not None
    first, second = battle.players
    cx, cy = controller(state, x, user, config), controller(state, y, user, config)
    inside = {first, second}
    if cx not in inside and cy not in inside:
        return None
    if cx != cy:
        if cx in inside and cy in inside and config.option("sb-different-player") == "outsiders-only":
            return None
        if cx in inside:
            keeper, kept, other = cx, x, y
        else:
            keeper, kept, other = cy, y, x
        return (kept, other) if keeper == first else (other, kept)
    bx, by = was_in_battle(state, x, config), was_in_battle(state, y, config)
    if bx == by:
        return None
    kept, other = (x, y) if bx else (y, x)
    return (kept, other) if cx == first else (other, kept)


@implements(*SIDE_CLAUSES)
def assign_sides(state: State, x: str, y: str, user: int, config: RuleConfig) -> tuple[str, str] | None:
    """Which selected character each battling player controls (the ``side-battle-sides`` extension point)."""
    sides = config.hook("side-battle-sides", catalogue_sides)(state, x, y, user, config)
    if sides is not None and (not isinstance(sides, tuple) or sorted(sides) != sorted((x, y))):
        raise ValueError(f"the side-battle-sides extension point returned {sides!r}, not None or a pair of {x}, {y}")
    return sides


def _take(state: State, card_id: str, user: int, battle_id: int) -> tuple[State, Fighter]:
    """Remove a selected character from where it is, as a fighter of the new battle."""
    if state.fighter(card_id) is not None:
        state, old_battle, side, fighter = remove_fighter(state, card_id)
        old = next(b for b in state.battles if b.id == old_battle)
        origin = Origin(OriginKind.BATTLE, old.players[side], battle=old_battle, side=side)
        return state, replace(fighter, origins=(*fighter.origins, origin))
    for player, zones in enumerate(state.zones):
        if card_id in zones.territory:
            state, carried = leave_territory(state, player, card_id)
            return state, Fighter(card_id, player, (Origin(OriginKind.TERRITORY, player),), carried)
    state = remove_from(state, user, "hand", card_id)
    return state, Fighter(card_id, user, (Origin(OriginKind.HAND, user),))


@implements("RED-SB-SUSPEND", "RED-SB-INSTANTANEOUS")
def start_side_battle(state: State, record_id: int, first: str, second: str, user: int, config: RuleConfig) -> State:
    """Suspend the active battle and push a side battle between ``first``
    (side 0, the first battling player's) and ``second`` (RED-SB-SUSPEND).

    The ability acts once, now (RED-SB-INSTANTANEOUS). The user counts as
    having put in the last card (decision ``red-base-first-initiative``: battle-opener; attacker: the
    turn's player does).
    """
    parent = state.active_battle
    assert parent is not None
    battle_id = state.next_battle
    state, f0 = _take(state, first, user, battle_id)
    state, f1 = _take(state, second, user, battle_id)
    battle = Battle(
        id=battle_id,
        kind=BattleKind.SIDE,
        players=parent.players,
        sides=((f0,), (f1,)),
        last_player=opener(state, user, config),
        opened_by=record_id,
    )
    state = replace(state, battles=(*state.battles, battle), next_battle=battle_id + 1)
    return play_prompt(state, config)


@implements("RED-SB-ONCE-PER-TURN", "RED-RD-CARRIER-CHANGES")
def initiator(record: PlayRecord, config: RuleConfig) -> int:
    """Who initiates the side battle of ``record`` for the once-per-turn limit (RED-SB-ONCE-PER-TURN): its
    user, or after a redirect the redirecting player, who carries it out (decision ``sb-redirected-initiator``
    = redirecting-player; original-user: the player who played the card). Under the broken variant
    ``redirected-side-battle-uncounted`` a redirected side battle counts against nobody (-1)."""
    if record.carrier >= 0 and config.is_broken("redirected-side-battle-uncounted"):
        return -1
    if config.option("sb-redirected-initiator") == "original-user":
        return record.player
    return record.carried_by


@implements("RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-SAME-UNMIXED", "RED-RD-CARRIER-CHANGES")
def chooser(record: PlayRecord, config: RuleConfig) -> int:
    """The player who used the side battle ability, who assigns the sides in cases 1 and 3: after a
    redirect still the player who played the card (decision ``sb-redirected-user`` = original-user), or
    the redirecting player (redirecting-player)."""
    if config.option("sb-redirected-user") == "redirecting-player":
        return record.carried_by
    return record.player


@implements("RED-SB-ONCE-PER-TURN")
def counts_on_use(config: RuleConfig) -> bool:
    """Whether a side battle is counted when its card is used rather than when it starts (decision
    ``sb-initiated-when``: on-use; started-stays-counted and negation-restores count it at the start)."""
    return config.option("sb-initiated-when") == "on-use"


def _count(state: State, who: int, by: int = 1) -> State:
    counts = list(state.side_battles)
    counts[who] += by
    return replace(state, side_battles=tuple(counts))


def _counted_at_use(record: PlayRecord, config: RuleConfig) -> bool:
    """Under on-use: whether ``record`` was counted already, when its card was used: a redirected side
    battle (a redirect is no new use of the card; the redirecting player's restriction is read when the
    new targets are chosen, RED-RD-TARGET-PERSPECTIVE)."""
    return counts_on_use(config) and record.carrier >= 0


@implements("RED-SB-ONCE-PER-TURN", "RED-BASE-NEGATE")
def restore_allowance(state: State, record_id: int, config: RuleConfig) -> State:
    """After play record ``record_id`` was negated: under decision ``sb-initiated-when`` =
    negation-restores, a side battle card whose side battle had started gives its initiator's allowance
    back, the card being as if never used (RED-BASE-NEGATE); under the other options (and for a card
    negated before its side battle started, never counted) the count stands."""
    record = state.record(record_id)
    if (record.effect is not Effect.SIDE_BATTLE or record.status is not RecordStatus.NEGATED or record.undo.opened < 0
            or config.option("sb-initiated-when") != "negation-restores"):
        return state
    who = initiator(record, config)
    if who < 0 or state.side_battles[who] == 0:
        return state
    return _count(state, who, -1)


@implements("RED-SB-ONCE-PER-TURN", "RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-SAME-UNMIXED")
def use_side_battle(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """Count the side battle against its initiator's allowance (:func:`initiator`; not here under
    ``sb-initiated-when`` = on-use, where :func:`begin` counted it), then either start it or ask the
    user to assign the sides (cases 1 and 3, :func:`chooser`). A character selected from a hand is in
    the hand of the player carrying the ability out, who controls it."""
    who = initiator(record, config)
    if who >= 0 and not counts_on_use(config):
        state = _count(state, who)
    x, y = record.targets
    assignment = assign_sides(state, x, y, record.carried_by, config)
    if assignment is None and record.carrier >= 0 and config.is_broken("redirected-side-battle-no-choice"):
        assignment = (x, y)
    if assignment is None:
        return replace(state, prompt=Prompt(PromptKind.CHOOSE_SIDES, chooser(record, config), record=record.id, cards=(x, y)))
    return open_side_battle(state, record.id, assignment, config)


@implements("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND")
def answerer(state: State, record: PlayRecord, config: RuleConfig) -> int | None:
    """The battling player who may answer a side battle ability before its side battle starts: one
    whose every character in the battle being fought it selects, when it is not theirs (special
    initiative, RED-BASE-SPECIAL-INITIATIVE; decision ``sb-answer-before-start`` = special-initiative).
    ``None`` when nobody may (always under ``never``)."""
    battle = state.active_battle
    if battle is None or config.option("sb-answer-before-start") == "never":
        return None
    for player in battle.players:
        mine = {f.card for side, f in battle.fighters() if battle.players[side] == player}
        if player != record.carried_by and mine and mine <= set(record.targets) and _has_answer(state, player, mine):
            return player
    return None


def _has_answer(state: State, player: int, fighters: set[str]) -> bool:
    """Whether ``player`` holds an interrupt or negate they may play on one of ``fighters`` (RED-BASE-ENHANCEMENTS);
    without one, special initiative could only be declined: the same play as not offering it. Cards and
    fighters are tried in id order, so the same code runs on every run whatever the sets' order."""
    for card_id in sorted(state.zones[player].hand):
        card = state.card(card_id)
        if card.ability in (Effect.INTERRUPT, Effect.NEGATE) and card.type.value == "enhancement" and any(
            state.card(f).alignment is card.alignment and state.card(f).brigades & card.brigades for f in sorted(fighters)
        ):
            return True
    return False


@implements("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def begin(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """A side battle ability takes effect (freshly used, or redirected): nothing if its initiator's side
    battles are used up by now (RED-SB-RESTRICT-AFTER; the record fizzles); else it is announced to
    the player it may leave with no character in the battle being fought (:func:`answerer`), who may
    interrupt or negate it first, or it acts at once (:func:`use_side_battle`). Under decision
    ``sb-initiated-when`` = on-use it counts against the player who used the card now, whatever becomes
    of it, and a redirect of it counts nobody again (:func:`_counted_at_use`)."""
    who = initiator(record, config)
    if who >= 0 and not _counted_at_use(record, config):
        if restricted(state, who, config):
            return play_prompt(set_record(state, replace(record, status=RecordStatus.FIZZLED)), config)
        if counts_on_use(config):
            state = _count(state, who)
    victim = answerer(state, record, config)
    if victim is None:
        return _act(state, record, config)
    state = set_record(state, replace(record, status=RecordStatus.ANNOUNCED))
    return replace(state, prompt=Prompt(PromptKind.SPECIAL_INITIATIVE, victim, record=record.id))


@implements("RED-BASE-INTERRUPT", "RED-BASE-SPECIAL-INITIATIVE", "RED-SB-TARGETS-TWO", "RED-SB-ONCE-PER-TURN")
def carry_out(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """A side battle ability that waited (special initiative declined, or reactivating after an interrupt,
    RED-BASE-INTERRUPT) acts now if its two characters may still be selected by the player carrying it
    out and its initiator's allowance is not used up (under ``sb-initiated-when`` = on-use it was
    counted when used, within the allowance); otherwise it fizzles and starts nothing."""
    pair = tuple(sorted(record.targets))
    who = initiator(record, config)
    spent = who >= 0 and not counts_on_use(config) and restricted(state, who, config)
    if pair not in target_pairs(state, record.carried_by, config) or spent:
        return set_record(state, replace(record, status=RecordStatus.FIZZLED))
    return _act(state, record, config)


def _act(state: State, record: PlayRecord, config: RuleConfig) -> State:
    record = replace(record, status=RecordStatus.ACTIVE)  # it takes effect now
    return use_side_battle(set_record(state, record), record, config)


def open_side_battle(state: State, record_id: int, assignment: tuple[str, str], config: RuleConfig) -> State:
    """Start the side battle of play record ``record_id`` with the sides assigned;
    the record remembers the battle it opened (for RED-SB-NEGATE-CASCADE), and under decision
    ``sb-negate-resolution`` = undo-all its fighters as it began (:func:`side_battle_undo.snapshot`)."""
    record = state.record(record_id)
    battle_id = state.next_battle
    state = set_record(state, replace(record, undo=Undo(opened=battle_id)))
    state = start_side_battle(state, record_id, assignment[0], assignment[1], record.carried_by, config)
    opened = next(b for b in state.battles if b.id == battle_id)
    return set_record(state, side_battle_undo.snapshot(state.record(record_id), opened, config))
