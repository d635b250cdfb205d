"""The examples file: every clause's examples, narrated, with what a replay must give back.

:func:`build` picks steps from model runs (:mod:`.select`), narrates each
(:mod:`.narrate_fftcg`, :mod:`.narrate_redemption`) and records what the
model gave: the digest of the state after a play, or the clauses a refusal
names. :func:`replay` plays an example again on the model and returns the
same record, so a test compares the two. The file is written by
``python -m cardrules.oracle.examples`` (``--check`` says whether it is
current); the docs render it without running the model.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from typing import Any

from cardrules.model.errors import IllegalAction
from cardrules.oracle.examples import narrate_fftcg, narrate_redemption
from cardrules.oracle.examples.select import Pick, Picker, pick_all
from cardrules.oracle.examples.witnesses import REFUSAL_WITNESSES, UNTRACED, WITNESSES
from cardrules.properties.games import make_game
from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
from cardrules.specs.catalogue import Clause, default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers

FORMAT = "cardrules-examples/1"
NARRATORS: dict[str, Any] = {"fftcg": narrate_fftcg, "redemption": narrate_redemption}
PROHIBITION_WORDS = ("cannot", "can only", "may only", "no more than", "never", "must", "only if", "only while",
                     "only by", "not ", "no character", "is never", "no longer", "only legal")
"""A clause whose statement says one of these forbids something: its first example is the refusal."""
SHARED = 3
"""Clauses one step may stand for before a clause's next best step is taken instead."""


def compact(state: Any) -> str:
    """The compact JSON of a state, as examples store and links carry it."""
    return json.dumps(state, separators=(",", ":"), sort_keys=True)


def digest(state: Any) -> str:
    return hashlib.sha256(compact(state).encode()).hexdigest()[:16]


def example_id(game: str, rules: str, state: Any, actions: list[str]) -> str:
    text = "\n".join([game, rules, compact(state), *actions])
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def forbids(clause: Clause) -> bool:
    statement = " ".join(clause.statement.lower().split())
    return any(word in statement for word in PROHIBITION_WORDS)


def spread(candidates: list[Pick], used: Counter[tuple[int, int, str]]) -> Pick:
    """The best candidate whose step fewer than :data:`SHARED` clauses already use (among those as good on
    the witness), else the best: so that one step does not stand for a dozen rules."""
    best = candidates[0]
    for pick in candidates:
        if pick.key[0] == best.key[0] and used[pick.step] < SHARED:
            best = pick
            break
    used[best.step] += 1
    return best


def chosen_picks(picker: Picker, clause: Clause, used: Counter[tuple[int, int, str]]) -> list[Pick]:
    """A clause's picks: the play where it decided, and for a clause that forbids something the refusal
    it gives (first); a clause no play shows gets its refusal."""
    plays, refusals = picker.plays.get(clause.id, []), picker.refusals.get(clause.id, [])
    play = spread(plays, used) if plays else None
    if refusals and (play is None or forbids(clause)):
        refusal = spread(refusals, used)
        if play is not None and play.key[0] == 0 and refusal.key[0] != 0:
            return [play, refusal]  # the play shows the rule at work; the refusal is the second example
        return [refusal] + ([play] if play is not None and play.key[0] == 0 else [])
    return [play] if play is not None else []


def outcome(game: str, rules: str, state: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    """Play ``actions`` from ``state`` on the model: the narration of what follows and what a replay checks
    (``after``: the digest of the final state; or ``refused_by`` and ``reason`` when the model refuses)."""
    model = make_game(game, parse_rule_set_expression(rules).spec)
    narrate = NARRATORS[game]
    current = model.state_from_json(state)
    before = state
    said: list[str] = []
    for text in actions:
        said.append(narrate.action(before, text))
        try:
            current = model.step(current, model.action_from_text(text))
        except IllegalAction as refused:
            reason = narrate.reason(before, seats_from_one(refused.reason))
            return {"event": " ".join(said), "ruling": f"Not allowed: {reason}.",
                    "refused_by": list(refused.clause_ids), "reason": refused.reason}
        after = model.state_to_json(current)
        ruling = narrate.result(before, after, text)
        before = after
    return {"event": " ".join(said), "ruling": " ".join(ruling), "after": digest(before)}


def seats_from_one(text: str) -> str:
    """A model message with its players counted from 1, as players count them (``player 0`` is Player 1)."""
    return re.sub(r"\bplayer (\d+)", lambda m: f"Player {int(m.group(1)) + 1}", text)


def build() -> dict[str, Any]:
    """The whole examples document (deterministic for a given model and catalogue)."""
    catalogue, numbers = default_catalogue(), default_numbers()
    picker = pick_all(WITNESSES, UNTRACED, REFUSAL_WITNESSES)
    merged: dict[str, dict[str, Any]] = {}
    used: Counter[tuple[int, int, str]] = Counter()
    for clause in catalogue.clauses:
        for pick in chosen_picks(picker, clause, used):
            key = example_id(pick.game, pick.rules, pick.state, [pick.action])
            entry = merged.get(key)
            if entry is None:
                entry = merged[key] = {
                    "id": key, "game": pick.game, "rules": pick.rules, "source": pick.source, "kind": pick.kind,
                    "clauses": [], "state": pick.state, "actions": [pick.action],
                    "position": NARRATORS[pick.game].position(pick.state),
                    **outcome(pick.game, pick.rules, pick.state, [pick.action]),
                }
            entry["clauses"].append(clause.id)
    examples = sorted(merged.values(), key=lambda e: (numbers.sort_key(e["clauses"][0]), e["id"]))
    for entry in examples:
        entry["clauses"] = sorted(entry["clauses"], key=numbers.sort_key)
    return {"format": FORMAT, "examples": examples}


def compact_document(document: dict[str, Any]) -> str:
    """The file's text: one example per line, so a change shows as a line of a diff."""
    lines = [json.dumps(e, separators=(",", ":"), sort_keys=True) for e in document["examples"]]
    return '{"format":' + json.dumps(document["format"]) + ',"examples":[\n' + ",\n".join(lines) + "\n]}\n"
