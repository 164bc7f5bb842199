"""The field catalogue of a cached file (see `logs.field_catalog`), stored beside its cache entry.

Found once per load from a sample of the messages; a frame that is all of one cached file (`stored.as_loaded`) keeps
it beside the entry, as JSON under the cache folder's keyed digest (see `logs.stored`), so a later load of the file
reads it back instead of masking and reading the sample again. It is named for the entry, whose id changes with the
file and the parser's source (the catalogue's code is part of it), and deleted with the entry.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from pydantic import ValidationError

from react_engine.logs.field_catalog import FieldCatalog
from react_engine.logs.stored import stored_beside

CATALOG_NAME = "catalog"


def stored_catalog(frame: object, compute: Callable[[], FieldCatalog]) -> FieldCatalog:
    """`compute()`, read back from beside the entry of the cached file that is all of the `as_loaded` `frame`, and
    stored there when first computed; computed each time for any other frame (a Dask frame's, None)."""
    if not isinstance(frame, pd.DataFrame):
        return compute()
    return stored_beside(frame, CATALOG_NAME, compute, lambda found: found.to_json(), _decoded)


def _decoded(body: memoryview) -> FieldCatalog | None:
    """The catalogue stored as `body`, or None when it is not one this version reads."""
    try:
        return FieldCatalog.from_json(body)
    except ValidationError:
        return None
