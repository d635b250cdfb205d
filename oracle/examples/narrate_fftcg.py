"""Final Fantasy TCG positions, actions and results in the words players use.

Players are numbered from 1 (the model's player 0 is Player 1). A Forward is
named by its card name (its id too when two share a name) with its elements
and power, and what matters about it: dull or active, damage on it, the P
icon, Pre-emptive Strike, Brave, Haste, blocking restrictions. The functions
read the game's state JSON (the form ``state_to_json`` writes), never the
model's objects, so a narration reads the same data the example stores.
"""

from __future__ import annotations

import re
from typing import Any

STEP_WORDS = {"attack-preparation": "Attack Preparation", "damage-preemptive": "Pre-emptive Strike damage", "attack-declaration": "Attack Declaration",
              "block-declaration": "Block Declaration", "damage-resolution": "Damage Resolution",
              "combat-end": "Combat End", "end": "End Phase"}


def player(index: int) -> str:
    return f"Player {index + 1}"


def _all_forwards(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for p in state["players"] for f in p["forwards"] + p.get("break_zone", [])]


def name_of(state: dict[str, Any], forward_id: str) -> str:
    """A Forward's card name, with its id when another Forward of the game has the same name."""
    forwards = _all_forwards(state)
    found = next((f for f in forwards if f["id"] == forward_id), None)
    if found is None:
        return forward_id
    same = [f for f in forwards if f["name"] == found["name"]]
    return f"{found['name']} ({forward_id})" if len(same) > 1 else found["name"]


def names(state: dict[str, Any], ids: list[str]) -> str:
    shown = [name_of(state, i) for i in ids]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def forward_words(state: dict[str, Any], forward: dict[str, Any]) -> str:
    """``Fire Knight (Fire, 5000, dull, P icon)``."""
    parts = ["/".join(e.title() for e in sorted(forward["elements"])), str(forward["power"])]
    parts.append("dull" if forward.get("dull") else "active")
    if forward.get("damage"):
        parts.append(f"{forward['damage']} damage on it")
    for flag, words in (("p_icon", "P icon"), ("preemptive", "Pre-emptive Strike"), ("brave", "Brave"),
                        ("haste", "Haste")):
        if forward.get(flag):
            parts.append(words)
    if not forward.get("since_start", True) and not forward.get("haste"):
        parts.append("entered the field this turn")
    if forward.get("unblockable_by_cost") is not None:
        parts.append(f"cannot be blocked by a Forward of cost {forward['unblockable_by_cost']} or more")
    if forward.get("unblockable_by_elements"):
        shown = "/".join(e.title() for e in forward["unblockable_by_elements"])
        parts.append(f"cannot be blocked by a {shown} Forward")
    return f"{name_of(state, forward['id'])} ({', '.join(parts)})"


def position(state: dict[str, Any]) -> str:
    """The position: whose turn and which step, each player's Forwards and damage, the attack under way."""
    turn = state["turn_player"]
    step = STEP_WORDS.get(state["step"], state["step"])
    lines = [f"Turn {state['turn']}, {player(turn)}'s {step} step."]
    for index, seat in enumerate(state["players"]):
        forwards = "; ".join(forward_words(state, f) for f in seat["forwards"]) or "no Forwards"
        line = f"{player(index)} has {seat['damage']} damage and {forwards}"
        if seat.get("break_zone"):
            line += f"; in the Break Zone: {names(state, [f['id'] for f in seat['break_zone']])}"
        lines.append(line + ".")
    attack = state.get("attack")
    if attack:
        lines.append(_attack_words(state, attack))
    if state.get("outcome"):
        lines.append(f"{player(state['outcome']['winner'])} has won the game.")
    return " ".join(lines)


def _attack_words(state: dict[str, Any], attack: dict[str, Any]) -> str:
    turn, defender = state["turn_player"], 1 - state["turn_player"]
    declared = attack["declared"]
    if attack["party"]:
        what = f"a party of {names(state, declared)}"
        if attack["attackers"] != declared:
            what += f" (still in it: {names(state, attack['attackers'])})" if attack["attackers"] else " (no member left)"
    else:
        what = names(state, declared)
    text = f"{player(turn)} is attacking with {what}"
    if attack.get("blocked") is True:
        text += f"; {player(defender)} blocks with {name_of(state, attack['blocker'])}" if attack.get("blocker") \
            else f"; {player(defender)} blocked, but the blocker has left the field"
    elif attack.get("blocked") is False:
        text += f"; {player(defender)} did not block"
    return text + "."


