"""Values of a field on the current lines that never come up on the lines of another event: "IP addresses with
failed passwords but never an accepted one", "blocks received but never deleted" (a left anti join: the current
rows are the first event's lines, the other event's lines are looked for in every loaded line)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.logs.text import entry_text
from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.rowops import mask, partitionwise, select, value
from react_engine.tools.entities import field_values
from react_engine.tools.filters import level_mask
from react_engine.tools.regex import check, findall, literal, text_matches
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import NeverSeen


class NeverSeenParams(Params):
    field: str = Field(description="a column, entity type (ip, user...) or field of the messages (port...)")
    never: str = Field("", description="text of the lines (any loaded line) the values must never come up on")
    never_regex: bool = Field(False, description="never is an RE2 regex")
    never_level: str | None = Field(None, description="and the level of those lines, e.g. FATAL")
    pattern: str | None = Field(None, description="RE2 regex whose first group is the value (a block id...)")
    n: int = Field(10, ge=1, le=100, description="how many of them to list, by their first line")


def _other_lines(params: NeverSeenParams, ctx: ToolContext) -> pd.DataFrame:
    """Every loaded line holding the `never` text (any case) at `never_level`."""
    if not params.never.strip() and params.never_level is None:
        raise ToolError("give the text (never) or the level (never_level) of the lines the values must not be on")
    rows = ctx.frame
    if params.never.strip():
        written = params.never if params.never_regex else literal(params.never)
        rows = select(rows, mask(rows, lambda part: text_matches(part, written, ignore_case=True)))
    if params.never_level is not None:
        if "severity" not in rows.columns:
            raise ToolError("these logs have no severity column; give the level's word as never text")
        rows = select(rows, level_mask(replace(ctx, rows=rows), params.never_level.strip()))
    return rows


def _found(rows: pd.DataFrame, pattern: str) -> pd.Series:
    return findall(entry_text(rows), pattern)


def _values(ctx: ToolContext, params: NeverSeenParams, fresh: bool) -> tuple[pd.Series, str]:
    """The values of the field (or of the pattern) on `ctx.rows` in line order, and their name; `fresh` reads them
    again from the lines rather than from an entity set extracted on other rows."""
    if params.pattern is not None:
        found = partitionwise(_found, ctx.rows, params.pattern, meta=pd.Series(dtype="str"))
        return value(found), params.field
    found, name, _ = field_values(replace(ctx, entities={}) if fresh else ctx, params.field)
    return value(found), name


def never_came(seen: pd.Series, never: pd.Series) -> pd.Series:
    """The distinct values of `seen` that are not in `never`, each at the label of its first line."""
    first = seen[~seen.duplicated()]
    return first[~first.isin(set(never))]


@tool("never_seen", "distinct values of field in the current rows that no loaded line with the never text holds",
      NeverSeenParams, NeverSeen, optional=True)
def never_seen(params: NeverSeenParams, ctx: ToolContext) -> ToolResult:
    for pattern in filter(None, [params.pattern, params.never if params.never_regex else None]):
        check(pattern)
    seen, name = _values(ctx, params, fresh=False)
    never, _ = _values(replace(ctx, rows=_other_lines(params, ctx)), params, fresh=True)
    left = never_came(seen, never)
    listed = left.iloc[:params.n]
    other = " ".join(filter(None, [params.never_level, repr(brief(params.never, 30)) if params.never else ""]))
    return ToolResult(
        value=NeverSeen(field=name, count=len(left), seen=int(seen.nunique()), values=[jsonable(v) for v in listed]),
        summary=f"{brief(name)} never on {other} lines -> {len(left):,} of {seen.nunique():,}",
        evidence=pd.Index(listed.index).unique())
