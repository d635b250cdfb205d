"""Board pictures of an example's position, drawn as inline SVG from the example's own state JSON.

Where the position matters to the ruling, a picture shows it: an FFTCG party
attack with its blocker (the split of the blocker's power), and the battle
stack of a Redemption position with a side battle (what is on hold and what is
fought). The heal revision page draws the moment where the two wordings part
(:mod:`cardrules_changes`). The picture reads the same state the example stores
and the "Try it" link carries, so it cannot drift from the example; the names
come from the narrators (:mod:`cardrules.oracle.examples`), so the picture
names a card as the example's words do.

Text is wrapped at word boundaries inside its box (never cut mid-word) and the
picture is 360 units wide, about its size in a 400 px window. The SVG goes
into the page through a node of its own (:class:`board`), not raw HTML, so its
words do not enter the search index. The functions are pure: tests call them
without a build.
"""

from __future__ import annotations

from html import escape
from typing import Any

from cardrules.oracle.examples import narrate_fftcg, narrate_redemption, stored_examples
from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx

WIDTH = 360
"""The picture's width in SVG units (its width in px in a 400 px window, give or take the margins)."""
PAD = 8
FONT = 12
LINE = 15
CHAR = 0.64
"""Width of a character as a share of the font size, wide enough for DejaVu Sans and Verdana capitals: a
line never runs past its box in a browser's sans-serif font."""
COLOURS = {"attack": "#dbe9f6", "block": "#fde2c8", "side": "#e8def8", "battle": "#dbe9f6", "zone": "#f3f3f3",
           "hold": "#eeeeee"}


