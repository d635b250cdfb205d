"""The playground's inputs, fuzzed: a link's game, rule set and position, and the action texts played on it.

Whatever arrives, the page gets a view or one line of error naming what was
wrong, never a traceback (``start_json`` and ``act_json`` are what the page calls).
Positions are the embedded scenarios' and the hand-made party position, as links
carry them, then cut, with characters changed, or with a field's value replaced
by another JSON value.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules.oracle.playground.position import encode_position
from cardrules.oracle.playground.session import act_json, scenarios, start_json
from tests.oracle.playground.positions import FIRE_PARTY
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("bad playground input is one line of error, never a traceback")

POSITIONS: list[tuple[str, Any]] = [("fftcg", FIRE_PARTY)] + [(s["game"], s["position"]) for s in scenarios()]
RULES = ("default", "", "heal=previous", "heal=revised", "party-disband-timing=after-damage-resolution", "heal=",
         "nonsense", "a=b,a=b", "heal=previous,party-disband-timing=after-damage-resolution", "=", ",", "\u00e9=\u00e9")
TOKENS = ("attack", "block", "noblock", "split", "pass", "end-turn", "remove", "play", "on", "->", "sides", "use",
          "heal", "with", "next", "draw", "put", "a1", "a2", "b1", "h0", "e1", "sb0", "#1", "1", "0", "a1=3000",
          "a2=2000", "a1=-1", "a1=99999999", "\u0661", "", " ")

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _replace_somewhere(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with the member the ``path`` numbers lead to replaced by ``new``."""
    if not path or not isinstance(value, (dict, list)) or not value:
        return new
    if isinstance(value, dict):
        key = sorted(value)[path[0] % len(value)]
        return {**value, key: _replace_somewhere(value[key], path[1:], new)}
    index = path[0] % len(value)
    return [*value[:index], _replace_somewhere(value[index], path[1:], new), *value[index + 1:]]


@st.composite
def fragments(draw: st.DrawFn) -> tuple[str, str]:
    game, position = draw(st.sampled_from(POSITIONS))
    kind = draw(st.sampled_from(["as is", "as is", "as is", "cut", "characters", "value", "text"]))
    text = encode_position(position)
    if kind == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif kind == "characters":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.text(min_size=1, max_size=3)) + text[at + 1:]
    elif kind == "value":
        path = draw(st.lists(st.integers(0, 50), max_size=5))
        text = encode_position(_replace_somewhere(position, path, draw(JSON_VALUES)))
    elif kind == "text":
        raw = draw(st.binary(max_size=60))
        text = base64.urlsafe_b64encode(raw).decode().rstrip("=") if draw(st.booleans()) else draw(st.text(max_size=60))
    return draw(st.sampled_from([game, game, "fftcg", "redemption", "chess", ""])), text


def _checked(answer_text: str) -> tuple[str, dict[str, Any]]:
    answer = json.loads(answer_text)
    if "error" in answer:
        assert answer["error"] and "\n" not in answer["error"] and "Traceback" not in answer["error"], answer
        return "bad input", answer
    assert isinstance(answer["legal"], list) and answer["link"].startswith("?game=")
    return "ok", answer


@given(link=fragments(), rules=st.sampled_from(("default",) * len(RULES) + RULES) | st.text(max_size=20),
       actions=st.lists(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=4).map(" ".join), max_size=3),
       legal_picks=st.lists(st.integers(0, 40), max_size=4))
def test_any_link_and_any_action_text_give_a_view_or_one_line_of_error(
        link: tuple[str, str], rules: str, actions: list[str], legal_picks: list[int]) -> None:
    outcome, view = _checked(start_json(link[0], rules, link[1]))
    count("playground links", outcome)
    if outcome != "ok":
        return
    for pick in legal_picks:  # legal actions must always be playable
        if not view["legal"]:
            break
        outcome, view = _checked(act_json(json.dumps(view), view["legal"][pick % len(view["legal"])]))
        assert outcome == "ok", view
        count("playground actions", outcome)
    for action in actions:
        outcome, after = _checked(act_json(json.dumps(view), action))
        assert outcome == "bad input" or action.split() and after["last"]["action"]
        count("playground actions", outcome)
