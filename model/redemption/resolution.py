"""Battle Resolution in the seed's four ordered steps (RED-BR-ORDER).

``begin_resolution`` runs steps 1 to 3 and opens step 4: if any character is
to be discarded, the heal window (``PromptKind.HEAL_WINDOW``) is an explicit
decision point before the discard completes (RED-BR-HEAL-WINDOW); the heal
actions offered there are in :mod:`model.redemption.heal` (RED-HEAL-AT-RESOLUTION). ``complete_discard`` closes
one player's window; ``finish_resolution`` returns the survivors and pops the
battle, resuming the battle below it if any (RED-SB-RESUME). A rescue can
win the game (:func:`check_winner`, RED-BASE-WIN-FIVE-SOULS).

The dispatcher begins resolution when a battle goes unblocked and goes on
with :func:`next_heal_window` after a heal in a Battle Resolution heal window
(``Then`` markers of :mod:`model.redemption.handoff`).
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.initiative import play_prompt
from cardrules.model.redemption.ops import (
    add_fighter,
    add_to,
    discard_card,
    discard_fighter,
    draw_cards,
    lasting,
    note_discard,
    remove_fighter,
)
from cardrules.model.redemption.standing import defeated, outcome
from cardrules.model.redemption.state import (
    Battle,
    BattleKind,
    DiscardCause,
    Effect,
    Fighter,
    Mission,
    OriginKind,
    Outcome,
    Prompt,
    PromptKind,
    RecordStatus,
    State,
)
from cardrules.specs.catalogue.registry import implements

SOULS_TO_WIN = 5


@implements("RED-BR-MISSION-RESULT", "RED-BR-CHALLENGE-RESULT", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
def mission_result(state: State, battle: Battle, result: Outcome, config: RuleConfig) -> Mission:
    """Step 2: whether the rescue attempt or the battle challenge succeeded or failed.

    Challenge: the step 1 outcome alone (RED-BR-CHALLENGE-RESULT, decision
    ``br-challenge-success``). Rescue: success when the Hero side won and the
    defender still has a Lost Soul (RED-BR-RESCUE-SUCCESS); otherwise failure
    (RED-BR-RESCUE-FAIL), except that under decision ``br-rescue-draw = undetermined``
    mutual destruction or a stalemate with a Lost Soul to rescue is neither. A side battle has none.
    """
    if battle.kind is BattleKind.SIDE:
        return Mission.NONE
    access = rescue_access(state, battle, config)
    if battle.kind is BattleKind.CHALLENGE and not access:
        if config.option("br-challenge-success") == "challenger-not-beaten":
            won = result is not Outcome.SIDE1_WINS
        else:
            won = result is Outcome.SIDE0_WINS
        return Mission.SUCCESS if won else Mission.FAILURE
    if result is Outcome.SIDE0_WINS and access:
        return Mission.SUCCESS
    draw = result in (Outcome.MUTUAL_DESTRUCTION, Outcome.STALEMATE)
    if access and draw and config.option("br-rescue-draw") == "undetermined":
        return Mission.UNDETERMINED
    return Mission.FAILURE


@implements("RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
def rescue_access(state: State, battle: Battle, config: RuleConfig) -> bool:
    """Whether step 2 judges a rescue with access: a rescue attempt whose defender still has a
    Lost Soul in bondage (held or gained); under decision ``br-rescue-access =
    challenge-can-become-rescue`` also a battle challenge whose defender now has one."""
    judged = battle.kind is BattleKind.RESCUE or (
        battle.kind is BattleKind.CHALLENGE and config.option("br-rescue-access") == "challenge-can-become-rescue"
    )
    return judged and bool(state.zones[battle.players[1]].bondage)


@implements("RED-BR-STEP4-DISCARD-RETURN", "RED-SB-DEFEAT-NORMAL")
def to_discard(state: State, battle: Battle, result: Outcome, config: RuleConfig) -> tuple[str, ...]:
    """Characters the outcome discards (RED-BR-STEP4-DISCARD-RETURN, decision ``br-discard-which``).

    The same rule serves side battles (RED-SB-DEFEAT-NORMAL).
    """
    down = defeated(state, battle, config)
    if config.option("br-discard-which") == "losing-side-only":
        beaten_sides = {
            Outcome.SIDE0_WINS: {1}, Outcome.SIDE1_WINS: {0}, Outcome.MUTUAL_DESTRUCTION: {0, 1}, Outcome.STALEMATE: set()
        }[result]
        return tuple(sorted(f.card for side, f in battle.fighters() if side in beaten_sides and f.card in down))
    return tuple(sorted(f.card for _, f in battle.fighters() if f.card in down))


def keeps_enhancements(battle: Battle, fighter: Fighter, doomed: tuple[str, ...]) -> bool:
    """A side battle survivor that came from another battle keeps its enhancements (RED-SB-RETURN-TO-BATTLE)."""
    return battle.kind is BattleKind.SIDE and fighter.origin.kind is OriginKind.BATTLE and fighter.card not in doomed


@implements("RED-BR-HEAL-WINDOW", "RED-HEAL-PREV-ATTACHED-RETURN")
def keeps_until_discarded(fighter: Fighter, doomed: tuple[str, ...], config: RuleConfig) -> bool:
    """Decision ``br-enhancements-before-heal``: by default (enhancements-first) a defeated character's
    enhancements are discarded in step 3, before its heal window; with-the-character they stay on it
    through the window and share its fate: discarded with it (and recorded on its discard, so a
    previous-wording heal from the pile brings them back, RED-HEAL-PREV-ATTACHED-RETURN), or, if it is
    healed, dealt with as for any character healed in a window (decision ``heal-window-attachments``)."""
    return fighter.card in doomed and config.option("br-enhancements-before-heal") == "with-the-character"


@implements("RED-SB-RETURN-TO-TERRITORY")
def kept_carried(state: State, battle: Battle, fighter: Fighter, doomed: tuple[str, ...], config: RuleConfig) -> tuple[str, ...]:
    """The enhancements a side battle survivor not from another battle takes back to its territory
    (decision ``sb-territory-survivor-enhancements``): none (all-discarded), or those it carried in,
    i.e. not played on it in this side battle or one stacked on it (played-in-side-battle-only).
    Any other fighter: none kept here (see :func:`keeps_enhancements`)."""
    if (battle.kind is not BattleKind.SIDE or fighter.origin.kind is OriginKind.BATTLE or fighter.card in doomed
            or config.option("sb-territory-survivor-enhancements") == "all-discarded"):
        return ()
    played = {r.card for r in state.records if battle.id in r.battle_path}
    return tuple(e for e in fighter.enhancements if e not in played)


@implements("RED-BR-ORDER", "RED-BR-STEP1-OUTCOME", "RED-BR-STEP3-END-ABILITIES", "RED-BR-UNAFFECTED-NORMAL")
def begin_resolution(state: State, config: RuleConfig) -> State:
    """Resolve the active battle: steps 1, 2 and 3, then open step 4 (RED-BR-ORDER).

    Step 1 fixes the outcome once (RED-BR-STEP1-OUTCOME). Step 3 carries out
    end-of-battle abilities (``draw-on-success``) reading steps 1 and 2
    (RED-BR-STEP3-END-ABILITIES), then the ordinary fate of the other cards:
    a rescued Lost Soul to the rescuer's Land of Redemption, enhancements to
    their owners' discard piles (RED-BR-UNAFFECTED-NORMAL), except those kept
    by side battle survivors from another battle (RED-SB-RETURN-TO-BATTLE) and,
    under ``sb-territory-survivor-enhancements`` = played-in-side-battle-only, those
    carried in by the other survivors (:func:`kept_carried`).
    """
    index = len(state.battles) - 1
    battle = state.battles[index]
    result = outcome(state, battle, config)
    mission = mission_result(state, battle, result, config)
    doomed = to_discard(state, battle, result, config)
    # Step 3: end-of-battle abilities.
    attached = {e for _, f in battle.fighters() for e in f.enhancements}
    if mission is Mission.SUCCESS:
        for record in state.records:
            if (
                record.effect is Effect.DRAW_ON_SUCCESS
                and record.status is RecordStatus.ACTIVE
                and record.battle == battle.id
                and record.card in attached
            ):
                state = draw_cards(state, record.player, 1)
    # Step 3: unaffected cards under the ordinary rules.
    if mission is Mission.SUCCESS and battle.kind is not BattleKind.SIDE and rescue_access(state, battle, config):
        defender, rescuer = battle.players[1], battle.players[0]
        soul = min(state.zones[defender].bondage)  # decision br-rescued-soul: lowest id
        zones = list(state.zones)
        zones[defender] = replace(zones[defender], bondage=zones[defender].bondage - {soul})
        state = replace(state, zones=tuple(zones))
        state = add_to(state, rescuer, "redemption", soul)
    sides: list[tuple[Fighter, ...]] = []
    for fighters in battle.sides:
        kept: list[Fighter] = []
        for fighter in fighters:
            if keeps_enhancements(battle, fighter, doomed) or keeps_until_discarded(fighter, doomed, config):
                kept.append(fighter)
                continue
            carried = kept_carried(state, battle, fighter, doomed, config)
            for enh in fighter.enhancements:
                if enh not in carried:
                    state = discard_card(state, enh)
            kept.append(replace(fighter, enhancements=carried))
        sides.append(tuple(kept))
    battle = replace(battle, sides=(sides[0], sides[1]), outcome=result, mission=mission, defeated=doomed)
    battles = list(state.battles)
    battles[index] = battle
    state = replace(state, battles=tuple(battles))
    if battle.kind is not BattleKind.SIDE:
        state = replace(state, last_outcome=result, last_mission=mission)
    state = check_winner(state)
    return next_heal_window(state, config)


@implements("RED-BASE-WIN-FIVE-SOULS")
def check_winner(state: State) -> State:
    """A player with five Lost Souls in their Land of Redemption wins (RED-BASE-WIN-FIVE-SOULS)."""
    if state.winner is not None:
        return state
    for player, zones in enumerate(state.zones):
        if len(zones.redemption) >= SOULS_TO_WIN:
            return replace(state, winner=player)
    return state


@implements("RED-BR-HEAL-WINDOW")
def next_heal_window(state: State, config: RuleConfig) -> State:
    """Step 4 opens with the heal window: before a defeated character is
    discarded, its controlling player gets a decision point (RED-BR-HEAL-WINDOW,
    decision ``br-heal-window-player``). Players are asked in seat order."""
    battle = state.battles[-1]
    pending: dict[int, list[str]] = {}
    for side, fighter in battle.fighters():
        if fighter.card in battle.defeated:
            if config.option("br-heal-window-player") == "permanent-controller":
                player = fighter.permanent
            else:
                player = battle.players[side]
            pending.setdefault(player, []).append(fighter.card)
    if not pending:
        return finish_resolution(state, config)
    player = min(pending)
    return replace(state, prompt=Prompt(PromptKind.HEAL_WINDOW, player, cards=tuple(sorted(pending[player]))))


@implements("RED-BR-STEP4-DISCARD-RETURN")
def complete_discard(state: State, config: RuleConfig) -> State:
    """The heal window closes unused: the pending characters are discarded."""
    assert state.prompt is not None
    for card_id in state.prompt.cards:
        state, _, _, fighter = remove_fighter(state, card_id)
        state = discard_fighter(state, fighter)
        state = note_discard(state, fighter, DiscardCause.RULE)
    return next_heal_window(state, config)


@implements("RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-SB-RESUME",
            "RED-RD-UNTIL-END-OF-PHASE")
def finish_resolution(state: State, config: RuleConfig) -> State:
    """Step 4's returns, then the battle leaves the stack.

    Main battle: survivors go to the territory of the player with permanent
    control (RED-BR-RETURN-PERMANENT-CONTROLLER). Side battle: survivors from
    another battle go back to it, on their old side, with their enhancements
    (RED-SB-RETURN-TO-BATTLE); the others go to their owner's territory
    (RED-SB-RETURN-TO-TERRITORY, decision ``sb-return-territory``), with the
    enhancements they kept placed on them there (decision
    ``sb-territory-survivor-enhancements``). The battle below, if any, then resumes (RED-SB-RESUME).
    When the last battle leaves the stack its play records go, except the ongoing redirects, which
    last to the end of the phase (RED-RD-UNTIL-END-OF-PHASE, :func:`model.redemption.ops.lasting`).
    """
    battle = state.battles[-1]
    state = replace(state, battles=state.battles[:-1])
    for _, fighter in battle.fighters():
        origin = fighter.origin
        if battle.kind is BattleKind.SIDE and origin.kind is OriginKind.BATTLE:
            back = replace(fighter, origins=fighter.origins[:-1])
            state = add_fighter(state, origin.battle, origin.side, back)
            continue
        if battle.kind is BattleKind.SIDE and config.option("sb-return-territory") == "owner":
            home = state.card(fighter.card).owner
        else:
            home = fighter.permanent
        state = add_to(state, home, "territory", fighter.card)
        if fighter.enhancements:  # carried in and kept (decision sb-territory-survivor-enhancements)
            state = replace(state, placed=state.placed | {(e, fighter.card) for e in fighter.enhancements})
    if not state.battles:  # the ongoing redirects outlive the battle (RED-RD-UNTIL-END-OF-PHASE)
        return replace(state, prompt=None, records=tuple(r for r in state.records if lasting(r)))
    return play_prompt(state, config)
