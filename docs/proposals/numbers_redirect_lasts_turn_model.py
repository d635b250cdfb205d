"""Model half of the numbers-redirect-lasts-turn proposal: the ``numbers-redirect-expiry`` extension point."""

from cardrules.model.extension import override


@override("redemption", "numbers-redirect-expiry")
def to_end_of_turn(state, record, config):
    """Every numbers redirect goes on to the end of the turn."""
    return "end-of-turn"
