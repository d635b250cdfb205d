"""Redemption CCG positions, actions and results in the words players use.

Players are numbered from 1 (the model's player 0 is Player 1). Cards are
named by id with what a player sees on them: a Hero or an Evil Character with
its brigades and strength/toughness, an enhancement with its alignment,
brigade, numbers and ability. Zones are the territory, the hand, the discard
pile, the Land of Bondage and the Land of Redemption; battles are rescue
attempts, battle challenges and side battles, stacked. The functions read the
game's state JSON (the form ``state_to_json`` writes), never the model's
objects, so a narration reads the same data the example stores.
"""

from __future__ import annotations

from typing import Any

ABILITY_WORDS = {
    "side-battle": "a side battle ability", "discard": "a discard ability",
    "discard-opposing": "an ability that discards an opposing character", "interrupt": "an interrupt",
    "negate": "a negate", "paralyze": "a paralyze ability", "poison": "a poison ability",
    "disease": "a disease ability", "draw-on-success": "draws a card when the battle succeeds",
    "decrease": "an ability that decreases a character's ability", "heal": "a heal ability",
    "restore": "a 'restore abilities' ability", "redirect-ability": "redirects an ability",
    "redirect-numbers": "redirects a card's numbers", "redirect-both": "redirects an ability and numbers",
}
ZONE_WORDS = {"hand": "hand", "deck": "deck", "territory": "territory", "discard": "discard pile",
              "bondage": "Land of Bondage", "redemption": "Land of Redemption"}
OUTCOME_WORDS = {"mutual-destruction": "mutual destruction", "stalemate": "a stalemate"}
PROMPT_WORDS = {"block": "{p} decides whether to block", "play": "{p} has initiative",
                "choose-sides": "{p}, who used the side battle ability, chooses which battling player gets which "
                                "character", "special-initiative": "{p} has special initiative"}


def player(index: int) -> str:
    return f"Player {index + 1}"


def _cards(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in state["cards"]}


def card_words(state: dict[str, Any], card_id: str, with_owner: int | None = None) -> str:
    """``Hero h1 (blue, 3/3)``; ``with_owner``: the player whose zone it is in, to say a different owner."""
    card = _cards(state).get(card_id)
    if card is None:
        return card_id
    brigades = "/".join(card["brigades"])
    extra = [ABILITY_WORDS.get(card["ability"], card["ability"])] if card.get("ability") else []
    if card.get("territory_class"):
        extra.append("Territory Class")
    if with_owner is not None and card["owner"] != with_owner:
        extra.append(f"owned by {player(card['owner'])}")
    if (card_id, "paralyzed") in _statuses(state) or (card_id, "poisoned") in _statuses(state) \
            or (card_id, "diseased") in _statuses(state):
        extra += [s for c, s in sorted(_statuses(state)) if c == card_id]
    if card_id in state.get("decreased", []):
        extra.append("its ability decreased")
    tail = (", " + ", ".join(extra)) if extra else ""
    if card["type"] == "character":
        kind = "Hero" if card["alignment"] == "good" else "Evil Character"
        return f"{kind} {card_id} ({brigades}, {card['strength']}/{card['toughness']}{tail})"
    if card["type"] == "enhancement":
        return f"{card['alignment']} enhancement {card_id} ({brigades}, +{card['strength']}/+{card['toughness']}{tail})"
    return f"Lost Soul {card_id}"


def _statuses(state: dict[str, Any]) -> set[tuple[str, str]]:
    return {(entry[0], entry[1]) for entry in state.get("statuses", [])}


def position(state: dict[str, Any]) -> str:
    """Whose turn and phase, each player's zones, the battles on the stack, who is to act."""
    lines = [f"Turn {state['turn']}, {player(state['active'])}'s {state['phase']} phase."]
    for index, zones in enumerate(state["zones"]):
        lines.append(_zones_words(state, index, zones))
    lines += [_battle_words(state, battle, depth) for depth, battle in enumerate(state["battles"])]
    lines += _ability_words(state)
    if state.get("prompt"):
        lines.append(_prompt_words(state, state["prompt"]) + ".")
    used = [i for i, n in enumerate(state.get("side_battles", [])) if n]
    if used:
        lines.append("Side battles already started this turn by " + ", ".join(player(i) for i in used) + ".")
    if state.get("winner") is not None:
        lines.append(f"{player(state['winner'])} has won the game.")
    return " ".join(lines)


def _zones_words(state: dict[str, Any], index: int, zones: dict[str, Any]) -> str:
    parts = []
    for key in ("territory", "hand", "discard", "bondage"):
        if zones[key]:
            shown = ", ".join(card_words(state, c, index if key == "territory" else None) for c in zones[key])
            parts.append(f"in {'their ' if key != 'bondage' else 'their '}{ZONE_WORDS[key]}: {shown}")
    if zones["deck"]:
        parts.append(f"{len(zones['deck'])} cards in their deck")
    if zones["redemption"]:
        parts.append(f"{len(zones['redemption'])} Lost Souls in their Land of Redemption")
    empty = "no cards outside the battle" if state["battles"] else "no cards in play"
    return f"{player(index)} has " + ("; ".join(parts) if parts else empty) + "."


