"""Which heal clauses are in force for a rule configuration.

The model does not hard-code the heal wording: it asks the catalogue, through
:func:`specs.catalogue.rulesets.clauses_in_force`, which heal clauses belong to the
configured version once the redline decisions are applied. So a reading such
as ``redline-window = inserted`` (no heal window in the previous wording)
changes the model exactly as it changes the clause membership.
"""

from __future__ import annotations

from functools import lru_cache

from cardrules.model.redemption.config import RuleConfig
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

MEMBERSHIP_DECISIONS: tuple[str, ...] = ("redline-window", "redline-not-completed", "redline-discard-pile",
                                         "redline-resolution-sentence", "redline-destination", "redline-enh-phases")
"""Modelled decisions that move heal clauses between wordings (specs.catalogue.rulesets.MEMBERSHIP_CHANGES)."""


@lru_cache(maxsize=64)
def heal_clauses(config: RuleConfig) -> frozenset[str]:
    """The heal clause IDs in force under ``config``."""
    rule_set = RuleSet(
        versions={"heal": frozenset({config.heal_version})},
        decisions={d: config.option(d) for d in MEMBERSHIP_DECISIONS},
    )
    return frozenset(clauses_in_force("heal", rule_set))


def in_force(config: RuleConfig, clause_id: str) -> bool:
    """Whether a heal clause is part of the configured wording."""
    return clause_id in heal_clauses(config)


def previous(config: RuleConfig) -> bool:
    """The previous (reconstructed) wording is selected."""
    return config.heal_version == "previous"
