"""Test fixture: a changed clause over the heal situation that no model code stands behind."""

import z3

from cardrules.oracle.rulechange.proposals import situation_variables
from cardrules.specs.smt.consistency import ClauseConstraint
from cardrules.specs.smt.redemption.heal import BEING_DISCARDED

AREA = "heal"
CLAUSE = "RED-HEAL-TO-PERMANENT-CONTROLLER"


def clause_constraints(situation):
    """The clause planted wrong: a character healed in its heal window never goes to its permanent controller."""
    v = situation_variables(situation)
    window_heal = z3.And(v["heal.place"] == BEING_DISCARDED, v["heal.healed"])
    elsewhere = v["heal.destination"] != v["heal.permanent_controller"]
    return {CLAUSE: ClauseConstraint(CLAUSE, window_heal, elsewhere)}
