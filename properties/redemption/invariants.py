"""Redemption properties (side battles, battle resolution, conservation), each stated once.

Checks read the state only and do not call the model's rule functions.
Heal and redirect properties are in :mod:`properties.redemption.heal_invariants`.
"""

from __future__ import annotations

from cardrules.model.redemption.actions import Action
from cardrules.model.redemption.state import (
    Battle, BattleKind, Effect, OriginKind, PlayRecord, PromptKind, RecordStatus, State, all_locations,
)
from cardrules.model.redemption.validate import problems
from cardrules.properties.core import Property, declared, state_property, transition_property
from cardrules.properties.redemption.game import RedemptionGame

GAME = "redemption"


@state_property(
    "main-battle-at-bottom",
    "Battle stack discipline: the bottom of the battle stack is the turn's main battle, fought by the turn's "
    "player, and every battle above it is a side battle.",
    "RED-SB-SUSPEND", "RED-SB-RESUME", "RED-BASE-RESCUE-OR-CHALLENGE", game=GAME,
)
def main_battle_at_bottom(game: RedemptionGame, state: State) -> bool:
    if not state.battles:
        return True
    bottom, rest = state.battles[0], state.battles[1:]
    return bottom.kind is not BattleKind.SIDE and bottom.players[0] == state.active and all(
        b.kind is BattleKind.SIDE for b in rest
    )


@state_property(
    "one-battle-per-character",
    "Each character in battle is in exactly one battle of the stack, once.",
    "RED-SB-SUSPEND", "RED-SB-TARGETS-TWO", game=GAME,
)
def one_battle_per_character(game: RedemptionGame, state: State) -> bool:
    seen: set[str] = set()
    for battle in state.battles:
        for _, fighter in battle.fighters():
            if fighter.card in seen:
                return False
            seen.add(fighter.card)
    return True


@state_property(
    "one-side-battle-per-player-per-turn",
    "Each player initiates at most one side battle per turn (counted by the turn counter and by the side battle "
    "abilities that took effect this turn).",
    "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", game=GAME,
)
def one_side_battle_per_turn(game: RedemptionGame, state: State) -> bool:
    for player, count in enumerate(state.side_battles):
        if count > 1 or _started_by(game, state, player) > 1:
            return False
    return True


def _took_effect(record: PlayRecord) -> bool:
    """A side battle ability that took effect: in effect (its side battle started or its sides are being
    chosen), or negated after its side battle started; not one answered before it started (announced,
    pending, fizzled, or negated then) or played blank."""
    return record.effect is Effect.SIDE_BATTLE and (record.status is RecordStatus.ACTIVE or record.undo.opened >= 0)


def _counted(game: RedemptionGame, record: PlayRecord) -> bool:
    """Whether a play record counts as a side battle initiated this turn (decision sb-initiated-when):
    one that took effect (chosen started-stays-counted); under negation-restores not once negated; under
    on-use every side battle card used with its two targets, whatever became of it."""
    if record.effect is not Effect.SIDE_BATTLE:
        return False
    when = game.config.option("sb-initiated-when")
    if when == "on-use":
        return len(record.targets) == 2 and record.status is not RecordStatus.BLANKED
    if when == "negation-restores" and record.status is RecordStatus.NEGATED:
        return False
    return _took_effect(record)


def _initiator(game: RedemptionGame, record: PlayRecord) -> int:
    """Who initiated a side battle: its user, or after a redirect the player decision sb-redirected-initiator
    names (the redirecting player by default, who carries the ability out); under sb-initiated-when =
    on-use always its user (counted when used, before any redirect)."""
    if game.config.option("sb-initiated-when") == "on-use":
        return record.player
    if game.config.option("sb-redirected-initiator") == "original-user":
        return record.player
    return record.carried_by


def _started_by(game: RedemptionGame, state: State, player: int) -> int:
    return sum(1 for r in state.records if _counted(game, r) and _initiator(game, r) == player)


@state_property(
    "side-battles-counted-against-their-initiator",
    "While the turn's battle is on, each player's count of side battles initiated this turn is the number of "
    "side battle abilities that took effect with that player as initiator: the user, or after a redirect the "
    "player decision sb-redirected-initiator names; an ability answered before its side battle started counts "
    "for nobody. Where a turn may hold several main battles (decision red-base-battles-per-turn = many), the "
    "records of the earlier ones are gone, so the count is at least this battle's.",
    "RED-SB-ONCE-PER-TURN", "RED-RD-CARRIER-CHANGES", "RED-BASE-TURN-PHASES", game=GAME,
)
def side_battles_counted(game: RedemptionGame, state: State) -> bool:
    if not state.battles:
        return True
    if game.config.option("red-base-battles-per-turn") == "many":
        return all(count >= _started_by(game, state, p) for p, count in enumerate(state.side_battles))
    return all(count == _started_by(game, state, p) for p, count in enumerate(state.side_battles))


