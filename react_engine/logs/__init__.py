"""Log ingestion: any common log file into one canonical DataFrame.

    >>> from react_engine.logs import load
    >>> df = load(["/var/log/syslog"])          # doctest: +SKIP
"""

from __future__ import annotations

from react_engine.logs.cache import cache_dir
from react_engine.logs.formats import BY_NAME, REGISTRY
from react_engine.logs.loader import load
from react_engine.logs.schema import CANONICAL_COLUMNS, RAW_COLUMN

FORMATS: tuple[str, ...] = tuple(fmt.name for fmt in REGISTRY)


def format_names() -> list[str]:
    """Valid `format=` / `--format` names."""
    return sorted(BY_NAME)


__all__ = ["CANONICAL_COLUMNS", "FORMATS", "RAW_COLUMN", "cache_dir", "format_names", "load"]