def wrap(text: str, width: float, size: int = FONT) -> list[str]:
    """``text`` in lines of at most ``width`` units at font ``size``, broken only between words."""
    room = max(1, int(width / (size * CHAR)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


class Canvas:
    """SVG elements laid out top to bottom; :meth:`svg` closes the picture at the height used."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.parts: list[str] = []
        self.y: float = PAD

    def text(self, x: float, y: float, lines: list[str], size: int = FONT, weight: str = "normal") -> float:
        """Lines of text from ``(x, y)`` (the first line's top); returns the height used."""
        for index, line in enumerate(lines):
            self.parts.append(f'<text x="{x:g}" y="{y + size + index * (size + 3):g}" font-size="{size}" '
                              f'font-weight="{weight}">{escape(line)}</text>')
        return len(lines) * (size + 3)

    def box(self, x: float, y: float, w: float, lines: list[list[str]], colour: str, data: str = "",
            bold_first: bool = True) -> float:
        """A rounded box of paragraphs (the first in bold) at ``(x, y)``, ``w`` wide; returns its height."""
        height = 6 + sum(len(p) for p in lines) * LINE + 4
        extra = f' data-card="{escape(data)}"' if data else ""
        self.parts.append(f'<g class="board-box"{extra}><rect x="{x:g}" y="{y:g}" width="{w:g}" height="{height:g}" '
                          f'rx="5" fill="{colour}" stroke="#555"/>')
        top = y + 4
        for index, paragraph in enumerate(lines):
            top += self.text(x + 6, top, paragraph, weight="bold" if index == 0 and bold_first else "normal")
        self.parts.append("</g>")
        return height

    def heading(self, words: str, size: int = FONT) -> None:
        self.y += self.text(PAD, self.y, wrap(words, WIDTH - 2 * PAD, size), size=size, weight="bold") + 4

    def svg(self) -> str:
        height = self.y + PAD
        return (f'<svg class="board-svg" viewBox="0 0 {WIDTH} {height:g}" width="{WIDTH}" height="{height:g}" '
                f'role="img" aria-label="{escape(self.label)}" xmlns="http://www.w3.org/2000/svg" '
                f'font-family="DejaVu Sans, Verdana, sans-serif" fill="#222">' + "".join(self.parts) + "</svg>")


def _row(canvas: Canvas, cards: list[tuple[list[list[str]], str]], colour: str) -> None:
    """Boxes side by side across the picture (wrapped to two rows when more than three)."""
    for start in range(0, len(cards), 3):
        chunk = cards[start:start + 3]
        w = (WIDTH - PAD * (len(chunk) + 1)) / len(chunk)
        heights = [canvas.box(PAD + i * (w + PAD), canvas.y, w, [sum((wrap(p, w - 12) for p in para), [])
                                                                  for para in lines], colour, data)
                   for i, (lines, data) in enumerate(chunk)]
        canvas.y += max(heights) + PAD


def _forward_lines(state: dict[str, Any], forward: dict[str, Any]) -> list[list[str]]:
    name = narrate_fftcg.name_of(state, forward["id"])
    facts = ["/".join(e.title() for e in sorted(forward["elements"])), "dull" if forward.get("dull") else "active"]
    if forward.get("damage"):
        facts.append(f"{forward['damage']} damage on it")
    for flag, words in (("preemptive", "Pre-emptive Strike"), ("brave", "Brave"), ("p_icon", "P icon")):
        if forward.get(flag):
            facts.append(words)
    return [[name], [f"{forward['power']} power"], [", ".join(facts)]]


def fftcg_board(state: dict[str, Any]) -> str:
    """The attack under way: the attacking party (or Forward) and the blocker, or that there is none."""
    attack = state["attack"]
    turn, defender = state["turn_player"], 1 - state["turn_player"]
    forwards = {f["id"]: f for seat in state["players"] for f in seat["forwards"]}
    attackers = [forwards[i] for i in attack["attackers"] if i in forwards]
    canvas = Canvas(narrate_fftcg.position(state))
    what = "party" if attack["party"] else "attacker"
    canvas.heading(f"{narrate_fftcg.player(turn)}'s attacking {what}")
    _row(canvas, [(_forward_lines(state, f), f["id"]) for f in attackers], COLOURS["attack"])
    blocker = forwards.get(attack.get("blocker") or "")
    if blocker is not None:
        canvas.heading(f"blocked by {narrate_fftcg.player(defender)}'s Forward")
        _row(canvas, [(_forward_lines(state, blocker), blocker["id"])], COLOURS["block"])
    else:
        said = {True: "blocked, but the blocker has left the field", False: "not blocked",
                None: "no block declared yet"}[attack.get("blocked")]
        canvas.heading(f"{narrate_fftcg.player(defender)}: {said}")
    return canvas.svg()


def _fighter_lines(state: dict[str, Any], fighter: dict[str, Any]) -> list[str]:
    lines = [narrate_redemption.card_words(state, fighter["card"], fighter["permanent"])]
    lines += [f"with {narrate_redemption.card_words(state, e)}" for e in fighter["enhancements"]]
    return lines


def _battle(canvas: Canvas, state: dict[str, Any], battle: dict[str, Any], on_hold: bool) -> None:
    a, b = (narrate_redemption.player(p) for p in battle["players"])
    kind = {"rescue": f"{a}'s rescue attempt against {b}", "challenge": f"{a}'s battle challenge against {b}",
            "side": "a side battle"}[battle["kind"]]
    when = " (on hold)" if on_hold else " (being fought)"
    colour = COLOURS["hold"] if on_hold else COLOURS["side" if battle["kind"] == "side" else "battle"]
    top, frame = canvas.y, len(canvas.parts)
    canvas.parts.append("")  # the battle's frame, drawn once its height is known
    inner = WIDTH - 2 * PAD - 12
    canvas.y += 4
    canvas.y += canvas.text(PAD + 6, canvas.y, wrap(f"Battle {battle['id']}, {kind}{when}", inner), weight="bold")
    column = (inner - PAD) / 2
    heights = []
    for index, side in enumerate(battle["sides"]):
        x = PAD + 6 + index * (column + PAD)
        y = canvas.y + 4
        y += canvas.text(x, y, wrap(f"{narrate_redemption.player(battle['players'][index])}'s side", column),
                         weight="bold")
        for fighter in side or []:
            lines = sum((wrap(line, column - 12) for line in _fighter_lines(state, fighter)), [])
            y += canvas.box(x, y + 2, column, [lines], "#ffffff", fighter["card"], bold_first=False) + 4
        if not side:
            y += canvas.text(x, y, ["nobody"])
        heights.append(y - canvas.y)
    canvas.y += max(heights) + 6
    canvas.parts[frame] = (f'<rect x="{PAD}" y="{top:g}" width="{WIDTH - 2 * PAD}" height="{canvas.y - top:g}" '
                           f'rx="6" fill="{colour}" stroke="#555"/>')
    canvas.y += PAD


ZONES = (("territory", "Territory"), ("hand", "Hand"), ("discard", "Discard pile"), ("bondage", "Land of Bondage"),
         ("redemption", "Land of Redemption"))


def redemption_board(state: dict[str, Any], zones: bool = False) -> str:
    """The battle stack, top (the battle being fought) first; with ``zones``, each player's non-empty zones too."""
    battles = state["battles"]
    canvas = Canvas(narrate_redemption.position(state))
    if battles:
        canvas.heading("The battle stack, top first" if len(battles) > 1 else "The battle")
    for depth in range(len(battles) - 1, -1, -1):
        _battle(canvas, state, battles[depth], on_hold=depth < len(battles) - 1)
    if zones or not battles:
        for index, seat in enumerate(state["zones"]):
            shown = [(words, seat[key]) for key, words in ZONES if seat[key]]
            if not shown:
                continue
            canvas.heading(narrate_redemption.player(index))
            for words, cards in shown:
                said = ", ".join(narrate_redemption.card_words(state, c, index) for c in cards)
                canvas.y += canvas.text(PAD + 6, canvas.y, wrap(f"{words}: {said}", WIDTH - 2 * PAD - 6)) + 2
            canvas.y += 4
    return canvas.svg()


def needs_board(example: dict[str, Any]) -> bool:
    """Whether the position of an example matters enough to draw: a party attack in FFTCG, a side battle on
    the stack in Redemption."""
    state = example["state"]
    if example["game"] == "fftcg":
        return bool(state.get("attack") and state["attack"].get("party"))
    return any(b["kind"] == "side" for b in state.get("battles", []))


def board_svg(game: str, state: dict[str, Any], zones: bool = False) -> str:
    return fftcg_board(state) if game == "fftcg" else redemption_board(state, zones)


class board(nodes.General, nodes.Element):
    """An SVG picture, written into the HTML as it is (and into no search index)."""


def visit_board(translator: Any, node: board) -> None:
    translator.body.append(f'<figure class="board-picture">{node["svg"]}</figure>')
    raise nodes.SkipNode


def skip_board(translator: Any, node: board) -> None:
    raise nodes.SkipNode


class BoardDirective(Directive):
    """``.. cardrules-board:: EXAMPLE-ID``: the board picture of a stored example's position (``:zones:``: with
    each player's zones as well as the battles)."""

    required_arguments = 1
    option_spec = {"zones": directives.flag}

    def run(self) -> list[nodes.Node]:
        found = [e for e in stored_examples() if e["id"] == self.arguments[0]]
        if not found:
            raise self.error(f"cardrules-board: no stored example {self.arguments[0]!r}")
        return [board(svg=board_svg(found[0]["game"], found[0]["state"], zones="zones" in self.options))]


def board_lines(example: dict[str, Any]) -> list[str]:
    """The reST, inside an example's box, of its picture (nothing when its position is not drawn)."""
    return [f"   .. cardrules-board:: {example['id']}", ""] if needs_board(example) else []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_node(board, html=(visit_board, None), text=(skip_board, None), latex=(skip_board, None),
                 man=(skip_board, None), texinfo=(skip_board, None))
    app.add_directive("cardrules-board", BoardDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

