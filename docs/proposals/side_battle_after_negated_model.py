"""Model half of the side-battle-after-negated proposal: the ``side-battle-allowed`` extension point.

The state's side battle count (``state.side_battles``) holds every side battle a player started this
turn; the play records of the turn's battle show which of their cards were negated afterwards (status
negated, and ``undo.opened``, the battle the card opened, set: it had started). Those are given back.
"""

from cardrules.model.extension import override
from cardrules.model.redemption.state import Effect, RecordStatus


@override("redemption", "side-battle-allowed")
def negated_ones_given_back(state, player, config):
    """One side battle per turn, not counting those this player started and whose card was then negated."""
    negated = sum(1 for record in state.records
                  if record.player == player and record.effect is Effect.SIDE_BATTLE
                  and record.status is RecordStatus.NEGATED and record.undo.opened >= 0)
    return state.side_battles[player] - negated < 1
