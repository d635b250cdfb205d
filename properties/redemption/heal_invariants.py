"""Redemption heal and redirect properties, each stated once.

The heal checks look only at what a step did to the healed character; the
numbers checks read a card's current numbers through the model's
``numbers`` query (printed numbers plus active redirects), because "current
strength" is the model's to say: what is checked is that the redirects
conserve totals and expire, whatever the model computes.
"""

from __future__ import annotations

from cardrules.model.redemption.actions import Action, Heal, Play
from cardrules.model.redemption.numbers import gain_counts, numbers
from cardrules.model.redemption.state import HEAL_EFFECTS, Effect, PlayRecord, PromptKind, RecordStatus, State, Status
from cardrules.properties.core import Property, declared, state_property, transition_property
from cardrules.properties.redemption.game import RedemptionGame

GAME = "redemption"


def healed_target(before: State, action: Action) -> str | None:
    """The character a step heals: a ``heal`` action, or a healing enhancement played in battle."""
    if isinstance(action, Heal):
        return action.target
    if isinstance(action, Play) and action.targets and before.card(action.card).ability in HEAL_EFFECTS:
        return action.targets[0]
    return None


def _piles(state: State) -> set[str]:
    return {card for zones in state.zones for card in zones.discard}


def _about_to_be_discarded(state: State, card: str) -> bool:
    return state.prompt is not None and state.prompt.kind is PromptKind.HEAL_WINDOW and card in state.prompt.cards


