"""A card's numbers (strength and toughness) in battle, with redirected numbers.

Clause IDs: RED-RD-NUMBERS-TRANSFER, RED-RD-NUMBERS-ONGOING,
RED-RD-NUMBERS-IN-BATTLE-ONLY, RED-RD-LOCATION-UNCHANGED.
"""

from __future__ import annotations

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.state import Effect, RecordStatus, State
from cardrules.specs.catalogue.registry import implements


@implements("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def gain_counts(state: State, target: str, redirecting_card: str, config: RuleConfig) -> bool:
    """Whether the redirecting card's gain counts now (RED-RD-NUMBERS-IN-BATTLE-ONLY, decision
    ``rd-numbers-which-battle``): while the target is in any battle on the stack
    (target-in-any-battle), or only while it is in the same battle as the redirecting card
    (same-battle-only: not while one of them fights a side battle and the other sits in the
    battle suspended below it)."""
    if config.option("rd-numbers-which-battle") == "same-battle-only":
        level = state.battle_level(target)
        return level is not None and level == state.battle_level(redirecting_card)
    return state.in_any_battle(target)


@implements(
    "RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING", "RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-LOCATION-UNCHANGED"
)
def numbers(state: State, card_id: str, config: RuleConfig = DEFAULT) -> tuple[int, int]:
    """Strength and toughness of one card, printed plus redirects.

    Every active numbers redirect (an ongoing effect, RED-RD-NUMBERS-ONGOING)
    lowers its target by the amount moved and raises the redirecting card by
    the same amount (RED-RD-NUMBERS-TRANSFER); the raise counts only while the
    target is still in a battle (RED-RD-NUMBERS-IN-BATTLE-ONLY, :func:`gain_counts`). The
    redirecting card itself never moves: it adds its numbers to the character
    it was played on, whichever side that is (RED-RD-LOCATION-UNCHANGED). A reduction kept after its
    redirect ended (decision ``rd-lapse-reduction`` = reduction-stays, ``State.reduced``) still counts.
    """
    card = state.card(card_id)
    strength, toughness = card.strength, card.toughness
    for record in state.records:
        if record.effect is not Effect.REDIRECT_NUMBERS or record.status is not RecordStatus.ACTIVE:
            continue
        target = record.targets[0]
        moved_s, moved_t = record.amount
        if target == card_id:
            strength, toughness = strength - moved_s, toughness - moved_t
        if record.card == card_id and gain_counts(state, target, record.card, config):
            strength, toughness = strength + moved_s, toughness + moved_t
    for target, moved_s, moved_t in state.reduced:  # kept after the redirect ended (decision rd-lapse-reduction)
        if target == card_id:
            strength, toughness = strength - moved_s, toughness - moved_t
    return strength, toughness
