"""The one error of the file layer: which file, where in it, and what is wrong."""

from __future__ import annotations


class FileProblem(ValueError):
    """A file that cannot be read or written as asked: ``FILE: where: what`` (``where`` may be empty).

    ``path`` is the file as the user named it; ``where`` a position in it
    (``line 3, column 7``, ``byte 12``, a JSON path) or empty; ``what`` the
    problem in words. The command line prints the message and exits 3.
    """

    def __init__(self, path: str, what: str, where: str = "") -> None:
        self.path = path
        self.where = where
        self.what = what
        super().__init__(f"{path}: {where}: {what}" if where else f"{path}: {what}")
