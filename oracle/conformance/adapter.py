"""The reference model as a conformance adapter.

``cardrules conformance adapter`` reads one JSON request per line on stdin
and writes one JSON reply per line on stdout (the protocol is described in
:mod:`cardrules.oracle.conformance.runner`). It is also the template for an
adapter in Python: subclass :class:`ReferenceAdapter` or copy :func:`handle`.

It answers the hello (``cardrules-adapter/2``) with every feature of every game, no readings of
its own (it loads whatever rule set a suite names) and no macro steps, in the ``full`` profile;
``ReferenceAdapter(profile="observable")``, or the environment variable
``CARDRULES_ADAPTER_PROFILE=observable``, makes it speak the observable profile (its ``state``
replies are then the game's observable JSON form).
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any, TextIO

from cardrules.model.errors import IllegalAction, ScenarioError
from cardrules.properties.games import make_game
from cardrules.properties.engines.exploration import Game
from cardrules.properties.scenarios import RuleSetSpec
from cardrules.specs.fileio import FileProblem, parse_json


class ReferenceAdapter:
    """One adapter session: the game loaded last and its current state."""

    def __init__(self, profile: str | None = None) -> None:
        self.game: Game[Any, Any] | None = None
        self.game_name = ""
        self.state: Any = None
        self.profile = profile or os.environ.get(PROFILE_VARIABLE) or "full"

    def hello(self) -> dict[str, Any]:
        """The declaration: every feature of every game, the default readings, no macro steps."""
        from cardrules.specs.catalogue.features import load_features

        games = {game: {"features": [f.id for f in features], "readings": {}}
                 for game, features in sorted(load_features().items())}
        return {"ok": True, "engine": "cardrules-reference", "profile": self.profile, "games": games,
                "macro_steps": [], "compare_at": "every-step"}

    def state_json(self) -> Any:
        assert self.game is not None
        if self.profile == "observable":
            from cardrules.oracle.conformance.profiles import observable_of

            return observable_of(self.game_name, self.game.state_to_json(self.state))
        return self.game.state_to_json(self.state)

    def handle(self, request: Any) -> dict[str, Any]:
        """The reply to one request object (never raises)."""
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            return error("bad-request", "a request is an object with an 'op' string")
        op = request["op"]
        try:
            if op == "hello":
                return self.hello()
            if op == "load":
                return self.load(request)
            if self.game is None:
                return error("bad-request", "no position loaded yet (send 'load' first)")
            if op == "legal_actions":
                return {"ok": True, "actions": self.legal_actions()}
            if op == "apply":
                return self.apply(request.get("action"))
            if op == "state":
                return {"ok": True, "state": self.state_json()}
        except Exception as problem:  # an adapter answers, it never dies on one request
            return error("internal", f"{type(problem).__name__}: {problem}")
        return error("bad-request", f"unknown op {op!r}")

    def load(self, request: dict[str, Any]) -> dict[str, Any]:
        rule_set = request.get("rule_set") or {}
        if not isinstance(rule_set, dict):
            return error("bad-request", "rule_set must be an object")
        try:
            game = make_game(request.get("game"), rule_set_spec(rule_set))
        except (ScenarioError, TypeError, ValueError) as problem:
            return error("unsupported", str(problem))
        try:
            state = game.state_from_json(request.get("state"))
        except (ScenarioError, TypeError, ValueError, KeyError) as problem:
            return error("bad-request", f"bad state: {problem}")
        self.game, self.state, self.game_name = game, state, str(request.get("game"))
        return {"ok": True}

    def legal_actions(self) -> list[str]:
        assert self.game is not None
        if self.game.is_terminal(self.state):
            return []
        return sorted(self.game.action_text(a) for a in self.game.legal_actions(self.state))

    def apply(self, text: Any) -> dict[str, Any]:
        assert self.game is not None
        if not isinstance(text, str):
            return error("bad-request", "apply needs an 'action' string")
        try:
            action = self.game.action_from_text(text)
        except (ScenarioError, ValueError) as problem:
            return error("bad-request", f"cannot parse action {text!r}: {problem}")
        try:
            self.state = self.game.step(self.state, action)
        except IllegalAction as refused:
            return {**error("illegal", str(refused)), "clauses": list(refused.clause_ids)}
        return {"ok": True}


PROFILE_VARIABLE = "CARDRULES_ADAPTER_PROFILE"
"""The environment variable choosing the reference adapter's profile (``full`` when unset)."""


def rule_set_spec(rule_set: dict[str, Any]) -> RuleSetSpec:
    """A suite's ``rule_set`` object (expression, versions, decisions) as the model's rule set."""
    return RuleSetSpec(
        str(rule_set.get("expression", "conformance")),
        {k: tuple(v) for k, v in (rule_set.get("versions") or {}).items()},
        dict(rule_set.get("decisions") or {}),
    )


def error(kind: str, message: str) -> dict[str, Any]:
    """A failure reply: ``{"ok": false, "error": kind, "message": ...}``."""
    return {"ok": False, "error": kind, "message": message}


def serve(adapter: ReferenceAdapter | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer requests until end of input or ``{"op": "quit"}``; returns the exit status (0).

    A line that is not a JSON request (malformed, not UTF-8, nested too deep, an integer of too many
    digits) is answered ``bad-request``, and the next line is read as usual.
    """
    adapter = adapter or ReferenceAdapter()
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")  # a bad byte makes a malformed request, not a crash
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = parse_json(line, "request")
        except FileProblem as problem:
            reply = error("bad-request", str(problem))
        else:
            if isinstance(request, dict) and request.get("op") == "quit":
                stdout.write(json.dumps({"ok": True}) + "\n")
                stdout.flush()
                return 0
            reply = adapter.handle(request)
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0
