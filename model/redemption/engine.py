"""The Redemption battle model's interface: ``legal_actions`` and ``step``.

``step`` is pure: it returns a new :class:`State` and never changes its
argument. An action the rules forbid raises
:class:`~model.errors.IllegalAction` naming the clause(s) that forbid it.
``legal_actions`` lists exactly the actions ``step`` accepts, sorted by
their canonical text.

This is the dispatcher, the top layer of the model: it routes each action,
and each played ability, to the rule area that owns it (battle, side battle,
heal, redirect, resolution, turn, abilities). The areas never import each
other; where one area's rule goes on in another, the area hands back a
:class:`~model.redemption.handoff.Then` marker that :func:`follow` carries
out, and where an area needs the dispatcher's answer for any card (target
options, carrying out an effect) the dispatcher passes its own function in.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace
from itertools import combinations

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption import abilities, heal, healable, redirect, resolution, side_battle
from cardrules.model.redemption import placement, side_battle_outside
from cardrules.model.redemption.abilities import DISCARDS, hosts
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
    Use,
    parse,
    sort_key,
)
from cardrules.model.redemption.battle import block, may_start_battle, start_battle
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.handoff import Then
from cardrules.model.redemption.initiative import after_action, pass_hands_over, play_prompt, play_prompt_unless_waiting
from cardrules.model.redemption.ops import set_record
from cardrules.model.redemption.standing import may_enter_battle
from cardrules.model.redemption.state import HEAL_EFFECTS, CardType, Effect, Phase, PlayRecord, PromptKind, RecordStatus, State
from cardrules.model.redemption.turn import draw_phase, next_phase, put_character
from cardrules.specs.catalogue.registry import implements

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
        is_restricted_sb = card.ability is Effect.SIDE_BATTLE and side_battle.restricted(state, player, config)
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


# --- routing abilities to their areas ------------------------------------------------


def target_options(state: State, player: int, card_id: str, config: RuleConfig) -> tuple[tuple[str, ...], ...]:
    """Every legal target tuple for the ability of ``card_id`` used by ``player``;
    empty when it has no ability or nothing to target (then it is played blank)."""
    effect = state.card(card_id).ability
    if effect is None or effect is Effect.DRAW_ON_SUCCESS:
        return ()
    if effect is Effect.SIDE_BATTLE:
        return side_battle.side_battle_targets(state, player, config)
    if effect in HEAL_EFFECTS:
        return heal.enhancement_targets_in_battle(state, config)
    if effect in redirect.REDIRECTS:
        return redirect.redirect_options(state, player, effect, config, target_options)
    return abilities.core_targets(state, player, effect, config)


@implements("RED-BASE-ENHANCEMENTS", "RED-BASE-INITIATIVE", "RED-SB-RESTRICT-AFTER", "RED-SB-ONCE-PER-TURN")
def check_play(state: State, play: Play, config: RuleConfig) -> None:
    """Raise IllegalAction unless ``play`` is allowed now: the card and its host,
    a side battle's allowance and pair, then its targets, each asked of its area.
    The targets must be one of the listed options as given: a side battle's
    unordered pair arrives sorted (:func:`step`), and the targets of any other
    ability are ordered (a redirect's ``#n`` comes first, RED-RD-ABILITY-TARGET)."""
    abilities.check_card(state, play)
    assert state.prompt is not None
    player = state.prompt.player
    effect = state.card(play.card).ability
    if effect is Effect.SIDE_BATTLE and side_battle.check_play(state, player, play, config):
        return
    options = target_options(state, player, play.card, config)
    if not options and not play.targets:
        return
    if play.targets not in options:
        if effect in redirect.REDIRECTS:
            raise redirect.explain(state, player, play, config)
        if effect in HEAL_EFFECTS:
            raise healable.explain_play(play)
        raise abilities.explain_targets(play, effect)


@implements("RED-BASE-ENHANCEMENTS", "RED-SB-ONCE-PER-TURN")
def play_card(state: State, play: Play, config: RuleConfig) -> State:
    """Play an enhancement on a character and use its ability (if any)."""
    check_play(state, play, config)
    prompt = state.prompt
    assert prompt is not None
    state, record = abilities.place_card(state, play)
    if prompt.kind is PromptKind.SPECIAL_INITIATIVE:
        state = use_ability(state, record, config)
        return abilities.settle_announced(state, prompt.record, config, apply_effect)
    if record.status is RecordStatus.BLANKED or record.effect is Effect.DRAW_ON_SUCCESS:
        return play_prompt(state, config)
    return use_ability(state, record, config)


def use_ability(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """Carry out a freshly played ability (instantaneous effects happen now) in its area."""
    effect = record.effect
    if effect is Effect.SIDE_BATTLE:
        return side_battle.begin(state, record, config)
    if effect in HEAL_EFFECTS:
        return play_prompt(use_heal(state, record, config), config)
    if effect is Effect.REDIRECT_NUMBERS:
        return play_prompt(redirect.start_numbers(state, record, record.targets[0], config), config)
    if effect is Effect.REDIRECT_BOTH:
        state, ability = redirect.split_both(state, record, config)
        if ability is None:
            return play_prompt(state, config)
        record = ability
        effect = Effect.REDIRECT_ABILITY
    if effect is Effect.REDIRECT_ABILITY:
        state, taken = redirect.take_over(state, record, config)
        if taken.status is RecordStatus.PENDING:  # decision rd-redirected-ability-timing = on-reactivation
            return play_prompt(state, config)
        return use_ability(state, taken, config)
    if effect is Effect.INTERRUPT:
        return play_prompt_unless_waiting(interrupt(state, int(record.targets[0][1:]), config), config)
    if effect is Effect.NEGATE:
        negated = int(record.targets[0][1:])
        state = side_battle.restore_allowance(abilities.negate(state, negated, config), negated, config)
        return play_prompt_unless_waiting(state, config)
    announced = abilities.announce(state, record)
    if announced is not None:
        return announced
    return play_prompt_unless_waiting(apply_effect(state, record, config), config)


@implements("RED-BASE-INTERRUPT", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-RESTORES-DECREASE")
def use_heal(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """A heal ability played in battle heals its target (:func:`heal.heal_target`), carried out by
    the player who carries the ability out (a redirect's, RED-RD-CARRIER-CHANGES); its record keeps
    what the heal removed, which an interrupt of the heal puts back (RED-BASE-INTERRUPT)."""
    target = record.targets[0]
    after = follow(*heal.heal_target(state, target, record.carried_by, config), config)
    undo = abilities.heal_undo(state, after, target)
    return set_record(after, replace(after.record(record.id), status=RecordStatus.ACTIVE, undo=undo))


@implements("RED-BASE-INTERRUPT")
def interrupt(state: State, record_id: int, config: RuleConfig) -> State:
    """Interrupt the ability of play record ``record_id`` (:func:`abilities.interrupt`). Two broken
    variants (rules broken on purpose, for ``cardrules verify`` to catch): under
    ``interrupted-side-battle-starts`` an interrupted side battle ability starts its side battle all
    the same; under ``interrupted-heal-stays`` an interrupted heal is not taken back."""
    effect = state.record(record_id).effect
    keep = effect in HEAL_EFFECTS and config.is_broken("interrupted-heal-stays")
    state = abilities.interrupt(state, record_id, undo=not keep)
    if effect is Effect.SIDE_BATTLE and config.is_broken("interrupted-side-battle-starts"):
        state = side_battle.use_side_battle(state, state.record(record_id), config)
        if state.prompt is not None and state.prompt.kind is PromptKind.CHOOSE_SIDES:
            x, y = state.prompt.cards
            state = side_battle.open_side_battle(replace(state, prompt=None), record_id, (x, y), config)
    return state


@implements("RED-HEAL-WINDOW", "RED-BASE-INTERRUPT")
def apply_effect(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """Carry out an ability that waited (announced, or pending after an interrupt): a side battle
    (:func:`side_battle.carry_out`), a heal whose target is still healable (else it fizzles), or a
    discard, status or decrease effect (:func:`abilities.apply_effect`); a discard of a character
    still in battle first opens its controller's heal window when a heal is possible (RED-HEAL-WINDOW)."""
    if record.effect is Effect.SIDE_BATTLE:
        return side_battle.carry_out(state, record, config)
    if record.effect in HEAL_EFFECTS:
        if (record.targets[0],) in heal.enhancement_targets_in_battle(state, config):
            return use_heal(state, record, config)
        return set_record(state, replace(record, status=RecordStatus.FIZZLED))
    if record.effect in DISCARDS and state.fighter(record.targets[0]) is not None:
        window = heal.open_window(state, record, config)
        if window is not None:
            return window
    return abilities.apply_effect(state, record, config)


def follow(state: State, then: Then, config: RuleConfig) -> State:
    """Carry out what an area handed back (:class:`~model.redemption.handoff.Then`)."""
    if then is Then.RESOLVE:
        return resolution.begin_resolution(state, config)
    if then is Then.NEXT_HEAL_WINDOW:
        return resolution.next_heal_window(state, config)
    return state


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
        if may_start_battle(state, config):
            heroes = [c for c in state.zones[player].territory if state.card(c).is_hero and may_enter_battle(state, c)]
            for opponent in range(state.players):
                if opponent != player:
                    actions.extend(Attack(opponent, g) for g in _groups(heroes))
        if placement.plays_outside_battle(config):
            actions.extend(placement.placements(state, config))
    elif prompt.kind is PromptKind.BLOCK:
        evil = [
            c for c in state.zones[prompt.player].territory if state.card(c).is_evil_character and may_enter_battle(state, c)
        ]
        actions.append(Block(()))
        actions.extend(Block(g) for g in _groups(evil))
    elif prompt.kind is PromptKind.PLAY:
        actions.append(Pass())
        actions.extend(_plays(state, config))
        actions.extend(side_battle_outside.outsider_uses(state, config))
    elif prompt.kind is PromptKind.SPECIAL_INITIATIVE:
        actions.append(Decline())
        actions.extend(_plays(state, config))
    elif prompt.kind is PromptKind.CHOOSE_SIDES:
        x, y = prompt.cards
        actions.extend([Sides(x, y), Sides(y, x)])
    elif prompt.kind is PromptKind.HEAL_WINDOW:
        actions.append(CompleteDiscard())
    actions.extend(heal.heal_actions(state, config))
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
    """Apply one action; raises IllegalAction (with clause IDs) if the rules forbid it. Numbers
    redirects whose target the action took out of battle then end under decision
    ``rd-numbers-loss-lasting`` = lost-for-good (:func:`redirect.lose_left_targets`); an answer to a
    pass clears the pass (decision ``red-base-pass-ends``, :func:`initiative.after_action`)."""
    after = after_action(state, _dispatch(state, action, config))
    return redirect.lose_left_targets(after, config)


def _dispatch(state: State, action: Action, config: RuleConfig) -> State:
    if state.winner is not None:
        raise IllegalAction(action.text(), f"the game is over (player {state.winner} won)", ("RED-BASE-WIN-FIVE-SOULS",))
    prompt = state.prompt
    text = action.text()
    if isinstance(action, Heal):
        return follow(*heal.do_heal(state, action, config), config)
    if isinstance(action, Use):
        return side_battle_outside.use_from_outside(state, action, config)
    if prompt is None:
        if isinstance(action, Draw) and state.phase is Phase.DRAW:
            return draw_phase(state)
        if isinstance(action, Next) and state.phase is not Phase.DRAW:
            return next_phase(redirect.expire(state, config))
        if isinstance(action, Put) and state.phase is Phase.PREPARATION:
            return put_character(state, action.card, text)
        if isinstance(action, Play) and placement.plays_outside_battle(config):
            return placement.place(state, action, config)
        if isinstance(action, Attack) and state.phase is Phase.BATTLE:
            if not action.heroes or len(action.heroes) > MAX_GROUP:
                raise IllegalAction(text, f"send 1 to {MAX_GROUP} Heroes", ("RED-BASE-RESCUE-OR-CHALLENGE",))
            return start_battle(state, action.opponent, action.heroes, text, config)
        raise _wrong_moment(action, state)
    if prompt.kind is PromptKind.BLOCK and isinstance(action, Block):
        if len(action.blockers) > MAX_GROUP:
            raise IllegalAction(text, f"block with at most {MAX_GROUP} characters", ("RED-BASE-BLOCKING",))
        return follow(*block(state, action.blockers, text, config), config)
    if prompt.kind is PromptKind.PLAY and isinstance(action, Pass):
        handed = pass_hands_over(state, config)
        if handed is not None:
            return handed
        state, had_pending = abilities.reactivate_pending(state, config, apply_effect)
        return play_prompt_unless_waiting(state, config) if had_pending else resolution.begin_resolution(state, config)
    if prompt.kind in (PromptKind.PLAY, PromptKind.SPECIAL_INITIATIVE) and isinstance(action, Play):
        if state.has_card(action.card) and state.card(action.card).ability is Effect.SIDE_BATTLE:
            action = Play(action.card, action.on, tuple(sorted(action.targets)))  # canonical: unordered pair
        return play_card(state, action, config)
    if prompt.kind is PromptKind.SPECIAL_INITIATIVE and isinstance(action, Decline):
        return abilities.settle_announced(state, prompt.record, config, apply_effect)
    if prompt.kind is PromptKind.CHOOSE_SIDES and isinstance(action, Sides):
        if {action.first, action.second} != set(prompt.cards) or action.first == action.second:
            raise IllegalAction(
                text,
                f"the sides must be the two selected characters {' and '.join(prompt.cards)}",
                ("RED-SB-TARGETS-TWO",),
            )
        return side_battle.open_side_battle(replace(state, prompt=None), prompt.record, (action.first, action.second), config)
    if prompt.kind is PromptKind.HEAL_WINDOW and isinstance(action, CompleteDiscard):
        if prompt.record >= 0:
            return abilities.complete_ability_discard(state, config)
        return resolution.complete_discard(state, config)
    raise _wrong_moment(action, state)


def run(state: State, texts: list[str] | tuple[str, ...], config: RuleConfig = DEFAULT) -> State:
    """Apply actions given as text, in order (a convenience for scenarios)."""
    for text in texts:
        state = step(state, parse(text), config)
    return state
