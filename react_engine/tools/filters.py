"""Tools that narrow the current rows: by text, severity, time or any column, and back to all rows."""

from __future__ import annotations

import json
import operator
import re
from functools import reduce
from typing import Literal

import numpy as np
import pandas as pd
import pyarrow.compute as pc
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.logs.macs import any_notation
from react_engine.logs.macs import normalize as normalize_mac
from react_engine.logs.severity import RANK, SEVERITIES, at_least, normalize
from react_engine.logs.text import arrow_strings, bool_mask
from react_engine.rows.ranked import brief
from react_engine.rows.rowops import Mask, count, holding, mask, select, value, value_counts
from react_engine.tools.entities import current, held, normalised, resolve_field
from react_engine.tools.param_types import OneOrMany
from react_engine.tools.regex import check, literal, matches, text_matches
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import Counted
from react_engine.tools.thresholds import OPPOSITE, THRESHOLDS, threshold
from react_engine.tools.timeexpr import parse_time, relative

_SEPARATED = re.compile(r"[:.-]")


class Narrowing(Params):
    """Parameters every row filter shares."""

    exclude: bool = Field(False, description="keep the rows that do NOT match instead")


def narrowed(ctx: ToolContext, keep: Mask, what: str, exclude: bool = False) -> ToolResult:
    """The current rows where `keep` holds (where it does not, when `exclude`), as the new current rows; the value
    is their count."""
    return _kept(ctx, select(ctx.rows, ~keep if exclude else keep), f"not {what}" if exclude else what)


def _kept(ctx: ToolContext, rows: pd.DataFrame, what: str) -> ToolResult:
    return ToolResult(value=Counted(count(rows)), summary=f"{what} -> {count(rows):,} of {count(ctx.rows):,} rows",
                      rows=rows)


class SearchLogsParams(Narrowing):
    value: str = Field(description="text to find in the log line; an empty value resets to all rows")
    regex: bool = Field(False, description="treat value as a regular expression (RE2 syntax)")
    case_sensitive: bool = Field(False, description="match letter case exactly")
    message: bool = Field(False, description="search the message only, not the line's head (its time, host, pid)")
    exclude: bool = Field(False, description="keep the rows that do NOT match instead")


@tool("search_logs", "keep rows whose line contains value", SearchLogsParams, Counted, narrows=True)
def search_logs(params: SearchLogsParams, ctx: ToolContext) -> ToolResult:
    if not params.value:
        if params.exclude:
            raise ToolError("give a value to exclude; an empty value with exclude=false resets to all rows")
        return reset_filters(ResetFiltersParams(), ctx)
    mac = None if params.regex or not _SEPARATED.search(params.value) else normalize_mac(params.value)
    pattern = params.value if params.regex else any_notation(mac) if mac else literal(params.value)
    ignore_case = not params.case_sensitive or mac is not None
    check(pattern)
    found = mask(ctx.rows, lambda rows: matches(rows["message"], pattern, ignore_case=ignore_case) if params.message
                 else text_matches(rows, pattern, ignore_case=ignore_case))
    where = " (any MAC notation)" if mac else " in the messages" if params.message else ""
    return narrowed(ctx, found, f"search {params.value!r}{where}", params.exclude)


class FilterBySeverityParams(Narrowing):
    levels: OneOrMany = Field(default_factory=list, description=(
        "levels to keep: as written in the log (exact, e.g. FATAL) or canonical "
        f"({', '.join(SEVERITIES)}) and synonyms such as err, warn"))
    min_level: str | None = Field(None, description="also keep every row at least this severe, e.g. error")


@tool("filter_by_severity", "keep rows at these levels, or at least min_level", FilterBySeverityParams, Counted,
      narrows=True)
def filter_by_severity(params: FilterBySeverityParams, ctx: ToolContext) -> ToolResult:
    if not params.levels and params.min_level is None:
        raise ToolError("give levels (e.g. [\"ERROR\"]) or min_level (e.g. \"warning\")")
    if "severity" not in ctx.rows.columns:
        raise ToolError("these logs have no severity column; use search_logs for level words")
    masks = [level_mask(ctx, level.strip()) for level in params.levels]
    if params.min_level is not None:
        levels = at_least(_canonical(ctx, params.min_level))
        masks.append(mask(ctx.rows, lambda rows: rows["severity"].isin(levels).to_numpy(dtype=bool)))
    what = " ".join([*params.levels, *([f">={params.min_level}"] if params.min_level else [])])
    if params.exclude:
        return narrowed(ctx, reduce(operator.or_, masks), f"severity {brief(what)}", exclude=True)
    rows = select(ctx.rows, reduce(operator.or_, masks))
    result = _kept(ctx, rows, f"severity {brief(what)}")
    result.note = _named_in_lines(ctx, [*params.levels, *([params.min_level] if params.min_level else [])],
                                  count(rows))
    return result


