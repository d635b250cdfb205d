"""The compiled outcome tracer (``cardrules.oracle.trace.ctracer``), an optional accelerator.

Everything else about the package is in pyproject.toml. The extension is optional: where no C compiler
(or no Python headers) is found the install goes on without it, and ``cardrules`` traces in pure Python
(the reference; the same suites, slower: ``cardrules conformance generate`` says so). It is built for
Python 3.11 only, the version its tests run on (it uses the 3.11 trace hooks). ``CARDRULES_PURE_PYTHON=1``
leaves it out on purpose (an editable install keeps a tracer built before in ``oracle/trace/``: delete
``oracle/trace/ctracer.*.so``, or run with ``CARDRULES_TRACER=python``).
"""

import hashlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup

PURE = os.environ.get("CARDRULES_PURE_PYTHON", "") not in ("", "0") or sys.version_info[:2] != (3, 11)
SOURCE = "oracle/trace/ctracer.c"
# The source's digest, built in: an editable install whose tracer is older than its source says so at run time
# (cardrules.oracle.trace.coverage.compiled_tracer_missing) instead of tracing with the old one.
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[] if PURE else [
        Extension("cardrules.oracle.trace.ctracer", [SOURCE], optional=True,
                  define_macros=[("CTRACER_SOURCE_DIGEST", f'"{DIGEST}"')]),
    ],
)
