"""A playground position as its link carries it, and the rule set it is played under.

A link to the playground is ``playground.html?game=GAME&rules=RULES#POSITION``:
``RULES`` is a rule-set expression (:mod:`cardrules.properties.scenarios.rulesets`,
URL-encoded), ``POSITION`` the base64url text, without padding, of the game's
state JSON (the form ``State.to_json`` writes and the game's ``load_state``
reads) written compactly with sorted keys. :func:`encode_position` and
:func:`decode_position` are the two directions; every problem is a
:class:`PlaygroundError` of one line naming what was wrong and where.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import quote

from cardrules.model.errors import ScenarioError
from cardrules.model.games import GAME_NAMES, GameModel, game_model
from cardrules.properties.scenarios.rulesets import RuleSetError, check_selectable, parse_rule_set_expression

MAX_POSITION_TEXT = 200_000
"""Longest position text read from a link (the embedded scenarios' positions are under 8 kB)."""


class PlaygroundError(ValueError):
    """Bad input to the playground (a game, rule set, position or action): one line naming what and where."""


def encode_position(state_json: Mapping[str, Any]) -> str:
    """The link's fragment for a position: base64url, no padding, of its compact sorted JSON."""
    text = json.dumps(state_json, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode_position(text: str) -> Any:
    """The JSON value a link's fragment carries (not yet checked as a state)."""
    text = text.strip().removeprefix("#")
    if len(text) > MAX_POSITION_TEXT:
        raise PlaygroundError(f"position: the link's position is {len(text):,} characters, at most {MAX_POSITION_TEXT:,}")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise PlaygroundError(f"position: not base64url text of a JSON position ({reason})") from None


def link(game: str, rules: str, state_json: Mapping[str, Any]) -> str:
    """The query and fragment of the playground link to this position (to append to ``playground.html``)."""
    return f"?game={quote(game, safe='')}&rules={quote(rules, safe='')}#{encode_position(state_json)}"


@dataclass(frozen=True)
class Table:
    """A game, its rule configuration and the rule-set expression it came from."""

    model: GameModel
    rules: str
    config: Any


def table(game: object, rules: str) -> Table:
    """The game's model configured by the rule-set expression ``rules`` (``default`` or ``KEY=VALUE,...``)."""
    if game not in GAME_NAMES:
        raise PlaygroundError(f"game: unknown game {str(game)[:60]!r}; known: {', '.join(GAME_NAMES)}")
    model = game_model(game)
    text = (rules or "default").strip() or "default"
    try:
        named = parse_rule_set_expression(text)
        if named.game not in (None, model.name):
            raise PlaygroundError(f"rules: {text!r} is a rule set of {named.game}, not of {model.name}")
        check_selectable(model.name, named.spec)
        config = model.config_for(named.spec.versions, named.spec.decisions, ())
    except (RuleSetError, ScenarioError) as error:
        raise PlaygroundError(f"rules: {error}") from None
    return Table(model, text, config)


def load(table_: Table, state_json: Any) -> Any:
    """The game's state read from its JSON form (a :class:`PlaygroundError` naming the path otherwise)."""
    try:
        return table_.model.load_state(state_json)
    except ScenarioError as error:
        raise PlaygroundError(f"position: {error}") from None
