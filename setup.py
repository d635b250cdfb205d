"""The compiled outcome tracer (``cardrules.oracle.trace.ctracer``), an optional accelerator.

Everything else about the package is in pyproject.toml. The extension is optional: where no C compiler
is found the install goes on without it, and ``cardrules`` traces in pure Python (the reference; the same
suites, slower: ``cardrules conformance generate`` says so). ``CARDRULES_PURE_PYTHON=1`` leaves it out
on purpose (the docs' playground builds a pure-Python wheel for the browser).
"""

import hashlib
import os
from pathlib import Path

from setuptools import Extension, setup

PURE = os.environ.get("CARDRULES_PURE_PYTHON", "") not in ("", "0")
SOURCE = "oracle/trace/ctracer.c"
# The source's digest, built in: an editable install whose tracer is older than its source says so at run time
# (cardrules.oracle.trace.coverage.compiled_tracer_state) instead of tracing with the old one.
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[] if PURE else [
        Extension("cardrules.oracle.trace.ctracer", [SOURCE], optional=True,
                  define_macros=[("CTRACER_SOURCE_DIGEST", f'"{DIGEST}"')]),
    ],
)
