"""The site's expensive computations, each done once per build, side by side while the build starts.

Three conformance suites (the numbered examples of the area reference pages, :mod:`cardrules_examples`),
the ``cardrules diff`` runs of the ``cardrules-rule-diff`` directives and the z3 contradiction searches
of ``cardrules-version-diff`` (:mod:`cardrules_changes`) take most of a build's CPU, and each sits on
one page, so Sphinx's parallel reading (``-j``) cannot spread them. At ``builder-inited`` each starts
in a process of its own, forked before the build has run any of the model, all at once (the system
shares the cores among them, whatever ``-j``), while the build writes its generated pages. Before it
reads the first page (``env-before-read-docs``) the build takes the results that the pages it is about
to read need, and stops the rest (an incremental build may read none of those pages); the directives,
in Sphinx's readers forked after that, find the results here (:func:`computed`).

The pieces give the same results in any process and any order (the generator's tracer leaves the
model's remembered look-ups out, :func:`cardrules.oracle.trace.coverage.outcomes_exercised`), so the
pages show the same whatever ``-j``. A piece that fails is computed again by its directive, which
reports the error on its page.

The work is found by reading the page sources for the directives (and the suites
:data:`cardrules_examples.SUITES` names, needed whenever an area page is built).
"""

from __future__ import annotations

import multiprocessing
import re
from pathlib import Path
from typing import Any, Callable, TypeVar

from sphinx.application import Sphinx

T = TypeVar("T")
Key = tuple[Any, ...]

_done: dict[Key, Any] = {}
_pending: dict[str, Any] = {}

RULE_DIFF = re.compile(r"^\s*\.\. cardrules-rule-diff::[ \t]+(\S+)[ \t]+(\S+)[ \t]*$", re.M)
VERSION_DIFF = re.compile(r"^\s*\.\. cardrules-version-diff::[ \t]+(\S+)[ \t]*$", re.M)


def computed(key: Key, compute: Callable[[], T]) -> T:
    """The result for ``key``: computed at the start of the build, or now (and kept for this process)."""
    if key not in _done:
        _done[key] = compute()
    result: T = _done[key]
    return result


def _run(key: Key) -> Any:
    """Compute one piece of work in a worker process (the key names the function and its arguments)."""
    kind = key[0]
    if kind == "suite":
        from cardrules_examples import suite_vectors

        return suite_vectors(key[1], key[2])
    if kind == "rule-diff":
        from cardrules_changes import rule_diff_lines

        return rule_diff_lines(key[1], key[2])
    from cardrules_changes import version_diff_lines

    return version_diff_lines(key[1])


def wanted(srcdir: Path) -> dict[Key, frozenset[str]]:
    """The work this build's pages may need -> the pages (document names) that need it."""
    from cardrules.specs.catalogue import default_catalogue
    from cardrules_examples import SUITES, suite_key

    # the vectors are shown on each clause's page of its own (cardrules_docs.formal_page)
    area_pages = frozenset(f"areas/{c.id.lower()}" for c in default_catalogue().clauses)
    work: dict[Key, frozenset[str]] = {("suite", game, suite_key(versions)): area_pages for game, versions in SUITES}
    for page in sorted(srcdir.glob("*.rst")):
        text = page.read_text(encoding="utf-8")
        keys = [("rule-diff", a, b) for a, b in RULE_DIFF.findall(text)]
        keys += [("version-diff", area) for area in VERSION_DIFF.findall(text)]
        for key in keys:
            work[key] = work.get(key, frozenset()) | {page.stem}
    return work


def _child(key: Key, conn: Any) -> None:
    """In a process forked when the build started: compute one piece and send it, or the error, to the build."""
    try:
        answer: tuple[str, Any] = ("done", _run(key))
    except Exception as e:  # noqa: BLE001 - sent on: the directive computes it again and reports it
        answer = ("failed", repr(e))
    conn.send(answer)
    conn.close()


def start(app: Sphinx) -> None:
    """At ``builder-inited``: fork one process per piece of work the pages may need."""
    _done.clear()
    context = multiprocessing.get_context("fork")
    pending = []
    for key, pages in wanted(Path(app.srcdir)).items():
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(key, send), daemon=True)
        process.start()
        send.close()
        pending.append((key, pages, process, receive))
    _pending["work"] = pending


def finish(app: Sphinx, env: Any, docnames: list[str]) -> None:
    """At ``env-before-read-docs``: take the results the pages to read need, and stop the work no page
    to read needs (an incremental build that reads none of its pages). A piece that failed is left to its
    directive, which computes it again and reports the error on its page."""
    reading = set(docnames)
    for key, pages, process, receive in _pending.pop("work", []):
        if not pages & reading:
            process.terminate()
            process.join()
            continue
        try:
            status, value = receive.recv()
        except EOFError:  # the process died without an answer
            status, value = "failed", None
        process.join()
        if status == "done":
            _done[key] = value


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", start, priority=100)  # before the handlers that write generated pages
    app.connect("env-before-read-docs", finish)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
