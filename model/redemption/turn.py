"""The turn: phases, drawing, putting characters into play, winning.

Clause IDs: RED-BASE-TURN-PHASES, RED-BASE-WIN-FIVE-SOULS.
"""

from __future__ import annotations

from dataclasses import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.ops import add_to, edit_zones, remove_from
from cardrules.model.redemption.redirect import expire
from cardrules.model.redemption.state import CardType, Phase, State
from cardrules.specs.registry import implements

DRAW_COUNT = 3
SOULS_TO_WIN = 5
PHASE_ORDER: tuple[Phase, ...] = (Phase.DRAW, Phase.UPKEEP, Phase.PREPARATION, Phase.BATTLE, Phase.DISCARD)


@implements("RED-BASE-TURN-PHASES")
def draw_cards(state: State, player: int, count: int) -> State:
    """Draw from the top of the deck; a drawn Lost Soul goes straight to the
    drawer's Land of Bondage (RED-BASE-TURN-PHASES, model note)."""
    for _ in range(count):
        deck = state.zones[player].deck
        if not deck:
            break
        top = deck[0]
        state = edit_zones(state, player, deck=deck[1:])
        zone = "bondage" if state.card(top).type is CardType.LOST_SOUL else "hand"
        state = add_to(state, player, zone, top)
    return state


@implements("RED-BASE-TURN-PHASES")
def draw_phase(state: State) -> State:
    """The draw phase: the turn's player draws three cards, then upkeep begins."""
    return replace(draw_cards(state, state.active, DRAW_COUNT), phase=Phase.UPKEEP)


@implements("RED-BASE-TURN-PHASES")
def next_phase(state: State) -> State:
    """End the current phase; ongoing redirects end with it (RED-RD-UNTIL-END-OF-PHASE).
    After discard the next player's turn starts (per-turn counters and this turn's
    discard events and searches reset)."""
    index = PHASE_ORDER.index(state.phase)
    if state.phase is Phase.DRAW:
        raise IllegalAction("next", "the draw phase ends by drawing", ("RED-BASE-TURN-PHASES",))
    state = expire(state)
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


@implements("RED-BASE-WIN-FIVE-SOULS")
def check_winner(state: State) -> State:
    """A player with five Lost Souls in their Land of Redemption wins (RED-BASE-WIN-FIVE-SOULS)."""
    if state.winner is not None:
        return state
    for player, zones in enumerate(state.zones):
        if len(zones.redemption) >= SOULS_TO_WIN:
            return replace(state, winner=player)
    return state
