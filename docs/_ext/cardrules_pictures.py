"""Pictures for the spec site, drawn at build time from the project's own data (matplotlib).

``.. cardrules-picture:: NAME`` draws one picture into ``_generated/NAME.svg``
and shows it as a figure with a caption. The pictures:

* ``battle-resolution``: the four steps of Battle Resolution and the heal
  window before the discard (RED-BR-ORDER, RED-BR-HEAL-WINDOW);
* ``side-battle-control``: the four control cases as a decision tree
  (RED-SB-CONTROL-*);
* ``counterexample-SCENARIO-MUTANT``: the timeline of the shortest
  counterexample with which a mutant is caught, each position in the compact
  notation wrapped between words.

Each is drawn 3.8 inches (365 px) wide and shown at most at that width, so
that in a 400 px window it keeps nearly its own size and its text stays legible.

Text stays text in the SVG (searchable, scalable); the SVG is deterministic.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "cardrules", "font.size": 9,
                     "font.family": "DejaVu Sans"})

BOX = {"boxstyle": "round,pad=0.4", "linewidth": 1.0}
COLOURS = {"step": "#dbe9f6", "window": "#fde2c8", "end": "#d9f2d9", "question": "#eeeeee", "case": "#e8def8"}


def _box(ax: Any, x: float, y: float, text: str, kind: str, width: float = 2.6, height: float = 0.7) -> None:
    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height, facecolor=COLOURS[kind],
                                edgecolor="#444444", **BOX))
    ax.text(x, y, text, ha="center", va="center", wrap=True)


def _arrow(ax: Any, start: tuple[float, float], end: tuple[float, float], label: str = "") -> None:
    ax.annotate("", xy=end, xytext=start, arrowprops={"arrowstyle": "->", "color": "#444444"})
    if label:
        ax.text((start[0] + end[0]) / 2 + 0.08, (start[1] + end[1]) / 2, label, fontsize=9, color="#333333")


def _canvas(width: float, height: float, xlim: tuple[float, float], ylim: tuple[float, float]) -> tuple[Any, Any]:
    fig, ax = plt.subplots(figsize=(width, height))
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.01, top=0.99)  # the drawing fills the picture
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.axis("off")
    return fig, ax


def battle_resolution() -> tuple[Any, str]:
    fig, ax = _canvas(3.8, 5.6, (0, 10), (0, 13.2))
    steps = [
        (12.2, "1. Outcome: who is defeated (win,\nlose, mutual destruction, stalemate)", "step"),
        (9.9, "2. Mission: the rescue attempt or\nbattle challenge succeeds or fails", "step"),
        (7.6, "3. End-of-battle abilities\n(they read steps 1 and 2)", "step"),
        (5.0, "Heal window: the controller may\nheal a defeated character before\nit is discarded (healed: it\nleaves the discard)", "window"),
        (1.9, "4. Discard the defeated; survivors\nreturn to their permanent\ncontroller's territory", "end"),
    ]
    heights = {"step": 1.5, "window": 2.2, "end": 1.9}
    for y, text, kind in steps:
        _box(ax, 5, y, text, kind, width=9.0, height=heights[kind] - 0.4)
    for (y1, _, k1), (y2, _, k2) in zip(steps, steps[1:]):
        _arrow(ax, (5, y1 - heights[k1] / 2 - 0.25), (5, y2 + heights[k2] / 2 + 0.25))
    return fig, ("Battle Resolution in four steps, with the heal window before the discard of step 4 "
                 "(RED-BR-ORDER, RED-BR-HEAL-WINDOW, RED-HEAL-AT-RESOLUTION).")


def side_battle_control() -> tuple[Any, str]:
    """The four control cases as one question and four rows, condition to case: narrow enough to stay
    legible in a 400 px window."""
    fig, ax = _canvas(3.8, 6.0, (0, 10), (0, 14))
    _box(ax, 5, 13.0, "Who controls the two\nselected characters?", "question", width=8.6, height=1.0)
    rows = [
        (10.4, "neither battling\nplayer", "Case 1: the user of\nthe ability decides\nwho takes which"),
        (7.5, "one battling player\ncontrols one,\nanother player\nthe other", "Case 2: that player\nkeeps theirs; the\nother battling player\ntakes the second"),
        (4.6, "the same battling\nplayer controls both;\nboth in battle or\nboth out", "Case 3: the user of\nthe ability decides\nwho takes which"),
        (1.7, "the same battling\nplayer controls both;\nexactly one in battle", "Case 4: that player\nkeeps it; the other\nplayer takes the other"),
    ]
    for y, condition, case in rows:
        _box(ax, 2.4, y, condition, "question", width=3.8, height=2.0)
        _box(ax, 7.5, y, case, "case", width=3.8, height=2.0)
        _arrow(ax, (4.75, y), (5.15, y))
    return fig, ("Who controls a side battle: the two players of the paused battle take one side each, and four cases "
                 "say who takes which selected character (RED-SB-CONTROL-OUTSIDERS, RED-SB-CONTROL-ONE-INSIDER, "
                 "RED-SB-CONTROL-SAME-UNMIXED, RED-SB-CONTROL-SAME-MIXED).")


def counterexample(scenario_name: str, mutant_name: str) -> tuple[Any, str]:
    from cardrules.properties.games import make_game, version_map
    from cardrules.properties.games import properties_for
    from cardrules.properties.engines.explore import Bounds, explore
    from cardrules.properties.scenarios import load_scenarios


    scenario = {s.name: s for s in load_scenarios()}[scenario_name]
    mutant = next(m for m in scenario.mutants if m.name == mutant_name)
    game = make_game(scenario.game, mutant)
    bounds = Bounds(max_states=scenario.max_states, max_turns=scenario.max_turns, max_depth=scenario.max_depth)
    result = explore(game, [game.state_from_json(scenario.state)], properties_for(scenario.game, version_map(scenario, mutant)),
                     bounds, stop_when_violated=frozenset(mutant.expect_violated), progress=False)
    name = next(p for p in mutant.expect_violated if p in result.violations)
    steps = result.counterexample(name)
    rows = [("start" if action is None else game.action_text(action), textwrap.wrap(game.summary(state), 50))
            for action, state in steps]
    height = sum(1 + len(lines) for _, lines in rows) + 0.4 * len(rows)
    fig, ax = _canvas(3.8, 0.3 + 0.2 * height, (0, 10), (0, height))
    y = height
    for index, (action, lines) in enumerate(rows):
        colour = "#f8d7da" if index == len(rows) - 1 else "#dbe9f6"
        ax.add_patch(FancyBboxPatch((0.1, y - 0.95), 9.8, 0.9, facecolor=colour, edgecolor="#444444",
                                    boxstyle="round,pad=0.05", linewidth=1.0))
        ax.text(0.3, y - 0.5, f"{index}. {action}" if index else action, va="center", fontsize=9)
        for number, line in enumerate(lines):
            ax.text(0.3, y - 1.55 - number, line, va="center", fontsize=8, family="DejaVu Sans Mono")
        y -= 1 + len(lines) + 0.4
    return fig, (f"The shortest counterexample with which mutant {mutant_name} of scenario {scenario_name} is caught: "
                 f"property {name} breaks at the last step (red). Under each action, the position it leads to in "
                 "the compact notation (see the notation page).")


def draw(name: str) -> tuple[Any, str]:
    """The figure and caption for a picture name (see the module docstring)."""
    fixed: dict[str, Callable[[], tuple[Any, str]]] = {
        "battle-resolution": battle_resolution,
        "side-battle-control": side_battle_control,
    }
    if name in fixed:
        return fixed[name]()
    if name.startswith("counterexample-"):
        scenario, _, mutant = name.removeprefix("counterexample-").partition(":")
        return counterexample(scenario, mutant)
    raise ValueError(f"unknown picture {name!r}")


def write_picture(name: str, folder: Path) -> tuple[Path, str]:
    """Draw picture ``name`` as SVG into ``folder``; returns the file and the caption."""
    folder.mkdir(parents=True, exist_ok=True)
    fig, caption = draw(name)
    path = folder / (name.replace(":", "--") + ".svg")
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "cardrules"})
    plt.close(fig)
    return path, caption
