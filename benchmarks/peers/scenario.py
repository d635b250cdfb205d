"""Writes the position-specific parts of the SPIN and TLC twins for one benchmark position.

The twins (``fftcg_attack.pml``, ``FftcgAttack.tla``) hold the rules; what a
position adds is its printed cards (power, elements, P icon, Pre-emptive
Strike, Brave, Haste, blocking restrictions), its root (step, damage) and the
turn bound. Everything static is worked out here, from the position's JSON
(the same dict ``benchmarks/explore.py`` hands the explorer), independently
of cardrules' model: which subsets form a valid party (FF-PARTY-FORM-VALID:
a common element, or every member with the P icon), which Forward may block
which attacker (FF-BASE-BLOCK), and every legal split of a blocker's power
among a party (FF-PARTY-SPLIT-THOUSANDS: multiples of 1000, zero allowed, the
remainder under 1000 dropped).

Supported positions: the benchmark family (two players, Forwards on the
field only, no attack in progress, both players at the same damage, default
rule set). Anything else raises ``ValueError`` naming what is not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Iterator

STEPS = ("attack-preparation", "attack-declaration", "block-declaration", "damage-preemptive",
         "damage-resolution", "combat-end")
MAX_EVENTS = 40
"""Event log rows per turn in the twins (an assertion in each stops the run if a turn ever needs more)."""


@dataclass(frozen=True)
class Card:
    index: int
    id: str
    owner: int
    power: int
    cost: int
    elements: frozenset[str]
    p_icon: bool
    preemptive: bool
    brave: bool
    haste: bool
    unblockable_by_cost: int | None
    unblockable_by_elements: frozenset[str]


def cards_of(position: dict[str, Any]) -> list[Card]:
    """The position's Forwards in sorted-id order (their index in the twins), checked to be supported."""
    if position.get("attack") or position.get("events") or position.get("attacked") or position.get("outcome"):
        raise ValueError("the twins start from a position with no attack, event, attacker or outcome")
    players = position["players"]
    if len(players) != 2 or players[0]["damage"] != players[1]["damage"]:
        raise ValueError("the twins need two players at the same damage")
    raw = []
    for owner, player in enumerate(players):
        if player.get("break_zone"):
            raise ValueError("the twins start with empty Break Zones")
        ids = [f["id"] for f in player["forwards"]]
        if ids != sorted(ids):
            raise ValueError(f"player {owner}'s Forwards must be in id order")
        for f in player["forwards"]:
            if f.get("dull") or f.get("damage") or f.get("since_start", True) is not True:
                raise ValueError(f"{f['id']}: the twins start with active, undamaged Forwards")
            raw.append((owner, f))
    raw.sort(key=lambda item: item[1]["id"])
    if len(raw) > 8:
        raise ValueError("the twins hold at most 8 Forwards (byte masks)")
    return [
        Card(k, f["id"], owner, f["power"], f["cost"], frozenset(f["elements"]), bool(f.get("p_icon")),
             bool(f.get("preemptive")), bool(f.get("brave")), bool(f.get("haste")), f.get("unblockable_by_cost"),
             frozenset(f.get("unblockable_by_elements", ())))
        for k, (owner, f) in enumerate(raw)
    ]


def valid_party(members: tuple[Card, ...]) -> bool:
    """FF-PARTY-FORM-VALID under the default ``party-element-match = common-element``."""
    return len(members) >= 2 and (bool(frozenset.intersection(*(m.elements for m in members)))
                                  or all(m.p_icon for m in members))


def can_block(attacker: Card, blocker: Card) -> bool:
    """The printed blocking restrictions of FF-BASE-BLOCK (the blocker's being active is checked by the twins)."""
    if attacker.unblockable_by_cost is not None and blocker.cost >= attacker.unblockable_by_cost:
        return False
    return not (attacker.unblockable_by_elements & blocker.elements)


