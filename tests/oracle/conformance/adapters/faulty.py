"""Fake adapters for the runner's robustness tests: the reference adapter, except that it
misbehaves in one way (argv[1]) when asked to apply the action argv[2]:

- ``exit``: exits at once, before reading anything (every vector: crashed)
- ``die``: exits in the middle of a vector (crashed)
- ``hang``: sleeps forever (timeout)
- ``garbage``: prints a line that is not JSON (garbage)
- ``flood``: writes endless output without a newline (garbage)
"""

from __future__ import annotations

import json
import os
import sys
import time

from cardrules.oracle.conformance.adapter import ReferenceAdapter


def main() -> int:
    mode, trigger = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    if mode == "exit":
        return 3
    adapter = ReferenceAdapter()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "apply" and request.get("action") == trigger:
            if mode == "die":
                os._exit(9)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if mode == "flood":
                chunk = "x" * 65536
                while True:
                    sys.stdout.write(chunk)
        sys.stdout.write(json.dumps(adapter.handle(request)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
