"""The z3 faces of the FFTCG properties (:attr:`properties.core.Property.smt`).

The z3 formulas live in ``specs/smt/fftcg/properties.py`` (written from the clauses, never
from the model); this module says which registered property each one states. Two are second
faces of properties the Python engines check too; the others can only be stated usefully over
symbolic cards, so they have no Python check (:func:`~properties.core.smt_property`).
"""

from __future__ import annotations

import cardrules.properties.fftcg.invariants  # noqa: F401  (registers the Python faces first)
from cardrules.properties.core import smt_face, smt_property

GAME = "fftcg"

smt_face("party-min-two")
smt_face("party-members-on-field")
smt_property("damage-at-most-seven", "No player ever has more than 7 damage.",
             "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-UNBLOCKED-ONE", game=GAME)
smt_property("damage-in-thousands", "When every power is a multiple of 1000, so is the damage on every Forward.",
             "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", game=GAME)
smt_property("player1-undamaged", "Made up (should not hold): player 1 never takes damage.",
             "FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE", game=GAME, must_hold=False)
