"""Side battle cards used by a player outside the battle (decision ``sb-user-outside-battle``).

Under ``any-player`` a player who is not one of the two battling players may use a side battle card
from their hand while a battling player holds initiative to play (RED-SB-SIDES-BATTLE-PLAYERS): the
dispatcher lists those uses (:func:`outsider_uses`) and routes one here (:func:`use_from_outside`);
the ability then acts as a battling player's would (:func:`model.redemption.side_battle.begin`).
Under the default ``battling-players-only`` nobody outside the battle may.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import Use
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.initiative import play_prompt
from cardrules.model.redemption.ops import discard_card, remove_from
from cardrules.model.redemption.side_battle import begin, check_selection, restricted, side_battle_targets
from cardrules.model.redemption.state import Effect, PlayRecord, PromptKind, RecordStatus, State
from cardrules.specs.catalogue.registry import implements


@implements("RED-SB-SIDES-BATTLE-PLAYERS")
def outsiders_may_use(config: RuleConfig) -> bool:
    """Whether a player outside the battle may use a side battle ability in it (decision
    ``sb-user-outside-battle``: ``battling-players-only``, the default, says no; ``any-player`` yes)."""
    return config.option("sb-user-outside-battle") == "any-player"


def outsiders(state: State) -> tuple[int, ...]:
    """The players outside the battle being fought: neither of its two battling players (every
    battle on the stack has the same two, RED-SB-SIDES-BATTLE-PLAYERS)."""
    battle = state.active_battle
    if battle is None:
        return ()
    return tuple(p for p in range(state.players) if p not in battle.players)


def _side_battle_cards(state: State, player: int) -> tuple[str, ...]:
    return tuple(c for c in sorted(state.zones[player].hand) if state.card(c).ability is Effect.SIDE_BATTLE)


@implements("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def outsider_uses(state: State, config: RuleConfig) -> tuple[Use, ...]:
    """The side battle cards players outside the battle may use now: under decision
    ``sb-user-outside-battle = any-player``, while a battling player holds initiative to play
    (a PLAY prompt), each side battle card in an outsider's hand on every legal pair
    (:func:`side_battle_targets`, with the outsider as the user), or blank when there is none
    (their allowance used up, RED-SB-RESTRICT-AFTER, or nothing to select); none for an
    outsider whose allowance is used up under ``sb-restriction-scope = card-unplayable``."""
    if not outsiders_may_use(config) or state.prompt is None or state.prompt.kind is not PromptKind.PLAY:
        return ()
    out: list[Use] = []
    for player in outsiders(state):
        cards = _side_battle_cards(state, player)
        if not cards or (restricted(state, player, config) and config.option("sb-restriction-scope") == "card-unplayable"):
            continue
        pairs = side_battle_targets(state, player, config)
        for card_id in cards:
            out.extend([Use(card_id, pair) for pair in pairs] if pairs else [Use(card_id)])
    return tuple(out)


def _holder(state: State, card_id: str) -> int | None:
    return next((p for p, zones in enumerate(state.zones) if card_id in zones.hand), None)


@implements("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-INSTANTANEOUS")
def use_from_outside(state: State, use: Use, config: RuleConfig) -> State:
    """A player outside the battle uses a side battle card from their hand (decision
    ``sb-user-outside-battle = any-player``): the card, on no character in the battle, goes to
    its owner's discard pile and leaves a play record (its ``on`` is the card itself); then the
    ability acts as a battling player's would (:func:`use_side_battle`): counted against the
    outsider's allowance, sides by the control cases with the outsider as the user who chooses
    in cases 1 and 3. Raises IllegalAction naming the clause otherwise."""
    action = use.text()
    if not outsiders_may_use(config):
        raise IllegalAction(
            action, "only the two battling players use abilities in a battle (decision sb-user-outside-battle)",
            ("RED-SB-SIDES-BATTLE-PLAYERS",),
        )
    holder = _holder(state, use.card)
    if holder is None or state.card(use.card).ability is not Effect.SIDE_BATTLE:
        raise IllegalAction(action, f"{use.card} is not a side battle card in a player's hand", ("RED-SB-SIDES-BATTLE-PLAYERS",))
    battle = state.active_battle
    if battle is None or state.prompt is None or state.prompt.kind is not PromptKind.PLAY:
        raise IllegalAction(
            action, "a player outside the battle may use it only while a battling player holds initiative to play",
            ("RED-SB-SIDES-BATTLE-PLAYERS", "RED-BASE-INITIATIVE"),
        )
    if holder in battle.players:
        raise IllegalAction(
            action, f"player {holder} fights this battle: they play the card on a character of theirs ('play')",
            ("RED-SB-SIDES-BATTLE-PLAYERS", "RED-BASE-ENHANCEMENTS"),
        )
    targets = tuple(sorted(use.targets))
    blank = check_selection(state, holder, targets, action, config)
    if not blank and not targets and side_battle_targets(state, holder, config):
        raise IllegalAction(action, "a side battle ability selects two characters", ("RED-SB-TARGETS-TWO",))
    state = discard_card(remove_from(state, holder, "hand", use.card), use.card)
    record = PlayRecord(
        id=state.next_record, card=use.card, player=holder, on=use.card, effect=Effect.SIDE_BATTLE, targets=targets,
        battle_path=tuple(b.id for b in state.battles),
        status=RecordStatus.ACTIVE if targets else RecordStatus.BLANKED,
    )
    state = replace(state, records=(*state.records, record), next_record=record.id + 1)
    if not targets:
        return play_prompt(state, config)
    return begin(state, record, config)
