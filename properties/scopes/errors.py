"""The one error of scopes: a scope name or file that cannot be used (one line, exit 3)."""

from __future__ import annotations


class ScopeError(ValueError):
    """A scope name or file that cannot be used: one line naming the file (or name) and the field."""