def _named_in_lines(ctx: ToolContext, levels: list[str], kept: int) -> str | None:
    """A caveat when the level column kept no rows, or every row of a one-level log, while lines name the level
    (a Windows CBS log is all `Info`, yet hundreds of its messages start with `Warning:`). Its one number is the
    count it offers."""
    if kept and (kept < count(ctx.rows) or len(value_counts(ctx.rows["severity"])) > 1):
        return None
    for word in filter(None, map(_level_word, levels)):
        found = _lines_with(ctx, word)
        if found and found != kept:
            column = "has no such rows" if not kept else "gives every row the same level"
            return (f"{found:,} lines contain the word {word!r} though the level column {column}: "
                    f"search_logs(value={json.dumps(word, ensure_ascii=False)}) instead of this filter counts them")
    return None


def _level_word(level: str) -> str | None:
    """The word a line would write for `level` (a level of one or two letters spelled out), or None when it is no
    word to search for."""
    word = level.strip() if len(level.strip()) >= 3 else normalize(level) or level.strip()
    return word if word and len(word) <= 20 and word.isprintable() else None


def _lines_with(ctx: ToolContext, word: str) -> int:
    """How many current lines contain `word` in any case, as search_logs counts them."""
    pattern = literal(word)
    return int(value(mask(ctx.rows, lambda rows: text_matches(rows, pattern, ignore_case=True)).sum()))


def level_mask(ctx: ToolContext, level: str) -> Mask:
    """A level written in the log matches exactly; a canonical name or a synonym matches its severity, unless the
    log writes levels as initials and gives that severity to several (`D` for debug, `V` for verbose)."""
    if "level_raw" not in ctx.rows.columns:
        return _equal_mask(ctx.rows["severity"], _canonical(ctx, level))
    if level.lower() not in RANK:
        exact = _equal_mask(ctx.rows["level_raw"], level)
        if value(exact.any()) or value(_equal_mask(ctx.frame["level_raw"], level).any()):
            return exact
    canonical = _canonical(ctx, level)
    if _initial_of_several(ctx, level, canonical):
        return _equal_mask(ctx.rows["level_raw"], level[:1].upper())
    return _equal_mask(ctx.rows["severity"], canonical)


def _initial_of_several(ctx: ToolContext, level: str, canonical: str) -> bool:
    """The log writes levels as initials and gives the severity `canonical` to several, `level`'s among them."""
    written = [str(w) for w in value_counts(ctx.frame["level_raw"]).index if normalize(w) == canonical]
    return len(written) > 1 and all(len(w) == 1 for w in written) and level[:1].upper() in written


def _canonical(ctx: ToolContext, level: str) -> str:
    canonical = normalize(level)
    if canonical is None:
        written = value_counts(ctx.frame["level_raw"]).index[:8] if "level_raw" in ctx.frame.columns else []
        raise ToolError(f"unknown level {level!r}; use one of {', '.join(SEVERITIES)}"
                        + (f" or a level in the logs: {', '.join(map(str, written))}" if len(written) else ""))
    return canonical


class FilterByTimeParams(Narrowing):
    start: str = Field(description="ISO time (2026-11-20T10:00, UTC unless an offset is given) or now-1h, now-15m")
    end: str = Field("now", description="ISO time or relative time; `now` is the newest log time unless overridden")


@tool("filter_by_time", "keep rows from start to end, e.g. now-1h", FilterByTimeParams, Counted, narrows=True)
def filter_by_time(params: FilterByTimeParams, ctx: ToolContext) -> ToolResult:
    start, end = parse_time(params.start, ctx.now), parse_time(params.end, ctx.now)
    if start > end:
        raise ToolError(f"start {start.isoformat()} is after end {end.isoformat()}; swap them")
    within = mask(ctx.rows["timestamp"],
                  lambda stamps: ((stamps >= start) & (stamps <= end)).to_numpy(dtype=bool, na_value=False))
    result = narrowed(ctx, within, f"time {start.isoformat()}..{end.isoformat()}", params.exclude)
    if relative(params.start) or relative(params.end):
        result.note = f"now is {parse_time('now', ctx.now).isoformat()}, {ctx.now_basis}"
    return result


