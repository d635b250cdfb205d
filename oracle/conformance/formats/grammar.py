"""The action grammar of each game as data: its EBNF text, a matcher and the normal form of an action.

An action is one line of *tokens* separated by white space (any amount, as Python's ``str.split``
splits; none leading or trailing counts). A game's grammar is a set of forms, one per verb, each a
sequence of literal words, token classes (a regular expression a whole token matches, with a bound on
its value where the parser has one), optional groups and repetitions; a repetition may require its
items to be distinct and may be *sorted* in the normal form. The normal form (the canonical text the
reference model writes, and the only text a suite holds) joins the tokens with one space, sorts the
sorted repetitions by code point, and writes each number without leading zeros.

The grammar is checked against the model's parsers (``cardrules.model.fftcg.actions.parse_action``,
``cardrules.model.redemption.actions.parse``) by the tests: the same texts accepted, every action text
of the generated suites and the explored scenarios matched, the same normal form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Union

from cardrules.model.fftcg import actions as ff_actions
from cardrules.model.fftcg import state as ff_state
from cardrules.model.redemption import actions as red_actions


@dataclass(frozen=True)
class Word:
    """A literal token."""

    text: str


@dataclass(frozen=True)
class Token:
    """A token of a class: ``pattern`` matches the whole token; ``key`` (a group number) is what must be
    distinct and what sorting orders by; ``maximum`` bounds the number in group ``number``."""

    name: str
    pattern: str
    description: str
    key: int = 0
    number: int | None = None
    maximum: int | None = None

    def match(self, token: str) -> re.Match[str] | None:
        found = re.fullmatch(self.pattern, token, re.DOTALL)
        if found is None or (self.number is not None and self.maximum is not None
                             and int(found.group(self.number)) > self.maximum):
            return None
        return found

    def normal(self, found: re.Match[str]) -> str:
        """The token in normal form: its number without leading zeros."""
        if self.number is None:
            return found.group(0)
        start, end = found.span(self.number)
        text = found.group(0)
        return text[:start] + str(int(found.group(self.number))) + text[end:]


@dataclass(frozen=True)
class Many:
    """``item {item}`` (``minimum`` items or more, exactly ``exactly`` when given)."""

    item: Token
    minimum: int = 1
    exactly: int | None = None
    distinct: bool = False
    sort: bool = False


@dataclass(frozen=True)
class Opt:
    """``[ ... ]``: the group, or nothing."""

    parts: tuple[Part, ...]


Part = Union[Word, Token, Many, Opt]


@dataclass(frozen=True)
class Form:
    """One verb's form: its name, its parts (the verb's word first) and a note (side conditions, meaning)."""

    name: str
    parts: tuple[Part, ...]
    note: str = ""


@dataclass(frozen=True)
class Grammar:
    game: str
    forms: tuple[Form, ...]
    tokens: tuple[Token, ...]
    max_length: int
    canonical: Callable[[str], str]
    """The model's parser then its canonical text (raises on a text it refuses)."""


_FF_ID = Token("id", r"[A-Za-z0-9_-]{1,%d}" % ff_state.MAX_TEXT,
               f"letters, digits, '_' and '-', at most {ff_state.MAX_TEXT} characters")
_FF_SHARE = Token("share", r"([A-Za-z0-9_-]{1,%d})=([0-9]{1,7})" % ff_state.MAX_TEXT,
                  f"id '=' amount as one token; amount ASCII digits, at most {ff_state.MAX_AMOUNT}",
                  key=1, number=2, maximum=ff_state.MAX_AMOUNT)

FFTCG = Grammar(
    "fftcg",
    (
        Form("attack", (Word("attack"), Many(_FF_ID, distinct=True, sort=True)),
             "one Forward attacks, or two or more as a party; ids distinct"),
        Form("block", (Word("block"), _FF_ID), "the defending player blocks with this Forward"),
        Form("noblock", (Word("noblock"),), "the defending player does not block"),
        Form("split", (Word("split"), Many(_FF_SHARE, distinct=True, sort=True)),
             "the blocker's damage divided among the party; ids distinct; the normal form names every "
             "member, zeros included"),
        Form("remove", (Word("remove"), _FF_ID), "this Forward leaves the field by an effect"),
        Form("pass", (Word("pass"),), "go on to the next step, or resolve this damage part"),
        Form("end-turn", (Word("end-turn"),), "end the turn"),
    ),
    (_FF_ID, _FF_SHARE),
    ff_actions.MAX_ACTION_TEXT,
    lambda text: str(ff_actions.parse_action(text)),
)

