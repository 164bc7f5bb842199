"""Rates: a statistic of how many current rows fall in each time bucket, as `timechart span=1h count | stats
avg(count)` computes it. Every bucket from the first timed row's to the last's is counted, the empty ones as 0;
with group keys, each group's buckets run over that same span. Rows without a time are left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from react_engine.errors import ToolError
from react_engine.tools.clock import elapsed, iso, seconds, ticks, utc
from react_engine.tools.figures import Rate
from react_engine.tools.numeric import Key, gather, key_name, plain, statistic
from react_engine.tools.registry import ToolContext

MAX_CELLS = 5_000_000  # buckets times groups counted at most


@dataclass(frozen=True)
class Rates:
    """Rows per bucket of each group (`counts`: one row per group, one column per bucket), the groups' keys and
    the first bucket's start."""

    counts: np.ndarray
    groups: pd.DataFrame  # the key values of each group, in the order of `counts`' rows (no columns: one group)
    first: pd.Timestamp
    width: pd.Timedelta

    @property
    def buckets(self) -> int:
        return int(self.counts.shape[1])

    def start(self, bucket: int) -> str:
        return iso(self.first + bucket * self.width)

    def of(self, func: str) -> np.ndarray:
        """`func` of each group's counts (see `numeric.statistic`)."""
        return np.asarray(statistic(pd.DataFrame(self.counts.T, dtype=float), func), dtype=float)


def rates(ctx: ToolContext, keys: list[Key], width: pd.Timedelta, per: str) -> Rates | None:
    """The current rows counted per bucket of `width` (per group of `keys`); None when no row has a time."""
    data = gather(ctx.rows, None, keys, width, ctx.frame)
    if data.empty:
        return None
    raw, per_second = ticks(utc(data["bucket"]))
    at = np.rint(elapsed(raw.min(), raw, per_second) / width.total_seconds()).astype(np.int64)
    names = [key_name(k) for k in keys]
    codes, groups = (pd.factorize(pd.MultiIndex.from_frame(data[names])) if names
                     else (np.zeros(len(data), np.int64), pd.MultiIndex.from_tuples([()])))
    buckets, n = int(at.max()) + 1, len(groups)
    if buckets * n > MAX_CELLS:
        raise ToolError(f"per={per} makes {buckets:,} buckets{f' for each of {n:,} groups' if names else ''}: "
                        "use a wider bucket")
    counts = np.bincount(codes * buckets + at, minlength=n * buckets).reshape(n, buckets)
    first = data["bucket"].min()
    return Rates(counts, pd.DataFrame(list(groups), columns=names) if names else pd.DataFrame(index=[0]),
                 pd.Timestamp(first), width)


@dataclass(frozen=True)
class Buckets:
    """What every rate's value holds besides its statistic: the bucket, how many there are, the rows counted and
    the span they cover (ISO times)."""

    per: str
    bucket_seconds: float | int
    buckets: int
    counted: int
    start: str
    end: str


def stated(found: Rates, per: str) -> Buckets:
    return Buckets(per, seconds(found.width.total_seconds()), found.buckets, int(found.counts.sum()), found.start(0),
                  found.start(found.buckets))


def one_rate(found: Rates, func: str, per: str, percentile: float | None) -> tuple[Rate, str]:
    """The statistic of the rows per bucket over every bucket, and for a maximum or minimum the first bucket
    holding it; the value and a summary."""
    counts = found.counts[0]
    result = plain(float(found.of(func)[0]))
    span = stated(found, per)
    at = found.start(int(np.argmax(counts) if func == "max" else np.argmin(counts))) if func in ("max", "min") \
        else None
    value = Rate(function=func, value=result, **asdict(span), at=at, unit="", percentile=percentile)
    return value, (f"{func} rows per {per} -> {result:,} over {found.buckets:,} buckets of {per} from "
                   f"{span.start} ({span.counted:,} rows)")