@state_property(
    "answered-side-battle-starts-nothing",
    "A battle on the stack was opened by a side battle ability that took effect: never by one that is "
    "announced, interrupted (pending), fizzled or played blank.",
    "RED-BASE-INTERRUPT", "RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND", game=GAME,
)
def answered_side_battle_starts_nothing(game: RedemptionGame, state: State) -> bool:
    for battle in state.battles:
        if battle.opened_by < 0:
            continue
        opener = _record_target(state, f"#{battle.opened_by}")
        if opener is not None and opener.status not in (RecordStatus.ACTIVE, RecordStatus.NEGATED):
            return False
    return True


@state_property(
    "side-battle-control",
    "The two sides of every side battle are controlled by the two players of the battle it suspended.",
    "RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-ONE-INSIDER",
    "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED", game=GAME,
)
def side_battle_control(game: RedemptionGame, state: State) -> bool:
    return all(set(above.players) == set(below.players) for below, above in zip(state.battles, state.battles[1:]))


@state_property(
    "resolution-step-order",
    "Battle Resolution runs in order: a battle has a rescue or challenge result only after its outcome, and "
    "characters are marked for discard only once the outcome is settled.",
    "RED-BR-ORDER", "RED-BR-STEP1-OUTCOME", "RED-BR-MISSION-RESULT", "RED-BR-STEP4-DISCARD-RETURN", game=GAME,
)
def resolution_order(game: RedemptionGame, state: State) -> bool:
    for battle in state.battles:
        if battle.mission is not None and battle.outcome is None:
            return False
        if battle.defeated and battle.outcome is None:
            return False
    return True


@state_property(
    "cards-conserved",
    "Every card of the game is in exactly one place (a zone, a battle, or on a character).",
    "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-BR-STEP4-DISCARD-RETURN", game=GAME,
)
def cards_conserved(game: RedemptionGame, state: State) -> bool:
    if problems(state):
        return False
    return sorted(card for card, _ in all_locations(state)) == sorted(c.id for c in state.cards)


def _healed_not_survivor(game: RedemptionGame, ended: Battle, card: str) -> bool:
    """A fighter marked for discard by its side battle's resolution and healed in the heal window is
    not a survivor under decision ``sb-healed-fighter-destination = heal-placement``: it goes where
    the heal rules place it (RED-HEAL-TO-PERMANENT-CONTROLLER, RED-HEAL-PREV-TO-OWNER)."""
    return card in ended.defeated and game.config.option("sb-healed-fighter-destination") == "heal-placement"


def _ended_side_battle(before: State, after: State) -> Battle | None:
    """The side battle on top of the stack in ``before`` that is gone in ``after``, if this step ended one."""
    if not before.battles or before.battles[-1].kind is not BattleKind.SIDE:
        return None
    ended = before.battles[-1]
    return None if any(b.id == ended.id for b in after.battles) else ended


