"""Tools that measure time over the current rows: first and last occurrence, the longest silences, and durations
from a start event to an end event. Times are ISO text and durations JSON numbers of seconds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

import numpy as np
import pandas as pd
from pydantic import Field

from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.rowops import head, is_lazy, mask, partitionwise, select, take, value
from react_engine.tools.clock import Timeline, elapsed, gathered, iso, seconds, spoken, ticks, timeline, utc
from react_engine.tools.entities import field_values
from react_engine.tools.regex import literal, text_matches
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.timed import (
    Disorder,
    Durations,
    Gap,
    Gaps,
    Lasted,
    NoSpan,
    OrderedValues,
    Place,
    TimeSpan,
    Valued,
)
from react_engine.tools.timeexpr import parse_time


def _stamps(rows: Any) -> pd.Series:
    return gathered(rows, ["timestamp"])["timestamp"]


def _place(ctx: ToolContext, label: Any, stamp: pd.Timestamp | None) -> Place:
    row = take(ctx.frame, pd.Index([label]))
    return Place(time=None if stamp is None else iso(stamp), source=str(row["source"].iloc[0]),
                 line=jsonable(row["line"].iloc[0]))


def _where(place: Place) -> str:
    at = f"{place.time} " if place.time else ""
    return f"{at}({place.source}:{place.line})"


def _out_of_order(ctx: ToolContext, stamps: pd.Series) -> Disorder | None:
    """How many timed lines come earlier than the line above them in the same file, and where the first timed
    line in file order is; None when every file is in time order."""
    times = utc(stamps)
    timed = times[times.notna().to_numpy(dtype=bool)]
    if len(timed) < 2:
        return None
    files = pd.factorize(gathered(ctx.rows, ["source"])["source"].reindex(timed.index))[0]
    raw = ticks(timed)[0]
    back = (np.diff(raw) < 0) & (files[1:] == files[:-1])
    if not back.any():
        return None
    return Disorder(lines_back=int(back.sum()), first_line=_place(ctx, timed.index[0], timed.iloc[0]))


def _order_summary(order: Disorder | None) -> str:
    if order is None:
        return ""
    return (f"; out of order: {order.lines_back:,} lines are earlier than the line above them, the first line in "
            f"file order is {_where(order.first_line)}")


class TimeSpanParams(Params):
    pass


@tool("time_span", "first and last time and line of the rows, and their span", TimeSpanParams, TimeSpan | NoSpan,
      optional=True)
def time_span(params: TimeSpanParams, ctx: ToolContext) -> ToolResult:
    stamps = _stamps(ctx.rows)
    if not len(stamps):
        return ToolResult(value=NoSpan(None), summary="time_span -> no current rows, so no time")
    line = timeline(stamps)
    if not len(line):
        first, last = _place(ctx, stamps.index[0], None), _place(ctx, stamps.index[-1], None)
        return ToolResult(value=TimeSpan(rows=len(stamps), first=first, last=last, seconds=None),
                          summary=f"time_span -> no timestamps in {len(stamps):,} rows; first line "
                                  f"{_where(first)}, last {_where(last)} in file order",
                          evidence=pd.Index([stamps.index[0], stamps.index[-1]]).unique())
    first = _place(ctx, line.labels[0], line.stamps.iloc[0])
    last = _place(ctx, line.labels[-1], line.stamps.iloc[-1])
    span = seconds(float(line.between(0, -1)))
    to_end = None
    summary = (f"time_span -> {len(line):,} timed rows from {_where(first)} to {_where(last)}, span {spoken(span)} "
               f"({span:,} s)")
    newest = value(ctx.frame["timestamp"].max())
    if not pd.isna(newest):
        edge, per = ticks(utc(pd.Series([line.stamps.iloc[-1], newest])))
        to_end = after = seconds(float(elapsed(edge[0], edge[1], per)))
        summary += f"; the logs go on {spoken(after)} after the last" if after > 0 else "; the logs end there"
    if line.untimed:
        summary += f"; {line.untimed:,} rows without a time left out"
    order = _out_of_order(ctx, stamps)
    summary += _order_summary(order)
    result = TimeSpan(rows=len(stamps), first=first, last=last, seconds=span, untimed=line.untimed,
                      seconds_to_end=to_end, out_of_order=order)
    return ToolResult(value=result, summary=summary, evidence=pd.Index([line.labels[0], line.labels[-1]]).unique())


class OrderedValuesParams(Params):
    field: str = Field(description="a column or an entity type (extracted ones, or built-in ones)")
    n: int = Field(1, ge=1, le=50, description="how many distinct values")
    order: Literal["oldest", "newest"] = Field("oldest", description="from the first lines (oldest) or the last")


@tool("ordered_values", "the first or last values of a field, in the order their lines were logged",
      OrderedValuesParams, OrderedValues, optional=True)
def ordered_values(params: OrderedValuesParams, ctx: ToolContext) -> ToolResult:
    held = _keys(ctx, params.field)
    stamps = _stamps(ctx.rows).reindex(held.index)
    line = timeline(stamps)
    order = line.labels.append(stamps.index[stamps.isna().to_numpy(dtype=bool)])  # untimed rows last
    if params.order == "newest":
        order = line.labels[::-1]
    values = held.loc[order]
    firsts = values[~values.duplicated()].head(params.n)  # each value at its first label in that order
    picked: dict[Any, Any] = dict(zip(firsts.to_numpy(), firsts.index, strict=True))
    found = [Valued(value=jsonable(v), place=_place(ctx, label, line.stamps.get(label))) for v, label in picked.items()]
    which = "first" if params.order == "oldest" else "last"
    shown = ", ".join(f"{brief(str(v.value), 40)} at {_where(v.place)}" for v in found[:3]) or "none"
    return ToolResult(value=OrderedValues(order=params.order, rows=len(held), values=found),
                      summary=f"{which} {brief(params.field)} -> {shown} of {len(held):,} rows holding one",
                      evidence=pd.Index(list(picked.values())) if picked else None)


class GapsParams(Params):
    n: int = Field(3, ge=1, le=20, description="how many")
    key: str | None = Field(None, description="silences of each value of this column or entity type")


@tool("gaps", "the longest silences between lines", GapsParams, Gaps, optional=True)
def gaps(params: GapsParams, ctx: ToolContext) -> ToolResult:
    line = timeline(_stamps(ctx.rows))
    positions, keys = np.arange(len(line)), None
    if params.key is not None:
        keys = _keys(ctx, params.key).reindex(line.labels)
        positions = positions[keys.notna().to_numpy(dtype=bool)]
        codes = pd.factorize(keys.iloc[positions])[0]
        order = np.lexsort((positions, codes))  # by key, then by time
        positions, codes = positions[order], codes[order]
        follows = codes[:-1] == codes[1:]
    else:
        follows = np.ones(max(len(positions) - 1, 0), dtype=bool)
    earlier, later = positions[:-1][follows], positions[1:][follows]
    silent = line.between(earlier, later)
    ranked = np.argsort(-silent, kind="stable")[:params.n]
    found = [Gap(seconds=seconds(silent[i]), start=line.iso(earlier[i]), end=line.iso(later[i]),
                 key=jsonable(keys.iloc[earlier[i]]) if keys is not None else None) for i in ranked]
    per = f" per {brief(params.key)}" if params.key else ""
    if not found:
        return ToolResult(value=Gaps(rows=len(line), gaps=[]),
                          summary=f"gaps{per} -> fewer than two timed rows{' of any one value' if keys is not None else ''}, "
                                  "so no silence")
    top = found[0]
    return ToolResult(value=Gaps(rows=len(line), gaps=found),
                      summary=f"gaps{per} -> longest {spoken(top.seconds)} ({top.seconds:,} s) from "
                              f"{top.start} to {top.end}" + (f" for {brief(top.key)}" if keys is not None
                                                                 else "") + f" over {len(line):,} timed rows",
                      evidence=pd.Index([line.labels[p] for i in ranked for p in (earlier[i], later[i])]).unique())


def _keys(ctx: ToolContext, key: str) -> pd.Series:
    """The value of column or entity type `key` in each current row that has one (its first), by row label."""
    found = value(field_values(ctx, key)[0])
    return found[~found.index.duplicated()]


LONGEST = 3  # the longest durations listed


class DurationsParams(Params):
    start: str = Field(description="text of the line that starts it")
    end: str = Field(description="text of the line that ends it")
    key: str | None = Field(None, description="pair per value of this column or entity type (pid, mac...)")


def _kinds(rows: pd.DataFrame, start: str, end: str) -> pd.DataFrame:
    """The start (kind 1) and end (kind 0) lines of `rows`, with their times; a line matching both starts."""
    starts = text_matches(rows, start, ignore_case=True)
    ends = text_matches(rows, end, ignore_case=True)
    keep = starts | ends
    out = rows.loc[keep, ["timestamp"]]
    out["kind"] = starts[keep].astype(np.int8)
    return out


@tool("durations", "times from a start line to an end line per key", DurationsParams, Durations,
      optional=True)
def durations(params: DurationsParams, ctx: ToolContext) -> ToolResult:
    start, end = literal(params.start), literal(params.end)
    found = mask(ctx.rows, lambda rows: text_matches(rows, start, ignore_case=True)
                 | text_matches(rows, end, ignore_case=True))
    events = select(ctx.rows, found)
    meta = _kinds(events._meta, start, end) if is_lazy(events) else None
    kinds = value(partitionwise(_kinds, events, start, end, meta=meta))
    line = timeline(kinds["timestamp"])
    kind = kinds["kind"].reindex(line.labels).to_numpy()
    codes = np.zeros(len(line), dtype=np.intp)
    keys = None
    if params.key is not None:
        keys = _keys(replace(ctx, rows=events), params.key).reindex(line.labels)
        codes = pd.factorize(keys, use_na_sentinel=True)[0]
    order = np.lexsort((np.arange(len(line)), codes))  # by key, then by time
    order = order[codes[order] >= 0]
    closes = (kind[order][:-1] == 1) & (kind[order][1:] == 0) & (codes[order][:-1] == codes[order][1:])
    opened, closed = order[:-1][closes], order[1:][closes]
    lasted = line.between(opened, closed)
    return _lasting(params, line, keys, opened, closed, lasted, int((kind == 1).sum()), int((kind == 0).sum()))


def _lasting(params: DurationsParams, line: Timeline, keys: pd.Series | None, opened: np.ndarray,
             closed: np.ndarray, lasted: np.ndarray, starts: int, ends: int) -> ToolResult:
    what = f"durations {brief(params.start, 30)!r} -> {brief(params.end, 30)!r}" + (
        f" per {brief(params.key)}" if params.key else "")
    unpaired = {"starts": starts, "ends": ends, "unclosed": starts - len(lasted), "unopened": ends - len(lasted)}
    if not len(lasted):
        return ToolResult(value=Durations(count=0, **unpaired),
                          summary=f"{what} -> no start line followed by an end line ({starts:,} starts, "
                                  f"{ends:,} ends)")
    ranked = np.argsort(-lasted, kind="stable")[:LONGEST]
    longest = [Lasted(seconds=seconds(lasted[i]), start=line.iso(opened[i]), end=line.iso(closed[i]),
                      key=jsonable(keys.iloc[opened[i]]) if keys is not None else None) for i in ranked]
    mean, top = seconds(lasted.mean()), longest[0]
    summary = (f"{what} -> {len(lasted):,} paired, mean {spoken(mean)} ({mean:,} s), longest {spoken(top.seconds)}"
               f" ({top.seconds:,} s) from {top.start}" + (f" for {brief(top.key)}" if keys is not None else ""))
    return ToolResult(
        value=Durations(count=len(lasted), mean_seconds=mean, max_seconds=top.seconds,
                        min_seconds=seconds(lasted.min()), total_seconds=seconds(lasted.sum()), longest=longest,
                        **unpaired),
        summary=summary,
        evidence=pd.Index([line.labels[p] for i in ranked for p in (opened[i], closed[i])]).unique())


ORDERS = ("file", "newest", "oldest")


def ordered(ctx: ToolContext, n: int, order: str) -> tuple[pd.Index, str]:
    """The labels of `n` current rows: the first in file order, the newest (newest first), the oldest, or, when
    `order` is a time, those nearest it (in time order); and how they were picked, in words."""
    order = order.strip().lower() if order.strip().lower() in ORDERS else order
    if order == "file":
        return head(ctx.rows, n).index, "first in file order"
    stamps = _stamps(ctx.rows)
    line = timeline(stamps)
    left_out = f", {line.untimed:,} rows without a time left out" if line.untimed and len(line) else ""
    if not len(line):  # no times at all: the order of the lines stands for it
        picked = stamps.index[-n:][::-1] if order == "newest" else stamps.index[:n]
        return picked, f"{order} by line order (no timestamps)"
    if order not in ORDERS:
        moment = parse_time(order, ctx.now)
        begin = _nearest(line, moment, n)
        return line.labels[begin:begin + n], f"nearest {iso(moment)}, in time order{left_out}"
    if order == "newest":
        return line.labels[::-1][:n], f"newest first{left_out}"
    return line.labels[:n], f"oldest first{left_out}"


def _nearest(line: Timeline, moment: pd.Timestamp, n: int) -> int:
    """Where the `n` rows of `line` nearest `moment` begin (they are consecutive; a tie goes to the earlier)."""
    unit = line.stamps.dt.unit
    target = np.datetime64(moment.tz_convert("UTC").tz_localize(None).to_datetime64(), unit).view("int64")
    lo = hi = int(np.searchsorted(line.ticks, target))
    while hi - lo < n and (lo > 0 or hi < len(line)):
        before = elapsed(line.ticks[lo - 1], target, line.per) if lo > 0 else np.inf
        after = elapsed(target, line.ticks[hi], line.per) if hi < len(line) else np.inf
        lo, hi = (lo - 1, hi) if before <= after else (lo, hi + 1)
    return lo
