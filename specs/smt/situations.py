"""Every rule area with a z3 consistency situation, and how to build it under a rule set."""

from __future__ import annotations

from typing import Callable, Mapping

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import Situation
from cardrules.specs.smt.redemption import SITUATIONS as REDEMPTION_SITUATIONS
from cardrules.specs.smt.redemption.heal import heal_situation
from cardrules.specs.smt.redemption.side_battle_vars import BASE_CLAUSES as SIDE_BATTLE_BASE_CLAUSES

SITUATIONS: Mapping[str, Callable[[RuleSet], Situation]] = {"heal": heal_situation, **REDEMPTION_SITUATIONS}
"""Area id -> the builder of its consistency situation (``smt consistency``, ``smt vacuity``, ``diff``)."""

ALSO_ENCODED: Mapping[str, tuple[str, ...]] = {"side-battle": SIDE_BATTLE_BASE_CLAUSES}
"""Area id -> clauses of the base rules its situation encodes too (checked with the area's own clauses in
force: a rule set that changes how they read changes the area's answers)."""
