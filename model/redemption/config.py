"""Rule configuration: rule versions per area and decision variants.

A variant is a catalogue decision id mapped to one of its option ids; the
default for every decision is its ``chosen`` option. Only decisions the model
implements are selectable (:data:`MODELLED`); any other id, or an option the
model does not implement, is rejected with a message naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, TypeVar

from cardrules.model.errors import ScenarioError
from cardrules.model.extension import hook

from cardrules.specs.catalogue.broken import UnknownBrokenVariant, check_broken
from cardrules.specs.catalogue import default_catalogue

F = TypeVar("F", bound=Callable[..., Any])

HEAL_VERSIONS: tuple[str, ...] = ("revised", "previous")
"""Heal wording versions; :mod:`model.redemption.wording` reads which heal clauses are in force."""

MODELLED: Mapping[str, tuple[str, ...]] = {
    "sb-restriction-scope": ("ability-blanked", "card-unplayable"),
    "sb-return-territory": ("owner", "permanent-controller"),
    "sb-healed-fighter-destination": ("heal-placement", "back-to-previous-battle"),
    "sb-in-battle-meaning": ("any-battle-on-stack", "suspended-battle-only"),
    "sb-in-play-zones": ("territory-or-battle", "territory-only"),
    "sb-pair-alignment": ("same-alignment-only", "any-alignment"),
    "sb-territory-survivor-enhancements": ("all-discarded", "played-in-side-battle-only"),
    "sb-user-outside-battle": ("battling-players-only", "any-player"),
    "sb-control-meaning": ("battle-side", "permanent-controller"),
    "sb-answer-before-start": ("special-initiative", "never"),
    "sb-redirected-initiator": ("redirecting-player", "original-user"),
    "sb-redirected-user": ("original-user", "redirecting-player"),
    "sb-different-player": ("anyone-else", "outsiders-only"),
    "sb-initiated-when": ("started-stays-counted", "negation-restores", "on-use"),
    "red-base-paralyzed-selected": ("cannot-be-selected", "may-be-selected"),
    "sb-interrupt-main-battle": ("resumed-battle", "bottom-battle"),
    "sb-negate-resolution": ("keep-resolution", "undo-all"),
    "br-challenge-success": ("challenger-wins", "challenger-not-beaten"),
    "br-rescue-access": ("rescue-attempt-only", "challenge-can-become-rescue"),
    "br-discard-which": ("defeated-characters", "losing-side-only"),
    "br-heal-window-player": ("battle-controller", "permanent-controller"),
    "br-enhancements-before-heal": ("enhancements-first", "with-the-character"),
    "br-outcome-several-characters": ("all-defeated", "any-defeated"),
    "br-rescue-draw": ("not-success-is-failure", "undetermined"),
    "red-base-interrupt-reactivation": ("when-play-would-end", "never"),
    "red-base-first-initiative": ("battle-opener", "attacker"),
    "red-base-unblocked": ("hero-wins-at-once", "play-continues"),
    "red-base-pass-ends": ("one-pass", "both-pass"),
    "red-base-battles-per-turn": ("one", "many"),
    "red-base-enhancement-timing": ("in-battle-own-character", "any-time"),
    # heal: redline readings that move clauses between the wordings (specs.catalogue.rulesets)
    "redline-window": ("unchanged", "inserted"),
    "redline-not-completed": ("sentence-new", "half-old"),
    "redline-discard-pile": ("pile-new", "both-old"),
    "redline-resolution-sentence": ("old", "inserted"),
    "redline-destination": ("permanent-control-new", "both-old"),
    "redline-enh-phases": ("unchanged", "inserted"),
    # heal: readings of one clause
    "prev-owner-scope": ("every-healed-discard", "pile-only"),
    "prev-healable-pending": ("clarification-covers", "earlier-only"),
    "prev-two-ways-in-battle": ("outside-battle-only", "in-battle-too"),
    "prev-pile-owner": ("holder-only", "any-pile"),
    "heal-territory-whose": ("any-territory", "own-territory"),
    "heal-window-player": ("battle-controller", "permanent-controller"),
    "heal-in-battle-targets": ("battles-on-stack", "active-battle"),
    "heal-self-when-discarded": ("not-itself", "may-heal-itself"),
    "heal-ability-suspended-battle": ("active-battle-only", "any-battle-on-stack"),
    "heal-tc-when": ("enhancement-moments", "any-time-outside-battle"),
    "redline-healable": ("being-new", "both-old"),
    "heal-window-opens": ("when-a-heal-exists", "always"),
    "heal-window-attachments": ("to-discard", "stay-on-character"),
    "heal-enhancement-after-use": ("to-discard", "stays-on-character"),
    "heal-enh-placement-scope": ("outside-battle-and-window", "everywhere"),
    "prev-attached-from": ("from-discard-if-there", "from-anywhere"),
    "prev-regain-harmful": ("beneficial-only", "everything"),
    "heal-decrease-scope": ("special-abilities", "abilities-and-numbers"),
    # redirect
    "rd-amount": ("all-numbers", "stated-only"),
    "rd-stated-exceeds": ("up-to-printed", "stated-in-full"),
    "rd-in-battle": ("active-battle", "any-battle"),
    "rd-numbers-which-battle": ("target-in-any-battle", "same-battle-only"),
    "rd-numbers-loss-lasting": ("while-out", "lost-for-good"),
    "rd-redirected-ability-timing": ("at-once", "on-reactivation"),
    "rd-lapse-reduction": ("lapse-ends-both", "reduction-stays"),
}
"""Decision id -> the option ids the model implements."""

BROKEN: frozenset[str] = frozenset({
    "two-side-battles-per-turn", "interrupted-side-battle-starts", "interrupted-heal-stays",
    "redirected-side-battle-uncounted", "redirected-side-battle-no-choice",
})
"""The broken variants (:mod:`cardrules.specs.catalogue.broken`) the Redemption model implements: selectable
only by a scenario's mutants, never as a decision option."""


