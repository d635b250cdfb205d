"""The Redemption model as the explorer and the verifier see it (a :class:`properties.engines.explore.Game`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Hashable

from cardrules.model.redemption.actions import Action, parse
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.state import Card, State
from cardrules.model.redemption.validate import load_state
from cardrules.properties.engines.symmetry import canonical_dataclass_key, interchangeable_classes

UNORDERED_KEYS = frozenset(
    {"cards", "hand", "territory", "discard", "bondage", "redemption", "statuses", "decreased", "placed"}
)
"""JSON keys whose arrays are sets in the model (a deck's order is kept)."""


@dataclass(frozen=True)
class RedemptionGame:
    """The Redemption battle model under one :class:`RuleConfig`."""

    config: RuleConfig = DEFAULT
    name: str = field(default="redemption", init=False)

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        return legal_actions(state, self.config)

    def step(self, state: State, action: Action) -> State:
        return step(state, action, self.config)

    def is_terminal(self, state: State) -> bool:
        return state.winner is not None

    def canonical_key(self, state: State) -> Hashable:
        """Identical cards (same printed data and owner) are interchangeable: the key is the
        smallest frozen form over renamings among them (exact orbit representative; the state is read
        directly, not through its JSON form)."""
        classes = _classes(state.cards)
        if not classes:
            return state
        return canonical_dataclass_key(state, classes, UNORDERED_KEYS)

    def turn(self, state: State) -> int:
        return state.turn

    def action_text(self, action: Action) -> str:
        return action.text()

    def action_from_text(self, text: str) -> Action:
        return parse(text)

    def summary(self, state: State) -> str:
        parts = [f"turn {state.turn} P{state.active} {state.phase.value}"]
        for index, zones in enumerate(state.zones):
            parts.append(
                f"P{index} terr [{' '.join(sorted(zones.territory))}] disc [{' '.join(sorted(zones.discard))}] "
                f"LoR {len(zones.redemption)}"
            )
        for battle in state.battles:
            sides = " vs ".join("+".join(f.card for f in side) or "-" for side in battle.sides)
            parts.append(f"battle {battle.id}: {sides}")
        if state.prompt is not None:
            parts.append(f"{state.prompt.kind.value} for P{state.prompt.player}")
        if state.winner is not None:
            parts.append(f"P{state.winner} wins")
        return "; ".join(parts)

    def state_to_json(self, state: State) -> Any:
        return state.to_json()

    def state_from_json(self, data: Any) -> State:
        return load_state(data)


@lru_cache(maxsize=64)
def _classes(cards: tuple[Card, ...]) -> list[list[str]]:
    """Ids of identical cards (every printed field but the id equal), grouped; cards never change."""
    return interchangeable_classes(
        (card.id, tuple(getattr(card, f.name) for f in fields(card) if f.name != "id")) for card in cards
    )
