"""The "Try it" link of an example: the playground page with the game, the rule set and the position.

The format, relative to a page in ``docs/rules/``::

    ../playground.html?game=<game>&rules=<url-encoded rule set expression>#<position>

where ``<position>`` is the base64url encoding, without padding, of the compact JSON
(``json.dumps(state, separators=(",", ":"), sort_keys=True)``) of the game's state JSON, the form the
model's ``state_to_json`` writes and ``load_state`` reads. :func:`position_from_fragment` reads it back.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import quote

PLAYGROUND = "../playground.html"
"""The playground page, relative to a rules view page (``docs/rules/<area>.rst``)."""


def position_fragment(state_json: dict[str, Any]) -> str:
    """The base64url (no padding) of the state's compact JSON."""
    raw = json.dumps(state_json, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def position_from_fragment(fragment: str) -> Any:
    """The state JSON a fragment carries (the inverse of :func:`position_fragment`)."""
    padded = fragment + "=" * (-len(fragment) % 4)
    return json.loads(base64.urlsafe_b64decode(padded.encode()).decode())


def playground_link(game: str, rule_set: str, state_json: dict[str, Any]) -> str:
    """The link that opens ``state_json`` of ``game`` under ``rule_set`` (an expression) in the playground."""
    return (f"{PLAYGROUND}?game={quote(game, safe='')}&rules={quote(rule_set, safe='')}"
            f"#{position_fragment(state_json)}")
