"""``cardrules clauses`` and ``cardrules trace``: the catalogue and the traceability matrix."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from cardrules.oracle.cli.common import EXIT_CHECK_FAILED, EXIT_OK, InputError, catalogue_of, filter_clauses
from cardrules.specs.catalogue import KINDS, Catalogue, Clause
from cardrules.specs.catalogue.registry import LINK_KINDS


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="only clauses of this game (redemption, fftcg)")
    parser.add_argument("--area", help="only clauses of this rule area (e.g. heal, party)")
    parser.add_argument("--version", help="only clauses of this rule version (e.g. revised, previous)")


def add_parser(sub: Any) -> None:
    """The ``clauses`` and ``trace`` subcommands."""
    p = sub.add_parser("clauses", help="list clauses, or show one whole", description="List clauses or show one.")
    p.add_argument("id", nargs="?", help="a clause ID to show whole")
    _add_filters(p)
    p.add_argument("--kind", choices=KINDS, help="only clauses of this kind")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_clauses)

    p = sub.add_parser(
        "trace",
        help="print the traceability matrix",
        description="Per clause: its versions and the model functions, SMT constraints, properties and tests "
        "that link to it, with gaps marked.",
    )
    _add_filters(p)
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per clause")
    p.add_argument("--gaps", action="store_true", help="only clauses with a missing link")
    p.add_argument("--verbose", "-v", action="store_true", help="list every linked function and test")
    p.add_argument("--strict", action="store_true", help="exit 1 when any clause has a gap, or is encoded in z3 but compared 0 times by the cross-check without a crosscheck_excuse, or a collected test names no clause and gives no reason (@pytest.mark.infrastructure; such tests are counted under the text table and listed on stderr with --strict, never in --json)")
    p.add_argument("--tests", type=Path, metavar="DIR", help="collect test links from DIR (default: the checkout's tests/)")
    p.add_argument("--no-tests", action="store_true", help="do not collect tests (test links stay empty)")
    p.set_defaults(handler=cmd_trace)


# --- cardrules clauses ---------------------------------------------------------


def _show_clause(catalogue: Catalogue, clause: Clause, out: TextIO) -> None:
    print(f"{clause.id}: {clause.title}", file=out)
    print(f"  game: {clause.game}   area: {clause.area}   kind: {clause.kind}", file=out)
    print(f"  versions: {_version_titles(catalogue, clause)}", file=out)
    print(f"  source: {clause.source.text(catalogue.sources)}", file=out)
    print(f"  statement: {clause.statement}", file=out)
    if clause.refs:
        print(f"  refers to: {', '.join(clause.refs)}", file=out)
    if clause.notes:
        print(f"  notes: {clause.notes}", file=out)
    for decision in clause.decisions:
        print(f"  decision {decision.id}: {decision.question}", file=out)
        for option in decision.options:
            mark = "*" if option.id == decision.chosen else " "
            print(f"    {mark} {option.id}: {option.reading}", file=out)
        for option in decision.rejected:
            print(f"    x {option.id} (rejected): {option.reading}", file=out)
        print(f"    why: {decision.why}", file=out)


def cmd_clauses(args: argparse.Namespace, out: TextIO) -> int:
    catalogue = catalogue_of(args)
    if args.id is not None:
        try:
            clause = catalogue.clause(args.id)
        except KeyError:
            raise InputError(f"no clause {args.id!r} in the catalogue (try 'cardrules clauses' for the list)") from None
        if clause not in filter_clauses(catalogue, args):
            raise InputError(f"clause {args.id} does not match the filters given (it is "
                             f"{clause.game} / {clause.area} / {clause.kind} / {', '.join(clause.versions)})")
        if args.json:
            json.dump(_clause_json(catalogue, clause), out, indent=2)
            print(file=out)
        else:
            _show_clause(catalogue, clause, out)
        return EXIT_OK
    clauses = filter_clauses(catalogue, args)
    if args.json:
        json.dump([_clause_json(catalogue, c) for c in clauses], out, indent=2)
        print(file=out)
        return EXIT_OK
    width = max((len(c.id) for c in clauses), default=6)
    print(f"{'clause':<{width}}  {'kind':<17}  {'versions':<17}  title", file=out)
    print(f"{'-' * width}  {'-' * 17}  {'-' * 17}  {'-' * 5}", file=out)
    for clause in clauses:
        print(f"{clause.id:<{width}}  {clause.kind:<17}  {','.join(clause.versions):<17}  {clause.title}", file=out)
    print(f"{len(clauses)} clause(s)", file=out)
    _print_version_titles(catalogue, clauses, out)
    return EXIT_OK


def _print_version_titles(catalogue: Catalogue, clauses: tuple[Clause, ...], out: TextIO) -> None:
    """The versions the listed clauses belong to, with their titles."""
    shown = {(c.area, v) for c in clauses for v in c.versions}
    lines = [f"  {v.id} ({a.id}): {v.title}" for a in catalogue.areas for v in a.versions if (a.id, v.id) in shown]
    if lines:
        print("versions:", file=out)
        print("\n".join(lines), file=out)


def _version_titles(catalogue: Catalogue, clause: Clause) -> str:
    area = next(a for a in catalogue.areas if a.id == clause.area)
    return ", ".join(f"{v} ({area.version(v).title})" for v in clause.versions)


def _clause_json(catalogue: Catalogue, clause: Clause) -> dict[str, object]:
    return {
        "id": clause.id,
        "title": clause.title,
        "game": clause.game,
        "area": clause.area,
        "kind": clause.kind,
        "versions": list(clause.versions),
        "statement": clause.statement,
        "source": clause.source.text(catalogue.sources),
        "refs": list(clause.refs),
        "notes": clause.notes,
        "decisions": [
            {
                "id": d.id,
                "question": d.question,
                "chosen": d.chosen,
                "why": d.why,
                "options": [{"id": o.id, "reading": o.reading} for o in d.options],
                "rejected": [{"id": o.id, "reading": o.reading} for o in d.rejected],
            }
            for d in clause.decisions
        ],
    }


# --- cardrules trace -----------------------------------------------------------


def cmd_trace(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.trace.matrix import TraceError, build_matrix, default_tests_dir

    catalogue = catalogue_of(args)
    clauses = set(c.id for c in filter_clauses(catalogue, args))
    test_links: dict[str, tuple[str, ...]] = {}
    unexplained: tuple[str, ...] = ()
    warning = ""
    if not args.no_tests:
        tests_dir = args.tests or default_tests_dir()
        if tests_dir is None:
            warning = "tests not found (installed without a checkout?): pass --tests DIR; test links are empty"
        elif not tests_dir.is_dir():
            raise InputError(f"--tests {tests_dir}: not a directory")
        else:
            try:
                from cardrules.oracle.trace.pytest_plugin import CollectionFailed, collect_tests
            except ImportError:
                raise InputError("collecting the tests' clause links needs pytest (pip install pytest), "
                                 "or pass --no-tests") from None
            try:
                collected = collect_tests(tests_dir)
                test_links, unexplained = collected.links, collected.unexplained
            except CollectionFailed as error:
                raise InputError(f"the tests in {tests_dir} do not collect:\n{error}") from None
    from cardrules.oracle.crosscheck.counts import CountsError, load_counts

    try:
        compared = load_counts()
    except CountsError as error:
        raise InputError(str(error)) from None
    try:
        rows = [row for row in build_matrix(catalogue, test_links, compared) if row.clause.id in clauses]
    except TraceError as error:
        raise InputError(str(error)) from None
    if args.gaps:
        rows = [row for row in rows if row.gaps or row.never_compared]
    if warning:
        print(f"cardrules trace: warning: {warning}", file=sys.stderr)
    if args.json:
        json.dump([row.to_json(row.clause.source.text(catalogue.sources)) for row in rows], out, indent=2)
        print(file=out)
    else:
        _print_matrix(rows, out, verbose=args.verbose)
        if unexplained:
            print(f"{len(unexplained)} test(s) name no clause and give no reason "
                  "(@pytest.mark.clause or @pytest.mark.infrastructure)", file=out)
    if args.strict:
        never = [row for row in rows if row.never_compared]
        for row in never:
            print(f"cardrules trace: {row.clause.id}: encoded in z3 but compared 0 times by the cross-check, "
                  "and not excused (crosscheck_excuse in the catalogue)", file=sys.stderr)
        for row in rows:
            if row.gaps:
                print(f"cardrules trace: {row.clause.id}: missing links: {', '.join(row.gaps)}", file=sys.stderr)
        for nodeid in unexplained:
            print(f"cardrules trace: {nodeid}: names no clause (@pytest.mark.clause) and gives no reason "
                  "(@pytest.mark.infrastructure)", file=sys.stderr)
        if never or unexplained or any(row.gaps for row in rows):
            return EXIT_CHECK_FAILED
    return EXIT_OK


def _print_matrix(rows: list, out: TextIO, *, verbose: bool) -> None:
    from cardrules.oracle.trace.matrix import expected_kinds

    width = max((len(r.clause.id) for r in rows), default=2)
    header = f"{'clause':<{width}}  {'versions':<17}  " + "  ".join(f"{k:>10}" for k in LINK_KINDS) + f"  {'compared':>9}"
    print(header, file=out)
    print("-" * len(header), file=out)
    for row in rows:
        cells = []
        for kind in LINK_KINDS:
            count = len(row.links.get(kind, ()))
            if count:
                cells.append(f"{count:>10}")
            elif kind in expected_kinds(row.clause):
                cells.append(f"{'GAP':>10}")
            else:
                cells.append(f"{'-':>10}")
        compared = "-" if row.compared is None else "NEVER" if row.never_compared else \
            "excused" if row.compared == 0 else f"{row.compared:,}"
        print(f"{row.clause.id:<{width}}  {','.join(row.clause.versions):<17}  " + "  ".join(cells)
              + f"  {compared:>9}", file=out)
        if verbose:
            for kind in LINK_KINDS:
                for target in row.links.get(kind, ()):
                    print(f"{'':<{width}}    {kind}: {target}", file=out)
    complete = sum(1 for r in rows if not r.gaps)
    missing = {kind: sum(1 for r in rows if kind in r.gaps) for kind in LINK_KINDS}
    gap_text = ", ".join(f"{kind} {n}" for kind, n in missing.items() if n) or "none"
    print(f"\n{len(rows)} clause(s); {complete} fully linked; missing links: {gap_text}", file=out)
    never = sum(1 for r in rows if r.never_compared)
    excused = sum(1 for r in rows if r.compared == 0 and not r.never_compared)
    print(f"cross-check: {sum(1 for r in rows if r.compared)} clause(s) compared, {never} never compared, "
          f"{excused} excused", file=out)
    print("GAP = a link the clause needs is missing; - = none, and none needed", file=out)
    print("compared = model-vs-z3 comparisons the clause's z3 constraints took part in (oracle/crosscheck/counts.json); "
          "NEVER = encoded in z3, compared 0 times, not excused; - = not encoded in z3", file=out)
