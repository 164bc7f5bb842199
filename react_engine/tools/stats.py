"""Tools that measure the current rows without narrowing them: counts, top values, histograms, the lines."""

from __future__ import annotations

from typing import Literal

import pandas as pd
from pydantic import Field

from react_engine.logs.text import entry_text
from react_engine.rows.ranked import brief, jsonable, top
from react_engine.rows.rowops import count, labels, mask, take, value, value_counts, values
from react_engine.tools.distinct_ranking import distinct_per_bucket, ranked_by_distinct
from react_engine.tools.entities import field_values
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import Counted, DistinctRanking, Histogram, Lines, Ranking
from react_engine.tools.timeexpr import parse_interval
from react_engine.tools.times import ordered

MAX_BINS = 1000


MAX_TOP = 1000  # the most [value, count] pairs top_values returns, whatever n asks


class TopValuesParams(Params):
    field: str = Field(description="a column (host, component, status...) or an entity type (mac, ip, user...)")
    n: int = Field(5, ge=1, description="how many values (any number: when fewer exist, all are listed)")
    order: Literal["desc", "asc"] = Field("desc", description="most frequent first (desc) or rarest first (asc)")
    distinct: str | None = Field(None, description="rank by how many distinct values of this column or entity type "
                                                   "each value's rows hold (dc(port) by user), not by its rows")


@tool("top_values", "[value, count] pairs, most frequent first (or by distinct values of another field)",
      TopValuesParams, Ranking | DistinctRanking)
def top_values(params: TopValuesParams, ctx: ToolContext) -> ToolResult:
    if params.distinct is not None:
        return ranked_by_distinct(ctx, params.field, params.distinct, min(params.n, MAX_TOP), params.order == "asc")
    found, name, extracted = field_values(ctx, params.field)
    counts = value_counts(found)
    leaders = top(counts, min(params.n, MAX_TOP), least=params.order == "asc")
    shown = ", ".join(f"{brief(v, 40)} ({c:,})" for v, c in leaders[:3]) or "none"
    evidence = None
    if leaders:
        first = leaders[0][0]
        holders = labels(found, mask(found, lambda part: (part == first).to_numpy(dtype=bool, na_value=False)))
        evidence = holders if len(holders) < count(ctx.rows) else None
    which = "top" if params.order == "desc" else "rarest"
    return ToolResult(value=Ranking(leaders), summary=f"{which} {brief(name)} -> {shown} in {count(ctx.rows):,} rows",
                      entities=extracted, evidence=evidence, note=_how_many(params.n, len(counts), name))


def _how_many(asked: int, exist: int, name: str) -> str | None:
    """A caveat when fewer values exist than `asked`, or more than top_values lists; None otherwise."""
    if asked > exist:
        return f"only {exist:,} distinct {brief(name, 40)} values exist, all listed"
    if asked > MAX_TOP:
        return f"the top {MAX_TOP:,} of {exist:,} distinct {brief(name, 40)} values are listed"
    return None


class CountByTimeParams(Params):
    interval: str = Field("1h", description="bucket width: 1m, 15m, 1h, 1d...")
    order: Literal["time", "desc", "asc"] = Field("time", description="by time, busiest first (desc) or quietest")
    distinct: str | None = Field(None, description="count the distinct values of this column or entity type in each "
                                                   "bucket (distinct users per day), not its rows")


@tool("count_by_time", "[bucket_start, count] histogram", CountByTimeParams, Histogram)
def count_by_time(params: CountByTimeParams, ctx: ToolContext) -> ToolResult:
    width = parse_interval(params.interval)
    stamps = ctx.rows["timestamp"].dropna()
    first, last = values(stamps.min(), stamps.max())
    if pd.isna(first):
        return ToolResult(value=Histogram([]),
                          summary=f"count_by_time {brief(params.interval)} -> no timestamps in the current rows")
    buckets = stamps.dt.floor(width)
    first, last = first.floor(width), last.floor(width)
    counts = value_counts(buckets).sort_index() if params.distinct is None else distinct_per_bucket(
        ctx, value(buckets), params.distinct)
    span = (last.to_pydatetime() - first.to_pydatetime()) // width.to_pytimedelta() + 1  # past pandas' 292 years
    if span <= MAX_BINS:
        counts, shown = counts.reindex(pd.date_range(first, last, freq=width), fill_value=0), ""
    elif len(counts) <= MAX_BINS:
        shown = f", the {len(counts):,} with rows listed ({span - len(counts):,} empty ones left out)"
    else:
        counts = counts[counts.rank(method="first", ascending=False) <= MAX_BINS]
        shown = f", the {MAX_BINS:,} busiest listed"
    peak = counts.idxmax()
    if params.order != "time":  # ties in time order
        counts = counts.sort_values(ascending=params.order == "asc", kind="stable")
    ordered_by = {"time": "", "desc": " busiest first", "asc": " quietest first"}[params.order]
    counted = "rows" if params.distinct is None else f"distinct {brief(params.distinct, 40)}"
    return ToolResult(
        value=Histogram([(t.isoformat(), int(c)) for t, c in counts.items()]),
        summary=f"count_by_time {brief(params.interval)}{ordered_by} -> {span:,} buckets{shown}, "
                f"peak {peak.isoformat()} ({int(counts[peak]):,} {counted})",
        evidence=labels(buckets, mask(buckets, lambda part: (part == peak).to_numpy())))


class GetLogCountParams(Params):
    pass


@tool("get_log_count", "number of current rows", GetLogCountParams, Counted)
def get_log_count(params: GetLogCountParams, ctx: ToolContext) -> ToolResult:
    return ToolResult(value=Counted(count(ctx.rows)), summary=f"{count(ctx.rows):,} of {count(ctx.frame):,} rows")


class ShowLogsParams(Params):
    n: int = Field(5, ge=1, le=50, description="how many lines")
    order: str = Field("file", description="file, newest, oldest, or a time: the lines nearest it")


@tool("show_logs", "lines as source:line text", ShowLogsParams, Lines)
def show_logs(params: ShowLogsParams, ctx: ToolContext) -> ToolResult:
    picked, how = ordered(ctx, params.n, params.order)
    shown = take(ctx.frame, picked)
    lines = [display(source, line, text, ctx.settings.sample_chars)
             for source, line, text in zip(shown["source"], shown["line"], entry_text(shown))]
    return ToolResult(value=Lines(lines), summary=f"show {len(lines)} of {count(ctx.rows):,} rows, {how}",
                      evidence=shown.index)


def display(source: object, line: object, text: object, limit: int) -> str:
    """`source:line text` on one line, the text flattened and cut to `limit` characters."""
    return f"{source}:{jsonable(line)} {brief(text, limit)}"
