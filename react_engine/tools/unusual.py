"""What is unusual in the current rows, each by a method the answer states: time buckets far from the median count,
values whose count jumped from one window to the next (templates first seen late: `message_patterns` with `since`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.rowops import tally, value, values
from react_engine.tools.entities import field_values
from react_engine.tools.investigated import Jumps, UnusualTimes
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.stats import MAX_BINS
from react_engine.tools.timeexpr import parse_interval, parse_time


def _span(ctx: ToolContext) -> tuple[pd.Timestamp, pd.Timestamp]:
    stamps = ctx.rows["timestamp"]
    first, last = values(stamps.min(), stamps.max())
    if pd.isna(first):
        raise ToolError("the current rows have no timestamps")
    return first, last


JUMPS = 5  # the values listed
K = 3.0
"""A bucket is unusual when its count is more than K median absolute deviations from the median count."""
WIDTHS = ("1m", "5m", "15m", "1h", "6h", "1d", "7d")
MOST_BUCKETS = 200
"""The bucket width is the narrowest of WIDTHS that cuts the rows' span into at most this many buckets."""


class UnusualParams(Params):
    field: str | None = Field(None, description="a column or entity type whose values' counts jumped; default: times")
    split: str | None = Field(None, description="time between the two windows compared; default: the middle")


@tool("unusual", "outlier times; with field, values rising after split", UnusualParams, UnusualTimes | Jumps,
      optional=True)
def unusual(params: UnusualParams, ctx: ToolContext) -> ToolResult:
    return _jumps(params, ctx) if params.field else _times(ctx)


def _times(ctx: ToolContext) -> ToolResult:
    """Time buckets whose count is more than K MADs from the median (buckets narrow enough to number a few
    hundred over the rows' span)."""
    first, last = _span(ctx)
    interval = next((w for w in WIDTHS if (last - first) / parse_interval(w) < MOST_BUCKETS),
                                       WIDTHS[-1])
    width = parse_interval(interval)
    buckets = tally(ctx.rows["timestamp"].dt.floor(width))[1]
    span = (last.floor(width) - first.floor(width)) // width + 1
    if span > MAX_BINS:
        raise ToolError(f"{span:,} buckets of {interval}: narrow the time first")
    counts = buckets.reindex(pd.date_range(first.floor(width), last.floor(width), freq=width), fill_value=0)
    median = float(np.median(counts))
    mad = float(np.median(np.abs(counts - median)))
    low, high = median - K * mad, median + K * mad
    far = counts[(counts < low) | (counts > high)]
    far = far.iloc[np.argsort(-np.abs(far.to_numpy() - median), kind="stable")]
    method = (f"{interval} buckets outside median {median:g} +/- {K:g} x MAD {mad:g} "
              f"(below {low:g} or above {high:g})")
    rows = [[t.isoformat(), int(c), round(float(c) - median, 1)] for t, c in far.items()]
    return ToolResult(value=UnusualTimes(columns=["bucket_start", "count", "above_median"], rows=rows,
                                         buckets=len(counts), median=median, mad=mad, method=method),
                      summary=f"unusual -> {len(rows):,} of {len(counts):,} buckets unusual: {method}")


def _jumps(params: UnusualParams, ctx: ToolContext) -> ToolResult:
    """The values of `params.field` whose count rose most from before `params.split` to after."""
    first, last = _span(ctx)
    split = parse_time(params.split, ctx.now) if params.split else first + (last - first) / 2
    found, name, extracted = field_values(ctx, str(params.field))
    found = value(found)
    later = (value(ctx.rows["timestamp"]).reindex(found.index) >= split).to_numpy(dtype=bool)
    before, after = tally(found[~later])[1], tally(found[later])[1]
    both = pd.DataFrame({"before": before, "after": after}).fillna(0).astype("int64")
    both["change"] = both["after"] - both["before"]
    both = both[both["change"] > 0].sort_values(["change", "after"], ascending=False, kind="stable").head(JUMPS)
    method = f"{name} counts before {split.isoformat()} against from then on ({first.isoformat()} to {last.isoformat()})"
    rows = [[jsonable(v), int(b), int(a), int(c)] for v, (b, a, c) in zip(both.index, both.to_numpy(), strict=True)]
    shown = ", ".join(f"{brief(r[0], 30)} {r[1]:,} -> {r[2]:,}" for r in rows[:3]) or "none rose"
    return ToolResult(value=Jumps(columns=[name, "before", "after", "change"], rows=rows, method=method),
                      summary=f"unusual -> {shown} ({method})", entities=extracted)
