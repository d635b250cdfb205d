"""Pictures for the spec site, drawn at build time from the project's own data (matplotlib).

``.. cardrules-picture:: NAME`` draws one picture into ``_generated/NAME.svg``
and shows it as a figure with a caption. The pictures:

* ``battle-resolution``: the four steps of Battle Resolution and the heal
  window before the discard (RED-BR-ORDER, RED-BR-HEAL-WINDOW);
* ``side-battle-control``: the four control cases as a decision tree
  (RED-SB-CONTROL-*);
* ``battle-stack``: the stack of battles along the shortest game of the
  three-player scenario that nests a side battle in the main battle,
  explored by the model;
* ``counterexample-SCENARIO-MUTANT``: the timeline of the shortest
  counterexample with which a mutant is caught.

Text stays text in the SVG (searchable, scalable); the SVG is deterministic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "cardrules", "font.size": 10,
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
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.axis("off")
    return fig, ax


def battle_resolution() -> tuple[Any, str]:
    fig, ax = _canvas(7.5, 6.2, (0, 10), (0, 10))
    steps = [
        (9.0, "1. Outcome: who is defeated\n(win, lose, mutual destruction, stalemate)", "step"),
        (7.2, "2. Mission: rescue attempt or\nbattle challenge succeeds or fails", "step"),
        (5.4, "3. End-of-battle abilities\n(they read steps 1 and 2)", "step"),
        (3.6, "Heal window: the controller may heal\na defeated character before it is discarded", "window"),
        (1.6, "4. Discard the defeated; survivors return\nto their permanent controller's territory", "end"),
    ]
    for y, text, kind in steps:
        _box(ax, 5, y, text, kind, width=6.4, height=1.2)
    for (y1, _, _), (y2, _, _) in zip(steps, steps[1:]):
        _arrow(ax, (5, y1 - 0.62), (5, y2 + 0.62))
    ax.text(8.4, 3.6, "healed: it leaves\nthe discard", fontsize=9, color="#8a4b08")
    return fig, ("Battle Resolution in four steps, with the heal window before the discard of step 4 "
                 "(RED-BR-ORDER, RED-BR-HEAL-WINDOW, RED-HEAL-AT-RESOLUTION).")


def side_battle_control() -> tuple[Any, str]:
    fig, ax = _canvas(10.5, 6.4, (0, 14.6), (0, 10.4))
    _box(ax, 7, 9.6, "Who controls the two selected characters?", "question", width=5.2)
    branches = [
        (2.4, "neither battling player"),
        (7.0, "one battling player controls one,\nanother player the other"),
        (11.6, "the same battling player\ncontrols both"),
    ]
    for x, text in branches:
        _box(ax, x, 7.3, text, "question", width=4.0, height=1.1)
        _arrow(ax, (7, 9.2), (x, 7.9))
    _box(ax, 2.4, 4.4, "Case 1: the user of the\nability decides who takes which", "case", width=4.0, height=1.1)
    _box(ax, 7.0, 4.4, "Case 2: that player keeps theirs;\nthe other battling player\ntakes the second", "case",
         width=4.0, height=1.4)
    _box(ax, 9.6, 1.3, "Case 3: both in battle or both out:\nthe user decides who takes which", "case",
         width=4.4, height=1.1)
    _box(ax, 12.3, 4.4, "Case 4: exactly one in battle:\nthat player keeps it;\nthe other player takes the other",
         "case", width=3.4, height=1.4)
    _arrow(ax, (2.4, 6.7), (2.4, 5.0))
    _arrow(ax, (7.0, 6.7), (7.0, 5.15))
    _arrow(ax, (11.2, 6.7), (9.8, 1.9), "")
    _arrow(ax, (12.0, 6.7), (12.3, 5.15), "")
    ax.text(10.85, 3.0, "both in or\nboth out", fontsize=9, color="#333333")
    ax.text(12.75, 5.9, "one in battle", fontsize=9, color="#333333")
    return fig, ("Who controls a side battle: the two players of the paused battle take one side each, and four cases "
                 "say who takes which selected character (RED-SB-CONTROL-OUTSIDERS, RED-SB-CONTROL-ONE-INSIDER, "
                 "RED-SB-CONTROL-SAME-UNMIXED, RED-SB-CONTROL-SAME-MIXED).")


def _explore(scenario_name: str, max_states: int) -> tuple[Any, Any, Any]:
    from cardrules.properties.games import make_game
    from cardrules.properties.engines.explore import Bounds, explore
    from cardrules.properties.scenarios import load_scenarios

    scenario = {s.name: s for s in load_scenarios()}[scenario_name]
    game = make_game(scenario.game, scenario.rule_sets[0])
    root = game.state_from_json(scenario.state)
    bounds = Bounds(max_states=max_states, max_turns=scenario.max_turns, max_depth=scenario.max_depth)
    return scenario, game, explore(game, [root], [], bounds, keep_edges=True, progress=False)


def battle_stack() -> tuple[Any, str]:
    _, game, result = _explore("redemption-side-battles-3p", 3000)
    target = next(i for i, s in enumerate(result.states) if len(s.battles) >= 2)
    path = result.path_to(target)
    follow = target
    # continue the game from there until the side battle is over, along the first child each time
    children: dict[int, list[int]] = {}
    for source, child, _ in result.edges or []:
        children.setdefault(source, []).append(child)
    extended = list(path)
    while len(extended) < len(path) + 8 and children.get(follow):
        follow = children[follow][0]
        extended.append((result.via[follow], result.states[follow]))
    depths = [len(state.battles) for _, state in extended]
    labels = ["start"] + [game.action_text(action) for action, _ in extended[1:]]
    fig, ax = plt.subplots(figsize=(9, 3.6))
    ax.step(range(len(depths)), depths, where="post", color="#2b6cb0", linewidth=2)
    ax.set_yticks(range(0, max(depths) + 1))
    ax.set_yticklabels(["no battle", "main battle", "main + side battle", "two side battles"][: max(depths) + 1])
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.grid(axis="y", color="#dddddd")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig, ("The stack of battles along the shortest game of scenario redemption-side-battles-3p that "
                 "starts a side battle, explored by the model: the main battle is suspended while the side "
                 "battle is fought, and resumes after it (RED-SB-SUSPEND, RED-SB-RESUME).")


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
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * len(steps)))
    for row, (action, state) in enumerate(steps):
        y = len(steps) - row
        text = "start" if action is None else game.action_text(action)
        colour = "#f8d7da" if row == len(steps) - 1 else "#dbe9f6"
        ax.add_patch(FancyBboxPatch((0.1, y - 0.3), 3.0, 0.6, facecolor=colour, edgecolor="#444444",
                                    boxstyle="round,pad=0.05", linewidth=1.0))
        ax.text(1.6, y, text, ha="center", va="center", fontsize=9)
        ax.text(3.5, y, game.summary(state)[:95], va="center", fontsize=7.5, family="DejaVu Sans Mono")
    ax.set_xlim(0, 14)
    ax.set_ylim(0.4, len(steps) + 0.6)
    ax.axis("off")
    fig.tight_layout()
    return fig, (f"The shortest counterexample with which mutant {mutant_name} of scenario {scenario_name} is caught: "
                 f"property {name} breaks at the last step (red).")


def draw(name: str) -> tuple[Any, str]:
    """The figure and caption for a picture name (see the module docstring)."""
    fixed: dict[str, Callable[[], tuple[Any, str]]] = {
        "battle-resolution": battle_resolution,
        "side-battle-control": side_battle_control,
        "battle-stack": battle_stack,
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
