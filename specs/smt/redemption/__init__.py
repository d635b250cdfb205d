"""The independent SMT encoding of the Redemption side battle, Battle Resolution and redirect
clauses, written from the clause catalogue; it imports nothing from ``model``.

:data:`SITUATIONS` maps an area id to the builder of its consistency situation, in the style
of :func:`specs.smt.redemption.heal.heal_situation`.
"""

from __future__ import annotations

from typing import Callable

from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.consistency import Situation
from cardrules.specs.smt.redemption.redirect import redirect_situation
from cardrules.specs.smt.redemption.resolution import resolution_situation
from cardrules.specs.smt.redemption.side_battle_clauses import side_battle_situation

SITUATIONS: dict[str, Callable[[RuleSet], Situation]] = {
    "side-battle": side_battle_situation,
    "battle-resolution": resolution_situation,
    "redirect": redirect_situation,
}

__all__ = ["SITUATIONS"]