def compositions(units: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (units,)
        return
    for first in range(units, -1, -1):
        for rest in compositions(units - first, parts - 1):
            yield (first, *rest)


def declarations(cards: list[Card]) -> Iterator[tuple[int, tuple[Card, ...]]]:
    """(owner, members) for every single attack and every valid party of each player."""
    for owner in (0, 1):
        own = [c for c in cards if c.owner == owner]
        for size in range(1, len(own) + 1):
            for members in combinations(own, size):
                if size == 1 or valid_party(members):
                    yield owner, members


def splits(cards: list[Card]) -> Iterator[tuple[Card, tuple[Card, ...], tuple[int, ...]]]:
    """(blocker, party members now, shares) for every party a blocker could face."""
    for blocker in cards:
        others = [c for c in cards if c.owner != blocker.owner]
        units = max(blocker.power, 0) // 1000
        for size in range(2, len(others) + 1):
            for members in combinations(others, size):
                for parts in compositions(units, size):
                    yield blocker, members, tuple(p * 1000 for p in parts)


def mask(members: tuple[Card, ...] | list[Card]) -> int:
    return sum(1 << c.index for c in members)


def _chain(values: list[int]) -> str:
    """A Promela conditional expression picking ``values[k]`` for a Forward index ``(k)``."""
    text = str(values[-1])
    for k in range(len(values) - 2, -1, -1):
        text = f"((k) == {k} -> {values[k]} : {text})"
    return text


def write_promela(position: dict[str, Any], max_turns: int, folder: Path) -> None:
    """size.h, declare.pml, block.pml, splits.pml, remove.pml for ``fftcg_attack.pml``."""
    cards = cards_of(position)
    header = [
        f"#define NF {len(cards)}",
        f"#define MAXEV {MAX_EVENTS}",
        f"#define MAXTURNS {max_turns}",
        f"#define ROOT_STEP {STEPS.index(position['step'])}",
        f"#define ROOT_DAMAGE {position['players'][0]['damage']}",
        f"#define OWNER(k) {_chain([c.owner for c in cards])}",
        f"#define POW(k) {_chain([c.power for c in cards])}",
        f"#define PRE(k) {_chain([int(c.preemptive) for c in cards])}",
        f"#define HASTE(k) {_chain([int(c.haste) for c in cards])}",
    ]
    (folder / "size.h").write_text("\n".join(header) + "\n")
    declare = []
    for owner, members in declarations(cards):
        able = " && ".join(f"CANATTACK({c.index})" for c in members)
        dulls = "".join(f"dull[{c.index}] = 1; " for c in members if not c.brave)
        declare.append(
            f":: d_step {{ LIVE && step == DECL && !att && tp == {owner} && {able} -> {dulls}"
            f"att = 1; atk = {mask(members)}; party = {int(len(members) >= 2)}; decl = {mask(members)}; "
            f"declpre = {int(all(c.preemptive for c in members))}; attacked = attacked | {mask(members)}; settle() }}")
    (folder / "declare.pml").write_text("\n".join(declare) + "\n")
    block = []
    for b in cards:
        blockable = mask([a for a in cards if a.owner != b.owner and can_block(a, b)])
        block.append(
            f":: d_step {{ LIVE && step == BLOCK && att && blocked == 0 && tp != {b.owner} && ONFIELD({b.index}) "
            f"&& !dull[{b.index}] && (atk & {blockable}) != 0 -> blocked = 2; blocker = {b.index + 1}; settle() }}")
    (folder / "block.pml").write_text("\n".join(block) + "\n")
    split_lines = []
    for b, members, shares in splits(cards):
        assign = "".join(f"hsh[{c.index}] = {s}; " for c, s in zip(members, shares))
        split_lines.append(f":: d_step {{ LIVE && NEEDSPLIT && atk == {mask(members)} && blocker == {b.index + 1} -> "
                           f"{assign}resolve_damage_part(); settle() }}")
    (folder / "splits.pml").write_text("\n".join(split_lines) + "\n")
    remove = [
        f":: d_step {{ LIVE && ONFIELD({c.index}) && (step == PREP || step == DECL || step == CEND || "
        f"(step == BLOCK && att && blocked != 0)) -> to_break_zone({c.index}); log(EV_REMOVE, 0, {c.index + 1}, 0); "
        f"left_field({c.index}); if :: att && atk == 0 && (step == DECL || step == BLOCK) -> end_of_attack() "
        f":: else -> skip fi; settle() }}"
        for c in cards
    ]
    (folder / "remove.pml").write_text("\n".join(remove) + "\n")


def _tla_fn(values: list[str]) -> str:
    return "<<" + ", ".join(values) + ">>"


def write_tla(position: dict[str, Any], max_turns: int, folder: Path) -> None:
    """MC.tla and MC.cfg: ``FftcgAttack`` with this position's constants."""
    cards = cards_of(position)
    bools = {True: "TRUE", False: "FALSE"}
    def tla_set(members: list[Card] | tuple[Card, ...]) -> str:
        return "{" + ", ".join(str(c.index + 1) for c in members) + "}"

    parties = "{" + ", ".join(tla_set(m) for _, m in declarations(cards) if len(m) >= 2) + "}"
    blockable = _tla_fn([tla_set([a for a in cards if a.owner != b.owner and can_block(a, b)]) for b in cards])
    text = f"""---- MODULE MC ----
EXTENDS FftcgAttack
NFDef == {len(cards)}
OwnerDef == {_tla_fn([str(c.owner) for c in cards])}
PowerDef == {_tla_fn([str(c.power) for c in cards])}
PreDef == {_tla_fn([bools[c.preemptive] for c in cards])}
BraveDef == {_tla_fn([bools[c.brave] for c in cards])}
HasteDef == {_tla_fn([bools[c.haste] for c in cards])}
BlockableDef == {blockable}
PartiesDef == {parties}
RootStepDef == {STEPS.index(position['step'])}
RootDamageDef == {position['players'][0]['damage']}
MaxTurnsDef == {max_turns}
====
"""
    (folder / "MC.tla").write_text(text)
    constants = ["NF", "Owner", "Power", "Pre", "Brave", "Haste", "Blockable", "Parties", "RootStep", "RootDamage",
                 "MaxTurns"]
    cfg = "CONSTANTS\n" + "".join(f"  {c} <- {c}Def\n" for c in constants) + "INIT Init\nNEXT Next\n"
    (folder / "MC.cfg").write_text(cfg)
