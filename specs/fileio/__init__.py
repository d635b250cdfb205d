"""Every file the project reads or writes goes through here: bounded, checked, named in errors.

Reading (:mod:`.reading`): a path must name a regular file (never a FIFO, a
device such as ``/dev/zero``, or a folder) no larger than a stated bound; its
bytes must be UTF-8; JSON and TOML documents are parsed with bounded nesting
and bounded integers. Writing (:mod:`.writing`): an output path is checked
before a long run starts, and a file is written whole or not at all.

Every problem is a :class:`FileProblem` whose message reads ``FILE: where: what``;
the command line reports it as bad input (exit 3). This package imports nothing
of the project, so every layer above (the catalogue, the models, the
properties, the oracle) can use it.
"""

from cardrules.specs.fileio.problems import FileProblem
from cardrules.specs.fileio.reading import (
    MAX_DEPTH, MAX_INT_DIGITS, check_path, load_json, load_toml, parse_json, parse_toml, read_bytes, read_text,
)
from cardrules.specs.fileio.writing import check_output_dir, check_output_file, write_bytes, write_text

__all__ = [
    "MAX_DEPTH", "MAX_INT_DIGITS", "FileProblem", "check_output_dir", "check_output_file", "check_path", "load_json",
    "load_toml", "parse_json", "parse_toml", "read_bytes", "read_text", "write_bytes", "write_text",
]
