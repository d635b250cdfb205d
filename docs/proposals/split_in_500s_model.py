"""Model half of the split-in-500s proposal: the ``blocker-split-unit`` extension point."""

from cardrules.model.extension import override


@override("fftcg", "blocker-split-unit")
def five_hundreds(state, attack):
    """Every share of the blocker's damage is a multiple of 500, whatever the blocker and the party."""
    return 500
