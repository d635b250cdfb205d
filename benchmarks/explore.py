"""Exploration speed and memory for the FFTCG party scenario at growing sizes.

Prints one row per size: Forwards per player, turns, states, transitions,
seconds, states per second, bytes per state and peak memory. Each size runs
in its own process so that peak memory is that run's alone.

    python3 benchmarks/explore.py            # the default sizes
    python3 benchmarks/explore.py --quick    # the two smallest
    python3 benchmarks/explore.py --size 2 2 --size 3 1   # chosen sizes (Forwards a side, turns)
    python3 benchmarks/explore.py --no-properties   # states only, no property checked
    python3 benchmarks/explore.py --no-reuse   # every state expanded itself (no expansion shared
                                               # across event logs: properties/engines/reuse.py)

By default every registered FFTCG property (15) is checked on every state and
transition, as ``cardrules explore`` does; one of them, step determinism,
steps every transition a second time.

Seconds are wall-clock; ``CPU s`` is the search's CPU time (``time.process_time``), the steadier
figure on a shared machine, and ``st/CPU s`` the states per CPU second.

Bytes per state is (peak RSS - RSS before the search) / states: everything
the search keeps per state (the state, its key, parent and action records).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

ELEMENTS = ("fire", "ice", "wind")


def position(per_player: int) -> dict:
    """Player 0: Forwards that form element and P-icon parties; player 1: blockers; both at 5 damage."""
    attackers = [
        {"id": f"a{i}", "name": f"Attacker {i}", "elements": [ELEMENTS[i % 2]], "cost": 1 + i % 4,
         "power": 1000 * (2 + i % 4), "p_icon": i % 3 == 0, "preemptive": i % 4 == 1}
        for i in range(1, per_player + 1)
    ]
    blockers = [
        {"id": f"b{i}", "name": f"Blocker {i}", "elements": [ELEMENTS[2 - i % 2]], "cost": 2 + i % 3,
         "power": 1000 * (3 + i % 4) + (500 if i % 2 else 0)}
        for i in range(1, per_player + 1)
    ]
    return {
        "turn": 1, "turn_player": 0, "phase": "attack", "step": "attack-declaration",
        "players": [{"damage": 5, "forwards": attackers}, {"damage": 5, "forwards": blockers}],
    }


def run_one(per_player: int, turns: int, checked: bool = True, reuse: bool = True) -> dict:
    """One exploration; ``checked``: every registered FFTCG property on every state and transition
    (the default, as ``cardrules explore`` does), else none (states only, as the SPIN and TLC twins)."""
    from cardrules.model.fftcg.validate import load_state
    from cardrules.properties.games import properties_for
    from cardrules.properties.engines.explore import Bounds, explore
    from cardrules.properties.fftcg.game import FftcgGame
    import cardrules.properties.fftcg.invariants  # noqa: F401  (registers the properties)

    root = load_state(position(per_player))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started, cpu_started = time.perf_counter(), time.process_time()
    result = explore(FftcgGame(), [root], properties_for("fftcg") if checked else [],
                     Bounds(max_turns=turns, max_states=2_000_000), progress=False, reuse=reuse)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "forwards": per_player, "turns": turns, "states": result.stats.states, "transitions": result.stats.transitions,
        "seconds": seconds, "cpu_seconds": cpu_seconds, "violations": sorted(result.violations), "truncated": result.stats.truncated,
        "bytes_per_state": max(peak - before, 0) / max(result.stats.states, 1), "peak_mib": peak / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only the two smallest sizes")
    parser.add_argument("--size", nargs=2, type=int, action="append", metavar=("FORWARDS", "TURNS"),
                        help="run this size (Forwards a side, turns); repeat for several (default: the usual six)")
    parser.add_argument("--no-properties", action="store_true",
                        help="check no property (only enumerate the states, as the SPIN and TLC twins do)")
    parser.add_argument("--no-reuse", action="store_true",
                        help="expand every state itself, without sharing expansions across event logs")
    parser.add_argument("--one", nargs=2, type=int, metavar=("FORWARDS", "TURNS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(*args.one, checked=not args.no_properties, reuse=not args.no_reuse)))
        return
    sizes = [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 1)]
    if args.quick:
        sizes = sizes[:2]
    if args.size:
        sizes = [(forwards, turns) for forwards, turns in args.size]
    header = (f"{'fwd':>3} {'turns':>5} {'states':>10} {'edges':>10} {'seconds':>8} {'states/s':>9} {'CPU s':>8} "
              f"{'st/CPU s':>9} {'B/state':>8} {'peak MiB':>8}")
    print(header)
    print("-" * len(header))
    for forwards, turns in sizes:
        command = [sys.executable, __file__, "--one", str(forwards), str(turns)]
        options = (["--no-properties"] if args.no_properties else []) + (["--no-reuse"] if args.no_reuse else [])
        out = subprocess.run(command + options, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{forwards:>3} {turns:>5}  failed: {out.stderr.strip().splitlines()[-1] if out.stderr else out.returncode}")
            continue
        r = json.loads(out.stdout)
        rate = r["states"] / r["seconds"] if r["seconds"] else float("inf")
        cpu_rate = r["states"] / r["cpu_seconds"] if r["cpu_seconds"] else float("inf")
        flag = " (truncated)" if r["truncated"] else ""
        print(f"{forwards:>3} {turns:>5} {r['states']:>10,} {r['transitions']:>10,} {r['seconds']:>8.2f} {rate:>9,.0f} "
              f"{r['cpu_seconds']:>8.2f} {cpu_rate:>9,.0f} {r['bytes_per_state']:>8,.0f} {r['peak_mib']:>8.1f}{flag}",
              flush=True)


if __name__ == "__main__":
    main()
