"""An adapter for an engine that implements the default rule set only: a ``load`` whose rule set selects a
decision option is answered ``unsupported``; every other request goes to the engine named by the rest of the
command line (by default the reference adapter) and its reply comes back unchanged."""

from __future__ import annotations

import json
import subprocess
import sys

REFERENCE = [sys.executable, "-m", "cardrules.oracle.cli", "conformance", "adapter"]


def main() -> int:
    """Answer or forward each request line until standard input closes."""
    engine = subprocess.Popen(sys.argv[1:] or REFERENCE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert engine.stdin is not None and engine.stdout is not None
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "load" and request.get("rule_set", {}).get("decisions"):
            reply = json.dumps({"ok": False, "error": "unsupported",
                                "message": "this engine implements the default rule set only"}) + "\n"
        else:
            engine.stdin.write(line)
            engine.stdin.flush()
            reply = engine.stdout.readline()
        sys.stdout.write(reply)
        sys.stdout.flush()
    engine.stdin.close()
    return engine.wait()


if __name__ == "__main__":
    sys.exit(main())
