"""A fresh z3 context for a check whose answer must not depend on what ran before it.

z3 hash-conses its terms: a term gets the id of the next free slot of its
context, and the solver's heuristics (variable order, case splits) follow
those ids. So the same query, made after other work in the same context,
may get another (equally valid) model: a bounded model check finds another
counterexample of the same depth depending on which checks the process ran
before. Inside :func:`fresh_context`, every term and solver made with z3's
default context is made in a new one, so the query's answer, its model
included, depends only on the query: the same in one process or in a
worker, alone or after any other check (``cardrules verify --jobs``).

Nothing made inside may be used outside (z3 refuses to mix contexts): a
check decodes its model into plain values before the block ends.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import z3
from z3 import z3 as z3_module


@contextmanager
def fresh_context() -> Iterator[z3.Context]:
    """Make z3's default context a new one for the ``with`` block (the previous one is restored after)."""
    saved = z3_module._main_ctx
    fresh = z3.Context()
    z3_module._main_ctx = fresh
    try:
        yield fresh
    finally:
        z3_module._main_ctx = saved
