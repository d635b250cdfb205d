"""The spec site, built once per test session for the tests that read or browse it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import built_once
from tests.paths import REPO

DOCS = REPO / "docs"
REUSE_ENV = "CARDRULES_DOCS_SITE"
"""A folder holding a site built from the checkout, for the tests to read instead of building one."""


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML site, built from scratch with warnings as errors, on every core (once per run, see
    ``built_once``; ``benchmarks/docs_build.py`` times this very build). With ``$CARDRULES_DOCS_SITE``
    set, the site already built there (``sphinx -W -b html docs FOLDER``) is used instead, so that several
    targeted runs share one build."""

    reuse = os.environ.get(REUSE_ENV)
    if reuse:
        return Path(reuse)

    def build(folder: Path) -> None:
        result = subprocess.run(
            [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-j", "auto", str(DOCS),
             str(folder / "html")],
            capture_output=True, text=True, timeout=900,
        )
        assert result.returncode == 0, result.stdout + result.stderr

    return built_once(tmp_path_factory, "site", build) / "html"
