"""A deliberately buggy adapter: the reference model, but an unblocked FFTCG party deals one damage
per member instead of exactly one (breaks FF-PARTY-UNBLOCKED-ONE). The runner must blame that clause."""

from __future__ import annotations

import sys

import cardrules.model.fftcg.damage as damage
from cardrules.model.fftcg.state import State
from cardrules.oracle.conformance.adapter import serve


def per_member(state: State, attackers: tuple[str, ...]) -> int:
    """The bug: one point for each attacker."""
    return len(attackers)


damage.one_damage = per_member  # type: ignore[assignment]

if __name__ == "__main__":
    sys.exit(serve())
