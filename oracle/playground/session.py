"""What the playground page calls: open a position, play one action, list the embedded scenarios.

Every function takes and returns plain JSON-able values, so the page (running
this module in the browser through Pyodide) passes JSON text across and keeps
no Python objects. A *view* is one position as the page shows it::

    {"game": "fftcg", "title": "Final Fantasy TCG", "rules": "default",
     "position": {...},        # the state's JSON form (State.to_json): what is played on, and the permalink
     "link": "?game=fftcg&rules=default#eyJ...",   # the permalink's query and fragment
     "board": {...},           # what the players see (the game's observable_json), to draw
     "legal": ["attack a1", ...],                  # the legal actions, canonical texts, sorted
     "last": null | {"action": "block b1", "events": ["..."], "clauses": [{"id", "number", "title", "area"}]}}

:func:`act` needs only ``game``, ``rules`` and ``position`` of the view it is
given: the page keeps earlier views for undo. Bad input (an unknown game or
rule set, a position the game cannot load, an action that is not legal here)
is a :class:`~cardrules.oracle.playground.position.PlaygroundError` of one
line; the ``*_json`` wrappers return it as ``{"error": "..."}`` for the page to show.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from cardrules.model.errors import IllegalAction, ScenarioError
from cardrules.model.fftcg.observable import observable_json as fftcg_board
from cardrules.model.redemption.observable import observable_json as redemption_board
from cardrules.oracle.playground.happened import fftcg_events, redemption_events, run_step
from cardrules.oracle.playground.position import PlaygroundError, Table, decode_position, link, load, table
from cardrules.properties.scenarios.loader import load_scenarios

BOARDS: Mapping[str, Callable[[Any], dict[str, Any]]] = {"fftcg": fftcg_board, "redemption": redemption_board}
EVENTS: Mapping[str, Callable[[Any, Any], list[str]]] = {"fftcg": fftcg_events, "redemption": redemption_events}


def action_text(action: Any) -> str:
    """An action's canonical text (Redemption's actions have ``text()``, FFTCG's are their ``str``)."""
    text = getattr(action, "text", None)
    return str(text()) if callable(text) else str(action)


def _board(game: str, state: Any) -> dict[str, Any]:
    board = BOARDS[game](state)
    if game == "fftcg":  # the break zone by name too: the observable form keeps only the ids
        board["names"] = {f.id: f.name for p in state.players for f in (*p.forwards, *p.break_zone)}
    return board


def _view(where: Table, state: Any, last: dict[str, Any] | None) -> dict[str, Any]:
    game = where.model.name
    position = state.to_json()
    return {
        "game": game, "title": where.model.title, "rules": where.rules, "position": position,
        "link": link(game, where.rules, position), "board": _board(game, state),
        "legal": [action_text(a) for a in where.model.legal_actions(state, where.config)], "last": last,
    }


def start(game: str, rules: str, position: Any) -> dict[str, Any]:
    """The view of ``position`` (the state's JSON form) in ``game`` under the rule-set expression ``rules``."""
    where = table(game, rules)
    return _view(where, load(where, position), None)


def act(view: Mapping[str, Any], action: str) -> dict[str, Any]:
    """The view after playing ``action`` (its text) on ``view``'s position: what happened and which clauses applied."""
    if not isinstance(view, Mapping) or not {"game", "rules", "position"} <= set(view):
        raise PlaygroundError("view: expected an object with game, rules and position")
    where = table(view["game"], str(view["rules"]))
    before = load(where, view["position"])
    try:
        parsed = where.model.parse_action(action)
    except ScenarioError as error:
        raise PlaygroundError(f"action {action[:60]!r}: {error}") from None
    text = action_text(parsed)
    try:
        after, clauses = run_step(lambda: where.model.step(before, parsed, where.config))
    except IllegalAction as error:
        raise PlaygroundError(f"action {text!r}: {error}") from None
    events = EVENTS[where.model.name](before, after)
    return _view(where, after, {"action": text, "events": events, "clauses": clauses})


def scenarios() -> list[dict[str, Any]]:
    """The embedded scenarios to start from: name, game, description, rule sets (as expressions), position."""
    found = []
    for scenario in load_scenarios():
        expressions = [_expression(r.versions, r.decisions) for r in scenario.rule_sets]
        found.append({"name": scenario.name, "game": scenario.game, "description": scenario.description,
                      "rules": list(dict.fromkeys(expressions)), "position": scenario.state})
    return found


def _expression(versions: Mapping[str, tuple[str, ...]], decisions: Mapping[str, str]) -> str:
    """A rule set as a rule-set expression (one version per area: the first a scenario names)."""
    items = [f"{area}={chosen[0]}" for area, chosen in sorted(versions.items()) if chosen]
    items += [f"{decision}={option}" for decision, option in sorted(decisions.items())]
    return ",".join(items) or "default"


def _answer(call: Callable[[], Any]) -> str:
    try:
        return json.dumps(call())
    except PlaygroundError as error:
        return json.dumps({"error": str(error)})


def start_json(game: str, rules: str, fragment: str) -> str:
    """:func:`start` for the page: the position as the link's fragment (base64url JSON); JSON text back."""
    return _answer(lambda: start(game, rules, decode_position(fragment)))


def act_json(view_json: str, action: str) -> str:
    """:func:`act` for the page: the view as JSON text; JSON text back."""
    def run() -> dict[str, Any]:
        try:
            view = json.loads(view_json)
        except ValueError as error:
            raise PlaygroundError(f"view: not JSON ({error})") from None
        return act(view, action)
    return _answer(run)


def scenarios_json() -> str:
    """:func:`scenarios` for the page, as JSON text (a scenario that does not load is the error shown)."""
    def run() -> list[dict[str, Any]]:
        try:
            return scenarios()
        except ScenarioError as error:
            raise PlaygroundError(f"embedded scenarios: {error}") from None
    return _answer(run)
