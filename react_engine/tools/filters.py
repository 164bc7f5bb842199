"""Tools that narrow the current rows: by text, severity, time or any column, and back to all rows."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import pyarrow.compute as pc
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.logs.severity import RANK, SEVERITIES, at_least, normalize
from react_engine.tools.base import Params, ToolContext, ToolResult, tool
from react_engine.tools.fields import OneOrMany
from react_engine.tools.regex import as_arrow, line_text, literal, matches
from react_engine.tools.timeexpr import parse_time


def narrowed(ctx: ToolContext, mask: np.ndarray | pd.Series, what: str) -> ToolResult:
    """The current rows where `mask` holds, as the new current rows; the value is their count."""
    keep = np.asarray(mask, dtype=bool)
    rows = ctx.rows if keep.all() else ctx.rows[keep]
    return ToolResult(value=len(rows), summary=f"{what} -> {len(rows):,} of {len(ctx.rows):,} rows", rows=rows)


def column(frame: pd.DataFrame, field: str) -> str:
    """The column named `field` (exact, else case-insensitive); ToolError listing the columns otherwise."""
    if field in frame.columns:
        return field
    folded = {str(name).lower(): name for name in frame.columns}
    if field.strip().lower() in folded:
        return folded[field.strip().lower()]
    raise ToolError(f"no column {field!r}; columns are: {', '.join(map(str, frame.columns))}")


class SearchLogsParams(Params):
    value: str = Field(description="text to find in the log line; an empty value resets to all rows")
    regex: bool = Field(False, description="treat value as a regular expression (RE2 syntax)")
    case_sensitive: bool = Field(False, description="match letter case exactly")


@tool("search_logs", "keep rows whose line contains value", SearchLogsParams)
def search_logs(params: SearchLogsParams, ctx: ToolContext) -> ToolResult:
    if not params.value:
        return reset_filters(ResetFiltersParams(), ctx)
    pattern = params.value if params.regex else literal(params.value)
    mask = matches(line_text(ctx.rows), pattern, ignore_case=not params.case_sensitive)
    return narrowed(ctx, mask, f"search {params.value!r}")


class FilterBySeverityParams(Params):
    levels: OneOrMany = Field(default_factory=list, description=(
        "levels to keep: as written in the log (exact, e.g. FATAL) or canonical "
        f"({', '.join(SEVERITIES)}) and synonyms such as err, warn"))
    min_level: str | None = Field(None, description="also keep every row at least this severe, e.g. error")


@tool("filter_by_severity", "keep rows with the given levels and/or at least min_level", FilterBySeverityParams)
def filter_by_severity(params: FilterBySeverityParams, ctx: ToolContext) -> ToolResult:
    if not params.levels and params.min_level is None:
        raise ToolError("give levels (e.g. [\"ERROR\"]) or min_level (e.g. \"warning\")")
    if "severity" not in ctx.rows.columns:
        raise ToolError("these logs have no severity column; use search_logs for level words")
    mask = np.zeros(len(ctx.rows), dtype=bool)
    for level in params.levels:
        mask |= _level_mask(ctx, level.strip())
    if params.min_level is not None:
        mask |= ctx.rows["severity"].isin(at_least(_canonical(ctx, params.min_level))).to_numpy(dtype=bool)
    what = " ".join(params.levels + ([f">={params.min_level}"] if params.min_level else []))
    return narrowed(ctx, mask, f"severity {what}")


def _level_mask(ctx: ToolContext, level: str) -> np.ndarray:
    """A canonical name matches its severity; a level written in the log matches exactly; else a synonym."""
    if level.lower() not in RANK and "level_raw" in ctx.rows.columns:
        exact = _equal(ctx.rows["level_raw"], level)
        if exact.any() or _equal(ctx.frame["level_raw"], level).any():
            return exact
    return _equal(ctx.rows["severity"], _canonical(ctx, level))


def _canonical(ctx: ToolContext, level: str) -> str:
    canonical = normalize(level)
    if canonical is None:
        written = ctx.frame["level_raw"].value_counts().index[:8] if "level_raw" in ctx.frame.columns else []
        raise ToolError(f"unknown level {level!r}; use one of {', '.join(SEVERITIES)}"
                        + (f" or a level in the logs: {', '.join(map(str, written))}" if len(written) else ""))
    return canonical


class FilterByTimeParams(Params):
    start: str = Field(description="ISO time (2026-11-20T10:00, UTC unless an offset is given) or now-1h, now-15m")
    end: str = Field("now", description="ISO time or relative time; `now` is the newest log time unless overridden")


@tool("filter_by_time", "keep rows with start <= timestamp <= end", FilterByTimeParams)
def filter_by_time(params: FilterByTimeParams, ctx: ToolContext) -> ToolResult:
    start, end = parse_time(params.start, ctx.now), parse_time(params.end, ctx.now)
    if start > end:
        raise ToolError(f"start {start.isoformat()} is after end {end.isoformat()}; swap them")
    stamps = ctx.rows["timestamp"]
    mask = ((stamps >= start) & (stamps <= end)).to_numpy(dtype=bool, na_value=False)
    return narrowed(ctx, mask, f"time {start.isoformat()}..{end.isoformat()}")


class FilterByFieldParams(Params):
    field: str = Field(description="a column, e.g. host, component, pid, event_id, status")
    value: str | int | float | bool = Field(description="the value to compare with")
    op: Literal["eq", "ne", "contains", "regex"] = Field(
        "eq", description="eq/ne: equal or not; contains: substring, any case; regex: RE2 pattern")


@tool("filter_by_field", "keep rows where column `field` compares with value by op", FilterByFieldParams)
def filter_by_field(params: FilterByFieldParams, ctx: ToolContext) -> ToolResult:
    name = column(ctx.frame, params.field)
    values, text = ctx.rows[name], _text(params.value)
    what = f"{name} {params.op} {text!r}"
    if params.op == "contains":
        return narrowed(ctx, matches(values, literal(text), ignore_case=True), what)
    if params.op == "regex":
        return narrowed(ctx, matches(values, text), what)
    mask = _typed_equal(ctx, values, params.value, text)
    if not mask.any() and values.dtype.kind not in "iufbM":
        mask = _equal(values, text, ignore_case=True)
        what += " (any case)" if mask.any() else ""
    return narrowed(ctx, ~mask if params.op == "ne" else mask, what)


def _typed_equal(ctx: ToolContext, values: pd.Series, value: object, text: str) -> np.ndarray:
    """`values == value`, comparing numbers as numbers and times as times."""
    kind = values.dtype.kind
    if kind == "M":
        return (values == parse_time(text, ctx.now)).to_numpy(dtype=bool, na_value=False)
    if kind in "iuf":
        try:
            number = float(text)
        except ValueError:
            raise ToolError(f"column {values.name!r} holds numbers; give a number, not {text!r}") from None
        return (values == number).to_numpy(dtype=bool, na_value=False)
    if kind == "b":
        return (values == (text.lower() in ("true", "1", "yes"))).to_numpy(dtype=bool, na_value=False)
    return _equal(values, text)


def _equal(values: pd.Series, text: str, *, ignore_case: bool = False) -> np.ndarray:
    array = as_arrow(values)
    if ignore_case:
        array, text = pc.utf8_lower(array), text.lower()
    return np.asarray(pc.equal(array, text).fill_null(False).to_numpy(zero_copy_only=False), dtype=bool)


def _text(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class ResetFiltersParams(Params):
    pass


@tool("reset_filters", "make all loaded rows current again", ResetFiltersParams)
def reset_filters(params: ResetFiltersParams, ctx: ToolContext) -> ToolResult:
    return ToolResult(value=len(ctx.frame), summary=f"reset -> all {len(ctx.frame):,} rows", rows=ctx.frame)
