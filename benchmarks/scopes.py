"""Scopes: how many positions each named scope has, what exploring them costs, and ``cardrules diff`` over them.

For each game and named scope (:data:`cardrules.properties.scopes.SCOPE_NAMES`) prints the
positions, the states the explorer visits from all of them under the default rules (every
property checked, each position within the scope's bounds), the seconds spent enumerating the
positions and the seconds spent exploring them. Then, for each built-in pair of rule sets, the
wall seconds of ``cardrules diff`` as the command runs it by default: the embedded scenarios of
the pair's game plus its ``small`` scope (:func:`cardrules.oracle.rulechange.report.run_diff`),
with the states of the lockstep explorations (embedded scenarios, small scope) and how many start
positions showed a difference. The pairs:
``heal=previous`` against ``heal=revised``, each proposal of ``docs/proposals/`` against its
base, and a few decision options against the default.

    python3 benchmarks/scopes.py                   # every figure
    python3 benchmarks/scopes.py --no-diff         # the scopes only
    python3 benchmarks/scopes.py --record          # and write docs/results/scopes.toml for the docs

On a machine other jobs share, wall seconds count the waiting too: the record says how loaded
the machine was.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULT = REPO / "docs" / "results" / "scopes.toml"
DECISION_PAIRS = (
    ("redemption", "default", "sb-return-territory=permanent-controller"),
    ("fftcg", "default", "party-blocker-power-remainder=remainder-to-one"),
    ("fftcg", "default", "party-disband-timing=after-damage-resolution"),
)


def scope_rows(names: list[str] | None) -> list[list[Any]]:
    """Per game and named scope: [game, scope, positions, states, enumeration s, exploration s]."""
    from cardrules.oracle.verify.scopes import explore_scope
    from cardrules.properties.scenarios import RuleSetSpec
    from cardrules.properties.scopes import SCOPE_NAMES, load_scope
    from cardrules.properties.scopes.enumerate import _enumerate

    from cardrules.properties.games import make_game

    for game in SCOPE_NAMES:  # imports and first loads before any timing
        make_game(game, RuleSetSpec("default"))
    rows = []
    for game, scopes in sorted(SCOPE_NAMES.items()):
        for name in scopes:
            if names and name not in names:
                continue
            scope = load_scope(name, game)
            _enumerate.cache_clear()
            started = time.perf_counter()
            positions = list(_enumerate(scope))
            enumeration = time.perf_counter() - started
            started = time.perf_counter()
            found = explore_scope(scope, RuleSetSpec("default"), positions)
            exploration = time.perf_counter() - started
            rows.append([game, name, len(positions), found.states, round(enumeration, 1), round(exploration, 1)])
            print(f"{game:<11} {name:<7} {len(positions):>9,} {found.states:>10,} {enumeration:>13.1f} "
                  f"{exploration:>13.1f}", flush=True)
    return rows


def pairs() -> list[tuple[str, str, str]]:
    """(game, A, B) for every built-in pair: the heal wordings, each proposal against its base, decisions."""
    from cardrules.oracle.rulechange.proposals import load_proposal

    found = [("redemption", "heal=previous", "heal=revised")]
    for path in sorted((REPO / "docs" / "proposals").glob("*.toml")):
        proposal = load_proposal(path, allow_code=True)
        base = ",".join([*(f"{k}={v[0]}" for k, v in sorted(proposal.base.versions.items())),
                         *(f"{k}={v}" for k, v in sorted(proposal.base.decisions.items()))]) or "default"
        found.append((proposal.game, base, str(path.relative_to(REPO))))
    return found + list(DECISION_PAIRS)


def diff_rows() -> list[list[Any]]:
    """Per pair: [pair, states of the embedded scenarios, states of the small scope, wall seconds, start
    positions (scenarios and scope positions) where the rule sets differ]."""
    from cardrules.oracle.cli.diff import named_rule_set
    from cardrules.oracle.rulechange.report import run_diff
    from cardrules.properties.scenarios import load_scenarios
    from cardrules.properties.scopes import load_scope

    rows = []
    for game, a, b in pairs():
        scenarios = [s for s in load_scenarios() if s.game == game]
        started = time.perf_counter()
        report = run_diff(game, named_rule_set(a, True), named_rule_set(b, True), scenarios,
                          scopes=(load_scope("small", game),))
        seconds = time.perf_counter() - started
        explorations = getattr(report, "explorations", report.scenarios)
        embedded = sum(s.states for s in report.scenarios)
        in_scope = sum(s.states for s in explorations) - embedded
        differs = sum(1 for s in explorations if s.differs)
        pair = f"{a} vs {Path(b).name if b.endswith('.toml') else b}"
        rows.append([pair, embedded, in_scope, round(seconds, 1), differs])
        print(f"{pair:<62} {embedded:>9,} {in_scope:>9,} {seconds:>8.1f} {differs:>10}", flush=True)
    return rows


GOAL_DIFF = 120.0
"""The goal: each built-in pair's default diff (embedded scenarios and the small scope) in 2 minutes."""


