"""Exit codes and the input error: what the command line and the libraries under it share.

Exit codes (the same for every ``cardrules`` subcommand):

* 0 - done, and every check asked for passed;
* 1 - a check failed (a property violated, a mutant missed, a contradiction, ``trace --strict`` gaps);
* 2 - the command line was wrong (unknown option, unknown subcommand);
* 3 - the input was wrong (unknown clause ID, scenario or decision, a malformed file, nothing selected);
* 4 - a check could not decide (an SMT ``unknown``): never a pass;
* 5 - an internal error: a bug in cardrules, reported with its trace (never 1, so that a crash is never
  read as "a check failed");
* 130 - interrupted (Ctrl-C), as shells report it.

What is bad input (3) and what is a failed check (1): a file, an option or a
piece of proposal code that cannot be used as given is bad input, whatever
the check would have said; 1 is only ever a verdict about the rules or an
engine, reached by running the check to its end. So a conformance suite whose
vectors name the other game, whose ``clauses_in_force`` is empty, or whose
refusals cite clauses the catalogue does not have is bad input (3); a vector
on which an engine answers differently is a failed check (1).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_UNDECIDED = 4
EXIT_INTERNAL = 5
EXIT_INTERRUPTED = 130


class InputError(Exception):
    """Bad input (an unknown name, a malformed file, a selection that checks nothing): one line, exit code 3."""
