"""Model half of the party-damage-per-member proposal: the ``unblocked-damage`` extension point."""

from cardrules.model.extension import override


@override("fftcg", "unblocked-damage")
def one_per_member(state, attackers):
    """One point of damage for each attacker (a lone Forward still deals one)."""
    return len(attackers)
