"""The spec site's Sphinx extensions (``docs/_ext``), imported by name for tests that call them directly."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from tests.paths import REPO


def docs_extension(name: str) -> ModuleType:
    """The extension module ``name`` of ``docs/_ext`` (which is not a package: put on the path to import)."""
    sys.path.insert(0, str(REPO / "docs" / "_ext"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(REPO / "docs" / "_ext"))
