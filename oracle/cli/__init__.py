"""The ``cardrules`` command line: argparse parsers and command handlers, and nothing else.

No library module imports this package; :func:`main` is the installed entry point.
"""

from cardrules.oracle.cli.parser import build_parser, main

__all__ = ["build_parser", "main"]
