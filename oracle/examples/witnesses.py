"""What a step must visibly do to show a clause at work, for the rules judges ask about most.

A witness reads the step as the example stores it (the state JSON before and
after, the action text) and says whether its visible result is what the
clause is about: for the unblocked-party rule, a party's attack ends with the
defending player taking damage; for the healed character's destination, the
healed character lands in the territory of a player who does not own it. The
selection (:mod:`cardrules.oracle.examples.select`) prefers a witnessed step
to any other; clauses without a witness get the step with the fewest other
clauses in it.
"""

from __future__ import annotations

from typing import Any

from cardrules.oracle.examples.narrate_redemption import places
from cardrules.oracle.examples.select import Witness

State = dict[str, Any]


def _new_events(before: State, after: State) -> list[dict[str, Any]]:
    return list(after["events"][len(before["events"]):] if after["turn"] == before["turn"] else after["events"])


def _ff_events(kind: str, least_sources: int = 1) -> Witness:
    def seen(game: str, before: State, action: str, after: State) -> bool:
        return any(e["kind"] == kind and len(e["sources"]) >= least_sources for e in _new_events(before, after))
    return seen


def _ff_action(prefix: str, least_ids: int = 1) -> Witness:
    def seen(game: str, before: State, action: str, after: State) -> bool:
        return action.startswith(prefix) and len(action.split()) - 1 >= least_ids
    return seen


def _odd_split(game: str, before: State, action: str, after: State) -> bool:
    """A split of a blocker whose power is not a whole number of thousands (the remainder shows)."""
    attack = before.get("attack") or {}
    power = next((f["power"] for p in before["players"] for f in p["forwards"] if f["id"] == attack.get("blocker")), 0)
    return action.startswith("split") and power > 1000 and power % 1000 != 0


def _party_blocked_sum(game: str, before: State, action: str, after: State) -> bool:
    hits = [e for e in _new_events(before, after) if e["kind"] == "damage"]
    attackers = set((before.get("attack") or {}).get("attackers", []))
    return len({e["target"] for e in hits if set(e["sources"]) <= attackers}) == 1 and len(
        [e for e in hits if set(e["sources"]) <= attackers]) >= 2


def _red_moves(before: State, after: State) -> list[tuple[str, str]]:
    was, now = places(before), places(after)
    return [(card, where) for card, where in now.items() if was.get(card) != where]


def _owner(state: State, card: str) -> int:
    return int(next(c["owner"] for c in state["cards"] if c["id"] == card))


def _healed_to(others: bool) -> Witness:
    """A heal after which the healed character lands in a territory: of a player other than its owner
    (``others``) or of its owner while someone else controlled it when it was discarded."""
    def seen(game: str, before: State, action: str, after: State) -> bool:
        if not action.startswith("heal "):
            return False
        target = action.split()[1]
        for card, where in _red_moves(before, after):
            if card == target and where.endswith("territory"):
                seat = int(where.split()[1].rstrip("'s")) - 1
                if others:
                    return seat != _owner(after, card)
                controllers = {d["controller"] for d in before.get("discards", []) if d["card"] == card}
                return seat == _owner(after, card) and bool(controllers - {seat})
        return False
    return seen


def _returned_to_other(game: str, before: State, action: str, after: State) -> bool:
    """A battle ends and a surviving character goes to the territory of a player who does not own it."""
    ended = len(after["battles"]) < len(before["battles"])
    return ended and any(where.endswith("territory") and int(where.split()[1].rstrip("'s")) - 1 != _owner(after, card)
                         for card, where in _red_moves(before, after))


def _red(test: Any) -> Witness:
    def seen(game: str, before: State, action: str, after: State) -> bool:
        return bool(test(before, action, after))
    return seen


def _window(resolution: bool) -> Witness:
    return _red(lambda b, a, s: (s.get("prompt") or {}).get("kind") == "heal-window"
                and ((s["prompt"]["record"] == -1) == resolution) and b.get("prompt") != s.get("prompt"))


