"""Tools that relate two sets of rows: a share of a base, and a measure compared between two windows or values."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import pandas as pd
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.rows.ranked import brief
from react_engine.rows.rowops import Rows, count
from react_engine.tools.figures import Compared, Grouped, ShareOf
from react_engine.tools.filters import (
    FilterByFieldParams,
    FilterBySeverityParams,
    FilterByTimeParams,
    SearchLogsParams,
    filter_by_field,
    filter_by_severity,
    filter_by_time,
    search_logs,
)
from react_engine.tools.numeric import (
    UNREADABLE,
    WRITTEN,
    Numeric,
    as_written,
    gather,
    grouped_statistic,
    key_name,
    plain,
    statistic,
    unit_text,
    unreadable_note,
)
from react_engine.tools.param_types import OneOrMany
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.statistics import Func, NumericName, group_keys, listed, measured


class ShareParams(Params):
    base: Literal["all", "previous"] = Field("all", description="all rows, or the rows before the last filter")
    by: OneOrMany = Field([], description="per group: up to two columns and/or a time bucket")


@tool("share", "the current rows as a % of the base rows", ShareParams, ShareOf | Grouped, optional=True)
def share(params: ShareParams, ctx: ToolContext) -> ToolResult:
    if params.base == "previous" and ctx.before is None:
        raise ToolError("no filter has narrowed the rows yet: use base=all")
    base = ctx.frame if params.base == "all" else ctx.before
    named = "all rows" if params.base == "all" else "the rows before the last filter"
    if params.by:
        return _shares(ctx, base, params.by, named)
    part, whole = count(ctx.rows), count(base)
    if whole == 0:
        return ToolResult(value=ShareOf(rows=part, of=0), summary=f"share -> {named} are none: no percentage")
    percent = plain(100 * part / whole)
    return ToolResult(value=ShareOf(percent=percent, rows=part, of=whole),
                      summary=f"share -> {percent:g}% ({part:,} of {whole:,} {named})")


def _shares(ctx: ToolContext, base: Rows, by: list[str] | str, named: str) -> ToolResult:
    """Per group of `by`, the current rows as a percentage of the base rows of that group, with both counts: the
    groups with the highest share first (time buckets in time order)."""
    found, width = group_keys(ctx, by)
    groups = [key_name(k) for k in found] + (["bucket"] if width is not None else [])
    counts = [grouped_statistic(gather(rows, None, found, width, ctx.frame), groups, "count")
              for rows in (ctx.rows, base)]
    part, whole = counts[0].reindex(counts[1].index, fill_value=0), counts[1]
    table = pd.DataFrame({"percent": 100 * part / whole, "rows": part, "of": whole}).reset_index()
    value, shown = listed(table, groups if width is not None else ["percent", *groups],
                          True if width is not None else [False, *[True] * len(groups)], "percent",
                          lambda r: f"{brief(r[0], 30)} {r[len(groups)]:g}% ({r[-2]:,} of {r[-1]:,})")
    return ToolResult(value=value, summary=f"share by {', '.join(groups)} -> {shown} (of {named} in each group)")


class CompareParams(Params):
    a: str = Field(description="a time window START..END (now-1d..now, ISO times) or a value of `by`")
    b: str = Field(description="the other window or value, compared with a")
    by: str = Field("time", description="time, text or regex (a, b searched for), or the column a, b are values of")
    by_b: str | None = Field(None, description="how b is taken, when not as by")
    field: NumericName = None
    func: Func = "count"


def _side(ctx: ToolContext, by: str, side: str) -> tuple[Rows, str]:
    """The current rows of one side (a time window or a value of `by`) and how a summary names it."""
    if by.strip().lower() == "time":
        start, sep, end = side.partition("..")
        if not sep:
            raise ToolError(f"window {side!r} must be START..END, e.g. now-2d..now-1d")
        narrowed = filter_by_time(FilterByTimeParams(start=start, end=end), ctx)
    elif by.strip().lower() in ("severity", "level"):  # a level as written (FATAL) or canonical (error)
        narrowed = filter_by_severity(FilterBySeverityParams(levels=[side]), ctx)
    elif by.strip().lower() in ("text", "regex"):
        narrowed = search_logs(SearchLogsParams(value=side, regex=by.strip().lower() == "regex"), ctx)
    else:
        narrowed = filter_by_field(FilterByFieldParams(field=by, value=side), ctx)
        if narrowed.rows is not None and not count(narrowed.rows) and not count(
                filter_by_field(FilterByFieldParams(field=by, value=side), replace(ctx, rows=ctx.frame)).rows):
            raise ToolError(f"no line has the {by} {side!r}: a value the lines never hold is no count of 0")
    assert narrowed.rows is not None
    return narrowed.rows, narrowed.summary.split(" -> ")[0]


def _measures(numeric: Numeric | None, sides: list[Rows], params: CompareParams, frame: Rows
              ) -> tuple[list[tuple[float | int | None, int, int]], str]:
    """The measure over each side's rows (a subset of `frame`; None over no rows), the rows it covers and the
    values left out as too large to read; and the unit: the one both sides' lines write a size in, as
    `as_written` states one side's, else the field's."""
    if numeric is None:
        return [(count(rows), count(rows), 0) for rows in sides], ""
    data = [gather(rows, numeric, [], None, frame) for rows in sides]
    written = frozenset().union(*(d.attrs.get(WRITTEN) or frozenset() for d in data))
    out: list[tuple[float | int | None, int, int]] = []
    unit = numeric.unit
    for side in data:
        unreadable = side.attrs.get(UNREADABLE, 0)
        side.attrs[WRITTEN] = written
        side, unit = as_written(side, numeric.unit)
        out.append((None, 0, unreadable) if side.empty else
                   (plain(float(statistic(side["value"], params.func))), len(side), unreadable))
    return out, unit


def _differences(a: float | int | None, b: float | int | None) -> dict[str, float | int]:
    """`a` less `b` when both are measured, and against a non-zero `b` the change in percent and the ratio."""
    if a is None or b is None:
        return {}
    if not b:
        return {"difference": plain(a - b)}
    return {"difference": plain(a - b), "percent_change": plain(100 * (a - b) / b), "ratio": plain(a / b)}


@tool("compare", "a measure in window/value a vs b", CompareParams, Compared, optional=True)
def compare(params: CompareParams, ctx: ToolContext) -> ToolResult:
    numeric, name = measured(ctx, params)
    sides = [_side(ctx, by, side) for by, side in ((params.by, params.a), (params.by_b or params.by, params.b))]
    measures, unit = _measures(numeric, [rows for rows, _ in sides], params, ctx.frame)
    (left, left_rows, left_out), (right, right_rows, right_out) = measures
    stat = params.func
    shown = [f"{brief(params.a, 40)}: " + ("no rows" if left is None else f"{left:,}{unit_text(unit)}"),
             f"{brief(params.b, 40)}: " + ("no rows" if right is None else f"{right:,}{unit_text(unit)}")]
    value = Compared(a=left, b=right, rows_a=left_rows, rows_b=right_rows, unit=unit, **_differences(left, right))
    change = f", change {value.percent_change:+g}%" if value.percent_change is not None else ""
    return ToolResult(value=value, summary=f"compare {stat} {brief(name, 40)} -> {'; '.join(shown)}{change}",
                      note=unreadable_note(left_out + right_out, name))
