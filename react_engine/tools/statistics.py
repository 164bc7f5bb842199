"""The tool that measures a numeric field (or counts rows) over the current rows: one statistic, or one per group
of up to two keys and a time bucket; two keys give a two-way table (a pivot).

A grouped result is a table (`figures.Grouped`, `figures.Pivot`) whose numbers are JSON numbers (so the grounding
check counts them as computed) and whose rows `-o csv` prints.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict
from typing import Annotated, Any, Literal, Protocol

import pandas as pd
from pydantic import AfterValidator, Field

from react_engine.errors import ToolError
from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.rowops import count
from react_engine.tools.asked_units import ASKABLE, in_unit
from react_engine.tools.figures import Grouped, Pivot, Rate, Statistic, Unmeasured
from react_engine.tools.numeric import (
    UNREADABLE,
    Key,
    Numeric,
    as_written,
    gather,
    grouped_statistic,
    key_column,
    key_name,
    listing,
    numeric_fields,
    plain,
    resolve,
    statistic,
    unit_text,
    unreadable_note,
)
from react_engine.tools.param_types import OneOrMany
from react_engine.tools.rates import one_rate, rates, stated
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import Scalar
from react_engine.tools.timeexpr import parse_interval

MAX_GROUPS = 200
PIVOT_SIDE = 12  # values kept on each side of a pivot, the most frequent
_BUCKET = re.compile(r"\d*\s*(?:s|sec|m|min|h|hr|d|w)", re.I)  # a time bucket among the group keys
_FUNC = re.compile(r"count|sum|mean|median|min|max|stddev|p(?:100|\d{1,2}(?:\.\d+)?)")


def _func(text: str) -> str:
    func = text.strip().lower()
    if not _FUNC.fullmatch(func):
        raise ValueError("func is count, sum, mean, median, min, max, stddev or pN (a percentile: p95, p99.9)")
    return func


Func = Annotated[str, AfterValidator(_func), Field(description="count sum mean median min max stddev p95...")]
NumericName = Annotated[str | None, Field(description="numeric field (latency_ms, bytes, time...); null: rows")]


class Measured(Protocol):
    """The parameters of a measure: `field` and `func` (declared by each tool, in the order its signature shows)."""

    field: str | None
    func: str


class FieldStatsParams(Params):
    field: NumericName = None
    func: Func = "mean"
    by: OneOrMany = Field([], description="up to two columns, and/or a time bucket (1m, 1h, 1d)")
    order: Literal["desc", "asc"] | None = Field(None, description="groups by the statistic, largest first (desc) "
                                                                   "or smallest; null: by value desc, buckets by time")
    per: str | None = Field(None, description="a time bucket (1m, 1h): func of the rows counted per bucket")
    unit: str | None = Field(None, description=f"give the value in this unit ({ASKABLE}); null: as the field is")


def _rank(stat: str) -> float | None:
    """The percentile a pN statistic is, which the answer may name ("95th")."""
    return float(stat[1:]) if stat.startswith("p") else None


def measured(ctx: ToolContext, params: Measured) -> tuple[Numeric | None, str]:
    """The field measured (None when rows are counted) and its name in a summary."""
    if params.field is None or not params.field.strip():
        if params.func != "count":
            raise ToolError(f"func={params.func} needs a numeric field; numeric fields: {listing(numeric_fields(ctx))}")
        return None, "rows"
    numeric = resolve(ctx, params.field)
    return numeric, numeric.name


def _over(numeric: Numeric | None, found: int, ctx: ToolContext) -> str:
    what = "rows" if numeric is None else f"rows with {brief(numeric.name, 40)}"
    return f"over {found:,} {what} (of {count(ctx.rows):,} current rows)"


@tool("field_stats", "a statistic of a numeric field or of rows per bucket (per), by up to two keys", FieldStatsParams,
      Unmeasured | Statistic | Rate | Grouped | Pivot, optional=True)
def field_stats(params: FieldStatsParams, ctx: ToolContext) -> ToolResult:
    if params.per is not None:
        return _per_bucket(params, params.per, ctx)
    numeric, name = measured(ctx, params)
    found, width = group_keys(ctx, params.by)
    keys = [key_name(k) for k in found]
    data, unit = as_written(gather(ctx.rows, numeric, found, width, ctx.frame), numeric.unit if numeric else "")
    data, unit = in_unit(data, unit, params.unit, name)
    stat = params.func
    note = unreadable_note(data.attrs.get(UNREADABLE, 0), name)
    what, over = f"{stat} {brief(name, 40)}", _over(numeric, len(data), ctx)
    if data.empty:
        return ToolResult(value=Unmeasured(rows=0), summary=f"{what} -> no current row has a value", note=note)
    if not keys and width is None:
        result = plain(float(statistic(data["value"], params.func)))
        return ToolResult(value=Statistic(function=stat, value=result, rows=len(data), unit=unit,
                                          percentile=_rank(stat)),
                          summary=f"{what} -> {result:,}{unit_text(unit)} {over}", note=note)
    if len(keys) == 2 and width is None:
        table, shape = _pivot(data, keys, stat, unit)
        return ToolResult(value=table, summary=f"{what} by {' and '.join(keys)} -> {shape} {over}", note=note)
    groups = keys + (["bucket"] if width is not None else [])
    value, shown = _by_groups(params, data, groups, width is not None, counted=numeric is None)
    return ToolResult(value=value.model_copy(update={"unit": unit}), note=note,
                      summary=f"{what} by {', '.join(groups)} -> {shown} {over}")


def _by_groups(params: FieldStatsParams, data: pd.DataFrame, groups: list[str], bucketed: bool,
               counted: bool) -> tuple[Grouped, str]:
    """The statistic of each group (with its rows, unless rows are `counted`), by the statistic or, `bucketed`
    with no order asked, by time; the value and a summary."""
    stat = params.func
    grouped = data.groupby(groups, sort=False, observed=True)["value"]
    table = pd.DataFrame({stat: statistic(grouped, stat)} | ({} if counted else {"rows": grouped.size()}))
    by_time = bucketed and params.order is None
    value, shown = listed(table.reset_index(), groups if by_time else [stat], by_time or params.order == "asc", stat)
    return value.model_copy(update={"percentile": _rank(stat)}), shown


def listed(table: pd.DataFrame, order: list[str], ascending: bool | list[bool], stat: str,
           said: Callable[[list[Any]], str] | None = None) -> tuple[Grouped, str]:
    """A grouped measure's table sorted by `order`, its first MAX_GROUPS rows as the value's `rows`; the value
    and, for a summary, how many groups there are and the first three (each as `said` words it, by default its
    first key and the `stat` column)."""
    table = table.sort_values(order, ascending=ascending, kind="stable")
    rows = [[_cell(v) for v in row] for row in table.head(MAX_GROUPS).itertuples(index=False)]
    at = list(table.columns).index(stat)
    first = ", ".join(said(r) if said else f"{brief(r[0], 30)} {r[at]:,}" for r in rows[:3]) or "none"
    left = f", the first {MAX_GROUPS} listed" if len(table) > MAX_GROUPS else ""
    return (Grouped(columns=[str(c) for c in table.columns], rows=rows, groups=len(table)),
            f"{len(table):,} groups{left}: {first}")


def _per_bucket(params: FieldStatsParams, per: str, ctx: ToolContext) -> ToolResult:
    """`func` of the current rows counted per time bucket `per` (over every bucket of their span, the empty ones
    0), for each group of the `by` columns when given."""
    if params.field is not None and params.field.strip():
        raise ToolError('per counts rows per time bucket: leave field null (a field per time: by=["1h"])')
    if any(_BUCKET.fullmatch(b.strip()) for b in params.by) or len(params.by) > 2:
        raise ToolError("with per, group by up to two columns (per is the time bucket)")
    width, stat = parse_interval(per), params.func
    keys = [key_column(ctx, k) for k in params.by]
    found = rates(ctx, keys, width, per)
    fielded = [k for k in keys if not isinstance(k, str)]  # keys the messages write, not columns
    if found is None and fielded and rates(ctx, [], width, per) is not None:  # the rows carry times, not the fields
        raise ToolError(f"no current row with a time writes {', '.join(map(key_name, fielded))}: group by another "
                        "key")
    if found is None:
        return ToolResult(value=Unmeasured(rows=0), summary=f"{stat} rows per {brief(per)} -> no current row has "
                                                            "a time")
    if not keys:
        value, summary = one_rate(found, stat, per, _rank(stat))
        return ToolResult(value=value, summary=summary)
    table = found.groups.assign(**{stat: found.of(stat)})
    listed_groups, shown = listed(table, [stat], params.order == "asc", stat)
    update = asdict(stated(found, per)) | {"unit": "", "percentile": _rank(stat)}
    return ToolResult(value=listed_groups.model_copy(update=update),
                      summary=f"{stat} rows per {brief(per)} by {', '.join(map(key_name, keys))} -> {shown} "
                              f"over {found.buckets:,} buckets")


def group_keys(ctx: ToolContext, by: list[str] | str) -> tuple[list[Key], pd.Timedelta | None]:
    """The group keys `by` names (columns, or numbers the messages carry) and its time bucket's width, if any."""
    by = [by] if isinstance(by, str) else by
    buckets = [b for b in by if _BUCKET.fullmatch(b.strip())]
    if len(buckets) > 1 or len(by) - len(buckets) > 2:
        raise ToolError("group by at most two columns and one time bucket")
    return [key_column(ctx, k) for k in by if k not in buckets], parse_interval(buckets[0]) if buckets else None


