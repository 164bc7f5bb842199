"""The canonical frame every log format is loaded into."""

from __future__ import annotations

CANONICAL_COLUMNS: tuple[str, ...] = (
    "timestamp",  # datetime64[ns, UTC]; NaT when the line has none (naive times are taken as UTC)
    "severity",  # one of SEVERITIES, or missing
    "level_raw",  # the level exactly as written
    "host",
    "component",  # program, process, logger or class
    "pid",  # string: some formats write thread names here
    "message",
    "source",  # the path the row came from ("-" for stdin)
    "line",  # 1-based line number of the entry's first line in `source`
)
RAW_COLUMN = "raw"  # the entry as written (continuation lines joined with "\n"), for evidence
RAW_HEAD = "raw_head"
"""In a lean frame (see `load`), the part of each entry before its message, in place of `raw`: the entry as
written is `raw_head + message`, so the log's text is held once, not twice."""
INTERNAL_COLUMNS: tuple[str, ...] = (RAW_COLUMN, RAW_HEAD)
CATEGORICAL_COLUMNS: tuple[str, ...] = ("severity", "level_raw", "host", "component", "pid", "source")
"""The canonical columns that hold a few names repeated over many rows: dictionary-encoded while loading, and
pandas categoricals in a lean frame (see `to_frame`)."""
ENCODED_COLUMNS: tuple[str, ...] = CATEGORICAL_COLUMNS
"""The columns held as dictionaries (categoricals in a lean frame)."""
