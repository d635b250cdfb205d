"""Examples in the players' words under each rule (the MTG Comprehensive Rules' "Example:" lines).

The examples come from :mod:`cardrules.oracle.examples`: picked from model
runs, narrated per game, stored in ``oracle/examples/examples.json`` and
checked by a replay test, so rendering them runs no model and takes no time.
Each shows the position, what is done and the ruling with the numbers of the
rules it illustrates, a permalink anchor and a "Try it" link into the
playground (:func:`cardrules.oracle.examples.links.playground_link`). The
rules views (:mod:`cardrules_rules`) render them; the functions are pure, so
tests render them without a build. The area reference pages, written for
engine authors, keep their conformance vectors in machine notation
(:func:`example_lines`).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape as html_escape
from typing import Any, Callable

from cardrules.oracle.examples import examples_for
from cardrules.oracle.examples.links import playground_link
from cardrules.specs.catalogue.numbers import Numbering
from cardrules_boards import board_lines

PER_CLAUSE = 2
"""Examples shown under one rule at most (the one picked for it first)."""
SUITES: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("fftcg", {}), ("redemption", {"heal": ("revised",)}), ("redemption", {"heal": ("previous",)}))
"""The conformance suites the area reference pages take their vectors from."""


def example_anchor(clause_id: str, index: int) -> str:
    """The permalink anchor of a rule's ``index``-th example (from 1): ``example-ff-party-unblocked-one-1``."""
    return f"example-{clause_id.lower()}-{index}"


def cited(numbering: Numbering, example: dict[str, Any]) -> str:
    """``PARTY 3.3, FFBASE 5.1``: the numbers of the rules an example illustrates."""
    return ", ".join(numbering.number(c) for c in example["clauses"] if c in numbering.numbers)


def rule_example_lines(clause_id: str, numbering: Numbering, escape: Callable[[str], str],
                       link_prefix: str = "") -> list[str]:
    """reST of a rule's examples: each its anchor, the position (with a board picture where the position
    matters, :func:`cardrules_boards.needs_board`), the action, the ruling with the rules' numbers, and a
    "Try it" link (``link_prefix`` goes before the playground link: ``""`` from a page of
    ``docs/rules/`` or ``docs/areas/``, both one folder below the playground page)."""
    lines: list[str] = []
    examples = examples_for(clause_id)[:PER_CLAUSE]
    for index, example in enumerate(examples, 1):
        anchor = example_anchor(clause_id, index)
        title = f"Example {index} of {len(examples)}" if len(examples) > 1 else "Example"
        rules = "" if example["rules"] in ("default",) else f" Rule set: ``{example['rules']}``."
        link = html_escape(link_prefix + playground_link(example["game"], example["rules"], example["state"]))
        # the anchor is an HTML id, not a reST label: a label would enter the search index as a
        # title of its own and outrank the rule when a judge searches the rule's number
        lines += [f".. admonition:: {title}", "   :class: rule-example", "", "   .. raw:: html", "",
                  f'      <span class="example-anchor" id="{anchor}"></span>', "",
                  f"   **Position.** {escape(example['position'])}{rules}", "",
                  *board_lines(example),
                  f"   **{'Asked' if example['kind'] == 'refusal' else 'Then'}.** {escape(example['event'])}", "",
                  f"   **Ruling.** {escape(example['ruling'])} ({escape(cited(numbering, example))})", "",
                  "   .. raw:: html", "",
                  f'      <p class="example-links"><a class="try-it" href="{link}">Try it</a> · '
                  f'<a class="example-permalink" href="#{anchor}" title="Link to this example">permalink</a></p>',
                  ""]
    return lines


Versions = tuple[tuple[str, tuple[str, ...]], ...]
"""A suite's versions as a hashable key: ``(("heal", ("revised",)),)``."""


def suite_key(versions: dict[str, tuple[str, ...]]) -> Versions:
    """A suite's versions (area -> version IDs, as in :data:`SUITES`) as a hashable key, areas sorted."""
    return tuple(sorted(versions.items()))


