"""Tiny scope files whose positions are counted by hand in the tests."""

from __future__ import annotations

from pathlib import Path

RED_TINY = """
format = "cardrules-scope/1"
game = "redemption"
name = "tiny"
description = "one or two Heroes against one Evil Character, a heal in hand or not"

[bounds]
turns = 1
max_states_per_position = 500

[start]
point = "battle-phase"

[players]
count = [2]

[cards.h22]
type = "character"
alignment = "good"
brigades = ["blue"]
strength = 2
toughness = 2

[cards.h44]
type = "character"
alignment = "good"
brigades = ["blue"]
strength = 4
toughness = 4

[cards.e33]
type = "character"
alignment = "evil"
brigades = ["crimson"]
strength = 3
toughness = 3

[cards.hl]
type = "enhancement"
alignment = "good"
brigades = ["blue"]
ability = "heal"

[cards.ls]
type = "lost-soul"

[[zones]]
seat = "active"
zone = "territory"
cards = ["h22", "h44"]
count = [1, 2]

[[zones]]
seat = "active"
zone = "hand"
cards = ["hl"]
count = [0, 1]

[[zones]]
seat = "defender"
zone = "territory"
cards = ["e33"]
count = [1, 1]

[[zones]]
seat = "defender"
zone = "bondage"
cards = ["ls"]
count = [1, 1]
"""

FF_TINY = """
format = "cardrules-scope/1"
game = "fftcg"
name = "tiny"
description = "one or two identical attackers, active or dull, against no blocker or one"

[bounds]
turns = 1
max_states_per_position = 3000

[start]
point = "attack-phase"

[players]
count = [2]

[damage]
active = [0]
defender = [5, 6]

[cards.a3]
name = "Fire Soldier"
elements = ["fire"]
cost = 2
power = 3000

[cards.b5]
name = "Earth Guard"
elements = ["earth"]
cost = 4
power = 5000

[[zones]]
seat = "active"
cards = ["a3"]
count = [1, 2]
dull = [false, true]

[[zones]]
seat = "defender"
cards = ["b5"]
count = [0, 1]
"""


def write(tmp_path: Path, text: str, name: str = "tiny.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
