"""Model half of the heal-to-owner proposal: the ``healed-destination`` extension point."""

from cardrules.model.extension import override


@override("redemption", "healed-destination")
def owner(state, fighter, config):
    """The healed character's owner, whoever had permanent control."""
    return state.card(fighter.card).owner