def _ff_forward(state: State, forward_id: str) -> dict[str, Any] | None:
    return next((f for p in state["players"] for f in p["forwards"] if f["id"] == forward_id), None)


def _own_but_cannot_attack(game: str, before: State, action: str, after: State) -> bool:
    """An attack naming only the turn player's own Forwards, one of which is dull or has attacked."""
    ids = action.split()[1:]
    own = {f["id"] for f in before["players"][before["turn_player"]]["forwards"]}
    if not action.startswith("attack ") or not ids or not set(ids) <= own:
        return False
    return any((_ff_forward(before, i) or {}).get("dull") or i in before.get("attacked", []) for i in ids)


def _no_common_kind(game: str, before: State, action: str, after: State) -> bool:
    """A party of the turn player's active Forwards with no element in common and not all with the P icon."""
    ids = action.split()[1:]
    forwards = [_ff_forward(before, i) for i in ids]
    if not action.startswith("attack ") or len(ids) < 2 or any(f is None or f.get("dull") for f in forwards):
        return False
    common = set.intersection(*(set(f["elements"]) for f in forwards if f))
    return not common and not all(f.get("p_icon") for f in forwards if f)


def _dull_blocker(game: str, before: State, action: str, after: State) -> bool:
    blocker = _ff_forward(before, action.split()[1]) if action.startswith("block ") else None
    return before["step"] == "block-declaration" and blocker is not None and bool(blocker.get("dull"))


def _exchange(game: str, before: State, action: str, after: State) -> bool:
    """A single blocked attacker and its blocker deal each other damage."""
    hits = [e for e in _new_events(before, after) if e["kind"] == "damage"]
    attack = before.get("attack") or {}
    return not attack.get("party") and {e["target"] for e in hits} >= {attack.get("blocker"), *attack.get("attackers", [])}


def _preemptive_damage(party: bool) -> Witness:
    def seen(game: str, before: State, action: str, after: State) -> bool:
        attack = before.get("attack") or {}
        hits = [e for e in _new_events(before, after) if e["kind"] == "damage"]
        return before["step"] == "damage-preemptive" and bool(hits) and bool(attack.get("party")) == party
    return seen


def _side_battle_left(to: str) -> Witness:
    """A side battle ends and a fighter of it goes back to a battle (``to`` = ``battle``) or a territory."""
    def seen(game: str, before: State, action: str, after: State) -> bool:
        if not before["battles"] or before["battles"][-1]["kind"] != "side" or len(after["battles"]) >= len(before["battles"]):
            return False
        was = places(before)
        return any(was.get(card, "").startswith("battle") and (where.startswith("battle") if to == "battle"
                                                                else where.endswith("territory"))
                   for card, where in _red_moves(before, after))
    return seen


def _mission(kind: str, result: str) -> Witness:
    def seen(game: str, before: State, action: str, after: State) -> bool:
        if not before["battles"]:
            return False
        top: dict[str, Any] = before["battles"][-1]
        now = next((b for b in after["battles"] if b["id"] == top["id"]), None)
        mission = now.get("mission") if now is not None else after.get("last_mission")
        return bool(top["kind"] == kind and top.get("mission") in (None, "none") and mission == result)
    return seen


def _ongoing_ended(game: str, before: State, action: str, after: State) -> bool:
    kept = {r["id"] for r in after.get("records", [])}
    return any(r.get("lasts_until") is not None and r["id"] not in kept for r in before.get("records", []))