@transition_property(
    "side-battle-survivors-return",
    "When a side battle ends, a surviving character that came from another battle is back in that battle with "
    "every enhancement it had, and any other survivor is in a territory and the enhancements played on it in "
    "the side battle are discarded.",
    "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-SB-RESUME", game=GAME,
)
def survivors_return(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    ended = _ended_side_battle(before, after)
    if ended is None:
        return True
    discarded = {card for zones in after.zones for card in zones.discard}
    in_battle = {f.card: (b.id, f) for b in after.battles for _, f in b.fighters()}
    territories = {card for zones in after.zones for card in zones.territory}
    for _, fighter in ended.fighters():
        if fighter.card in discarded or _healed_not_survivor(game, ended, fighter.card):
            continue  # defeated: normal battle resolution (RED-SB-DEFEAT-NORMAL), healed or not
        if fighter.origin.kind is OriginKind.BATTLE:
            where = in_battle.get(fighter.card)
            if where is None or where[0] != fighter.origin.battle:
                return False
            if not set(fighter.enhancements) <= set(where[1].enhancements):
                return False
        else:
            if fighter.card not in territories:
                return False
            played_here = {r.card for r in before.records if r.battle == ended.id}
            if any(enh not in discarded for enh in fighter.enhancements if enh in played_here):
                return False
    return True


def _record_target(state: State, target: str) -> PlayRecord | None:
    """The play record a ``#n`` target names, if it is one."""
    if not target.startswith("#") or not target[1:].isdigit():
        return None
    wanted = int(target[1:])
    return next((r for r in state.records if r.id == wanted), None)


@transition_property(
    "interrupt-scope-battle-being-fought",
    "An interrupt targets only an ability played in the battle being fought when it is played: from a side "
    "battle it cannot reach an ability of the suspended battle, and once the side battle is over only abilities "
    "of the resumed battle can be interrupted; a character in a suspended battle gets no special initiative "
    "against an ability played in a side battle.",
    "RED-SB-NO-INTERRUPT-FROM-SUSPENDED", "RED-BASE-INTERRUPT", "RED-BASE-SPECIAL-INITIATIVE", game=GAME,
)
def interrupt_scope(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    """RED-SB-NO-INTERRUPT-FROM-SUSPENDED, read from the play records and the battle stack only.

    The battle being fought is the top of the stack before the play; a play
    record names the battles on the stack when it was played, the last being
    its own battle.
    """
    fought = before.battles[-1].id if before.battles else None
    old_ids = {r.id for r in before.records}
    for record in after.records:
        if record.id in old_ids or record.effect is not Effect.INTERRUPT:
            continue
        if record.battle_path[-1] != fought:
            return False
        for target in record.targets:
            aimed = _record_target(after, target)
            if aimed is not None and aimed.battle_path[-1] != fought:
                return False
    prompt = after.prompt
    if prompt is not None and prompt.kind is PromptKind.SPECIAL_INITIATIVE and (
        before.prompt is None or before.prompt.kind is not PromptKind.SPECIAL_INITIATIVE
    ):
        if not after.battles:
            return False
        top = after.battles[-1]
        announced = _record_target(after, f"#{prompt.record}")
        if announced is None or announced.battle_path[-1] != top.id:
            return False
        victims = {f.card for side, f in top.fighters() if top.players[side] == prompt.player}
        if not set(announced.targets) & victims:
            return False
    return True


def _place(state: State, card: str) -> tuple[int, int, int] | None:
    """(controller, stack index or -1 outside battle, side or -1) of a character, read from the zones and battles."""
    for index, battle in enumerate(state.battles):
        for side, fighter in battle.fighters():
            if fighter.card == card:
                return battle.players[side], index, side
    for player, zones in enumerate(state.zones):
        if card in zones.territory or card in zones.hand:
            return player, -1, -1
    return None


def _started_side_battle(before: State, after: State):
    """The side battle this transition started, directly above the battle it suspended, or None."""
    old = {b.id for b in before.battles}
    new = [i for i, b in enumerate(after.battles) if b.id not in old]
    if len(new) != 1 or after.battles[new[0]].kind is not BattleKind.SIDE or new[0] == 0:
        return None
    return after.battles[new[0] - 1], after.battles[new[0]]


@transition_property(
    "side-battle-sides-by-case",
    "When a side battle starts, its sides are given as the seed's four cases say: a fighter controlled by a "
    "battling player stays with that player when the other fighter is someone else's; of two fighters of one "
    "battling player, exactly one of which was in a battle, that one stays with its controller and the other "
    "goes to the other battling player; otherwise the player who used the side battle ability chose, whoever "
    "that is (a battling player, or a player outside the battle under decision sb-user-outside-battle = "
    "any-player); and each fighter that came from a battle records the battle and side it came from.",
    "RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-ONE-INSIDER", "RED-SB-CONTROL-SAME-UNMIXED",
    "RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE", game=GAME,
)
def sides_by_case(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    """The four control cases (seed 000, How to Play), from where each fighter was just before the start.

    "In a battle when selected" follows decision ``sb-in-battle-meaning``:
    any battle on the stack, or only the battle the side battle suspends.
    """
    started = _started_side_battle(before, after)
    if started is None:
        return True
    paused, side_battle = started
    battling = set(paused.players)
    fighters = [(side, f) for side, f in side_battle.fighters()]
    if len(fighters) != 2 or {side for side, _ in fighters} != {0, 1}:
        return False
    suspended_only = game.config.option("sb-in-battle-meaning") == "suspended-battle-only"
    paused_index = len(after.battles) - 2
    where: dict[str, tuple[int, bool]] = {}
    for side, fighter in fighters:
        place = _place(before, fighter.card)
        if place is None:
            return True  # not selected from a place this property reads; nothing to say
        controller, index, from_side = place
        if index >= 0:
            # the fighter came from a battle: its recorded origin is that battle and side (RED-SB-RETURN-TO-BATTLE)
            origin = fighter.origin
            if origin.kind is not OriginKind.BATTLE or origin.battle != before.battles[index].id or origin.side != from_side:
                return False
        in_battle = index >= 0 and (not suspended_only or index == paused_index)
        where[fighter.card] = (controller, in_battle)
    (side_x, x), (side_y, y) = fighters
    (cx, bx), (cy, by) = where[x.card], where[y.card]
    holder = {x.card: side_battle.players[side_x], y.card: side_battle.players[side_y]}
    other = {p: q for p, q in (tuple(paused.players), tuple(reversed(paused.players)))}
    # case 2 only for a fighter of a player outside the battle under sb-different-player = outsiders-only
    # (a pair of one character of each battling player then falls under cases 1 and 3: the user chooses)
    only = game.config.option("sb-different-player") == "outsiders-only"
    if cx in battling and cx != cy and not (only and cy in battling):
        # case 2, the insider's fighter x: the insider keeps it, the other battling player takes y
        return holder[x.card] == cx and holder[y.card] == other[cx]
    if cy in battling and cx != cy and not (only and cx in battling):
        return holder[y.card] == cy and holder[x.card] == other[cy]
    if cx == cy and cx in battling and bx != by:
        # case 4: the one in battle stays with its controller
        stays, goes = (x, y) if bx else (y, x)
        return holder[stays.card] == cx and holder[goes.card] == other[cx]
    return _user_chose(game, before)  # cases 1 and 3


def _user_chose(game: RedemptionGame, before: State) -> bool:
    """Cases 1 and 3 (RED-SB-CONTROL-OUTSIDERS, RED-SB-CONTROL-SAME-UNMIXED): the side battle starts
    from a choice of sides, made by the player whose play record used the side battle ability (after a
    redirect, the player decision sb-redirected-user names: still that player by default, or the
    redirecting player)."""
    prompt = before.prompt
    if prompt is None or prompt.kind is not PromptKind.CHOOSE_SIDES:
        return False
    used = _record_target(before, f"#{prompt.record}")
    if used is None or used.effect is not Effect.SIDE_BATTLE:
        return False
    by_redirector = game.config.option("sb-redirected-user") == "redirecting-player"
    return (used.carried_by if by_redirector else used.player) == prompt.player


@transition_property(
    "side-battle-survivors-return-to-side",
    "When a side battle ends, a surviving character that came from another battle is back in that battle on "
    "the side it was on, under the player who controlled that side.",
    "RED-SB-RETURN-TO-BATTLE", "RED-SB-RESUME", game=GAME,
)
def survivors_return_to_side(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    """RED-SB-RETURN-TO-BATTLE: "goes back to that battle (on the side it was on)"."""
    ended = _ended_side_battle(before, after)
    if ended is None:
        return True
    discarded = {card for zones in after.zones for card in zones.discard}
    for _, fighter in ended.fighters():
        if fighter.card in discarded or fighter.origin.kind is not OriginKind.BATTLE:
            continue
        if _healed_not_survivor(game, ended, fighter.card):
            continue
        home = next((b for b in after.battles if b.id == fighter.origin.battle), None)
        if home is None:
            return False
        if not any(f.card == fighter.card for f in home.sides[fighter.origin.side]):
            return False
        if home.players[fighter.origin.side] != fighter.origin.player:
            return False
    return True


@transition_property(
    "side-battle-survivor-home-territory",
    "When a side battle ends, a surviving character that was not in a battle when selected goes to its owner's "
    "territory (under sb-return-territory = permanent-controller, to the territory of the player with "
    "permanent control), even when the owner is another player.",
    "RED-SB-RETURN-TO-TERRITORY", game=GAME,
)
def survivor_home_territory(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    """RED-SB-RETURN-TO-TERRITORY: the owner is the card's printed owner; the permanent controller the fighter's."""
    ended = _ended_side_battle(before, after)
    if ended is None:
        return True
    owners = {c.id: c.owner for c in before.cards}
    by_owner = game.config.option("sb-return-territory") != "permanent-controller"
    for _, fighter in ended.fighters():
        if fighter.origin.kind is OriginKind.BATTLE or _healed_not_survivor(game, ended, fighter.card):
            continue
        home = owners[fighter.card] if by_owner else fighter.permanent
        elsewhere = any(fighter.card in z.territory for i, z in enumerate(after.zones) if i != home)
        if elsewhere:
            return False
    return True


@transition_property(
    "step-deterministic",
    "Applying the same action to the same state always gives the same state.",
    "RED-BASE-TURN-PHASES", game=GAME,
)
def deterministic(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    return game.step(before, action) == after


PROPERTIES: tuple[Property, ...] = declared(
    main_battle_at_bottom,
    one_battle_per_character,
    one_side_battle_per_turn,
    side_battles_counted,
    answered_side_battle_starts_nothing,
    side_battle_control,
    resolution_order,
    cards_conserved,
    survivors_return,
    interrupt_scope,
    sides_by_case,
    survivors_return_to_side,
    survivor_home_territory,
    deterministic,
)
"""This module's properties, in the order they are stated above."""
