"""Exit codes and the input error: what the command line and the libraries under it share.

Exit codes (the same for every ``cardrules`` subcommand):

* 0 - done, and every check asked for passed;
* 1 - a check failed (a property violated, a mutant missed, a contradiction, ``trace --strict`` gaps);
* 2 - the command line was wrong (unknown option, unknown subcommand);
* 3 - the input was wrong (unknown clause ID, scenario or decision, a malformed file, nothing selected);
* 4 - a check could not decide (an SMT ``unknown``): never a pass.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_UNDECIDED = 4


class InputError(Exception):
    """Bad input (an unknown name, a malformed file, a selection that checks nothing): one line, exit code 3."""