WITNESSES: dict[str, Witness] = {
    "FF-BASE-BLOCKED-EXCHANGE": _exchange,
    "FF-BASE-PREEMPTIVE": _preemptive_damage(party=False),
    "FF-PARTY-PREEMPTIVE-ALL": _preemptive_damage(party=True),
    "RED-SB-RETURN-TO-BATTLE": _side_battle_left("battle"),
    "RED-SB-RETURN-TO-TERRITORY": _side_battle_left("territory"),
    "RED-BR-CHALLENGE-RESULT": _mission("challenge", "success"),
    "RED-BR-RESCUE-FAIL": _mission("rescue", "failure"),
    "RED-RD-UNTIL-END-OF-PHASE": _ongoing_ended,
    "RED-RD-NUMBERS-ONGOING": _ongoing_ended,
    "FF-PARTY-UNBLOCKED-ONE": _ff_events("hit", 2),
    "FF-BASE-UNBLOCKED-DAMAGE": _ff_events("hit"),
    "FF-PARTY-SPLIT-THOUSANDS": _odd_split,
    "FF-BASE-PARTY-SPLIT": _ff_action("split", 2),
    "FF-PARTY-BLOCKED-SUM": _party_blocked_sum,
    "FF-PARTY-BREAK-CREDIT": _ff_events("break", 2),
    "FF-BASE-BREAK-DAMAGE": _ff_events("break"),
    "FF-PARTY-DISBAND-UNDER-TWO": _ff_events("disband"),
    "FF-PARTY-DISBAND-MEANING": _ff_events("disband"),
    "FF-PARTY-LEAVE-FIELD": _ff_action("remove"),
    "FF-PARTY-DULL-ALL": _ff_action("attack", 2),
    "FF-PARTY-FORM-DECLARATION": _ff_action("attack", 2),
    "FF-BASE-ATTACK-DULLS": _ff_action("attack"),
    "FF-BASE-END-OF-TURN": _ff_action("end-turn", 0),
    "FF-BASE-SEVEN-DAMAGE-LOSES": _red(lambda b, a, s: s.get("outcome") and not b.get("outcome")),
    "RED-HEAL-TO-PERMANENT-CONTROLLER": _healed_to(others=True),
    "RED-HEAL-PREV-TO-OWNER": _healed_to(others=False),
    "RED-BR-RETURN-PERMANENT-CONTROLLER": _returned_to_other,
    "RED-BASE-STATUSES": _red(lambda b, a, s: {tuple(x) for x in s["statuses"]} - {tuple(x) for x in b["statuses"]}),
    "RED-HEAL-CLEARS-STATUS": _red(lambda b, a, s: a.startswith("heal") and
                                   {tuple(x) for x in b["statuses"]} - {tuple(x) for x in s["statuses"]}),
    "RED-SB-CONTROL-OUTSIDERS": _red(lambda b, a, s: a.startswith("sides")),
    "RED-SB-SUSPEND": _red(lambda b, a, s: len(s["battles"]) > len(b["battles"]) >= 1),
    "RED-SB-RESUME": _red(lambda b, a, s: 1 <= len(s["battles"]) < len(b["battles"])),
    "RED-BASE-WIN-FIVE-SOULS": _red(lambda b, a, s: s.get("winner") is not None and b.get("winner") is None),
    "RED-BR-RESCUE-SUCCESS": _red(lambda b, a, s: s.get("last_mission") == "success" != b.get("last_mission")),
    "RED-BR-HEAL-WINDOW": _window(resolution=True),
    "RED-HEAL-WINDOW": _window(resolution=False),
    "RED-BASE-BLOCKING": _red(lambda b, a, s: a.startswith("block") or a == "noblock"),
}
"""Clause ID -> its witness."""

REFUSAL_WITNESSES: dict[str, Witness] = {
    "FF-BASE-CAN-ATTACK": _own_but_cannot_attack,
    "FF-PARTY-ALL-CAN-ATTACK": _own_but_cannot_attack,
    "FF-PARTY-FORM-VALID": _no_common_kind,
    "FF-PARTY-TWO-TYPES": _no_common_kind,
    "FF-BASE-BLOCK": _dull_blocker,
}
"""Clause ID -> what its refusal should be about (the state after is empty: nothing happened)."""

UNTRACED: frozenset[str] = frozenset({"RED-BASE-STATUSES"})
"""Clauses whose code is data (the statuses are an enumeration the tracer never sees called): their
witness alone picks their example."""
