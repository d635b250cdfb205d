"""What an engine declares in its hello (``cardrules-adapter/2``).

The runner opens every adapter session with ``{"op":"hello","protocol":"cardrules-adapter/2"}``.
A protocol 2 adapter answers with what its engine implements (see
:mod:`cardrules.oracle.conformance.runner` for the fields); a protocol 1 adapter answers
``ok: false`` (any error) and is taken to implement everything, in the model's full state form,
under the default readings (:data:`LEGACY`): exactly the behaviour before the hello existed. A reply
``ok: true`` naming neither ``profile`` nor ``games`` is taken as a protocol 1 adapter too (one that
answers every request ``ok``).

:func:`parse_hello` checks a hello reply field by field; a malformed one is a :class:`HelloError`
(bad input: one line naming the field).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

PROTOCOL = "cardrules-adapter/2"
"""The protocol name the runner sends in its hello."""

HELLO: dict[str, Any] = {"op": "hello", "protocol": PROTOCOL}
"""The runner's first request to every adapter process."""

PROFILES = ("observable", "full")
"""``observable``: state replies are the game's observable JSON form; ``full``: the model's exact state."""

COMPARE_AT = ("every-step", "decisions")
"""Where states are compared: after every step (the default), or only where a player decides."""


class HelloError(ValueError):
    """A hello reply that is not a valid declaration (bad input; the message names the field)."""


@dataclass(frozen=True)
class Declaration:
    """What one engine declared it implements."""

    engine: str
    """The engine's name (``""`` when not given)."""
    protocol: int
    """1: a legacy adapter (no hello); 2: the hello was answered."""
    profile: str
    """``observable`` or ``full``."""
    features: Mapping[str, frozenset[str]] | None
    """The implemented features per game (a game not named implements none beyond its core);
    ``None``: a legacy adapter, every feature implemented."""
    readings: Mapping[str, str] = field(default_factory=dict)
    """Decision id -> option id the engine implements (decisions not named: the catalogue's chosen option)."""
    macro_steps: frozenset[str] = frozenset()
    """Steps the engine merges into the action before them (see :mod:`cardrules.oracle.conformance.macro`)."""
    compare_at: str = "every-step"
    """``every-step`` or ``decisions``."""

    def lacks(self, game: str, needed: Iterable[str]) -> tuple[str, ...]:
        """The features in ``needed`` that the engine did not declare for ``game``, sorted."""
        if self.features is None:
            return ()
        have = self.features.get(game, frozenset())
        return tuple(sorted(set(needed) - have))

    def reading(self, decision: str) -> str | None:
        """The option the engine declared for ``decision`` (``None``: the default)."""
        return self.readings.get(decision)


LEGACY = Declaration(engine="", protocol=1, profile="full", features=None, readings={},
                     macro_steps=frozenset(), compare_at="every-step")
"""A protocol 1 adapter: full states at every step, every feature, the default readings, no macro steps."""


def parse_hello(reply: Mapping[str, Any]) -> Declaration:
    """The declaration in a hello reply; ``ok: false`` (any error) is a legacy adapter (:data:`LEGACY`)."""
    if not isinstance(reply, Mapping):
        raise HelloError("hello reply: not an object")
    if reply.get("ok") is not True or ("profile" not in reply and "games" not in reply):
        return LEGACY  # an error, or an adapter answering ok to any request: protocol 1
    engine = reply.get("engine", "")
    if not isinstance(engine, str):
        raise HelloError("hello reply: 'engine' must be a string")
    profile = reply.get("profile", "full")
    if profile not in PROFILES:
        raise HelloError(f"hello reply: 'profile' must be one of {', '.join(PROFILES)}, not {profile!r}")
    compare_at = reply.get("compare_at", "every-step")
    if compare_at not in COMPARE_AT:
        raise HelloError(f"hello reply: 'compare_at' must be one of {', '.join(COMPARE_AT)}, not {compare_at!r}")
    features, readings = _games(reply.get("games", {}))
    macro = reply.get("macro_steps", [])
    if not isinstance(macro, list) or not all(isinstance(m, str) for m in macro):
        raise HelloError("hello reply: 'macro_steps' must be a list of strings")
    _check_known(features, readings, frozenset(macro))
    return Declaration(engine=engine, protocol=2, profile=profile, features=features, readings=readings,
                       macro_steps=frozenset(macro), compare_at=compare_at)


def _games(games: Any) -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    if not isinstance(games, Mapping):
        raise HelloError("hello reply: 'games' must be an object (game -> features and readings)")
    features: dict[str, frozenset[str]] = {}
    readings: dict[str, str] = {}
    for game, entry in games.items():
        where = f"hello reply: games.{game}"
        if not isinstance(entry, Mapping):
            raise HelloError(f"{where}: must be an object")
        unknown = sorted(set(entry) - {"features", "readings"})
        if unknown:
            raise HelloError(f"{where}.{unknown[0]}: unknown field (expected features, readings)")
        listed = entry.get("features", [])
        if not isinstance(listed, list) or not all(isinstance(f, str) for f in listed):
            raise HelloError(f"{where}.features: must be a list of feature ids")
        features[str(game)] = frozenset(listed)
        chosen = entry.get("readings", {})
        if not isinstance(chosen, Mapping) or not all(isinstance(v, str) for v in chosen.values()):
            raise HelloError(f"{where}.readings: must be an object (decision id -> option id)")
        readings.update({str(k): v for k, v in chosen.items()})
    return features, readings


def _check_known(features: Mapping[str, frozenset[str]], readings: Mapping[str, str],
                 macro: frozenset[str]) -> None:
    """Every game, feature, decision, option and macro step named exists."""
    from cardrules.oracle.conformance.macro import MACRO_STEPS
    from cardrules.specs.catalogue.features import load_features
    from cardrules.specs.catalogue.load import default_catalogue

    known = load_features()
    for game, listed in features.items():
        if game not in known:
            raise HelloError(f"hello reply: games.{game}: unknown game (expected {', '.join(sorted(known))})")
        ids = {f.id for f in known[game]}
        for name in sorted(listed - ids):
            raise HelloError(f"hello reply: games.{game}.features: unknown feature {name!r}")
    decisions = default_catalogue().decisions
    for decision, option in sorted(readings.items()):
        if decision not in decisions:
            raise HelloError(f"hello reply: readings.{decision}: unknown decision")
        if option not in {o.id for o in decisions[decision][1].options}:
            hint = decisions[decision][1].rejected_hint(option)
            raise HelloError(f"hello reply: readings.{decision}: unknown option {option!r}{hint}")
    for name in sorted(macro - set(MACRO_STEPS)):
        raise HelloError(f"hello reply: macro_steps: unknown macro step {name!r} "
                         f"(expected one of {', '.join(sorted(MACRO_STEPS))})")
