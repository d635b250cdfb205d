"""The Redemption battle model's interface: ``legal_actions`` and ``step``.

``step`` is pure: it returns a new :class:`State` and never changes its
argument. An action the rules forbid raises
:class:`~model.errors.IllegalAction` naming the clause(s) that forbid it.
``legal_actions`` lists exactly the actions ``step`` accepts, sorted by
their canonical text.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.abilities import hosts, open_side_battle, play_card, reactivate_pending, settle_announced, target_options
from cardrules.model.redemption.actions import (
    Action,
    Attack,
    Block,
    CompleteDiscard,
    Decline,
    Draw,
    Heal,
    Next,
    Pass,
    Play,
    Put,
    Sides,
    sort_key,
)
from cardrules.model.redemption.battle import block, may_enter_battle, play_prompt_unless_waiting, start_battle
from cardrules.model.redemption.heal import complete_ability_discard, do_heal, heal_actions
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.resolution import begin_resolution, complete_discard
from cardrules.model.redemption.side_battle import restricted
from cardrules.model.redemption.state import CardType, Effect, Phase, PromptKind, State
from cardrules.model.redemption.turn import draw_phase, next_phase, put_character

MAX_GROUP = 3
"""Largest group of Heroes (or blockers) one action sends into battle; keeps branching small."""


def _groups(cards: list[str]) -> list[tuple[str, ...]]:
    cards = sorted(cards)
    return [g for n in range(1, min(MAX_GROUP, len(cards)) + 1) for g in combinations(cards, n)]


def _plays(state: State, config: RuleConfig) -> list[Action]:
    assert state.prompt is not None
    player = state.prompt.player
    special = state.prompt.kind is PromptKind.SPECIAL_INITIATIVE
    out: list[Action] = []
    for card_id in sorted(state.zones[player].hand):
        card = state.card(card_id)
        if card.type is not CardType.ENHANCEMENT:
            continue
        if special and card.ability not in (Effect.INTERRUPT, Effect.NEGATE):
            continue
        is_restricted_sb = card.ability is Effect.SIDE_BATTLE and restricted(state, player, config)
        if is_restricted_sb and config.option("sb-restriction-scope") == "card-unplayable":
            continue
        options = target_options(state, player, card_id, config)
        if special:
            options = tuple(o for o in options if o == (f"#{state.prompt.record}",))
            if not options:
                continue
        for on in hosts(state, player, card_id):
            if options:
                out.extend(Play(card_id, on, targets) for targets in options)
            else:
                out.append(Play(card_id, on))
    return out


def legal_actions(state: State, config: RuleConfig = DEFAULT) -> tuple[Action, ...]:
    """Every action ``step`` accepts in ``state``, sorted by canonical text."""
    if state.winner is not None:
        return ()
    prompt = state.prompt
    actions: list[Action] = []
    if prompt is None:
        player = state.active
        if state.phase is Phase.DRAW:
            actions.append(Draw())
        else:
            actions.append(Next())
        if state.phase is Phase.PREPARATION:
            hand = state.zones[player].hand
            actions.extend(Put(c) for c in sorted(hand) if state.card(c).type is CardType.CHARACTER)
        if state.phase is Phase.BATTLE and state.battles_started < 1:
            heroes = [c for c in state.zones[player].territory if state.card(c).is_hero and may_enter_battle(state, c)]
            for opponent in range(state.players):
                if opponent != player:
                    actions.extend(Attack(opponent, g) for g in _groups(heroes))
    elif prompt.kind is PromptKind.BLOCK:
        evil = [
            c for c in state.zones[prompt.player].territory if state.card(c).is_evil_character and may_enter_battle(state, c)
        ]
        actions.append(Block(()))
        actions.extend(Block(g) for g in _groups(evil))
    elif prompt.kind is PromptKind.PLAY:
        actions.append(Pass())
        actions.extend(_plays(state, config))
    elif prompt.kind is PromptKind.SPECIAL_INITIATIVE:
        actions.append(Decline())
        actions.extend(_plays(state, config))
    elif prompt.kind is PromptKind.CHOOSE_SIDES:
        x, y = prompt.cards
        actions.extend([Sides(x, y), Sides(y, x)])
    elif prompt.kind is PromptKind.HEAL_WINDOW:
        actions.append(CompleteDiscard())
    actions.extend(heal_actions(state, config))
    return tuple(sorted(set(actions), key=sort_key))


def _wrong_moment(action: Action, state: State) -> IllegalAction:
    if state.prompt is None:
        where = f"the {state.phase.value} phase of player {state.active}'s turn"
        return IllegalAction(action.text(), f"not allowed in {where}", ("RED-BASE-TURN-PHASES",))
    clauses = {
        PromptKind.BLOCK: ("RED-BASE-BLOCKING",),
        PromptKind.PLAY: ("RED-BASE-INITIATIVE",),
        PromptKind.SPECIAL_INITIATIVE: ("RED-BASE-SPECIAL-INITIATIVE",),
        PromptKind.CHOOSE_SIDES: ("RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-SAME-UNMIXED"),
        PromptKind.HEAL_WINDOW: ("RED-BR-HEAL-WINDOW", "RED-HEAL-WINDOW"),
    }[state.prompt.kind]
    return IllegalAction(
        action.text(), f"player {state.prompt.player} must answer a {state.prompt.kind.value} decision first", clauses
    )


def step(state: State, action: Action, config: RuleConfig = DEFAULT) -> State:
    """Apply one action; raises IllegalAction (with clause IDs) if the rules forbid it."""
    if state.winner is not None:
        raise IllegalAction(action.text(), f"the game is over (player {state.winner} won)", ("RED-BASE-WIN-FIVE-SOULS",))
    prompt = state.prompt
    text = action.text()
    if isinstance(action, Heal):
        return do_heal(state, action, config)
    if prompt is None:
        if isinstance(action, Draw) and state.phase is Phase.DRAW:
            return draw_phase(state)
        if isinstance(action, Next) and state.phase is not Phase.DRAW:
            return next_phase(state)
        if isinstance(action, Put) and state.phase is Phase.PREPARATION:
            return put_character(state, action.card, text)
        if isinstance(action, Attack) and state.phase is Phase.BATTLE:
            if not action.heroes or len(action.heroes) > MAX_GROUP:
                raise IllegalAction(text, f"send 1 to {MAX_GROUP} Heroes", ("RED-BASE-RESCUE-OR-CHALLENGE",))
            return start_battle(state, action.opponent, action.heroes, text, config)
        raise _wrong_moment(action, state)
    if prompt.kind is PromptKind.BLOCK and isinstance(action, Block):
        if len(action.blockers) > MAX_GROUP:
            raise IllegalAction(text, f"block with at most {MAX_GROUP} characters", ("RED-BASE-BLOCKING",))
        return block(state, action.blockers, text, config)
    if prompt.kind is PromptKind.PLAY and isinstance(action, Pass):
        state, had_pending = reactivate_pending(state, config)
        return play_prompt_unless_waiting(state) if had_pending else begin_resolution(state, config)
    if prompt.kind in (PromptKind.PLAY, PromptKind.SPECIAL_INITIATIVE) and isinstance(action, Play):
        if state.has_card(action.card) and state.card(action.card).ability is Effect.SIDE_BATTLE:
            action = Play(action.card, action.on, tuple(sorted(action.targets)))  # canonical: unordered pair
        return play_card(state, action, config)
    if prompt.kind is PromptKind.SPECIAL_INITIATIVE and isinstance(action, Decline):
        return settle_announced(state, prompt.record, config)
    if prompt.kind is PromptKind.CHOOSE_SIDES and isinstance(action, Sides):
        if {action.first, action.second} != set(prompt.cards) or action.first == action.second:
            raise IllegalAction(
                text,
                f"the sides must be the two selected characters {' and '.join(prompt.cards)}",
                ("RED-SB-TARGETS-TWO",),
            )
        return open_side_battle(replace(state, prompt=None), prompt.record, (action.first, action.second))
    if prompt.kind is PromptKind.HEAL_WINDOW and isinstance(action, CompleteDiscard):
        if prompt.record >= 0:
            return complete_ability_discard(state, config)
        return complete_discard(state, config)
    raise _wrong_moment(action, state)


def run(state: State, texts: list[str] | tuple[str, ...], config: RuleConfig = DEFAULT) -> State:
    """Apply actions given as text, in order (a convenience for scenarios)."""
    from cardrules.model.redemption.actions import parse

    for text in texts:
        state = step(state, parse(text), config)
    return state
