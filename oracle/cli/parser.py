"""The ``cardrules`` command line: the parser, built from one module per command, and the entry point.

Each command module has ``add_parser(sub)`` (its options, its handler as the
``handler`` default) and the handlers themselves; :data:`COMMANDS` lists them in
the order ``cardrules --help`` shows them. Exit codes: :mod:`cardrules.oracle.errors`.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Callable, Sequence, TextIO

from cardrules.model.errors import ScenarioError
import cardrules.oracle.cli.catalogue as catalogue
import cardrules.oracle.cli.conformance as conformance
import cardrules.oracle.cli.diff as diff
import cardrules.oracle.cli.explore as explore
import cardrules.oracle.cli.listing as listing
import cardrules.oracle.cli.mutate as mutate
import cardrules.oracle.cli.proposal as proposal
import cardrules.oracle.cli.replay as replay
import cardrules.oracle.cli.smt as smt
import cardrules.oracle.cli.verify as verify
from cardrules.oracle.errors import EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, InputError
from cardrules.oracle.interrupts import kept
from cardrules.oracle.jobs import WorkerLost
from cardrules.specs.catalogue import CatalogueError
from cardrules.specs.catalogue.registry import UnknownClauseError
from cardrules.specs.fileio import FileProblem

COMMANDS: tuple[ModuleType, ...] = (catalogue, smt, verify, explore, replay, diff, proposal, conformance, mutate,
                                    listing)
"""The command modules, in the order of ``cardrules --help``."""

CATALOGUE_COMMANDS = ("clauses", "trace")
"""The commands ``--catalogue DIR`` applies to (the others use the shipped catalogue)."""


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: global options, then every command's subparser."""
    parser = argparse.ArgumentParser(
        prog="cardrules",
        description="Formal rules verification and test oracle for trading-card-game rules.",
        epilog="Exit codes: 0 ok, 1 a check failed, 2 usage error, 3 bad input, 4 undecided (SMT unknown), "
               "5 internal error (a bug in cardrules), 130 interrupted.",
    )
    parser.add_argument(
        "--catalogue", type=Path, metavar="DIR",
        help="for 'clauses' and 'trace': read the clause catalogue from DIR (default: the shipped one)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.catalogue is not None and args.command not in CATALOGUE_COMMANDS:
        parser.error("--catalogue applies to 'clauses' and 'trace' only (the other commands use the shipped catalogue)")
    handler: Callable[[argparse.Namespace, TextIO], int] = args.handler
    stream = out if out is not None else sys.stdout
    try:
        with kept():  # a Ctrl-C swallowed by a finalizer is raised again, not lost
            return handler(args, stream)
    except CatalogueError as error:
        print(f"cardrules: catalogue error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except (InputError, UnknownClauseError, ScenarioError, FileProblem) as error:
        print(f"cardrules: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except WorkerLost as lost:  # not a verdict, and not a bug to report with a trace
        print(f"cardrules: error: {lost}", file=sys.stderr)
        return EXIT_INTERNAL
    except BrokenPipeError:  # `cardrules trace | head`
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        print("cardrules: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception:  # a bug in cardrules: never an exit code a script reads as a verdict
        print(f"cardrules: internal error (a bug in cardrules, exit {EXIT_INTERNAL}); please report it with this "
              f"trace:\n{traceback.format_exc()}", file=sys.stderr, end="")
        return EXIT_INTERNAL
