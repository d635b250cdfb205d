"""A fake adapter that answers with scripted bytes, for the adapter-reply fuzz tests.

``python scripted_adapter.py REPLIES RECORD_DIR``. It imports nothing of the project (it starts in
milliseconds). REPLIES holds the scripted replies, each a 4-byte big-endian length and that many bytes
(the length ``0xFFFFFFFF``: answer correctly). Each request line is answered with the next scripted reply,
written as it is (no newline added); when they run out, correctly. Correctly means the trivial engine of
``tests/oracle/conformance/faulty_adapter.py``: ``load`` keeps the state's ``tag``, the legal actions are
``["go"]`` until ``go`` is applied and ``[]`` after, the state is ``{"tag": TAG, "after": "go"}``.

The position in REPLIES is kept in RECORD_DIR/next, so that an adapter restarted after a fault goes on
with the next reply; RECORD_DIR/served gets one line ``TAG INDEX`` per scripted reply written (TAG: the
vector's, from its ``load``), and each process leaves its pid as a file name in RECORD_DIR.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

CORRECT = 0xFFFFFFFF


def read_replies(path: Path) -> list[bytes | None]:
    """The scripted replies (``None``: answer correctly)."""
    raw, replies, at = path.read_bytes(), [], 0
    while at < len(raw):
        size = int.from_bytes(raw[at:at + 4], "big")
        at += 4
        replies.append(None if size == CORRECT else raw[at:at + size])
        at += 0 if size == CORRECT else size
    return replies


def write_out(data: bytes) -> None:
    """Write all of ``data`` on stdout, unbuffered."""
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


def correct(request: Any, engine: dict[str, Any]) -> bytes:
    """The right reply to ``request`` (every field present, whatever the request)."""
    if not isinstance(request, dict):
        return b'{"ok": false, "error": "bad-request", "message": "not an object"}\n'
    if request.get("op") == "load":
        state = request.get("state")
        state = state if isinstance(state, dict) else {}
        engine.update(tag=str(state.get("tag", "")), applied=False)
    elif request.get("op") == "apply":
        engine["applied"] = True
    reply = {"ok": True, "actions": [] if engine["applied"] else ["go"], "state": {"tag": engine["tag"], "after": "go"}}
    return json.dumps(reply).encode() + b"\n"


def main() -> int:
    """Serve requests on stdin with the scripted replies, then correctly."""
    replies, folder = read_replies(Path(sys.argv[1])), Path(sys.argv[2])
    (folder / str(os.getpid())).touch()
    position = folder / "next"
    engine: dict[str, Any] = {"tag": "", "applied": False}
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        answer = correct(request, engine)
        index = int(position.read_text()) if position.exists() else 0
        if index < len(replies):
            position.write_text(str(index + 1))
            with open(folder / "served", "a") as served:
                served.write(f"{engine['tag']} {index}\n")
            scripted = replies[index]
            answer = answer if scripted is None else scripted
        write_out(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
