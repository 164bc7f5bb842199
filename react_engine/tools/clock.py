"""The times of log rows in time order, as exact numbers: seconds between two times without overflow (a span
from 1700 to 2260 is past what a nanosecond Timedelta holds), ISO text and durations in words."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from react_engine.rows.rowops import Rows, is_lazy, value

_PER_SECOND = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
_UNITS = (("d", 86400), ("h", 3600), ("min", 60), ("s", 1))


@dataclass
class Timeline:
    """The timed rows of a set of rows, in time order (rows of the same time in row order)."""

    labels: pd.Index  # frame row labels
    stamps: pd.Series  # their times in UTC, indexed by label
    ticks: np.ndarray  # int64 ticks since the epoch, `per` to the second
    per: int
    untimed: int  # rows without a time, left out

    def __len__(self) -> int:
        return len(self.labels)

    def iso(self, position: int) -> str:
        return iso(self.stamps.iloc[position])

    def between(self, earlier: np.ndarray | int, later: np.ndarray | int) -> np.ndarray:
        """Seconds from the times at positions `earlier` to those at `later`."""
        return elapsed(self.ticks[earlier], self.ticks[later], self.per)


def utc(stamps: pd.Series) -> pd.Series:
    """`stamps` as UTC times (naive ones are taken as UTC; text that is no time becomes missing)."""
    if not pd.api.types.is_datetime64_any_dtype(stamps.dtype):
        stamps = pd.to_datetime(stamps, errors="coerce", utc=True, format="ISO8601")
    return stamps.dt.tz_localize("UTC") if stamps.dt.tz is None else stamps.dt.tz_convert("UTC")


def ticks(stamps: pd.Series) -> tuple[np.ndarray, int]:
    """`(int64 ticks since the epoch, ticks per second)` of non-missing UTC times, in their own resolution."""
    naive = stamps.dt.tz_localize(None)
    return naive.to_numpy().view("int64"), _PER_SECOND[naive.dt.unit]


def elapsed(earlier: np.ndarray | int, later: np.ndarray | int, per: int) -> np.ndarray:
    """Seconds from `earlier` to `later` ticks, whole seconds and fractions apart so that nothing overflows."""
    a, b = np.asarray(earlier, dtype=np.int64), np.asarray(later, dtype=np.int64)
    return (b // per - a // per).astype(np.float64) + (b % per - a % per) / per


def gathered(rows: Rows, columns: list[str]) -> pd.DataFrame:
    """The columns of `rows` as a pandas frame (brought from the cluster when lazy)."""
    part = rows[columns]
    return value(part) if is_lazy(part) else part


def timeline(stamps: pd.Series) -> Timeline:
    """The timed rows of `stamps` (times indexed by row label, in row order), sorted by time."""
    times = utc(stamps)
    present = times.notna().to_numpy(dtype=bool)
    times = times[present]
    raw, per = ticks(times)
    order = np.argsort(raw, kind="stable")
    times = times.iloc[order]
    return Timeline(times.index, times, raw[order], per, int((~present).sum()))


def iso(stamp: pd.Timestamp) -> str:
    return pd.Timestamp(stamp).isoformat()


def seconds(x: float) -> float | int:
    """A duration for a tool value: whole seconds as an int, else rounded to the microsecond."""
    x = round(float(x), 6)
    return int(x) if x.is_integer() else x


def spoken(x: float) -> str:
    """A duration in words: `0.248 s`, `46 s`, `12 min 46 s`, `4 h 17 min 14 s`, `204,540 d 3 h`."""
    if x < 60:
        return f"{round(x, 3):g} s"
    left, parts = round(x), []
    for unit, size in _UNITS:
        amount, left = divmod(left, size)
        if amount:
            parts.append(f"{amount:,} {unit}")
    return " ".join(parts)
