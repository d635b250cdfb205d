"""Every rule area with a z3 consistency situation, and how to build it under a rule set."""

from __future__ import annotations

from typing import Callable, Mapping

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import Situation
from cardrules.specs.smt.redemption import SITUATIONS as REDEMPTION_SITUATIONS
from cardrules.specs.smt.redemption.heal import heal_situation

SITUATIONS: Mapping[str, Callable[[RuleSet], Situation]] = {"heal": heal_situation, **REDEMPTION_SITUATIONS}
"""Area id -> the builder of its consistency situation (``smt consistency``, ``smt vacuity``, ``diff``)."""
