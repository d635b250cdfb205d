"""``cardrules proposal schema|points|situations|check``: rule proposal files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cardrules.model.games import GAME_NAMES
from cardrules.oracle.rulechange.proposals import FORMAT, SCHEMA, ProposalError, load_proposal


def cmd_proposal(args: Any, out: Any) -> int:
    """``cardrules proposal``: print the schema, list the extension points, or check a proposal file."""
    import json

    from cardrules.oracle.errors import EXIT_OK, InputError

    if args.proposal_command == "schema":
        print(json.dumps(SCHEMA, indent=2), file=out)
        return EXIT_OK
    if args.proposal_command == "situations":
        return _situations(args, out)
    if args.proposal_command == "points":
        from cardrules.model.extension import EXTENSION_POINTS

        import cardrules.model.fftcg.engine  # noqa: F401
        import cardrules.model.redemption.engine  # noqa: F401

        points = [p for p in EXTENSION_POINTS.values() if args.game in (None, p.game)]
        rows = [{"game": p.game, "name": p.name, "question": p.question, "clause_ids": list(p.clause_ids),
                 "parameters": list(p.parameters), "returns": p.returns.text,
                 "default": f"{p.default.__module__}.{p.default.__qualname__}"}
                for p in sorted(points, key=lambda p: (p.game, p.name))]
        if args.json:
            print(json.dumps(rows, indent=2), file=out)
        else:
            for row in rows:
                print(points_text(row), file=out)
        return EXIT_OK
    try:
        proposal = load_proposal(args.file, allow_code=args.allow_code)
    except ProposalError as error:
        raise InputError(str(error)) from None
    summary = {
        "id": proposal.id, "title": proposal.title, "game": proposal.game,
        "decisions": dict(proposal.spec.decisions), "versions": {k: list(v) for k, v in proposal.spec.versions.items()},
        "clauses_touched": list(proposal.touched), "extension_points": [name for name, _ in proposal.hooks],
        "smt_area": proposal.smt_area, "text_only_clauses": list(proposal.text_only),
    }
    if args.json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        print(f"{args.file}: a valid {FORMAT} proposal for {proposal.game}: {proposal.title}", file=out)
        for key in ("decisions", "versions", "clauses_touched", "extension_points", "smt_area"):
            print(f"  {key.replace('_', ' ')}: {summary[key] or '-'}", file=out)
    if proposal.text_only:
        print(f"cardrules: warning: {args.file}: {text_only_warning(proposal.text_only)}", file=sys.stderr)
    return EXIT_OK


def _situations(args: Any, out: Any) -> int:
    """``cardrules proposal situations``: the z3 variables a proposal's z3 module may constrain, per area."""
    import json

    from cardrules.oracle.errors import EXIT_OK
    from cardrules.specs.smt.situation_docs import areas, variable_rows

    chosen = [args.area] if args.area else areas()
    rows = {area: [row.to_json() for row in variable_rows(area)] for area in chosen}
    if args.json:
        print(json.dumps(rows, indent=2), file=out)
        return EXIT_OK
    for area, listed in rows.items():
        print(situations_heading(area, len(listed)), file=out)
        for row in listed:
            print(situation_line(row), file=out)
    return EXIT_OK


def situations_heading(area: str, count: int) -> str:
    return f"{area}: {count} variables (inputs: what the situation is; outputs: what the rules decide)"


def situation_line(row: dict[str, str]) -> str:
    """One variable as ``cardrules proposal situations`` prints it."""
    return f"  {row['role']:<6}  {row['name']:<28}  {row['sort']:<4}  {row['meaning']}"


def text_only_warning(clause_ids: tuple[str, ...]) -> str:
    """The warning for clauses a proposal changes in text only (``proposal check`` prints it)."""
    return (f"clauses {', '.join(clause_ids)} change in text only: no decision option, version or code stands "
            "behind them, so 'cardrules diff' compares nothing for them in play")


def points_text(row: dict[str, Any]) -> str:
    """One extension point as ``cardrules proposal points`` prints it (and docs/proposing.rst shows it)."""
    return (f"{row['game']} / {row['name']}: {row['question']}\n"
            f"    signature: def f({', '.join(row['parameters'])})\n"
            f"    returns:   {row['returns']}\n"
            f"    clauses:   {', '.join(row['clause_ids'])}; default: {row['default']}")


def _situation_areas() -> list[str]:
    from cardrules.specs.smt.situations import SITUATIONS

    return sorted(SITUATIONS)


def add_parser(sub: Any) -> None:
    """Register ``cardrules proposal`` and its subcommands."""
    parser = sub.add_parser("proposal", help="rule proposals: the file schema, the extension points, the z3 situations, "
                            "check a file",
                            description="Rule proposals (cardrules-proposal/1 TOML files) for 'cardrules diff'.")
    inner = parser.add_subparsers(dest="proposal_command", metavar="SUBCOMMAND", required=True)
    p = inner.add_parser("schema", help="print the JSON Schema of a proposal file")
    p.set_defaults(handler=cmd_proposal)
    p = inner.add_parser("points", help="list the extension points a proposal's model code may answer")
    p.add_argument("--game", choices=GAME_NAMES, help="only this game's points")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_proposal)
    p = inner.add_parser("situations", help="list the z3 variables of each area's situation (for a proposal's z3 module)")
    p.add_argument("--area", choices=_situation_areas(), help="only this area")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_proposal)
    p = inner.add_parser("check", help="validate a proposal file against the schema and the catalogue")
    p.add_argument("file", type=Path, help="the proposal (.toml)")
    p.add_argument("--allow-code", action="store_true", help="also import its code and check its extension points")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_proposal)
