"""What an install pulls in: the engine's needs at run time; the site's tool chain and pytest only as extras."""

from __future__ import annotations

import re
import tomllib

import pytest

from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the package's declared dependencies")

DOCS_TOOLS = ("sphinx", "furo", "sphinx-design", "matplotlib", "sphinx-argparse")


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].strip().lower()


def _project() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_runtime_requirements_are_what_the_engine_needs() -> None:
    runtime = {_name(r) for r in _project()["dependencies"]}
    assert runtime == {"z3-solver", "hypothesis", "networkx", "rich", "jsonschema", "junit-xml"}
    assert not runtime & {*DOCS_TOOLS, "pytest"}


def test_the_docs_tools_are_an_extra_and_the_test_extra_pulls_them_in() -> None:
    extras = _project()["optional-dependencies"]
    assert {_name(r) for r in extras["docs"]} == set(DOCS_TOOLS)
    test = {_name(r) for r in extras["test"]}
    assert "cardrules" in test and "cardrules[docs]" in [r.replace(" ", "") for r in extras["test"]]
    assert {"pytest", "mypy", "ruff"} <= test