@transition_property(
    "healed-character-clean",
    "A healed character has no poison, disease or paralysis afterwards, and one healed from a discard "
    "(in its heal window, or out of a discard pile) ends up in a territory.",
    "RED-HEAL-CLEARS-STATUS", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER", "RED-BASE-STATUSES",
    game=GAME,
)
def healed_clean(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    target = healed_target(before, action)
    if target is None:
        return True
    if any(after.has_status(target, status) for status in Status):
        return False
    from_discard = _about_to_be_discarded(before, target) or target in _piles(before)
    return not from_discard or after.in_territory(target) is not None


@transition_property(
    "no-heal-from-discard-pile",
    "Under the revised heal wording no character leaves a discard pile by a heal.",
    "RED-HEAL-NOT-IN-DISCARD-PILE", game=GAME, versions={"heal": frozenset({"revised"})},
)
def no_heal_from_pile(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    if healed_target(before, action) is None:
        return True
    return not (_piles(before) - _piles(after))


@state_property(
    "heal-window-before-discard",
    "While a heal window is open for characters about to be discarded, none of them is in a discard pile yet.",
    "RED-HEAL-WINDOW", "RED-BR-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", game=GAME,
)
def window_before_discard(game: RedemptionGame, state: State) -> bool:
    if state.prompt is None or state.prompt.kind is not PromptKind.HEAL_WINDOW:
        return True
    return not (set(state.prompt.cards) & _piles(state))


def _cards_in_battle(state: State) -> list[str]:
    return sorted({c for b in state.battles for _, f in b.fighters() for c in (f.card, *f.enhancements)})


@state_property(
    "numbers-redirect-conserved",
    "While both cards of every active numbers redirect are in battle and its gain counts (decision "
    "rd-numbers-which-battle), the total strength and the total toughness in battle equal the printed "
    "totals: what the target loses, the redirecting card gains.",
    "RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-LOCATION-UNCHANGED", game=GAME,
)
def numbers_conserved(game: RedemptionGame, state: State) -> bool:
    active = [r for r in state.records if r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE]
    if not active or not all(
        state.in_any_battle(r.card) and gain_counts(state, r.targets[0], r.card, game.config) for r in active
    ):
        return True
    cards = _cards_in_battle(state)
    now = [sum(numbers(state, c, game.config)[i] for c in cards) for i in (0, 1)]
    printed = [sum((state.card(c).strength, state.card(c).toughness)[i] for c in cards) for i in (0, 1)]
    return now == printed


@transition_property(
    "numbers-redirect-expires",
    "When a phase ends no numbers redirect is in effect any more and every card shows its printed numbers.",
    "RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING", game=GAME,
)
def numbers_expire(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    if (before.phase, before.turn) == (after.phase, after.turn):
        return True
    if any(r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE for r in after.records):
        return False
    return all(numbers(after, c.id) == (c.strength, c.toughness) for c in after.cards)


@transition_property(
    "numbers-redirect-lasts-its-phase",
    "An active numbers redirect stays in effect until its phase ends, the end of the battle it was used in "
    "included, unless it is negated or interrupted; or, under decision rd-numbers-loss-lasting = lost-for-good, "
    "until its target card leaves every battle; or, under heal-decrease-scope = abilities-and-numbers, until a "
    "heal of its target ends it; or, under the previous heal wording (prev-regain-harmful = beneficial-only), "
    "until its target is healed out of a discard pile.",
    "RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING", "RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-HEAL-RESTORES-DECREASE",
    game=GAME,
)
def numbers_last_the_phase(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    if (before.phase, before.turn) != (after.phase, after.turn):
        return True
    now = {r.id: r.status for r in after.records}
    lost_for_good = game.config.option("rd-numbers-loss-lasting") == "lost-for-good"
    healed_away = game.config.option("heal-decrease-scope") == "abilities-and-numbers"
    from_pile = game.config.heal_version == "previous" and game.config.option("prev-regain-harmful") == "beneficial-only"
    in_pile = {card for zones in before.zones for card in zones.discard}

    def lasts(record: PlayRecord) -> bool:
        status = now.get(record.id)
        if status in (RecordStatus.ACTIVE, RecordStatus.NEGATED, RecordStatus.PENDING):
            return True
        if lost_for_good and not after.in_any_battle(record.targets[0]):
            return True
        if from_pile and status is RecordStatus.ENDED and record.targets[0] in in_pile and not any(
                record.targets[0] in zones.discard for zones in after.zones):
            return True  # healed out of the pile (previous wording): the lowering is not regained
        return healed_away and status is RecordStatus.ENDED

    return all(lasts(r) for r in before.records if r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE)


def _moved(state: State, card: str, target: str, game: RedemptionGame) -> tuple[int, int]:
    """What a numbers redirect card moves from ``target``, restated from the decisions: the stated
    amount (each number at most the target's printed one, unless rd-stated-exceeds = stated-in-full),
    else the target's printed numbers (nothing under rd-amount = stated-only)."""
    stated, printed = state.card(card).stated_amount, (state.card(target).strength, state.card(target).toughness)
    if stated is not None:
        in_full = game.config.option("rd-stated-exceeds") == "stated-in-full"
        return stated if in_full else (min(stated[0], printed[0]), min(stated[1], printed[1]))
    return (0, 0) if game.config.option("rd-amount") == "stated-only" else printed


@transition_property(
    "numbers-redirect-moves-its-amount",
    "When a numbers redirect is used, its target loses exactly the amount the card moves (the amount it "
    "states, or the target's printed numbers) and, while the gain counts, the redirecting card gains the "
    "same: partial amounts are conserved too.",
    "RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-IN-BATTLE-ONLY", game=GAME,
)
def numbers_move_the_amount(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    if not isinstance(action, Play) or before.card(action.card).ability is not Effect.REDIRECT_NUMBERS:
        return True
    target, card = action.targets[0], action.card
    if target == card:
        return True
    moved = _moved(before, card, target, game)
    lost = tuple(a - b for a, b in zip(numbers(before, target, game.config), numbers(after, target, game.config)))
    gained = tuple(a - b for a, b in zip(numbers(after, card, game.config), numbers(before, card, game.config)))
    counts = gain_counts(after, target, card, game.config)
    return lost == moved and gained == (moved if counts else (0, 0))


@transition_property(
    "ability-redirect-only-interrupted",
    "An ability is redirected only while it is interrupted (pending).",
    "RED-RD-ONLY-INTERRUPTED", "RED-RD-NUMBERS-NO-INTERRUPT", game=GAME,
)
def redirect_only_interrupted(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    old = {r.id for r in before.records}
    for record in after.records:
        if record.id not in old and record.effect is Effect.REDIRECT_ABILITY and record.status is not RecordStatus.BLANKED:
            target = before.record(int(record.targets[0][1:]))
            if target.status is not RecordStatus.PENDING:
                return False
    return True


@transition_property(
    "interrupted-heal-undone",
    "Interrupting a heal ability in effect takes the heal back: its target, still in play, has again a status "
    "or a decrease of its ability that a heal removes (it was healable when healed).",
    "RED-BASE-INTERRUPT", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-RESTORES-DECREASE", game=GAME,
)
def interrupted_heal_undone(game: RedemptionGame, before: State, action: Action, after: State) -> bool:
    for record in before.records:
        if record.effect not in (Effect.HEAL, Effect.RESTORE) or record.status is not RecordStatus.ACTIVE:
            continue
        now = next((r for r in after.records if r.id == record.id), None)
        if now is None or now.status is not RecordStatus.PENDING:
            continue
        target = record.targets[0]
        if not any(after.has_status(target, s) for s in Status) and target not in after.decreased:
            return False
    return True


PROPERTIES: tuple[Property, ...] = declared(
    healed_clean,
    no_heal_from_pile,
    window_before_discard,
    numbers_conserved,
    numbers_expire,
    numbers_last_the_phase,
    numbers_move_the_amount,
    redirect_only_interrupted,
    interrupted_heal_undone,
)
"""This module's properties, in the order they are stated above."""
