"""``python -m cardrules.oracle.cli``: the same as the ``cardrules`` command."""

import sys

from cardrules.oracle.cli.parser import main

sys.exit(main())
