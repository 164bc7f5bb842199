"""Log ingestion: any common log file into one canonical DataFrame.

    >>> from react_engine.logs import load
    >>> frame = load(["/var/log/syslog"])          # doctest: +SKIP
    >>> frame.attrs["warnings"], frame.attrs["files"]  # doctest: +SKIP

`load()` returns the canonical columns (see `schema.CANONICAL_COLUMNS`), `raw` (the entry as
written; `raw_head`, the text before the message, with `raw=False`) and format-specific extras; `LoadOptions` says how (format, year, cache); `inspect()`
summarises how inputs load; `format_names()` lists the values accepted by `LoadOptions.format`;
`cache_dir()` is where parsed frames are cached.
"""

from __future__ import annotations

from react_engine.logs.formats import BY_NAME, REGISTRY
from react_engine.logs.frame_cache import cache_dir
from react_engine.logs.loader import load
from react_engine.logs.macs import normalize as normalize_mac
from react_engine.logs.options import LoadOptions
from react_engine.logs.schema import CANONICAL_COLUMNS, RAW_COLUMN
from react_engine.logs.summary import InspectReport, inspect

FORMATS: tuple[str, ...] = tuple(fmt.name for fmt in REGISTRY)


def format_names() -> list[str]:
    """Valid `LoadOptions.format` / `--format` names."""
    return sorted(BY_NAME)


__all__ = [
    "CANONICAL_COLUMNS", "FORMATS", "RAW_COLUMN", "InspectReport", "LoadOptions", "cache_dir", "format_names", "inspect", "load",
    "normalize_mac",
]
