"""The time anchor ("now") that relative times count back from: `--now`, else the newest log time.

A few lines dated far beyond the rest (a planted or garbled year such as 2200) would make every "last hour" empty,
so they do not count: past the 99th percentile of the times plus the whole spread of the bulk (1st to 99th
percentile) or OUTLIER_MARGIN, whichever is longer. The percentiles are read from an even sample of the times,
so the check costs one pass only when there are outliers; on a Dask cluster the newest time is taken as is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from react_engine.rows.rowops import is_lazy, value
from react_engine.tools.timeexpr import parse_time

OUTLIER_MARGIN = pd.Timedelta(days=365)
MIN_TIMES = 20  # fewer times than this say nothing about a bulk
SAMPLE = 100_000


@dataclass(frozen=True)
class Anchor:
    """The anchor, how it was chosen (for the answer), and the lines left out of it (for a warning)."""

    now: pd.Timestamp | None
    basis: str = "the newest log time"
    left_out: str | None = None


def anchor(frame: pd.DataFrame, now: str | None) -> Anchor:
    """`now` when given, else the newest timestamp in `frame` short of outliers far beyond the rest."""
    if now:
        return Anchor(parse_time(now, pd.NaT), "given by --now")
    if "timestamp" not in frame:
        return Anchor(None)
    stamps = frame["timestamp"]
    latest = value(stamps.max())
    if latest is None or pd.isna(latest):
        return Anchor(None)
    latest = pd.Timestamp(latest)
    if is_lazy(stamps) or not pd.api.types.is_datetime64_any_dtype(stamps.dtype):
        return Anchor(latest)
    return _robust(stamps, latest)


def _robust(stamps: pd.Series, latest: pd.Timestamp) -> Anchor:
    ints = stamps.array.asi8  # the times as integers in the column's unit, NaT as the smallest int64
    sample = ints[:: max(1, len(ints) // SAMPLE)]
    sample = sample[sample != np.iinfo(np.int64).min]
    if len(sample) < MIN_TIMES:
        return Anchor(latest)
    low, high = np.percentile(sample, [1, 99], method="lower")
    margin = max(int(high - low), OUTLIER_MARGIN.as_unit(stamps.dtype.unit).value)
    cutoff = int(high) + margin
    if latest.as_unit(stamps.dtype.unit).value <= cutoff:
        return Anchor(latest)
    beyond = ints > cutoff
    kept = stamps[~beyond].max()
    lines = int(beyond.sum())
    said = (f"{lines:,} line{'s' if lines > 1 else ''} dated after {kept.isoformat()} (up to {latest.isoformat()}) "
            f"{'are' if lines > 1 else 'is'} far beyond the rest of the logs and not taken as now: relative times "
            "count back from the newest time before them (--now sets it)")
    return Anchor(kept, "the newest log time, lines dated far beyond the rest left out", said)
