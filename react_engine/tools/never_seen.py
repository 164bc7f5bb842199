"""Values of a field on the lines of one event that never come up on the lines of another: "IP addresses with
failed passwords but never an accepted one", "blocks received but never deleted" (a left anti join)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
from pydantic import Field

from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.rowops import mask, select, value
from react_engine.tools.entities import field_values
from react_engine.tools.regex import literal, text_matches
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import NeverSeen


class NeverSeenParams(Params):
    field: str = Field(description="a column, entity type (ip, user...) or field of the messages (block, tid...)")
    seen: str = Field(description="text of the lines the values come up on (empty: every current line)")
    never: str = Field(description="text of the lines they must never come up on")
    n: int = Field(10, ge=1, le=100, description="how many of them to list, by their first line")


def on_lines(ctx: ToolContext, text: str, field: str) -> tuple[pd.Series, str]:
    """The values of `field` on the current rows that contain `text` (any case; all rows when `text` is empty),
    by row label in line order, and the field's name."""
    rows = ctx.rows
    if text.strip():
        written = literal(text)
        rows = select(rows, mask(rows, lambda part: text_matches(part, written, ignore_case=True)))
    found, name, _ = field_values(replace(ctx, rows=rows), field)
    return value(found), name


def never_came(seen: pd.Series, never: pd.Series) -> pd.Series:
    """The distinct values of `seen` that are not in `never`, each at the label of its first line."""
    first = seen[~seen.duplicated()]
    return first[~first.isin(set(never))]


@tool("never_seen", "distinct values of field on lines with seen text that never come up on lines with never text",
      NeverSeenParams, NeverSeen, optional=True)
def never_seen(params: NeverSeenParams, ctx: ToolContext) -> ToolResult:
    seen, name = on_lines(ctx, params.seen, params.field)
    never, _ = on_lines(ctx, params.never, params.field)
    left = never_came(seen, never)
    listed = left.iloc[:params.n]
    events = f"{brief(params.seen, 30)!r} but never {brief(params.never, 30)!r}"
    return ToolResult(
        value=NeverSeen(field=name, count=len(left), seen=int(seen.nunique()),
                        values=[jsonable(v) for v in listed]),
        summary=f"{brief(name)} on {events} -> {len(left):,} of {seen.nunique():,}",
        evidence=pd.Index(listed.index).unique())
