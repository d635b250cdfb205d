"""``cardrules list``: what a user can name on the command line, in one place.

Each listing answers one question a user otherwise learns from error
messages: which scenarios exist (and their rule sets and mutants), which
decisions exist with their options and which options each encoding can
select, which properties are checked (and which also have a z3 formula),
which games, areas and versions the catalogue has. Every listing prints a
table, or JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TextIO

from cardrules.model.games import game_model
from cardrules.oracle.cli.decision_options import option_rows
from cardrules.oracle.errors import EXIT_OK, InputError
from cardrules.specs.catalogue import Catalogue, default_catalogue

KINDS = ("scenarios", "rule-sets", "decisions", "properties", "games", "areas", "versions")


class ListingError(ValueError):
    """An unknown filter value (game, scenario); the message lists the known ones."""


@dataclass(frozen=True)
class Listing:
    """A listing: column names and rows (each a dict); rows are also its JSON form."""

    columns: tuple[str, ...]
    rows: list[dict[str, Any]]


def _known(kind: str, value: str, known: Sequence[str]) -> None:
    if value not in known:
        raise ListingError(f"unknown {kind} {value!r}; known: {', '.join(sorted(known))}")


def list_scenarios(game: str | None, scenario: str | None) -> Listing:
    """Embedded scenarios: game, bounds, rule sets and mutants."""
    from cardrules.properties.scenarios import load_scenarios

    scenarios = load_scenarios()
    if scenario is not None:
        _known("scenario", scenario, [s.name for s in scenarios])
    rows = [
        {
            "name": s.name,
            "game": s.game,
            "rule_sets": [r.name for r in s.rule_sets],
            "mutants": [m.name for m in s.mutants],
            "max_turns": s.max_turns,
            "max_depth": s.max_depth,
            "max_states": s.max_states,
            "description": s.description,
        }
        for s in scenarios
        if (game is None or s.game == game) and (scenario is None or s.name == scenario)
    ]
    return Listing(("name", "game", "rule_sets", "mutants", "max_turns", "description"), rows)


def list_rule_sets(game: str | None, scenario: str | None) -> Listing:
    """Every rule set and mutant of every scenario: versions, decisions, broken variants (mutants only),
    expected violations."""
    from cardrules.properties.scenarios import load_scenarios

    scenarios = load_scenarios()
    if scenario is not None:
        _known("scenario", scenario, [s.name for s in scenarios])
    rows = []
    for s in scenarios:
        if (game is not None and s.game != game) or (scenario is not None and s.name != scenario):
            continue
        for spec, mutant in [*((r, False) for r in s.rule_sets), *((m, True) for m in s.mutants)]:
            rows.append({
                "scenario": s.name,
                "name": spec.name,
                "mutant": mutant,
                "versions": {area: list(v) for area, v in spec.versions.items()},
                "decisions": dict(spec.decisions),
                "broken": list(spec.broken),
                "expect_violated": list(spec.expect_violated),
            })
    return Listing(("scenario", "name", "mutant", "versions", "decisions", "broken", "expect_violated"), rows)


def list_decisions(catalogue: Catalogue, game: str | None) -> Listing:
    """Every recorded decision: its clause, question, options, the chosen one, what the model selects, and
    per option (``option_status``, JSON only): model-selectable, z3 encoded or refused with the reason, and
    whether it changes play (:mod:`cardrules.oracle.cli.decision_options`)."""
    rows = []
    for decision_id, (clause, decision) in sorted(catalogue.decisions.items()):
        if game is not None and clause.game != game:
            continue
        options = [o.id for o in decision.options]
        rows.append({
            "id": decision_id,
            "game": clause.game,
            "clause": clause.id,
            "question": decision.question,
            "chosen": decision.chosen,
            "options": options,
            "model_selectable": game_model(clause.game).modelled_options(decision_id, options),
            "option_status": option_rows(clause, decision),
            "rejected": [o.id for o in decision.rejected],
        })
    return Listing(("id", "clause", "chosen", "options", "model_selectable", "rejected"), rows)


def list_properties(game: str | None) -> Listing:
    """Every registered property, with its clauses and its z3 face if it has one (FFTCG)."""
    from cardrules.properties.games import ALL_PROPERTIES as PROPERTIES

    rows = [
        {
            "name": p.name,
            "game": p.game,
            "kind": p.kind,
            "must_hold": p.must_hold,
            "smt": p.smt is not None,
            "versions": {area: sorted(v) for area, v in p.versions.items()},
            "clause_ids": list(p.clause_ids),
            "statement": p.statement,
        }
        for p in sorted(PROPERTIES, key=lambda p: (p.game, p.name))
        if game is None or p.game == game
    ]
    return Listing(("name", "game", "kind", "must_hold", "smt", "statement"), rows)


def list_games(catalogue: Catalogue) -> Listing:
    """The games and their rule areas."""
    games = sorted({a.game for a in catalogue.areas})
    rows = [{"game": g, "areas": [a.id for a in catalogue.areas if a.game == g]} for g in games]
    return Listing(("game", "areas"), rows)


def list_areas(catalogue: Catalogue, game: str | None) -> Listing:
    """Rule areas: game, title, versions, clause count."""
    rows = [
        {
            "id": a.id,
            "game": a.game,
            "title": a.title,
            "versions": [v.id for v in a.versions],
            "clauses": sum(1 for c in catalogue.clauses if c.area == a.id),
        }
        for a in catalogue.areas
        if game is None or a.game == game
    ]
    return Listing(("id", "game", "versions", "clauses", "title"), rows)


def list_versions(catalogue: Catalogue, game: str | None) -> Listing:
    """Rule versions per area, with their titles."""
    rows = [
        {"area": a.id, "game": a.game, "version": v.id, "title": v.title}
        for a in catalogue.areas
        if game is None or a.game == game
        for v in a.versions
    ]
    return Listing(("area", "version", "title"), rows)


def listing(kind: str, *, game: str | None = None, scenario: str | None = None,
            catalogue: Catalogue | None = None) -> Listing:
    """The listing of one kind (see :data:`KINDS`); raises :class:`ListingError` on unknown filters."""
    cat = catalogue or default_catalogue()
    if game is not None:
        _known("game", game, sorted({a.game for a in cat.areas}))
    builders: dict[str, Callable[[], Listing]] = {
        "scenarios": lambda: list_scenarios(game, scenario),
        "rule-sets": lambda: list_rule_sets(game, scenario),
        "decisions": lambda: list_decisions(cat, game),
        "properties": lambda: list_properties(game),
        "games": lambda: list_games(cat),
        "areas": lambda: list_areas(cat, game),
        "versions": lambda: list_versions(cat, game),
    }
    _known("listing", kind, KINDS)
    return builders[kind]()


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_cell(v)}" for k, v in value.items()) or "-"
    return str(value)


def print_listing(result: Listing, out: TextIO, *, as_json: bool) -> None:
    """A table with a header row (long text cells cut to fit a terminal), or JSON."""
    if as_json:
        json.dump(result.rows, out, indent=2)
        print(file=out)
        return
    table = [list(result.columns)] + [[_cell(row[c]) for c in result.columns] for row in result.rows]
    cut = 60
    table = [[cell if len(cell) <= cut else cell[: cut - 3] + "..." for cell in cells] for cells in table]
    widths = [max(len(cells[i]) for cells in table) for i in range(len(result.columns))]
    for number, cells in enumerate(table):
        print("  ".join(cell.ljust(w) for cell, w in zip(cells, widths)).rstrip(), file=out)
        if number == 0:
            print("  ".join("-" * w for w in widths), file=out)
    print(f"{len(result.rows)} row(s)", file=out)


def add_parser(sub: Any) -> None:
    """The ``list`` subcommand."""
    p = sub.add_parser("list", help="list scenarios, rule sets, decisions, properties, games, areas or versions",
                       description="What can be named on the command line: scenarios and their rule sets and mutants, "
                       "decisions with their options (and which the model can select), properties (and which have a "
                       "z3 formula), games, areas and versions.")
    p.add_argument("what", choices=KINDS, help="what to list")
    p.add_argument("--game", help="only this game (redemption, fftcg)")
    p.add_argument("--scenario", metavar="NAME", help="for scenarios and rule-sets: only this scenario")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_list)


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.model.errors import ScenarioError

    try:
        result = listing(args.what, game=args.game, scenario=args.scenario)
    except (ListingError, ScenarioError) as error:
        raise InputError(str(error)) from None
    print_listing(result, out, as_json=args.json)
    return EXIT_OK
