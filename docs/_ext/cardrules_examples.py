"""Numbered examples per clause, taken from the conformance vectors (CommonMark-style examples).

At build time the default conformance suites are generated (one per game
and wording, as ``cardrules conformance generate`` writes them); a vector
exemplifies a clause when the clause's code ran in its last step. Each clause
shows up to :data:`PER_CLAUSE` examples, the most specific first (fewest
clauses in that step, then fewest steps), numbered across the site.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

PER_CLAUSE = 2
SUITES = (("fftcg", {}), ("redemption", {"heal": ("revised",)}), ("redemption", {"heal": ("previous",)}))


@lru_cache(maxsize=1)
def examples_by_clause() -> dict[str, list[dict[str, Any]]]:
    """Clause ID -> its example vectors (each with its suite id), most specific first."""
    from cardrules.oracle.conformance.generate import generate_suite
    from cardrules.oracle.conformance.plan import make_plan

    found: dict[str, list[tuple[tuple[int, int, str], dict[str, Any]]]] = {}
    for game, versions in SUITES:
        plan = make_plan(game, versions, {})
        suite = generate_suite(plan, seed=0).suite
        if suite is None:
            continue
        for vector in suite["vectors"]:
            if vector["kind"] in ("perft", "invalid"):
                continue  # counts, or a broken state: no example of one clause
            last = vector["steps"][-1]["clauses"] if vector.get("steps") else vector.get("clauses", [])
            if vector["kind"] == "refusal":
                last = vector.get("refuse", {}).get("clauses", last)
            for clause_id in last:
                key = (len(last), len(vector.get("steps", [])), vector["id"])
                found.setdefault(clause_id, []).append((key, {**vector, "suite": suite["suite"]}))
    return {c: [v for _, v in sorted(items, key=lambda kv: kv[0])][:PER_CLAUSE] for c, items in found.items()}


def example_lines(clause_id: str, prefix: str, number_from: int, escape: Any) -> tuple[list[str], int]:
    """reST for a clause's examples, numbered ``prefix-N`` from ``number_from``; returns the lines and the next number."""
    vectors = examples_by_clause().get(clause_id, [])
    if not vectors:
        return [], number_from
    lines: list[str] = []
    number = number_from
    for vector in vectors:
        actions = [step["action"] for step in vector.get("steps", [])]
        lines += [f".. admonition:: Example {prefix}-{number} (conformance vector ``{vector['id']}``, suite ``{vector['suite']}``)",
                  "", f"   {escape(vector['narrative'])}", ""]
        if actions:
            lines += ["   Actions from the scenario's start: " + " ; ".join(f"``{a}``" for a in actions), ""]
        if vector["kind"] == "refusal":
            refused = vector.get("refuse", {})
            lines += [f"   Then ``{refused.get('action', '')}`` must be refused.", ""]
        number += 1
    return lines, number