def _toml(cell: Any) -> str:
    return f'"{cell}"' if isinstance(cell, str) else str(cell)


def record(scopes: list[list[Any]], diffs: list[list[Any]], load: float) -> None:
    """Write docs/results/scopes.toml (the scope table; the diff times in its note)."""
    now = datetime.now().replace(microsecond=0).isoformat()
    note = "; ".join(f"{pair}: {seconds} s ({embedded + in_scope:,} states, {differs} differing)"
                     for pair, embedded, in_scope, seconds, differs in diffs)
    lines = [
        "# Named scopes: positions, states explored, seconds (benchmarks/scopes.py --record).",
        f"measured = {now}",
        'command = "python3 benchmarks/scopes.py --record"',
        f'machine = "{"idle" if load < 1.0 else "loaded"}"',
        f'conditions = "2 cores, load average {load:.1f} (the busier of before and during the run)"',
        'columns = ["game", "scope", "positions", "states explored", "enumeration s", "exploration s"]',
        "rows = [",
        *(f"  [{', '.join(_toml(c) for c in row)}]," for row in scopes),
        "]",
    ]
    if diffs:
        lines.insert(5, f'note = "Wall seconds of cardrules diff over the embedded scenarios and the small scope, '
                        f'with the states of its lockstep explorations and the start positions where the pair '
                        f'differs: {note}."')
        slowest = max(diffs, key=lambda row: row[3])
        lines += ["", "[[goal]]", f'goal = "``cardrules diff`` with the small scope at most {GOAL_DIFF:.0f} s per built-in pair"',
                  f'figure = "the slowest of {len(diffs)} pairs: {slowest[3]} s ({slowest[0]})"',
                  f"met = {'true' if slowest[3] <= GOAL_DIFF else 'false'}"]
    from cardrules.specs.fileio import write_text

    write_text(RESULT, "\n".join(lines) + "\n")
    print(f"recorded in {RESULT.relative_to(REPO)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scope", action="append", help="only this named scope (repeatable)")
    parser.add_argument("--no-diff", action="store_true", help="skip the cardrules diff timings")
    parser.add_argument("--record", action="store_true", help="write docs/results/scopes.toml")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    print(f"{'game':<11} {'scope':<7} {'positions':>9} {'states':>10} {'enumerate s':>13} {'explore s':>13}")
    scopes = scope_rows(args.scope)
    diffs: list[list[Any]] = []
    if not args.no_diff:
        print(f"\n{'cardrules diff':<62} {'embedded':>9} {'small':>9} {'wall s':>8} {'differing':>10}")
        diffs = diff_rows()
    if args.record:  # the busier of before and after (the 15-minute average covers a long run)
        record(scopes, diffs, max(load, os.getloadavg()[2 if time.perf_counter() - started > 600 else 1]))
    if diffs:
        slowest = max(diffs, key=lambda row: row[3])
        print(f"\ngoal: each pair at most {GOAL_DIFF:.0f} s: the slowest, {slowest[0]}, took {slowest[3]} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
