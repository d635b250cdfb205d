"""What the adapter declared, and what the engine lacks: the report's first and last parts.

The first lines of a report say which engine answered and what it declared
in its hello (protocol 2: profile, features, readings, macro steps, where
states are compared; a protocol 1 adapter declares nothing and is taken to
implement everything). The last part lists what the engine lacks: the
features of each game run that it did not declare, with the vectors skipped
for each (never sent to it), and the readings it declared, with the vectors
classified ``reading`` (differences only where a declared reading applies).
"""

from __future__ import annotations

from typing import Any, Sequence

from cardrules.oracle.conformance.declaration import Declaration
from cardrules.oracle.conformance.runner import VectorResult
from cardrules.specs.catalogue.features import Feature, load_features


READING_SKIP = "reading "
"""How a vector's ``skipped_for`` names a suite's reading the engine did not declare (``reading d=x``)."""


def vectors(n: int) -> str:
    return f"{n} vector{'s' if n != 1 else ''}"


def declaration_json(declaration: Declaration) -> dict[str, Any]:
    """The declaration as ``--json`` gives it (``features`` null: a protocol 1 adapter, everything implemented)."""
    features = declaration.features
    return {
        "engine": declaration.engine, "protocol": declaration.protocol, "profile": declaration.profile,
        "features": None if features is None else {g: sorted(f) for g, f in sorted(features.items())},
        "readings": dict(sorted(declaration.readings.items())),
        "macro_steps": sorted(declaration.macro_steps), "compare_at": declaration.compare_at,
    }


def declaration_lines(declaration: Declaration) -> list[str]:
    """The report's first lines: the engine and what it declared."""
    if declaration.protocol < 2:
        return ["adapter: a protocol 1 adapter (no hello): full states compared at every step, every feature taken "
                "as implemented, the default readings", ""]
    engine = declaration.engine or "(unnamed engine)"
    lines = [f"adapter: {engine}, protocol {declaration.protocol}, profile {declaration.profile}, "
             f"states compared at {declaration.compare_at}"]
    if declaration.features is None:
        lines.append("  features: every one")
    for game, features in sorted((declaration.features or {}).items()):
        lines.append(f"  features declared, {game}: {', '.join(sorted(features)) or '(none: the core only)'}")
    readings = ", ".join(f"{d} = {o}" for d, o in sorted(declaration.readings.items()))
    lines.append(f"  readings: {readings or '(the defaults)'}")
    if declaration.macro_steps:
        lines.append(f"  macro steps: {', '.join(sorted(declaration.macro_steps))}")
    return lines + [""]


def _all_features() -> dict[str, tuple[Feature, ...]]:
    return load_features()


def undeclared(declaration: Declaration | None, games: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(game, feature id, title)`` of every feature of ``games`` the engine did not declare."""
    if declaration is None or declaration.features is None:
        return []
    known = _all_features()
    games = list(games) or sorted(declaration.features)
    return [(game, f.id, f.title) for game in games for f in known.get(game, ())
            if f.id not in declaration.features.get(game, frozenset())]


def skipped_counts(results: Sequence[VectorResult]) -> dict[str, int]:
    """Feature id -> vectors skipped for lack of it."""
    out: dict[str, int] = {}
    for r in results:
        if r.verdict == "skipped":
            for feature in r.skipped_for:
                out[feature] = out.get(feature, 0) + 1
    return dict(sorted(out.items()))


def reading_counts(results: Sequence[VectorResult]) -> dict[str, int]:
    """Decision id -> vectors classified ``reading`` because of it."""
    out: dict[str, int] = {}
    for r in results:
        if r.verdict == "reading":
            for reading in r.reading:  # "decision=option"
                decision = reading.split("=", 1)[0]
                out[decision] = out.get(decision, 0) + 1
    return dict(sorted(out.items()))


def lacks_json(results: Sequence[VectorResult], declaration: Declaration | None, games: Sequence[str]) -> dict[str, Any]:
    """The ``skipped`` and ``reading`` parts of ``--json``."""
    skipped, reading = skipped_counts(results), reading_counts(results)
    missing = undeclared(declaration, games)
    other = {f: n for f, n in skipped.items() if f.startswith(READING_SKIP)}
    ids = [f for _, f, _ in missing] + [f for f in skipped if f not in {m[1] for m in missing} and f not in other]
    readings = dict(declaration.readings) if declaration is not None else {}
    return {
        "skipped": {"vectors": sum(r.verdict == "skipped" for r in results),
                    "features": [{"feature": f, "vectors": skipped.get(f, 0)} for f in ids],
                    "other_readings": [{"reading": f[len(READING_SKIP):], "vectors": n} for f, n in other.items()]},
        "reading": {"vectors": sum(r.verdict == "reading" for r in results),
                    "decisions": [{"decision": d, "option": readings.get(d), "vectors": reading.get(d, 0)}
                                  for d in sorted(set(readings) | set(reading))]},
    }


def lacks_lines(results: Sequence[VectorResult], declaration: Declaration | None, games: Sequence[str]) -> list[str]:
    """The report's last part: undeclared features with the vectors skipped, declared readings with the vectors
    classified ``reading`` (nothing when the engine lacks nothing and declared no reading)."""
    part = lacks_json(results, declaration, games)
    titles = {f: f"{g} {f} ({t})" for g, f, t in undeclared(declaration, games)}
    lines = []
    if part["skipped"]["features"]:
        lines.append(f"  features not declared ({vectors(part['skipped']['vectors'])} skipped, never sent):")
        lines += [f"    {titles.get(e['feature'], e['feature'])}: {vectors(e['vectors'])} skipped"
                  for e in part["skipped"]["features"]]
    if part["skipped"]["other_readings"]:
        lines.append("  suites generated under another reading than the one declared (skipped, never sent):")
        lines += [f"    {e['reading']}: {vectors(e['vectors'])}" for e in part["skipped"]["other_readings"]]
    if part["reading"]["decisions"]:
        lines.append(f"  readings declared ({vectors(part['reading']['vectors'])} classified reading):")
        lines += [f"    {e['decision']} = {e['option'] or '(not declared)'}: {vectors(e['vectors'])}"
                  for e in part["reading"]["decisions"]]
    return ["what the engine lacks:"] + lines if lines else []
