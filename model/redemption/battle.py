"""Battles: starting one and blocking.

Where a battle stands (numbers, defeat, outcome) is read from
:mod:`model.redemption.standing`; who plays next from
:mod:`model.redemption.initiative`. A battle with no blockers goes straight
to Battle Resolution: :func:`block` hands ``Then.RESOLVE`` to the dispatcher.

Clause IDs: RED-BASE-RESCUE-OR-CHALLENGE, RED-BASE-BLOCKING,
RED-BASE-HERO-VS-EVIL, RED-BASE-PARALYZED-NO-BATTLE.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.battle_ids import renumbered_for_a_new_battle
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.handoff import Handed, Then
from cardrules.model.redemption.initiative import opener, play_prompt
from cardrules.model.redemption.ops import leave_territory
from cardrules.model.redemption.standing import may_enter_battle
from cardrules.model.redemption.state import Battle, BattleKind, Fighter, Origin, OriginKind, Phase, Prompt, PromptKind, State
from cardrules.specs.catalogue.registry import implements


def in_battle(state: State, card_id: str) -> bool:
    return state.fighter(card_id) is not None


def may_start_battle(state: State, config: RuleConfig) -> bool:
    """Whether the turn's player may start a main battle now, as far as the turn allows
    (RED-BASE-TURN-PHASES): in the battle phase, with no battle on the stack, and (decision
    ``red-base-battles-per-turn``) none started yet this turn under ``one``; under ``many`` any number,
    one after another. Not tagged with the clause: it runs in every position where the turn's player
    acts, and the clause watch would count the turn structure as exercised by every comparison there
    (:func:`start_battle` carries the tag)."""
    if state.phase is not Phase.BATTLE or state.battles or state.prompt is not None:
        return False
    return state.battles_started < 1 or config.option("red-base-battles-per-turn") == "many"


@implements("RED-BASE-RESCUE-OR-CHALLENGE", "RED-BASE-HERO-VS-EVIL")
def start_battle(state: State, opponent: int, heroes: tuple[str, ...], action: str, config: RuleConfig) -> State:
    """The turn's player sends Heroes from their territory against ``opponent``.

    A rescue attempt if the opponent has a Lost Soul in their Land of
    Bondage, else a battle challenge (RED-BASE-RESCUE-OR-CHALLENGE). One
    main battle per turn (decision ``red-base-battles-per-turn`` = one), or any number one after
    another (many: ``battles_started`` then only says whether one was started, and the battle ids
    are renumbered, :mod:`model.redemption.battle_ids`).
    """
    player = state.active
    many = config.option("red-base-battles-per-turn") == "many"
    if state.battles_started >= 1 and not many:
        raise IllegalAction(action, "only one battle may be started per turn", ("RED-BASE-TURN-PHASES",))
    if not 0 <= opponent < state.players or opponent == player:
        raise IllegalAction(action, f"player {opponent} is not an opponent", ("RED-BASE-RESCUE-OR-CHALLENGE",))
    for hero in heroes:
        if hero not in state.zones[player].territory or not state.card(hero).is_hero:
            raise IllegalAction(action, f"{hero} is not a Hero in your territory", ("RED-BASE-RESCUE-OR-CHALLENGE",))
        if not may_enter_battle(state, hero):
            raise IllegalAction(action, f"{hero} is paralyzed", ("RED-BASE-PARALYZED-NO-BATTLE",))
    kind = BattleKind.RESCUE if state.zones[opponent].bondage else BattleKind.CHALLENGE
    if many:
        state = renumbered_for_a_new_battle(state)
    fighters = []
    for hero in sorted(heroes):
        state, carried = leave_territory(state, player, hero)
        fighters.append(Fighter(hero, player, (Origin(OriginKind.TERRITORY, player),), carried))
    battle = Battle(
        id=state.next_battle, kind=kind, players=(player, opponent), sides=(tuple(fighters), ()), last_player=player
    )
    return replace(
        state,
        battles=(battle,),
        next_battle=state.next_battle + 1,
        battles_started=1 if many else state.battles_started + 1,
        prompt=Prompt(PromptKind.BLOCK, opponent),
    )


@implements("RED-BASE-BLOCKING", "RED-BASE-HERO-VS-EVIL")
def block(state: State, blockers: tuple[str, ...], action: str, config: RuleConfig) -> Handed:
    """The opponent blocks with Evil Characters from their territory (RED-BASE-BLOCKING).

    With no blockers (decision ``red-base-unblocked``) the battle is resolved at
    once (hero-wins-at-once; the Hero side wins unless its toughness is 0):
    ``Then.RESOLVE``; or play goes on against the empty Evil side
    (play-continues), the initiative holder deciding. After blocking, the player
    counting as having put in the last card is the blocker (decision
    ``red-base-first-initiative`` = battle-opener) or the turn's player (attacker):
    :func:`model.redemption.initiative.opener`.
    """
    battle = state.battles[0]
    player = battle.players[1]
    for evil in blockers:
        if evil not in state.zones[player].territory or not state.card(evil).is_evil_character:
            raise IllegalAction(action, f"{evil} is not an Evil Character in your territory", ("RED-BASE-BLOCKING", "RED-BASE-HERO-VS-EVIL"))
        if not may_enter_battle(state, evil):
            raise IllegalAction(action, f"{evil} is paralyzed", ("RED-BASE-PARALYZED-NO-BATTLE",))
    blocking = []
    for evil in sorted(blockers):
        state, carried = leave_territory(state, player, evil)
        blocking.append(Fighter(evil, player, (Origin(OriginKind.TERRITORY, player),), carried))
    battle = replace(battle, sides=(battle.sides[0], tuple(blocking)), last_player=opener(state, player, config))
    state = replace(state, battles=(battle,))
    if not blockers and config.option("red-base-unblocked") == "hero-wins-at-once":
        return state, Then.RESOLVE
    return play_prompt(state, config), Then.DONE