class ConfigError(ValueError):
    """A rule configuration names an unknown area version, decision or option."""


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """Which rule versions and decision readings a run uses.

    >>> RuleConfig(variants=(("sb-return-territory", "permanent-controller"),)).option("sb-return-territory")
    'permanent-controller'
    """

    heal_version: str = "revised"
    """Heal wording: ``revised`` (current) or ``previous`` (the redline's old text)."""
    variants: tuple[tuple[str, str], ...] = ()
    """Decision id -> option id, for decisions not at their chosen option."""
    hooks: tuple[tuple[str, Callable[..., Any]], ...] = ()
    """Extension point name -> a proposal's function (:mod:`cardrules.model.extension`)."""
    broken: tuple[str, ...] = ()
    """Broken variants in force (:data:`BROKEN`; only a scenario's mutants select them), sorted."""

    def __post_init__(self) -> None:
        try:
            if check_broken("redemption", self.broken) != self.broken:
                raise ConfigError(f"broken variants must be given sorted: {list(self.broken)}")
        except UnknownBrokenVariant as error:
            raise ConfigError(str(error)) from None
        for name in self.broken:
            if name not in BROKEN:
                raise ConfigError(f"broken variant {name!r} is not implemented by the Redemption model")
        if self.heal_version not in HEAL_VERSIONS:
            raise ConfigError(f"heal version {self.heal_version!r} is unknown; known: {list(HEAL_VERSIONS)}")
        decisions = default_catalogue().decisions
        seen: set[str] = set()
        for decision_id, option_id in self.variants:
            if decision_id in seen:
                raise ConfigError(f"decision {decision_id!r} is given twice")
            seen.add(decision_id)
            if decision_id not in decisions:
                raise ConfigError(f"unknown decision id {decision_id!r} (not in the clause catalogue)")
            _, decision = decisions[decision_id]
            if option_id not in {o.id for o in decision.options}:
                raise ConfigError(
                    f"decision {decision_id!r} has no option {option_id!r}; options: {[o.id for o in decision.options]}"
                    f"{decision.rejected_hint(option_id)}"
                )
            if decision_id not in MODELLED:
                raise ConfigError(f"decision {decision_id!r} is not a variant the Redemption model implements")
            if option_id not in MODELLED[decision_id]:
                raise ConfigError(f"option {option_id!r} of decision {decision_id!r} is not implemented by the model")

    @classmethod
    def of(cls, variants: Mapping[str, str] | None = None, heal_version: str = "revised",
           broken: Iterable[str] = ()) -> "RuleConfig":
        """Build from a mapping ``decision id -> option id`` (and, for a mutant, broken variant ids)."""
        try:
            names = check_broken("redemption", broken)
        except UnknownBrokenVariant as error:
            raise ConfigError(str(error)) from None
        return cls(heal_version=heal_version, variants=tuple(sorted((variants or {}).items())), broken=names)

    def is_broken(self, name: str) -> bool:
        """Whether the broken variant ``name`` (one of :data:`BROKEN`) is in force."""
        if name not in BROKEN:
            raise ConfigError(f"broken variant {name!r} is not implemented by the Redemption model")
        return name in self.broken

    def hook(self, name: str, default: F) -> F:
        """The answer in force at an extension point: a proposal's override, else ``default``."""
        return hook(self.hooks, name, default)

    def option(self, decision_id: str) -> str:
        """The option in force for a decision: the variant if given, else the catalogue's choice."""
        for given, option_id in self.variants:
            if given == decision_id:
                return option_id
        return _chosen(decision_id)


@lru_cache(maxsize=None)
def _chosen(decision_id: str) -> str:
    decisions = default_catalogue().decisions
    if decision_id not in decisions:
        raise ConfigError(f"unknown decision id {decision_id!r}")
    return decisions[decision_id][1].chosen


DEFAULT = RuleConfig()


def config_for(versions: Mapping[str, tuple[str, ...]], decisions: Mapping[str, str],
               broken: Iterable[str] = ()) -> RuleConfig:
    """The configuration of a rule set's versions (one heal wording), decision options and broken
    variants; a problem is a :class:`ScenarioError` whose ``where`` is the field at fault
    (``versions``, ``decisions`` or ``broken``)."""
    heal = versions.get("heal", ("revised",))
    if set(versions) - {"heal"} or len(heal) != 1:
        raise ScenarioError("versions", "the Redemption model selects one heal version: {\"heal\": [V]}")
    try:
        return RuleConfig.of(dict(decisions), heal_version=heal[0], broken=broken)
    except ConfigError as error:
        raise ScenarioError("broken" if "broken variant" in str(error) else "decisions", str(error)) from None


def modelled_options(decision_id: str, options: Iterable[str]) -> list[str]:
    """The options of a decision this model can select (:data:`MODELLED`)."""
    return [o for o in options if o in MODELLED.get(decision_id, ())]