_RED_CARD = Token("card", r"(?!#)(?!(?:on|->|with)\Z).{1,%d}" % red_actions.MAX_TOKEN,
                  f"a card id: at most {red_actions.MAX_TOKEN} characters, not starting with '#', "
                  "not 'on', '->' or 'with'")
_RED_TARGET = Token("target", r"#([0-9]{1,6})|(?!#)(?!(?:on|->|with)\Z).{1,%d}" % red_actions.MAX_TOKEN,
                    "a card id, or '#' and the number of a play record (one to six ASCII digits)", number=None)
_RED_PLAYER = Token("player", r"([0-9]{1,6})", "a player's seat number, one to six ASCII digits", number=1)

REDEMPTION = Grammar(
    "redemption",
    (
        Form("draw", (Word("draw"),), "draw phase: draw"),
        Form("next", (Word("next"),), "end the current phase"),
        Form("put", (Word("put"), _RED_CARD), "preparation: a character from hand to territory"),
        Form("attack", (Word("attack"), _RED_PLAYER, Many(_RED_CARD, distinct=True, sort=True)),
             "Heroes enter battle against that player; cards distinct"),
        Form("block", (Word("block"), Many(_RED_CARD, distinct=True, sort=True)), "block with these Evil Characters"),
        Form("noblock", (Word("noblock"),), "decline to block"),
        Form("play", (Word("play"), _RED_CARD, Word("on"), _RED_CARD,
                      Opt((Word("->"), Many(_RED_TARGET)))),
             "play an enhancement on a character, with targets in order (a redirect: '#n' first, then the new "
             "targets); the two targets of a side battle card are sorted by the engine, not by the grammar"),
        Form("pass", (Word("pass"),), "the player with initiative passes"),
        Form("sides", (Word("sides"), Many(_RED_CARD, exactly=2, distinct=True)),
             "the first card goes to the first battling player; two different cards"),
        Form("use", (Word("use"), _RED_CARD, Opt((Word("->"), Many(_RED_CARD, exactly=2, sort=True)))),
             "a player outside the battle uses a side battle card, blank or on two characters"),
        Form("decline", (Word("decline"),), "special initiative: no answer"),
        Form("discard", (Word("discard"),), "heal window: let the pending discard complete"),
        Form("heal", (Word("heal"), _RED_CARD, Word("with"), _RED_CARD), "heal the first card with the second"),
    ),
    (_RED_CARD, _RED_TARGET, _RED_PLAYER),
    red_actions.MAX_ACTION_TEXT,
    lambda text: red_actions.parse(text).text(),
)

GRAMMARS: dict[str, Grammar] = {"fftcg": FFTCG, "redemption": REDEMPTION}


# --- matching -----------------------------------------------------------------------------


def normal_form(game: str, text: str) -> str | None:
    """The normal form of ``text`` if it is an action of ``game``'s grammar, else None."""
    grammar = GRAMMARS[game]
    if len(text) > grammar.max_length:
        return None
    tokens = text.split()
    for form in grammar.forms:
        for out, used in _match(form.parts, tokens, 0):
            if used == len(tokens):
                return " ".join(out)
    return None


def matches(game: str, text: str) -> bool:
    """Whether ``text`` is an action of ``game``'s grammar."""
    return normal_form(game, text) is not None


def _match(parts: tuple[Part, ...], tokens: list[str], at: int) -> Iterator[tuple[list[str], int]]:
    """Every way ``parts`` match ``tokens`` from ``at``: (normal-form tokens, position after)."""
    if not parts:
        yield [], at
        return
    head, rest = parts[0], parts[1:]
    for out, after in _match_one(head, tokens, at):
        for more, end in _match(rest, tokens, after):
            yield out + more, end


