"""A histogram as a unicode bar chart that fits the terminal, one bar per bucket (like lnav's histogram); a run of
empty buckets is folded into one line."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from datetime import datetime
from typing import Any

_EIGHTHS = " ▏▎▍▌▋▊▉"
_FULL = "█"
MIN_BAR = 10
FOLD = 3  # runs of this many empty buckets or more are one line


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


def _runs(counts: Sequence[int]) -> list[tuple[int, int]]:
    """`(start, end)` index ranges to draw: single buckets, or a run of at least FOLD empty ones."""
    runs: list[tuple[int, int]] = []
    for i, count in enumerate(counts):
        if count == 0 and runs and counts[runs[-1][0]] == 0 and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    folded: list[tuple[int, int]] = []
    for start, end in runs:
        folded.extend([(start, end)] if end - start >= FOLD else [(i, i + 1) for i in range(start, end)])
    return folded


def chart(buckets: Sequence[Sequence[Any]], width: int | None = None) -> str:
    """`[bucket_start, count]` pairs as lines `label  bar  count`, fitting `width` columns (default: terminal);
    runs of FOLD or more empty buckets are one line: from when, how many, to when."""
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
    lines = []
    for start, end in _runs(counts):
        if end - start > 1:
            lines.append(f"{labels[start]:<{label_width}}  ⋮ {end - start:,} empty buckets to {labels[end - 1]}")
        else:
            lines.append(f"{labels[start]:<{label_width}}  {bar(counts[start], peak, room):<{room}} "
                         f"{counts[start]:>{count_width},}")
    return "\n".join(lines)
