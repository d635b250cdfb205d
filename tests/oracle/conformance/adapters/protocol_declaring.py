"""A protocol 2 adapter for the runner's hello tests: the reference model, answering the hello with the
declaration given as JSON in argv[1] (merged over the reference adapter's own), and optionally:

- ``"implements": {decision: option}``: loads every rule set with these options (an engine that implements
  another reading than the suite's);
- ``"plant": "p1-damage"``: its state replies show one more damage for player 1 whenever P1 has damage
  (a planted difference, full profile);
- ``"fail_on": {"word": W, "error": KIND}``: an ``apply`` of an action whose first word is W is answered
  ``{"ok":false,"error":KIND}`` and not applied (an engine that lacks, ``unsupported``, or breaks on,
  ``internal``, one kind of action);
- ``"merge": true``: after each applied action it passes by itself through every declared macro step, or
  through those listed in ``"merged"`` when given (an engine that resolves those steps within the action
  before them, saying so or not).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from cardrules.oracle.conformance.adapter import ReferenceAdapter, serve
from cardrules.oracle.conformance.macro import inside


class Declaring(ReferenceAdapter):
    def __init__(self, spec: dict[str, Any]) -> None:
        super().__init__(profile=spec.get("profile"))
        self.spec = spec

    def hello(self) -> dict[str, Any]:
        reply = super().hello()
        reply.update({k: v for k, v in self.spec.items() if k not in ("implements", "plant", "merge", "merged", "fail_on")})
        return reply

    def load(self, request: dict[str, Any]) -> dict[str, Any]:
        implements = self.spec.get("implements")
        if implements:
            rule_set = dict(request.get("rule_set") or {})
            rule_set["decisions"] = {**(rule_set.get("decisions") or {}), **implements}
            request = {**request, "rule_set": rule_set}
        return super().load(request)

    def apply(self, text: Any) -> dict[str, Any]:
        fail_on = self.spec.get("fail_on")
        if fail_on and str(text).split(" ")[0] == fail_on["word"]:
            return {"ok": False, "error": fail_on["error"], "message": f"this engine has no {fail_on['word']!r} action"}
        reply = super().apply(text)
        if reply["ok"] and self.spec.get("merge"):
            declared = self.spec.get("merged", self.spec.get("macro_steps", []))
            while self.legal_actions() == ["pass"] and inside(self.game_name, declared, self.game.state_to_json(self.state)):
                super().apply("pass")
        return reply

    def state_json(self) -> Any:
        state = super().state_json()
        if self.spec.get("plant") == "p1-damage" and state["players"][1]["damage"] > 0:
            state["players"][1]["damage"] += 1
        return state


if __name__ == "__main__":
    sys.exit(serve(Declaring(json.loads(sys.argv[1]))))