def _match_one(part: Part, tokens: list[str], at: int) -> Iterator[tuple[list[str], int]]:
    if isinstance(part, Word):
        if at < len(tokens) and tokens[at] == part.text:
            yield [part.text], at + 1
    elif isinstance(part, Token):
        found = part.match(tokens[at]) if at < len(tokens) else None
        if found is not None:
            yield [part.normal(found)], at + 1
    elif isinstance(part, Opt):
        yield from _match(part.parts, tokens, at)
        yield [], at
    else:
        yield from _match_many(part, tokens, at)


def _match_many(part: Many, tokens: list[str], at: int) -> Iterator[tuple[list[str], int]]:
    found: list[re.Match[str]] = []
    while at + len(found) < len(tokens):
        one = part.item.match(tokens[at + len(found)])
        if one is None:
            break
        found.append(one)
    counts = [part.exactly] if part.exactly is not None else range(len(found), part.minimum - 1, -1)
    for count in counts:
        if count > len(found):
            continue
        items = found[:count]
        keys = [m.group(part.item.key) for m in items]
        if part.distinct and len(set(keys)) != len(keys):
            continue
        if part.sort:
            items = [m for _, m in sorted(zip(keys, items), key=lambda pair: pair[0])]
        yield [part.item.normal(m) for m in items], at + count


# --- the EBNF text --------------------------------------------------------------------------


def ebnf(game: str) -> str:
    """The grammar of ``game``'s actions as EBNF text, with the normal form and each side condition."""
    grammar = GRAMMARS[game]
    names = [f.name for f in grammar.forms]
    width = max(len(n) for n in names + [t.name for t in grammar.tokens])
    lines = [
        f"(* {game} actions: tokens separated by white space; at most {grammar.max_length} characters in all. *)",
        "(* Normal form: tokens joined by one space, {sorted} repetitions in code-point order of their key, *)",
        "(* numbers without leading zeros. A suite holds only normal forms. *)",
        "",
        f"{'action'.ljust(width)} = {' | '.join(names)} ;",
    ]
    for form in grammar.forms:
        lines.append(f"{form.name.ljust(width)} = {' '.join(_part_text(p) for p in form.parts)} ;"
                     + (f"  (* {form.note} *)" if form.note else ""))
    lines.append("")
    for token in grammar.tokens:
        lines.append(f"{token.name.ljust(width)} = ? /{token.pattern}/ ? ;  (* {token.description} *)")
    return "\n".join(lines) + "\n"


def _part_text(part: Part) -> str:
    if isinstance(part, Word):
        return f'"{part.text}"'
    if isinstance(part, Token):
        return part.name
    if isinstance(part, Opt):
        return "[ " + " ".join(_part_text(p) for p in part.parts) + " ]"
    if part.exactly is not None:
        text = " ".join([part.item.name] * part.exactly)
    else:
        text = " ".join([part.item.name] * part.minimum) + " { " + part.item.name + " }"
    marks = [m for m, on in (("distinct", part.distinct), ("sorted", part.sort)) if on]
    return f"{text} (* {', '.join(marks)} *)" if marks else text


def examples(game: str) -> list[str]:
    """One text per form, made of simple tokens (for tests and the docs)."""
    return [" ".join(t for t in (_sample(p) for p in form.parts) if t) for form in GRAMMARS[game].forms]


SAMPLES: dict[str, Callable[[int], str]] = {
    "id": lambda n: f"a{n}", "share": lambda n: f"a{n}=3000", "card": lambda n: f"c{n}",
    "target": lambda n: f"#{n}", "player": lambda n: str(n),
}
"""A simple token of each class, numbered."""


def _sample(part: Part) -> str:
    if isinstance(part, Word):
        return part.text
    if isinstance(part, Token):
        return SAMPLES[part.name](1)
    if isinstance(part, Opt):
        return ""
    count = part.exactly or part.minimum
    return " ".join(SAMPLES[part.item.name](n + 1) for n in range(count))