def _cell(value: Any) -> Any:
    if isinstance(value, float):
        return plain(value)
    return jsonable(value)


def _pivot(data: pd.DataFrame, keys: list[str], stat: str, unit: str) -> tuple[Pivot, str]:
    """A two-key table: the most frequent values of the first key down, of the second across, and each row's
    statistic over all its values in `total`; its value and what it leaves out (`left_out`: how many values of
    each key). Only the pairs the rows hold are computed (a long table), and only the kept ones are laid out: a
    wide table of every value by every value took gigabytes for 15,000 hosts by 15,000 components."""
    across, down = keys
    sizes = [counts[counts > 0] for counts in (data[across].value_counts(), data[down].value_counts())]
    kept_rows, kept_columns = (counts.index[:PIVOT_SIDE] for counts in sizes)
    cells = grouped_statistic(data, keys, stat)
    rows = _laid_out(cells, grouped_statistic(data, [across], stat), kept_rows, kept_columns)
    left_out = {what: len(counts) - PIVOT_SIDE for counts, what in zip(sizes, keys, strict=True)
                if len(counts) > PIVOT_SIDE}
    # with values left out, the whole table's cells, for an answer that states every cell (within MAX_GROUPS)
    value = Pivot(columns=[across, *[str(jsonable(c)) for c in kept_columns], "total"], rows=rows,
                  cells=_every_cell(cells) if left_out and len(cells) <= MAX_GROUPS else None,
                  left_out=left_out or None, unit=unit)
    return value, f"{len(kept_rows)}x{len(kept_columns)} table" + (f", {left_words(left_out)} left out" if left_out
                                                                   else "")


def _laid_out(cells: pd.Series, totals: pd.Series, down: pd.Index, across: pd.Index) -> list[list[Scalar]]:
    """The rows of a two-key table: for each value `down`, its cell for each value `across` (None when the rows
    hold no such pair) and its total."""
    kept = cells[cells.index.get_level_values(0).isin(down) & cells.index.get_level_values(1).isin(across)]
    shown = {pair: v for pair, v in kept.items() if not pd.isna(v)}
    return [[jsonable(r), *[plain(float(shown[r, c])) if (r, c) in shown else None for c in across],
             plain(float(totals[r]))] for r in down]


def left_words(left_out: dict[str, int]) -> str:
    """How many values of each key a table leaves out, in words: "14,988 more host and 14,988 more component"."""
    return " and ".join(f"{n:,} more {what}" for what, n in left_out.items())


def _every_cell(cells: pd.Series) -> dict[str, dict[str, Any]]:
    """{first key's value: {second key's value: statistic}} of every non-empty cell of a two-key table."""
    out: dict[str, dict[str, Any]] = {}
    for (row, column), v in cells.items():
        if not pd.isna(v):
            out.setdefault(str(jsonable(row)), {})[str(jsonable(column))] = plain(float(v))
    return out