def suite_vectors(game: str, versions: Versions) -> tuple[str, list[dict[str, Any]]]:
    """The suite ID and the play and refusal vectors of the default conformance suite of ``game`` under
    ``versions``: the vectors ``cardrules conformance generate`` chooses (its scenarios and targeted
    positions explored, candidates chosen by greedy set cover), in the suite's order. The suite's perft
    and invalid-state vectors, which no page shows, are not built: they are most of a suite's cost."""
    from cardrules.oracle.conformance.candidates import collect
    from cardrules.oracle.conformance.generate import MAX_STATES, greedy_cover
    from cardrules.oracle.conformance.plan import clauses_for, make_plan
    from cardrules.oracle.conformance.targeted import load_positions
    from cardrules.oracle.conformance.vectors import build_vector, candidate_id
    from cardrules.properties.scenarios import load_scenarios

    plan = make_plan(game, dict(versions), {})
    in_force = frozenset(clauses_for(plan))
    sources = collect(plan, load_scenarios(), in_force, max_states=MAX_STATES[game], seed=0,
                      positions=load_positions())
    candidates = sources.candidates
    ids = [candidate_id(sources.graphs[c.graph], c) for c in candidates]
    vectors = [build_vector(sources.graphs[candidates[i].graph], candidates[i], in_force)
               for i in greedy_cover(candidates, ids)]
    return plan.id, sorted(vectors, key=lambda v: (v["kind"] != "play", v["id"]))


@lru_cache(maxsize=1)
def examples_by_clause() -> dict[str, list[dict[str, Any]]]:
    """For the area reference pages (engine authors): clause ID -> its conformance vectors, most specific
    first. The default conformance suites (one per game and wording, :func:`suite_vectors`) are generated
    once per build (:mod:`cardrules_shared`); a vector exemplifies a clause when the clause's code ran in
    its last step; each clause shows up to :data:`PER_CLAUSE` (fewest clauses in that step, then fewest
    steps), numbered across the area (each clause's on its own page, :mod:`cardrules_docs`)."""
    from cardrules_shared import computed

    found: dict[str, list[tuple[tuple[int, int, str], dict[str, Any]]]] = {}
    for game, versions in SUITES:
        key = suite_key(versions)
        suite, vectors = computed(("suite", game, key), lambda: suite_vectors(game, key))
        for vector in vectors:
            last = vector["steps"][-1]["clauses"] if vector.get("steps") else vector.get("clauses", [])
            if vector["kind"] == "refusal":
                last = vector.get("refuse", {}).get("clauses", last)
            for clause_id in last:
                order = (len(last), len(vector.get("steps", [])), vector["id"])
                found.setdefault(clause_id, []).append((order, {**vector, "suite": suite}))
    return {c: [v for _, v in sorted(items, key=lambda kv: kv[0])][:PER_CLAUSE] for c, items in found.items()}


def example_lines(clause_id: str, prefix: str, number_from: int, escape: Any) -> tuple[list[str], int]:
    """For the area reference pages: a clause's conformance vectors in their machine notation, numbered
    ``prefix-N`` from ``number_from``; returns the lines and the next number."""
    vectors = examples_by_clause().get(clause_id, [])
    lines: list[str] = []
    number = number_from
    for vector in vectors:
        actions = [step["action"] for step in vector.get("steps", [])]
        lines += [f".. admonition:: Example {prefix}-{number} (conformance vector ``{vector['id']}``, suite "
                  f"``{vector['suite']}``)", "", f"   {escape(vector['narrative'])}", ""]
        if actions:
            lines += ["   Actions from the scenario's start: " + " ; ".join(f"``{a}``" for a in actions), ""]
        if vector["kind"] == "refusal":
            lines += [f"   Then ``{vector.get('refuse', {}).get('action', '')}`` must be refused.", ""]
        number += 1
    return lines, number
