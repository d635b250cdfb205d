"""What the state format leaves unspecified: fields whose value the rules do not determine.

Once a game is over the rules say nothing more about the turn's structure: no step follows the one in
which a player lost, no decision is pending, no battle goes on. The reference model leaves there
whatever it held when the game ended; another engine may hold anything of the right type. Such a
field is marked in the state schema with the keyword ``x-unspecified`` (``true``) and a description,
under the condition that makes it so (``if`` the game is over ``then`` ...), and
:func:`without_unspecified` drops it from a state before two states are compared.

The table is :data:`UNSPECIFIED`; the schema, the docs and the comparison all read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

UNSPECIFIED_KEY = "x-unspecified"
"""The schema keyword marking a field no comparison may read."""


@dataclass(frozen=True)
class Unspecified:
    """Top-level ``fields`` of a ``game``'s state that are unspecified while ``when`` (a top-level field)
    is not null."""

    game: str
    when: str
    fields: tuple[str, ...]
    reason: str
    clauses: tuple[str, ...]


UNSPECIFIED: tuple[Unspecified, ...] = (
    Unspecified(
        "fftcg", "outcome", ("step", "attack"),
        "the game is over: a player reached seven damage and lost at once, so no step of the attack phase "
        "follows and no attack goes on; the reference model keeps the step and attack it was in",
        ("FF-BASE-SEVEN-DAMAGE-LOSES",),
    ),
    Unspecified(
        "redemption", "winner", ("phase", "prompt", "battles", "records"),
        "the game is over: a player has five Lost Souls in their Land of Redemption and has won, so no "
        "phase follows, no decision is pending and no battle goes on; the reference model keeps the phase, "
        "the battle stack (with the characters and enhancements in it) and the play records as they were, "
        "and may still open the heal window of the battle that won",
        ("RED-BASE-WIN-FIVE-SOULS",),
    ),
)
"""Every unspecified field of every game's state."""


def unspecified_for(game: str) -> tuple[Unspecified, ...]:
    """The entries of :data:`UNSPECIFIED` for ``game``."""
    return tuple(u for u in UNSPECIFIED if u.game == game)


def unspecified_fields(game: str, state: Any) -> tuple[str, ...]:
    """The top-level fields of the JSON ``state`` (a ``game`` state) no comparison may read."""
    if not isinstance(state, dict):
        return ()
    return tuple(f for u in unspecified_for(game) if state.get(u.when) is not None for f in u.fields)


def without_unspecified(game: str, state: Any) -> Any:
    """``state`` without the fields that are unspecified in it (itself when there is none): what the runner
    should compare (see :func:`unspecified_fields`)."""
    dropped = unspecified_fields(game, state)
    if not dropped:
        return state
    return {key: value for key, value in state.items() if key not in dropped}


def schema_conditions(game: str) -> list[dict[str, Any]]:
    """``if``/``then`` clauses marking the unspecified fields of a ``game`` state (for its ``allOf``)."""
    out: list[dict[str, Any]] = []
    for entry in unspecified_for(game):
        note = f"Unspecified once {entry.when} is set ({', '.join(entry.clauses)}): {entry.reason}."
        out.append({
            "if": {"required": [entry.when], "properties": {entry.when: {"not": {"type": "null"}}}},
            "then": {"properties": {name: {UNSPECIFIED_KEY: True, "description": note} for name in entry.fields}},
        })
    return out
