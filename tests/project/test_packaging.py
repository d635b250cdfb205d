"""The built sdist and wheel install one import package, ``cardrules``, with its data.

Builds both with ``python -m build`` (an isolated build, as a user's would be),
checks what they contain, then installs the wheel into a fresh virtual
environment and runs the CLI from outside the checkout.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import COMPILED_TRACER_REQUIRED, built_once
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("packaging: the installed cardrules package")

ROOT = REPO
TOP_FOLDERS = ("model", "specs", "properties", "oracle")


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        "cardrules." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in TOP_FOLDERS
        for init in (ROOT / folder).rglob("__init__.py")
    }
    assert on_disk - listed == set(), "package folders missing from [tool.setuptools] packages"
    assert listed - on_disk == set(), "pyproject lists packages that do not exist"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel, built once per run (``built_once``: never two builds at once in the checkout)."""

    def build(out: Path) -> None:
        result = subprocess.run(
            [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    return built_once(tmp_path_factory, "dist", build)


@pytest.mark.slow
def test_wheel_holds_only_the_cardrules_package_and_its_data(dist: Path) -> None:
    (wheel,) = dist.glob("cardrules-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/", 1)[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"cardrules"}
    assert "cardrules/specs/clauses/side_battle.toml" in names
    assert "cardrules/specs/clauses/sources.toml" in names
    assert "cardrules/properties/scenarios/fftcg-party-basics.json" in names
    assert not any(name.startswith(("cardrules/tests", "tests/")) for name in names)
    if COMPILED_TRACER_REQUIRED:  # built where a C compiler is found, as in CI
        assert any(name.startswith("cardrules/oracle/trace/ctracer.") and name.endswith(".so") for name in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "cardrules = cardrules.oracle.cli:main" in text
    assert "cardrules = cardrules.oracle.trace.pytest_plugin" in text


@pytest.mark.slow
def test_the_wheel_requires_only_the_engines_needs_unless_an_extra_is_asked_for(dist: Path) -> None:
    """``pip install cardrules`` brings no Sphinx, matplotlib or pytest: an engine author's runner stays small."""
    (wheel,) = dist.glob("cardrules-*.whl")
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    requires = [line.split(":", 1)[1].strip() for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    unconditional = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requires if "extra ==" not in r}
    assert unconditional == {"z3-solver", "hypothesis", "networkx", "rich", "jsonschema", "junit-xml"}
    docs_only = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requires if "extra == \"docs\"" in r}
    assert {"sphinx", "furo", "matplotlib"} <= docs_only


@pytest.mark.slow
def test_sdist_holds_the_catalogue_and_scenarios(dist: Path) -> None:
    (sdist,) = dist.glob("cardrules-*.tar.gz")
    names = tarfile.open(sdist).getnames()
    assert any(n.endswith("/specs/clauses/heal.toml") for n in names)
    assert any(n.endswith("/properties/scenarios/redemption-plain-battle.json") for n in names)
    # the compiled tracer's source and the file that builds it: an install from the sdist compiles it
    assert any(n.endswith("/oracle/trace/ctracer.c") for n in names)
    assert any(n.endswith("/setup.py") for n in names)


@pytest.mark.slow
def test_fresh_venv_with_the_wheel_runs_the_cli_outside_the_checkout(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("cardrules-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # Reuse this environment's dependencies (z3, hypothesis, ...) without their
    # .pth files, so the editable install of the checkout is not visible there.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "cardrules_test_deps.pth").write_text("\n".join(ours) + "\n")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    installed_top = {p.name for p in Path(site).iterdir()} - {"cardrules_test_deps.pth"}
    ours_new = {n for n in installed_top if n.startswith("cardrules")}
    assert ours_new == {"cardrules", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    where = subprocess.run(
        [str(python), "-c", "import cardrules.specs.catalogue as c; print(c.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, env=env, check=True,
    ).stdout
    assert where.startswith(str(venv))
    clauses = subprocess.run(
        [str(venv / "bin" / "cardrules"), "clauses", "--json"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert clauses.returncode == 0, clauses.stderr
    assert len(json.loads(clauses.stdout)) == 128
    verify = subprocess.run(
        [str(venv / "bin" / "cardrules"), "verify", "--scenario", "fftcg-party-basics", "--engine", "explore",
         "--no-mutants", "--quiet"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )
    assert verify.returncode == 0, verify.stdout[-2000:] + verify.stderr[-2000:]
    # the wheel's compiled tracer is used where one was built (its source is not shipped: nothing to compare with)
    if any(name.startswith("cardrules/oracle/trace/ctracer.") for name in zipfile.ZipFile(wheel).namelist()):
        tracer = subprocess.run(
            [str(python), "-c", "from cardrules.oracle.trace.coverage import tracer_in_use; print(tracer_in_use())"],
            capture_output=True, text=True, cwd=tmp_path, env=env, check=True,
        ).stdout.strip()
        assert tracer == "compiled"