def reason(state: dict[str, Any], text: str) -> str:
    """A refusal's reason with the Forwards' ids replaced by their names."""
    for forward in _all_forwards(state):
        text = re.sub(rf"(?<![\w-]){re.escape(forward['id'])}(?![\w-])", name_of(state, forward["id"]), text)
    return text


def action(state: dict[str, Any], text: str) -> str:
    """The decision or event, in words."""
    words = text.split()
    turn, defender = state["turn_player"], 1 - state["turn_player"]
    if words[0] == "attack":
        ids = words[1:]
        return f"{player(turn)} declares {'a party of ' if len(ids) > 1 else 'an attack with '}{names(state, ids)}."
    if words[0] == "block":
        return f"{player(defender)} blocks with {name_of(state, words[1])}."
    if words[0] == "noblock":
        return f"{player(defender)} does not block."
    if words[0] == "split":
        shares = [w.split("=") for w in words[1:]]
        blocker = (state.get("attack") or {}).get("blocker") or "the blocker"
        given = ", ".join(f"{int(amount)} to {name_of(state, fid)}" for fid, amount in shares)
        return f"{player(defender)} divides {name_of(state, blocker)}'s damage: {given}."
    if words[0] == "remove":
        return f"An effect removes {name_of(state, words[1])} from the field."
    if words[0] == "end-turn":
        return f"{player(turn)} ends the turn."
    step = STEP_WORDS.get(state["step"], state["step"])
    if state["step"] in ("damage-preemptive", "damage-resolution"):
        return f"The players go on in the {step} step: the damage is dealt."
    return f"The players move on from the {step} step."


def result(before: dict[str, Any], after: dict[str, Any], action_text: str = "") -> list[str]:
    """What follows the step, in order: damage dealt and received, Forwards broken or dulled, the party
    disbanding, the next step or turn, the end of the game."""
    new = after["events"][len(before["events"]):] if after["turn"] == before["turn"] else after["events"]
    out = []
    if action_text.startswith("attack ") and after.get("attack"):
        out.append("The party is formed and attacks as one attacker." if after["attack"]["party"]
                   else f"{names(after, after['attack']['attackers'])} attacks.")
    out += [_event_words(after, before, e) for e in new]
    out += _dulled(before, after)
    if after["turn"] != before["turn"]:
        out.append(f"The turn passes to {player(after['turn_player'])}.")
    elif after["step"] != before["step"]:
        out.append(f"The game moves to the {STEP_WORDS.get(after['step'], after['step'])} step.")
    if after.get("outcome") and not before.get("outcome"):
        out.append(f"{player(after['outcome']['winner'])} wins the game.")
    return out or ["Nothing else changes."]


def _dulled(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    was = {f["id"]: f for p in before["players"] for f in p["forwards"]}
    now = {f["id"]: f for p in after["players"] for f in p["forwards"]}
    dulled = [i for i, f in now.items() if f.get("dull") and i in was and not was[i].get("dull")]
    readied = [i for i, f in now.items() if not f.get("dull") and i in was and was[i].get("dull")]
    cleared = [i for i, f in now.items() if not f.get("damage") and i in was and was[i].get("damage")]
    out = []
    if dulled:
        out.append(f"{names(after, dulled)} {'is' if len(dulled) == 1 else 'are'} dulled.")
    if readied:
        out.append(f"{names(after, readied)} {'becomes' if len(readied) == 1 else 'become'} active.")
    if cleared:
        out.append(f"The damage on {names(after, cleared)} is removed.")
    return out


def _event_words(after: dict[str, Any], before: dict[str, Any], event: dict[str, Any]) -> str:
    kind, sources = event["kind"], list(event["sources"])
    if kind == "damage":
        return f"{names(after, sources)} {'deals' if len(sources) == 1 else 'deal'} {event['amount']} damage to " \
               f"{name_of(after, event['target'])}."
    if kind == "hit":
        seat = int(event["target"].lstrip("p"))
        total = after["players"][seat]["damage"]
        points = "1 point" if event["amount"] == 1 else f"{event['amount']} points"
        return f"{player(seat)} receives {points} of damage (from {names(after, sources)}), now {total} in all."
    if kind == "break":
        owner = next((i for i, p in enumerate(after["players"]) if any(f["id"] == event["target"]
                                                                           for f in p.get("break_zone", []))), None)
        where = f" and goes to {player(owner)}'s Break Zone" if owner is not None else ""
        return f"{name_of(after, event['target'])} is broken{where}; {names(after, sources)} " \
               f"{'gets' if len(sources) == 1 else 'get'} the credit for breaking it."
    if kind == "remove":
        return f"{name_of(after, event['target'])} leaves the field."
    return f"The party disbands (it had {names(after, sources) if sources else 'no member'} left)."
