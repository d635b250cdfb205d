"""The ``cardrules`` command line: the parser and the entry point.

The subcommands live in :mod:`cardrules.oracle.cli.catalogue` (clauses,
trace), :mod:`cardrules.oracle.cli.runs` (verify, explore, replay),
:mod:`cardrules.oracle.cli.listing` (list) and :mod:`cardrules.oracle.cli.smt`
(smt). Exit codes: see :mod:`cardrules.oracle.cli.common`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Sequence, TextIO

from cardrules.model.errors import ScenarioError
from cardrules.oracle.cli import smt as smt_commands
from cardrules.oracle.cli.argtypes import MAX_DEPTH, MAX_EXAMPLES, MAX_JOBS, MAX_STATES, MAX_TURNS, int_at_least
from cardrules.oracle.cli.catalogue import cmd_clauses, cmd_trace
from cardrules.oracle.cli.common import EXIT_INPUT, EXIT_OK, InputError
from cardrules.oracle.cli.runs import cmd_explore, cmd_list, cmd_replay, cmd_verify
from cardrules.oracle.cli.smt import SmtInputError
from cardrules.specs.catalogue import KINDS, CatalogueError
from cardrules.specs.catalogue.registry import UnknownClauseError


# --- parser --------------------------------------------------------------------


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="only clauses of this game (redemption, fftcg)")
    parser.add_argument("--area", help="only clauses of this rule area (e.g. heal, party)")
    parser.add_argument("--version", help="only clauses of this rule version (e.g. revised, previous)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardrules",
        description="Formal rules verification and test oracle for trading-card-game rules.",
        epilog="Exit codes: 0 ok, 1 a check failed, 2 usage error, 3 bad input, 4 undecided (SMT unknown).",
    )
    parser.add_argument(
        "--catalogue", type=Path, metavar="DIR",
        help="for 'clauses' and 'trace': read the clause catalogue from DIR (default: the shipped one)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

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

    smt_commands.add_parser(sub)

    p = sub.add_parser(
        "verify",
        help="run every property on every embedded scenario, rule set and engine (the main job)",
        description="Check every property on every embedded scenario and rule set with the explorer, the "
        "hypothesis machines and (FFTCG) the z3 transition system. Mutants (rules broken on purpose) must be caught. "
        "Prints one line per scenario, rule set and engine, and expands what did not pass. "
        "Exit 1 on any violation or missed mutant, 4 if z3 could not decide (and nothing failed), "
        "3 if nothing was selected.",
    )
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario (repeatable)")
    p.add_argument("--scenario-file", action="append", type=Path, metavar="PATH",
                   help="also check this scenario file of your own (repeatable; alone: only these files)")
    p.add_argument("--engine", action="append", choices=("explore", "hypothesis", "smt"),
                   help="only this engine (repeatable; smt is the FFTCG z3 transition system)")
    p.add_argument("--decision", action="append", metavar="ID=OPTION",
                   help="run each scenario's first rule set with this decision changed (repeatable); no mutants")
    p.add_argument("--no-mutants", action="store_true", help="skip the mutant rule sets")
    p.add_argument("--examples", type=int_at_least(1, MAX_EXAMPLES), default=60, metavar="N",
                   help=f"hypothesis examples per run (default 60, at most {MAX_EXAMPLES:,})")
    p.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=None, metavar="N",
                   help="runs at once, each in a worker process (default: the CPUs this process may use); "
                   "the same rows in the same order whatever N is")
    p.add_argument("--all", action="store_true", help="expand every property, not only those that did not pass")
    p.add_argument("--failures-only", action="store_true", help="print only the runs and properties that failed")
    p.add_argument("--quiet", action="store_true", help="no progress display (bar on a terminal, lines on stderr otherwise)")
    p.add_argument("--json", action="store_true", help="print JSON rows (with counterexample traces)")
    p.add_argument("--itf", type=Path, metavar="FILE",
                   help="write the counterexamples in the Informal Trace Format (Apalache, Quint)")
    p.add_argument("--no-record", action="store_true",
                   help="do not record a complete run's summary for the spec site (.cardrules/results/verify.json)")
    p.set_defaults(handler=cmd_verify)

    p = sub.add_parser("explore", help="explore one scenario exhaustively: statistics, violations, graph export",
                       description="Breadth-first exploration of one embedded scenario under one of its rule sets, "
                       "checking every property; prints statistics and shortest counterexamples; exports the graph.")
    p.add_argument("scenario", nargs="?", help="a scenario name (see 'cardrules list scenarios')")
    p.add_argument("--scenario-file", type=Path, metavar="PATH", help="explore this scenario file of yours instead")
    p.add_argument("--rule-set", metavar="NAME", help="one of the scenario's rule sets or mutants (default: the first)")
    p.add_argument("--max-states", type=int_at_least(1, MAX_STATES), metavar="N",
                   help=f"override the scenario's state bound (at most {MAX_STATES:,})")
    p.add_argument("--max-turns", type=int_at_least(0, MAX_TURNS), metavar="T",
                   help=f"override the scenario's turn bound (at most {MAX_TURNS})")
    p.add_argument("--max-depth", type=int_at_least(0, MAX_DEPTH), metavar="D",
                   help=f"override the scenario's depth bound (at most {MAX_DEPTH:,})")
    p.add_argument("--dot", type=Path, metavar="FILE", help="write the explored graph as Graphviz DOT")
    p.add_argument("--graphml", type=Path, metavar="FILE", help="write the explored graph as GraphML")
    p.add_argument("--workers", type=int_at_least(1, 64), metavar="N", default=1,
                   help="explore on N partitions, hash-partitioned (same counts and counterexamples; default 1)")
    p.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="where the partitions run: forked processes (default) or Ray actors (cardrules[distributed])")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: an existing Ray cluster (default: a local one)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--json", action="store_true", help="print JSON (statistics and counterexample traces)")
    p.add_argument("--itf", type=Path, metavar="FILE",
                   help="write the counterexamples in the Informal Trace Format (Apalache, Quint)")
    p.set_defaults(handler=cmd_explore)

    p = sub.add_parser("replay", help="replay a counterexample or a diff trace on the model",
                       description="Replay a cardrules-trace/1 counterexample (the property must be broken at the "
                       "end) or a cardrules-diff/1 trace (under both rule sets, the difference must show); "
                       "exit 1 if the model does not reproduce it.")
    p.add_argument("trace", type=Path, help="the trace file")
    p.add_argument("--allow-code", action="store_true",
                   help="for a diff trace of a proposal with code: let that code run (read it first)")
    p.set_defaults(handler=cmd_replay)

    from cardrules.oracle.rulechange import report as diff_command
    from cardrules.oracle.rulechange import proposals
    from cardrules.oracle.cli.listing import KINDS as LIST_KINDS

    diff_command.add_parser(sub)
    proposals.add_parser(sub)
    from cardrules.oracle.cli import conformance as conformance_cli

    conformance_cli.add_parser(sub)
    from cardrules.oracle.cli import mutate as mutation_cli

    mutation_cli.add_parser(sub)

    p = sub.add_parser("list", help="list scenarios, rule sets, decisions, properties, games, areas or versions",
                       description="What can be named on the command line: scenarios and their rule sets and mutants, "
                       "decisions with their options (and which the model can select), properties (and which have a "
                       "z3 formula), games, areas and versions.")
    p.add_argument("what", choices=LIST_KINDS, help="what to list")
    p.add_argument("--game", help="only this game (redemption, fftcg)")
    p.add_argument("--scenario", metavar="NAME", help="for scenarios and rule-sets: only this scenario")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_list)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.catalogue is not None and args.command not in ("clauses", "trace"):
        parser.error("--catalogue applies to 'clauses' and 'trace' only (the other commands use the shipped catalogue)")
    handler: Callable[[argparse.Namespace, TextIO], int] = args.handler
    stream = out if out is not None else sys.stdout
    try:
        return handler(args, stream)
    except CatalogueError as error:
        print(f"cardrules: catalogue error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except (InputError, UnknownClauseError, SmtInputError, ScenarioError) as error:
        print(f"cardrules: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # `cardrules trace | head`
        sys.stderr.close()
        return EXIT_OK


