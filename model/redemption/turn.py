"""The turn: phases, the draw phase, putting characters into play.

Drawing cards is a shared state edit (:func:`model.redemption.ops.draw_cards`);
winning is checked where souls are rescued (:mod:`model.redemption.resolution`).
Ongoing redirects end with every phase: the dispatcher routes the end of a
phase to :func:`model.redemption.redirect.expire`.

Clause IDs: RED-BASE-TURN-PHASES.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.ops import add_to, draw_cards, remove_from
from cardrules.model.redemption.state import CardType, Phase, State
from cardrules.specs.catalogue.registry import implements

DRAW_COUNT = 3
PHASE_ORDER: tuple[Phase, ...] = (Phase.DRAW, Phase.UPKEEP, Phase.PREPARATION, Phase.BATTLE, Phase.DISCARD)


@implements("RED-BASE-TURN-PHASES")
def draw_phase(state: State) -> State:
    """The draw phase: the turn's player draws three cards, then upkeep begins."""
    return replace(draw_cards(state, state.active, DRAW_COUNT), phase=Phase.UPKEEP)


@implements("RED-BASE-TURN-PHASES")
def next_phase(state: State) -> State:
    """End the current phase (the dispatcher first ends the phase's ongoing redirects,
    RED-RD-UNTIL-END-OF-PHASE). After discard the next player's turn starts
    (per-turn counters and this turn's discard events and searches reset)."""
    index = PHASE_ORDER.index(state.phase)
    if state.phase is Phase.DRAW:
        raise IllegalAction("next", "the draw phase ends by drawing", ("RED-BASE-TURN-PHASES",))
    if index + 1 < len(PHASE_ORDER):
        return replace(state, phase=PHASE_ORDER[index + 1])
    return replace(
        state,
        active=(state.active + 1) % state.players,
        turn=state.turn + 1,
        phase=Phase.DRAW,
        battles_started=0,
        side_battles=(0,) * state.players,
        discards=(),
        searches=(),
    )


@implements("RED-BASE-TURN-PHASES", "RED-BASE-CHARACTERS")
def put_character(state: State, card_id: str, action: str) -> State:
    """Preparation: a character from hand into its player's territory (permanent control)."""
    player = state.active
    if card_id not in state.zones[player].hand or state.card(card_id).type is not CardType.CHARACTER:
        raise IllegalAction(action, f"{card_id} is not a character in your hand", ("RED-BASE-TURN-PHASES",))
    state = remove_from(state, player, "hand", card_id)
    return add_to(state, player, "territory", card_id)
