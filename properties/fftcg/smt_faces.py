"""The z3 faces of the FFTCG properties (:attr:`properties.core.Property.smt`).

The z3 formulas live in ``specs/smt/fftcg/properties.py`` (written from the clauses, never
from the model); this module says which property each one states. Two are second faces of
properties the Python engines check too (:data:`SECOND_FACES`); the others can only be stated
usefully over symbolic cards, so they have no Python check (:data:`SMT_ONLY`).
"""

from __future__ import annotations

from cardrules.properties.core import Property, smt_property, with_smt_face

GAME = "fftcg"

SECOND_FACES: tuple[str, ...] = ("party-min-two", "party-members-on-field")
"""Properties with a Python check whose z3 form has the same name."""

SMT_ONLY: tuple[Property, ...] = (
    smt_property("damage-at-most-seven", "No player ever has more than 7 damage.",
                 "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-UNBLOCKED-ONE", game=GAME),
    smt_property("damage-in-thousands", "When every power is a multiple of 1000, so is the damage on every Forward.",
                 "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", game=GAME),
    smt_property("player1-undamaged", "Made up (should not hold): player 1 never takes damage.",
                 "FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE", game=GAME, must_hold=False),
)
"""Properties stated only as z3 formulas."""


def with_faces(properties: tuple[Property, ...]) -> tuple[Property, ...]:
    """The FFTCG properties: ``properties`` (the Python ones) with their z3 faces, then :data:`SMT_ONLY`."""
    faced = tuple(with_smt_face(p) if p.name in SECOND_FACES else p for p in properties)
    missing = set(SECOND_FACES) - {p.name for p in properties}
    if missing:
        raise ValueError(f"z3 faces for properties that are not declared: {sorted(missing)}")
    return faced + SMT_ONLY
