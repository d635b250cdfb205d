"""z3 half of the heal-to-owner proposal: the changed clause over the heal consistency situation."""

import z3

from cardrules.oracle.rulechange.proposals import situation_variables
from cardrules.specs.smt.consistency import ClauseConstraint
from cardrules.specs.smt.redemption.heal import BEING_DISCARDED

AREA = "heal"


def clause_constraints(situation):
    """RED-HEAL-TO-PERMANENT-CONTROLLER as changed: healed while being discarded -> destination = owner."""
    v = situation_variables(situation)
    premise = z3.And(v["heal.healed"], v["heal.place"] == BEING_DISCARDED)
    return {"RED-HEAL-TO-PERMANENT-CONTROLLER":
            ClauseConstraint("RED-HEAL-TO-PERMANENT-CONTROLLER", premise, v["heal.destination"] == v["heal.owner"])}
