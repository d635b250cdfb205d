"""The two state profiles an engine may speak: ``full`` (the model's exact JSON state) and ``observable``.

Under the ``observable`` profile the engine's ``state`` reply is the game's observable JSON form
(``observable_json`` in :mod:`cardrules.model.fftcg.observable` and
:mod:`cardrules.model.redemption.observable`); the runner compares it with the observable form
of the vector's expected full state (a ``cardrules-vectors/4`` step carries it as ``observable``).

Fields whose value the rules leave open are never compared: in the full form those of
:mod:`.formats.unspecified`, in the observable form :data:`OBSERVABLE_UNSPECIFIED` (the same
fields under their observable names).
"""

from __future__ import annotations

from typing import Any

from cardrules.oracle.conformance.formats.unspecified import without_unspecified

OBSERVABLE_UNSPECIFIED: dict[str, tuple[str, tuple[str, ...]]] = {
    "fftcg": ("winner", ("step", "decider", "attack")),
    "redemption": ("winner", ("phase", "decision", "battles")),
}
"""Per game: the observable field that, once not null, makes the listed fields unspecified (the game is over)."""


def observable_of(game: str, state: Any) -> Any:
    """The observable JSON form of a ``game`` full JSON state (loaded and checked by the model)."""
    if game == "fftcg":
        from cardrules.model.fftcg.observable import observable_json as fftcg_json
        from cardrules.model.fftcg.validate import load_state as load_fftcg

        return fftcg_json(load_fftcg(state))
    if game == "redemption":
        from cardrules.model.redemption.observable import observable_json as redemption_json
        from cardrules.model.redemption.validate import load_state as load_redemption

        return redemption_json(load_redemption(state))
    raise ValueError(f"unknown game {game!r}")


def comparable(game: str, profile: str, state: Any) -> Any:
    """``state`` (in ``profile``'s form) without the fields no comparison may read."""
    if profile == "full":
        return without_unspecified(game, state)
    if not isinstance(state, dict) or game not in OBSERVABLE_UNSPECIFIED:
        return state
    when, fields = OBSERVABLE_UNSPECIFIED[game]
    if state.get(when) is None:
        return state
    return {key: value for key, value in state.items() if key not in fields}
