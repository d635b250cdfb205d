"""Reading a file the user named: a regular file, bounded in size, UTF-8, JSON or TOML with bounded shape.

Why each bound (every one was a crash or a hang when a reader trusted its file):

* a path is opened without blocking and checked with ``fstat`` before a byte is
  read, so a FIFO cannot hang the reader and ``/dev/zero`` (or a link to it)
  cannot fill the memory: only regular files are read;
* at most ``limit`` bytes are read, whatever the file claims its size is;
* bytes that are not UTF-8 are named by line and column;
* JSON and TOML nesting is bounded (:data:`MAX_DEPTH`), and so are integer
  literals (:data:`MAX_INT_DIGITS` digits: no count or power in any format of
  the project comes near), and neither NaN nor an infinity is a number here.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from typing import Any

from cardrules.specs.fileio.problems import FileProblem

MAX_DEPTH = 100
"""Deepest nesting of arrays and objects (tables) accepted in a JSON or TOML document."""

MAX_INT_DIGITS = 30
"""Most digits of an integer literal in a JSON or TOML document."""

MAX_NAME_BYTES = 255
"""Longest single name in a path (the usual file-system limit)."""

MAX_PATH_BYTES = 4096
"""Longest path accepted."""

DEFAULT_LIMIT = 64 * 1024 * 1024
"""Largest file read when a reader states no bound of its own."""


def shown(path: str | os.PathLike[str]) -> str:
    """The path as an error message names it: NUL bytes visible, at most 120 characters."""
    text = os.fspath(path).replace("\0", "\\0")
    return text if len(text) <= 120 else text[:60] + "..." + text[-57:]


def check_path(path: str | os.PathLike[str]) -> None:
    """Refuse a path no file system can hold: a NUL byte, a name over 255 bytes, a path over 4096 bytes."""
    text = os.fspath(path)
    if "\0" in text:
        raise FileProblem(shown(text), "the path contains a NUL byte")
    encoded = text.encode("utf-8", "surrogateescape")
    if len(encoded) > MAX_PATH_BYTES:
        raise FileProblem(shown(text), f"the path is longer than {MAX_PATH_BYTES:,} bytes")
    if any(len(part) > MAX_NAME_BYTES for part in encoded.split(b"/")):
        raise FileProblem(shown(text), f"a name in the path is longer than {MAX_NAME_BYTES} bytes")


def read_bytes(path: str | os.PathLike[str], limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (FileProblem otherwise)."""
    check_path(path)
    name = shown(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise FileProblem(name, "no such file") from None
    except OSError as error:
        raise FileProblem(name, f"cannot be read: {error.strerror or error}") from None
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem(name, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(name, "is not a regular file (a device, a FIFO or a socket); name a file")
        if info.st_size > limit:
            raise FileProblem(name, f"is larger than {limit:,} bytes ({info.st_size:,})")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(handle, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileProblem(name, f"is larger than {limit:,} bytes")
        return b"".join(chunks)
    except OSError as error:
        raise FileProblem(name, f"cannot be read: {error.strerror or error}") from None
    finally:
        os.close(handle)


def position(text: bytes | str, offset: int) -> str:
    """``line L, column C`` of a byte or character offset (both counted from 1)."""
    newline = b"\n" if isinstance(text, bytes) else "\n"
    line = text.count(newline, 0, offset) + 1  # type: ignore[arg-type]
    column = offset - (text.rfind(newline, 0, offset) + 1) + 1  # type: ignore[arg-type]
    return f"line {line}, column {column}"


def decode(raw: bytes, source: str) -> str:
    """UTF-8 text of ``raw``; a bad byte is named by its line and column in ``source``."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileProblem(source, f"not UTF-8 text ({error.reason})", position(raw, error.start)) from None


def read_text(path: str | os.PathLike[str], limit: int = DEFAULT_LIMIT) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes."""
    return decode(read_bytes(path, limit), shown(path))


class _BadNumber(Exception):
    def __init__(self, what: str) -> None:
        self.what = what


def _json_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(f"an integer has more than {MAX_INT_DIGITS} digits")
    return int(literal)


def _json_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _BadNumber(f"the number {literal[:40]} is too large")
    return value


def _json_constant(name: str) -> float:
    raise _BadNumber(f"{name} is not a JSON number")


def parse_json(text: str, source: str) -> Any:
    """The JSON value of ``text`` (a document from ``source``), with bounded nesting and integers."""
    try:
        value = json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except json.JSONDecodeError as error:
        raise FileProblem(source, f"not valid JSON: {error.msg}", f"line {error.lineno}, column {error.colno}") from None
    except _BadNumber as error:
        found = re.search(r"-?\d{%d,}|NaN|-?Infinity" % (MAX_INT_DIGITS + 1), text)
        raise FileProblem(source, f"not valid JSON here: {error.what}",
                          position(text, found.start()) if found else "") from None
    except RecursionError:
        raise FileProblem(source, f"not valid JSON here: arrays or objects nested more than {MAX_DEPTH} deep") from None
    _check_shape(value, source, "$")
    return value


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML tables of ``text`` (a document from ``source``), with bounded nesting and integers."""
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileProblem(source, f"not valid TOML: {error}") from None
    except RecursionError:
        raise FileProblem(source, f"not valid TOML here: arrays or tables nested more than {MAX_DEPTH} deep") from None
    except ValueError:  # tomllib's int() of a literal past Python's 4300-digit limit
        found = re.search(r"\d{%d,}" % (MAX_INT_DIGITS + 1), text)
        raise FileProblem(source, f"not valid TOML here: an integer has more than {MAX_INT_DIGITS} digits",
                          position(text, found.start()) if found else "") from None
    _check_shape(value, source, "")
    return value


def _check_shape(value: Any, source: str, root: str) -> None:
    """Bounded depth, integers and finite floats, checked without recursion; the first problem's path is named."""
    stack: list[tuple[Any, str, int]] = [(value, root, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, dict):
            if depth >= MAX_DEPTH:
                raise FileProblem(source, f"nested more than {MAX_DEPTH} deep", where or "top level")
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in item.items())
        elif isinstance(item, list):
            if depth >= MAX_DEPTH:
                raise FileProblem(source, f"nested more than {MAX_DEPTH} deep", where or "top level")
            stack.extend((v, f"{where}[{n}]", depth + 1) for n, v in enumerate(item))
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) >= 10**MAX_INT_DIGITS:
                raise FileProblem(source, f"an integer has more than {MAX_INT_DIGITS} digits", where)
        elif isinstance(item, float) and not math.isfinite(item):
            raise FileProblem(source, f"{item} is not a number accepted here", where)


def load_json(path: str | os.PathLike[str], limit: int = DEFAULT_LIMIT) -> Any:
    """The JSON document in a regular file of at most ``limit`` bytes."""
    return parse_json(read_text(path, limit), shown(path))


def load_toml(path: str | os.PathLike[str], limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """The TOML document in a regular file of at most ``limit`` bytes."""
    return parse_toml(read_text(path, limit), shown(path))


__all__ = ["DEFAULT_LIMIT", "MAX_DEPTH", "MAX_INT_DIGITS", "check_path", "decode", "load_json", "load_toml",
           "parse_json", "parse_toml", "position", "read_bytes", "read_text", "shown"]
