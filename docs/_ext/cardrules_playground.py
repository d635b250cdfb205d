"""Sphinx extension part: the playground page, where a judge plays a position with the reference model in the page.

``.. cardrules-playground::`` places the board. The model runs in the browser:
Pyodide (CPython compiled to WebAssembly, from npm: ``docs/playground/package.json``
and its lock file, installed with ``npm ci --prefix docs/playground``) loads the
project's own wheel, built here from the checkout with ``python -m build``, and
imports :mod:`cardrules.oracle.playground.session`. Both are copied into the built
site under ``_static/playground/`` (with ``manifest.json`` naming the wheel), so the
page needs no server beyond the one serving the site, and nothing from the network.

When either is missing (no ``node_modules``, no ``build`` package, a wheel without the
playground package) the site still builds: the page says plainly that this copy was built
without the browser runtime, and why. The browser test
(``tests/docs/test_playground_in_browser.py``) fails on such a build when
``CARDRULES_REQUIRE_PLAYGROUND=1`` is set, as CI sets it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from html import escape
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[2]
PYODIDE_DIR = REPO / "docs" / "playground" / "node_modules" / "pyodide"
"""Where ``npm ci --prefix docs/playground`` puts Pyodide (``CARDRULES_PYODIDE_DIR`` overrides it)."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""What the page loads of Pyodide: the loader, the interpreter and the standard library."""
WHEEL_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "model", "specs", "properties", "oracle")
"""What the wheel is built from (a copy, so that the checkout gets no build folders). Not ``setup.py``, which adds
the compiled tracer: the wheel is pure Python (``py3-none-any``), the only kind the browser's Python installs."""
SESSION_IN_WHEEL = "cardrules/oracle/playground/session.py"
STATIC = "_static/playground"
SCRIPTS = ("playground-boards.js", "playground.js")


@dataclass
class Runtime:
    """The browser runtime found for this build: Pyodide's folder and the wheel, or why there is none."""

    pyodide: Path | None = None
    wheel: Path | None = None
    missing: str = "the runtime was not looked for (no HTML build)"


RUNTIME = Runtime()
"""This build's runtime, found at ``builder-inited``."""


def _pyodide_dir() -> tuple[Path | None, str]:
    folder = Path(os.environ.get("CARDRULES_PYODIDE_DIR") or PYODIDE_DIR)
    absent = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if absent:
        shown = folder.relative_to(REPO) if folder.is_relative_to(REPO) else folder
        return None, f"Pyodide is not installed ({', '.join(absent)} not found in {shown}; run npm ci --prefix docs/playground)"
    return folder, ""


def _source_files() -> list[Path]:
    files: list[Path] = []
    for name in WHEEL_SOURCES:
        path = REPO / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                            and p.suffix not in (".pyc", ".pyo", ".so"))
    return files


def _source_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _build_wheel(cache: Path) -> tuple[Path | None, str]:
    """The project's wheel, built from a copy of the sources (reused while they are unchanged)."""
    files = _source_files()
    folder = cache / _source_hash(files)
    built = sorted(folder.glob("cardrules-*.whl")) if folder.is_dir() else []
    if not built:
        with tempfile.TemporaryDirectory(prefix="cardrules-playground-") as tmp:
            source, out = Path(tmp) / "src", Path(tmp) / "dist"
            for path in files:
                target = source / path.relative_to(REPO)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
            result = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(source)],
                                    capture_output=True, text=True, timeout=600)
            wheels = sorted(out.glob("cardrules-*.whl"))
            if result.returncode != 0 or not wheels:
                last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
                return None, f"the project's wheel could not be built (python -m build: {last[0][:200]})"
            folder.mkdir(parents=True, exist_ok=True)
            staged = folder / (wheels[0].name + ".part")
            shutil.copyfile(wheels[0], staged)
            os.replace(staged, folder / wheels[0].name)
        built = sorted(folder.glob("cardrules-*.whl"))
    if SESSION_IN_WHEEL not in zipfile.ZipFile(built[0]).namelist():
        return None, ("the project's wheel has no cardrules.oracle.playground package (list it in pyproject.toml's "
                      "[tool.setuptools] packages)")
    return built[0], ""


