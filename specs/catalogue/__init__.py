"""The bottom layer: the clause catalogue, the traceability registry, rule sets and broken variants.

Everything else imports from here and nothing here imports anything else of
the project. The package re-exports the catalogue itself (:mod:`.types`,
:mod:`.load`); :mod:`.registry` (``@implements``), :mod:`.rulesets` and
:mod:`.broken` are imported by name.
"""

from cardrules.specs.catalogue.load import CATALOGUE_DIR, MAX_FILE_BYTES, default_catalogue, load, load_area, load_sources
from cardrules.specs.catalogue.types import (
    AREA_CODES, BASE_AREAS, CLAUSE_ID, GAMES, KINDS, SLUG, Area, Catalogue, CatalogueError, Citation, Clause,
    Decision, Option, OptionExcuse, Source, Version,
)

__all__ = [
    "AREA_CODES", "BASE_AREAS", "CATALOGUE_DIR", "CLAUSE_ID", "GAMES", "KINDS", "MAX_FILE_BYTES", "SLUG",
    "Area", "Catalogue", "CatalogueError", "Citation", "Clause", "Decision", "Option", "OptionExcuse", "Source",
    "Version", "default_catalogue", "load", "load_area", "load_sources",
]
