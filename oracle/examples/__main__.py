"""``python -m cardrules.oracle.examples [--check]``: write ``examples.json`` again, or check it is current."""

from __future__ import annotations

import sys

from cardrules.oracle.examples import EXAMPLES_FILE
from cardrules.oracle.examples.generate import build, compact_document
from cardrules.specs.fileio import read_text, write_text


def main(argv: list[str]) -> int:
    text = compact_document(build())
    if "--check" in argv:
        current = EXAMPLES_FILE.exists() and read_text(EXAMPLES_FILE, 16_000_000) == text
        print(f"{EXAMPLES_FILE.name} is {'current' if current else 'NOT current: run python -m cardrules.oracle.examples'}")
        return 0 if current else 1
    write_text(EXAMPLES_FILE, text)
    print(f"wrote {EXAMPLES_FILE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
