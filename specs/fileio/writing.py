"""Writing a file the user named: checked before the run, written whole or not at all, failures named.

A long run (a diff, a conformance run, a generation) checks its output paths
first with :func:`check_output_file` or :func:`check_output_dir`, so a typo
costs no minutes of work. :func:`write_bytes` then writes through a temporary
file in the same folder and renames it into place: a reader sees the old file
or the whole new one, never half of it. A path that is an existing device or
FIFO (``/dev/stdout``, ``/dev/null``) is written in place, since it cannot be
renamed onto. Every failure is a :class:`FileProblem` naming the path.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from cardrules.specs.fileio.problems import FileProblem
from cardrules.specs.fileio.reading import check_path, shown


def _read_umask() -> int:
    """The process's umask: from ``/proc/self/status`` where Linux gives it (nothing changed), else by setting
    and restoring it once, here at import, before any thread of ours can create a file."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


_UMASK = _read_umask()
"""The mode bits a new file of ours does not get (read once: ``os.umask`` is process-wide)."""


def _probe(folder: Path, name: str) -> None:
    """Create and remove a temporary file in ``folder``: the one sure test that a file can be created there."""
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".cardrules-probe-")
    except OSError as error:
        raise FileProblem(name, f"cannot be written: {error.strerror or error} in {shown(folder)}") from None
    os.close(handle)
    os.unlink(temporary)


def check_output_file(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, an output file that could not be written (FileProblem naming it)."""
    check_path(path)
    target, name = Path(path), shown(path)
    if target.is_dir():
        raise FileProblem(name, "is a folder; name a file to write")
    if target.exists() and not target.is_file():
        if not os.access(target, os.W_OK):
            raise FileProblem(name, "cannot be written: permission denied")
        return  # a device or FIFO: written in place
    folder = target.parent
    if not folder.exists():
        raise FileProblem(name, f"cannot be written: the folder {shown(folder)} does not exist")
    if not folder.is_dir():
        raise FileProblem(name, f"cannot be written: {shown(folder)} is not a folder")
    _probe(folder, name)


def check_output_dir(path: str | os.PathLike[str], create: bool = True) -> None:
    """Refuse, before any work, an output folder that could not be filled; create it (and parents) if asked."""
    check_path(path)
    folder, name = Path(path), shown(path)
    if folder.exists() and not folder.is_dir():
        raise FileProblem(name, "is a file, not a folder")
    if not folder.exists():
        if not create:
            raise FileProblem(name, "no such folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise FileProblem(name, f"cannot be created: {error.strerror or error}") from None
    _probe(folder, name)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole (a temporary file renamed into place), or raise FileProblem naming it."""
    check_path(path)
    target, name = Path(path), shown(path)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise FileProblem(name, "is a folder; name a file to write")
    try:
        if mode is not None and not stat.S_ISREG(mode):
            with open(target, "wb") as stream:  # a device or a FIFO: in place
                stream.write(data)
            return
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:40]}.", suffix=".tmp")
    except OSError as error:
        raise FileProblem(name, f"cannot be written: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, (mode & 0o777) if mode is not None else 0o666 & ~_UMASK)
        os.replace(temporary, target)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise FileProblem(name, f"cannot be written: {error.strerror or error}") from None


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` whole (see :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8"))
