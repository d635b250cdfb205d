"""Model half of the healed-keeps-enhancements proposal: the ``heal-window-attachments`` extension point."""

from cardrules.model.extension import override


@override("redemption", "heal-window-attachments")
def all_stay(state, fighter, config):
    """Every enhancement on the healed character stays on it."""
    return tuple(fighter.enhancements)
