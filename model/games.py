"""The games the project models, by name: everything a tool needs to load, configure and play one.

Every place that once compared a game's name with a string asks this registry
instead: :data:`GAMES` maps a name to a :class:`GameModel`, and
:func:`game_model` names the known ones when asked for another. The two game
packages never import each other; this module sits above both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg import config as fftcg_config
from cardrules.model.fftcg import engine as fftcg_engine
from cardrules.model.fftcg import state as fftcg_state
from cardrules.model.fftcg.actions import parse_action as fftcg_parse
from cardrules.model.fftcg.validate import load_state as fftcg_load
from cardrules.model.redemption import config as redemption_config
from cardrules.model.redemption import engine as redemption_engine
from cardrules.model.redemption import state as redemption_state
from cardrules.model.redemption.actions import parse as redemption_parse
from cardrules.model.redemption.validate import load_state as redemption_load


@dataclass(frozen=True)
class GameModel:
    """One game's executable model, as every tool sees it."""

    name: str
    """The game's id in the catalogue, the scenarios and the command line."""
    title: str
    state_type: type
    """The immutable, hashable state class."""
    load_state: Callable[[Any], Any]
    """JSON form -> state, refused (:class:`ScenarioError` naming the path) unless well formed."""
    config_for: Callable[[Mapping[str, tuple[str, ...]], Mapping[str, str], Iterable[str]], Any]
    """(versions, decision options, broken variants) -> the rule configuration; a problem is a
    :class:`ScenarioError` whose ``where`` is ``versions``, ``decisions`` or ``broken``."""
    legal_actions: Callable[[Any, Any], tuple[Any, ...]]
    """(state, config) -> the legal actions, sorted."""
    step: Callable[[Any, Any, Any], Any]
    """(state, action, config) -> the next state; an illegal action raises ``IllegalAction``."""
    parse_action: Callable[[str], Any]
    """The action's text form -> the action (``ScenarioError`` naming the text otherwise)."""
    modelled_options: Callable[[str, Sequence[str]], list[str]]
    """(decision id, its options) -> the options this model can select."""
    versioned_areas: tuple[str, ...]
    """Areas with more than one wording, which a rule set selects one of."""


GAMES: Mapping[str, GameModel] = {
    "fftcg": GameModel(
        name="fftcg", title="Final Fantasy TCG", state_type=fftcg_state.State, load_state=fftcg_load,
        config_for=fftcg_config.config_for, legal_actions=fftcg_engine.legal_actions, step=fftcg_engine.step,
        parse_action=fftcg_parse, modelled_options=fftcg_config.modelled_options, versioned_areas=(),
    ),
    "redemption": GameModel(
        name="redemption", title="Redemption CCG", state_type=redemption_state.State, load_state=redemption_load,
        config_for=redemption_config.config_for, legal_actions=redemption_engine.legal_actions,
        step=redemption_engine.step, parse_action=redemption_parse,
        modelled_options=redemption_config.modelled_options, versioned_areas=("heal",),
    ),
}
"""Every modelled game, by name (in the order tools list them)."""

GAME_NAMES: tuple[str, ...] = tuple(GAMES)


def game_model(name: object) -> GameModel:
    """The game called ``name``; a :class:`ScenarioError` at ``game`` listing the known ones otherwise."""
    found = GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ScenarioError("game", f"unknown game {name!r}; known: {', '.join(GAME_NAMES)}")
    return found