def _battle_words(state: dict[str, Any], battle: dict[str, Any], depth: int) -> str:
    a, b = battle["players"]
    kind = {"rescue": f"{player(a)}'s rescue attempt against {player(b)}",
            "challenge": f"{player(a)}'s battle challenge against {player(b)}",
            "side": "a side battle"}[battle["kind"]]
    sides = []
    for index, side in enumerate(battle["sides"]):
        fighters = [card_words(state, f["card"], f["permanent"]) + "".join(f" with {card_words(state, e)} on it"
                                                        for e in f["enhancements"]) for f in side]
        sides.append(f"{player(battle['players'][index])}'s side: " + (", ".join(fighters) or "nobody"))
    paused = " (on hold while the battle above it is fought)" if depth < len(state["battles"]) - 1 else ""
    return f"Battle {battle['id']}, {kind}{paused}: " + "; ".join(sides) + "."


def _ability_words(state: dict[str, Any]) -> list[str]:
    out = []
    for record in state.get("records", []):
        if record["status"] in ("active", "fizzled"):
            continue
        targets = f" targeting {', '.join(record['targets'])}" if record["targets"] else ""
        out.append(f"{record['card']}'s ability{targets}, used by {player(record['player'])}, is {record['status']}.")
    return out


def _prompt_words(state: dict[str, Any], prompt: dict[str, Any]) -> str:
    who = player(prompt["player"])
    if prompt["kind"] == "heal-window":
        cards = ", ".join(prompt["cards"])
        return f"{cards} {'is' if len(prompt['cards']) == 1 else 'are'} about to be discarded; {who} may heal first"
    return PROMPT_WORDS.get(prompt["kind"], "{p} is to act").format(p=who)


def reason(state: dict[str, Any], text: str) -> str:
    """A refusal's reason as the model gives it (cards are named by id here anyway)."""
    return text


def actor(state: dict[str, Any], text: str) -> int:
    """The player who takes the action: the holder of the card used for ``heal`` and ``use``, else the one
    the state asks."""
    words = text.split()
    used = words[3] if words[0] == "heal" and len(words) > 3 else words[1] if words[0] == "use" else None
    if used is not None:
        for index, zones in enumerate(state["zones"]):
            if used in zones["hand"] or used in zones["territory"]:
                return index
    return state["prompt"]["player"] if state.get("prompt") else state["active"]


def action(state: dict[str, Any], text: str) -> str:
    """The decision or event, in words."""
    words = text.split()
    who = player(actor(state, text))
    verb = words[0]
    if verb == "attack":
        heroes = ", ".join(card_words(state, c) for c in words[2:])
        return f"{who} sends {heroes} into battle against {player(int(words[1]))}."
    if verb == "block":
        return f"{who} blocks with " + ", ".join(card_words(state, c) for c in words[1:]) + "."
    if verb == "play":
        targets = f", targeting {' and '.join(_target(state, t) for t in words[5:])}" if len(words) > 4 else ""
        return f"{who} plays {card_words(state, words[1])} on {words[3]}{targets}."
    if verb == "use":
        if len(words) > 2:
            return f"{who} uses {card_words(state, words[1])} to make {words[3]} fight {words[4]}."
        return f"{who} uses {card_words(state, words[1])} without targets."
    if verb == "sides":
        battle = state["battles"][-1]
        return (f"{who} gives {words[1]} to {player(battle['players'][0])} and {words[2]} to "
                f"{player(battle['players'][1])}.")
    if verb == "heal":
        return f"{who} heals {card_words(state, words[1])} with {card_words(state, words[3])}."
    simple = {"noblock": f"{who} does not block.", "pass": f"{who} passes.", "decline": f"{who} declines to answer.",
              "discard": f"{who} does not heal, so the discard goes ahead.", "draw": f"{who} draws.",
              "next": f"{who} ends their {state['phase']} phase."}
    if verb == "put":
        return f"{who} puts {card_words(state, words[1])} into their territory."
    return simple.get(verb, f"{who}: {text}.")


def _target(state: dict[str, Any], token: str) -> str:
    if token.startswith("#"):
        record = next((r for r in state.get("records", []) if str(r["id"]) == token[1:]), None)
        return f"the ability of {record['card']}" if record else f"ability {token}"
    return token


def places(state: dict[str, Any]) -> dict[str, str]:
    """Card id -> where it is, in words (``Player 2's territory``, ``battle 1``, ``on h1``)."""
    out: dict[str, str] = {}
    for index, zones in enumerate(state["zones"]):
        for key, words in ZONE_WORDS.items():
            for card in zones[key]:
                out[card] = f"{player(index)}'s {words}"
    for battle in state["battles"]:
        for side in battle["sides"]:
            for fighter in side:
                out[fighter["card"]] = f"battle {battle['id']}"
                for enh in fighter["enhancements"]:
                    out[enh] = f"on {fighter['card']} in battle {battle['id']}"
    for enh, host in state.get("placed", []):
        out[enh] = f"on {host}"
    return out


