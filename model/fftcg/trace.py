"""A readable playthrough: for each step, the legal actions, the action taken
and what happened. Meant for golden files and for comparing engines line by line.

Format (one block per action)::

    turn 1, player 0, attack-declaration | damage 0-0
      legal: attack a1 | attack a2 | attack a1 a2 | ...
      > attack a1 a2
      event: damage a1+a2 -> b1 8000
"""

from __future__ import annotations

from typing import Iterable

from cardrules.model.fftcg.actions import parse_action
from cardrules.model.fftcg.config import DEFAULT, RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import Event, State


def describe_event(event: Event) -> str:
    """One event as text, e.g. ``damage a1+a2 -> b1 8000`` or ``break b1 by a1+a2``."""
    sources = "+".join(event.sources) or "-"
    if event.kind in ("damage", "hit"):
        return f"{event.kind} {sources} -> {event.target} {event.amount}"
    if event.kind == "break":
        return f"break {event.target} by {sources}"
    if event.kind == "remove":
        return f"remove {event.target}"
    return f"disband {sources}"


def describe_state(state: State) -> str:
    """The header line of a block."""
    damage = "-".join(str(p.damage) for p in state.players)
    head = f"turn {state.turn}, player {state.turn_player}, {state.step.value} | damage {damage}"
    if state.outcome is not None:
        head += f" | player {state.outcome.winner} wins"
    return head


def _legal_line(state: State, config: RuleConfig) -> str:
    return ("  legal: " + " | ".join(str(a) for a in legal_actions(state, config))).rstrip()


def playthrough(state: State, actions: Iterable[str], config: RuleConfig = DEFAULT) -> str:
    """Play ``actions`` (text) from ``state`` and return the readable trace."""
    lines: list[str] = []
    for text in actions:
        action = parse_action(text)
        lines.append(describe_state(state))
        lines.append(_legal_line(state, config))
        lines.append(f"  > {action}")
        before = len(state.events)
        after = step(state, action, config)
        new_events = after.events[before:] if after.turn == state.turn else after.events
        lines.extend(f"  event: {describe_event(e)}" for e in new_events)
        state = after
    lines.append(describe_state(state))
    lines.append(_legal_line(state, config))
    return "\n".join(lines) + "\n"
