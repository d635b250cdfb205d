"""Model half of the two-side-battles proposal: the ``side-battles-per-turn`` extension point."""

from cardrules.model.extension import override


@override("redemption", "side-battles-per-turn")
def two(config):
    """Two side battles per player per turn, whatever the rule configuration."""
    return 2