def result(before: dict[str, Any], after: dict[str, Any], action_text: str = "") -> list[str]:
    """What follows the step: battles fought and ended, cards moved, statuses and abilities changed, who
    acts next, the end of the game."""
    out = _battle_results(before, after)
    if action_text.startswith("heal "):
        out.insert(0, f"{action_text.split()[1]} is healed.")
    was, now = places(before), places(after)
    for card in sorted(set(was) | set(now)):
        if was.get(card) != now.get(card) and card in now:
            out.append(_move_words(after, card, was.get(card), now[card]))
        elif card in was and card not in now:
            out.append(f"{card} leaves {was[card]}.")
    gained = _statuses(after) - _statuses(before)
    lost = _statuses(before) - _statuses(after)
    out += [f"{card} is now {status}." for card, status in sorted(gained)]
    out += [f"{card} is no longer {status}." for card, status in sorted(lost)]
    out += _record_changes(before, after)
    if after.get("prompt") and after["prompt"] != before.get("prompt"):
        out.append(sentence(_prompt_words(after, after["prompt"])) + ".")
    if (after["turn"], after["phase"]) != (before["turn"], before["phase"]):
        out.append(f"It is now {player(after['active'])}'s {after['phase']} phase.")
    if after.get("winner") is not None and before.get("winner") is None:
        out.append(f"{player(after['winner'])} wins the game.")
    return out or ["Nothing else changes."]


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals (card ids stay as they are written elsewhere)."""
    return text[:1].upper() + text[1:]


def _move_words(state: dict[str, Any], card: str, was: str | None, now: str) -> str:
    """``h2 (owned by Player 3) goes to Player 2's territory (from battle 1).``"""
    owner = _cards(state).get(card, {}).get("owner")
    named = card
    if now.endswith("territory") and owner is not None and not now.startswith(player(owner) + "'s"):
        named = f"{card} (owned by {player(owner)})"
    verb = f"is placed {now}" if now.startswith("on ") else f"goes to {now}"
    return f"{named} {verb}" + (f" (from {was})." if was else ".")


def _battle_results(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = []
    was = {b["id"]: b for b in before["battles"]}
    for battle in after["battles"]:
        old = was.get(battle["id"])
        if old is None:
            kind = "A side battle" if battle["kind"] == "side" else "A battle"
            out.append(f"{kind} (battle {battle['id']}) begins" + (", putting the battle below it on hold."
                                                                    if len(after["battles"]) > 1 else "."))
        elif battle.get("outcome") and not old.get("outcome"):
            out.append(_outcome_words(battle))
    ended = [b for i, b in was.items() if i not in {x["id"] for x in after["battles"]}]
    for battle in ended:
        if not battle.get("outcome"):
            out.append(_outcome_words({**battle, "outcome": after.get("last_outcome"),
                                       "mission": after.get("last_mission")}))
        out.append(f"Battle {battle['id']} is over" + (f"; battle {after['battles'][-1]['id']} goes on."
                                                       if after["battles"] else "."))
    return out


def _outcome_words(battle: dict[str, Any]) -> str:
    outcome = battle.get("outcome")
    if outcome in ("side0-wins", "side1-wins"):
        winner = player(battle["players"][0 if outcome == "side0-wins" else 1])
        text = f"Battle {battle['id']} ends: {winner}'s side wins"
    else:
        text = f"Battle {battle['id']} ends in {OUTCOME_WORDS.get(outcome or '', 'no result')}"
    mission = battle.get("mission")
    if mission in ("success", "failure") and battle["kind"] != "side":
        what = "rescue attempt" if battle["kind"] == "rescue" else "battle challenge"
        text += f"; the {what} {'succeeds' if mission == 'success' else 'fails'}"
    defeated = battle.get("defeated") or []
    if defeated:
        text += f"; defeated: {', '.join(defeated)}"
    return text + "."


def _record_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    was = {r["id"]: r for r in before.get("records", [])}
    kept = {r["id"] for r in after.get("records", [])}
    out = [f"The ongoing effect of {r['card']} ends." for i, r in was.items()
           if i not in kept and r.get("lasts_until") is not None]
    for record in after.get("records", []):
        old = was.get(record["id"])
        if old is None:
            continue
        if record["status"] != old["status"]:
            out.append(f"{record['card']}'s ability is now {record['status']}.")
        if record["targets"] != old["targets"] or record.get("carrier") != old.get("carrier"):
            carrier = record.get("carrier", -1)
            who = player(carrier if carrier >= 0 else record["player"])
            out.append(f"{record['card']}'s ability now targets {', '.join(record['targets']) or 'nothing'}, "
                       f"carried out by {who}.")
    return out
