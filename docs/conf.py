"""Sphinx configuration for the cardrules spec site.

Clause pages and the traceability matrix are generated from the catalogue
and the registry by the local extension ``_ext/cardrules_docs.py``; nothing
in them is written by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "cardrules"
author = "the cardrules developers"
copyright = "2026, the cardrules developers"
extensions = ["cardrules_shared", "cardrules_docs", "cardrules_formats", "cardrules_layers", "cardrules_results", "cardrules_points", "cardrules_situations", "cardrules_playground", "sphinx_design", "sphinxarg.ext"]
exclude_patterns = ["_build", "proposals"]
html_theme = "furo"
html_title = "cardrules: the rules, formally"
html_static_path = ["_static"]
html_css_files = ["rules.css"]  # the rules views at 400 px; quiet search words
nitpicky = True
# ranks a page whose headings hold the query's words first and opens it at
# that heading; clause IDs (index entries) keep their lead (see the file)
html_search_scorer = str(Path(__file__).parent / "_ext" / "search_scorer.js")  # Sphinx opens it from the cwd