class FilterByFieldParams(Narrowing):
    field: str = Field(description="a column (host, component, pid, event_id, status...), entity type (mac, ip...) "
                                   "or numeric field (latency_ms, bytes sent, duration)")
    value: str | int | float | bool = Field(description="the value to compare with; gt/ge/lt/le: a number, maybe "
                                                        "with a unit (500ms, 1 s, 1MB)")
    op: Literal["eq", "ne", "contains", "regex", "gt", "ge", "lt", "le"] = Field(
        "eq", description="eq/ne: equal or not; contains: substring, any case; regex: RE2 pattern; gt/ge/lt/le: "
                          "> >= < <= on a numeric field, rows without a value never kept")


@tool("filter_by_field", "keep rows where field op value (eq, ne, contains, regex, gt, ge, lt, le)",
      FilterByFieldParams, Counted, narrows=True)
def filter_by_field(params: FilterByFieldParams, ctx: ToolContext) -> ToolResult:
    if params.op in THRESHOLDS:  # excluded, the rows with a value that fail the comparison
        op = OPPOSITE[params.op] if params.exclude else params.op
        if isinstance(params.value, bool):
            raise ToolError(f"{params.op} compares numbers, not {params.value}")
        kept, what, note = threshold(ctx, params.field, op, params.value)
        result = narrowed(ctx, kept, what)
        result.note = note
        return result
    text = _text(params.value)
    name, is_entity = resolve_field(ctx, params.field)
    if is_entity:
        return _filter_by_entity(params, ctx, text)
    hit, how = _compare(ctx, ctx.rows[name], params.op, text)
    return narrowed(ctx, ~hit if params.op == "ne" else hit, f"{name} {params.op} {text!r}{how}", params.exclude)


def _filter_by_entity(params: FilterByFieldParams, ctx: ToolContext, text: str) -> ToolResult:
    """Rows holding (or, for ne, not holding) an entity value that compares with `text`."""
    name, values, fresh = current(ctx, params.field)
    if params.op != "ne" and not params.exclude:
        values = held(ctx, name, values)
    hit, how = _compare(ctx, values, params.op, normalised(name, text))
    holders = holding(ctx.rows, values, hit)
    result = narrowed(ctx, ~holders if params.op == "ne" else holders, f"{name} {params.op} {text!r}{how}",
                      params.exclude)
    result.entities = {name: values} if fresh else None
    return result


def _compare(ctx: ToolContext, values: pd.Series, op: str, text: str) -> tuple[Mask, str]:
    """Mask of `values` that match `text` by `op` (ne gives the eq mask), and a note on how they matched."""
    if op in ("contains", "regex"):
        pattern = literal(text) if op == "contains" else text
        check(pattern)
        return mask(values, lambda part: matches(part, pattern, ignore_case=op == "contains")), ""
    kind = values.dtype.kind
    if kind in "Miufb":
        target = parse_time(text, ctx.now) if kind == "M" else _number(values, text)
        return mask(values, lambda part: (part == target).to_numpy(dtype=bool, na_value=False)), ""
    exact = _equal_mask(values, text)
    if value(exact.any()):
        return exact, ""
    mac = normalize_mac(text)
    for alternative, how in ((mac, f" (as {mac})"), (text, " (any case)")):
        if alternative is None:
            continue
        hit = _equal_mask(values, alternative, ignore_case=how == " (any case)")
        if value(hit.any()):
            return hit, how
    return exact, ""


def _number(values: pd.Series, text: str) -> bool | float:
    if values.dtype.kind == "b":
        return text.lower() in ("true", "1", "yes")
    try:
        return float(text)
    except ValueError:
        raise ToolError(f"column {values.name!r} holds numbers; give a number, not {text!r}") from None


def _equal_mask(values: pd.Series, text: str, *, ignore_case: bool = False) -> Mask:
    return mask(values, lambda part: _equal(part, text, ignore_case=ignore_case))


def _equal(values: pd.Series, text: str, *, ignore_case: bool = False) -> np.ndarray:
    array = arrow_strings(values)
    if ignore_case:
        array, text = pc.utf8_lower(array), text.lower()
    return bool_mask(pc.equal(array, text))


def _text(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class ResetFiltersParams(Params):
    pass


@tool("reset_filters", "all loaded rows again", ResetFiltersParams, Counted)
def reset_filters(params: ResetFiltersParams, ctx: ToolContext) -> ToolResult:
    return ToolResult(value=Counted(count(ctx.frame)), summary=f"reset -> all {count(ctx.frame):,} rows", rows=ctx.frame)
