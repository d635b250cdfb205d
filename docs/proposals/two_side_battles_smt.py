"""z3 half of the two-side-battles proposal: the allowance of side battles per turn raised to two.

The changed RED-SB-ONCE-PER-TURN and the restriction after the allowance is used up
(RED-SB-RESTRICT-AFTER, under the base rule set's reading of decision ``sb-restriction-scope``,
``ability-blanked``) over the side battle consistency situation, so that ``cardrules diff`` checks
B's clauses with the limit B's model plays.
"""

import z3

from cardrules.oracle.rulechange.proposals import situation_variables

from cardrules.specs.smt.consistency import ClauseConstraint

AREA = "side-battle"
LIMIT = 2


def clause_constraints(situation):
    """RED-SB-ONCE-PER-TURN and RED-SB-RESTRICT-AFTER with an allowance of two side battles a turn."""
    v = situation_variables(situation)
    used, count, takes_effect = v["sb.used"], v["sb.count"], v["sb.takes_effect"]
    used_up = count >= LIMIT
    once = z3.And(z3.Implies(used_up, z3.Not(takes_effect)), v["sb.count_after"] == count + z3.If(takes_effect, 1, 0))
    return {
        "RED-SB-ONCE-PER-TURN": ClauseConstraint("RED-SB-ONCE-PER-TURN", used, once),
        "RED-SB-RESTRICT-AFTER": ClauseConstraint("RED-SB-RESTRICT-AFTER", z3.And(used, used_up),
                                                  z3.And(v["sb.card_playable"], z3.Not(takes_effect))),
    }
