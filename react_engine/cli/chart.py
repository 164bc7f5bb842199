"""A histogram as a unicode bar chart that fits the terminal, one bar per bucket (like lnav's histogram)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from datetime import datetime
from typing import Any

_EIGHTHS = " ▏▎▍▌▋▊▉"
_FULL = "█"
MIN_BAR = 10


def bar(count: int, peak: int, width: int) -> str:
    """A bar of `count` against `peak`, at most `width` cells, in eighths of a cell."""
    eighths = round(count / peak * width * 8) if peak else 0
    if count and not eighths:
        eighths = 1  # a non-empty bucket is never drawn empty
    full, rest = divmod(eighths, 8)
    return _FULL * full + (_EIGHTHS[rest] if rest else "")


def _label(value: Any, seconds: bool) -> str:
    try:
        stamp = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return stamp.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def chart(buckets: Sequence[Sequence[Any]], width: int | None = None) -> str:
    """`[bucket_start, count]` pairs as lines `label  bar  count`, fitting `width` columns (default: terminal)."""
    if not buckets:
        return "(no buckets)"
    width = width or shutil.get_terminal_size((80, 24)).columns
    seconds = any(not str(start).endswith((":00", ":00+00:00", ":00Z")) for start, _ in buckets)
    labels = [_label(start, seconds) for start, _ in buckets]
    counts = [int(count) for _, count in buckets]
    label_width = max(map(len, labels))
    count_width = max(len(f"{c:,}") for c in counts)
    room = max(MIN_BAR, width - label_width - count_width - 4)
    peak = max(counts)
    return "\n".join(f"{label:<{label_width}}  {bar(count, peak, room):<{room}} {count:>{count_width},}"
                     for label, count in zip(labels, counts))