def find_runtime(app: Sphinx) -> None:
    """At ``builder-inited``: find Pyodide and build the wheel; say why when the runtime is missing."""
    RUNTIME.pyodide = RUNTIME.wheel = None
    if app.builder.format != "html":
        RUNTIME.missing = "not an HTML build"
        return
    RUNTIME.pyodide, RUNTIME.missing = _pyodide_dir()
    if RUNTIME.pyodide is not None:
        RUNTIME.wheel, RUNTIME.missing = _build_wheel(Path(app.doctreedir) / "playground-wheel")
    if RUNTIME.missing:
        RUNTIME.pyodide = RUNTIME.wheel = None
        logger.info(f"playground: built without the browser runtime: {RUNTIME.missing}")


class PlaygroundDirective(Directive):
    """``.. cardrules-playground::``: the board, or the plain statement that the runtime is missing."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        runtime = RUNTIME
        pages: set[str] = getattr(env, "cardrules_playground_pages", set())
        pages.add(env.docname)
        env.cardrules_playground_pages = pages
        up = "../" * env.docname.count("/")
        if runtime.missing:
            html = (f'<div id="cardrules-playground" data-runtime="absent" data-state="no-runtime">'
                    f'<p class="pg-error"><strong>This copy of the site was built without the browser runtime</strong>, '
                    f"so the board cannot run here: {escape(runtime.missing)}. The rest of the site is complete.</p></div>")
            return [nodes.raw("", html, format="html")]
        html = (f'<div id="cardrules-playground" data-runtime="present" data-state="loading" data-static="{up}{STATIC}/">'
                '<p class="pg-status" data-part="status">The playground needs JavaScript.</p>'
                '<p class="pg-error" data-part="error" hidden></p>'
                '<div class="pg-controls" data-part="controls" hidden><strong data-part="title"></strong>'
                '<button type="button" data-part="undo" disabled>Undo</button>'
                '<a data-part="permalink" href="#">Permalink to this position</a></div>'
                '<div data-part="scenarios" hidden></div>'
                '<div data-part="board"></div>'
                '<h3>Legal actions</h3><div class="pg-actions" data-part="actions"></div>'
                '<h3>Last action</h3><div data-part="last"></div></div>')
        return [nodes.raw("", html, format="html")]


def add_assets(app: Sphinx, pagename: str, templatename: str, context: dict[str, object], doctree: object) -> None:
    """The playground's scripts and styles, on the pages that hold a board only."""
    if pagename in getattr(app.env, "cardrules_playground_pages", set()):
        app.add_css_file("playground.css")
        if not RUNTIME.missing:
            for script in SCRIPTS:
                app.add_js_file(script)


def purge(app: Sphinx, env: object, docname: str) -> None:
    getattr(env, "cardrules_playground_pages", set()).discard(docname)


def reread(app: Sphinx, env: object, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """The board pages are read on every build: whether the runtime is there may have changed."""
    return sorted(getattr(env, "cardrules_playground_pages", set()) - removed)


def merge(app: Sphinx, env: object, docnames: set[str], other: object) -> None:
    mine: set[str] = getattr(env, "cardrules_playground_pages", set())
    mine |= getattr(other, "cardrules_playground_pages", set()) & docnames
    env.cardrules_playground_pages = mine  # type: ignore[attr-defined]


def copy_runtime(app: Sphinx, exception: Exception | None) -> None:
    """At ``build-finished``: Pyodide's files and the wheel into ``_static/playground/``, with the manifest."""
    runtime = RUNTIME
    if exception is not None or runtime.pyodide is None or runtime.wheel is None:
        return
    target = Path(app.outdir) / STATIC
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(runtime.pyodide / name, target / "pyodide" / name)
    shutil.copyfile(runtime.wheel, target / runtime.wheel.name)
    version = json.loads((runtime.pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]["version"]
    digest = hashlib.sha256(runtime.wheel.read_bytes()).hexdigest()[:16]  # a new wheel is a new address: no stale cache
    manifest = {"wheel": runtime.wheel.name, "sha256": digest, "pyodide": version}
    (target / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def skip_node_modules(app: Sphinx, config: object) -> None:
    """npm's folder sits in the docs sources (``docs/playground/``): it holds no page."""
    config.exclude_patterns = [*config.exclude_patterns, "playground/node_modules"]  # type: ignore[attr-defined]


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("cardrules-playground", PlaygroundDirective)
    app.connect("config-inited", skip_node_modules)
    app.connect("builder-inited", find_runtime)
    app.connect("html-page-context", add_assets)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-get-outdated", reread)
    app.connect("build-finished", copy_runtime)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
