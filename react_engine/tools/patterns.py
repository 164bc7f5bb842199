"""Message patterns: the current rows grouped into templates (numbers, ids, addresses and paths masked)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from pydantic import Field

from react_engine.logs.text import entry_text
from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.row_patterns import catalog, template_stats
from react_engine.rows.rowops import count, take
from react_engine.tools.investigated import Patterns
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.timeexpr import parse_time

PATTERN_COLUMNS = ["count", "share", "template", "first_seen", "last_seen", "example"]


def share(part: int, whole: int) -> float:
    """`part` as a percentage of `whole`, to one decimal."""
    return round(100 * part / whole, 1) if whole else 0.0


def examples(ctx: ToolContext, labels: pd.Index, limit: int) -> list[str]:
    """Each labelled row's text on one line, cut to `limit` characters."""
    picked = take(ctx.frame, labels)
    return [brief(text, limit) for text in entry_text(picked)]


def pattern_rows(ctx: ToolContext, stats: pd.DataFrame, whole: int) -> list[list[Any]]:
    """The rows of a patterns table for per-template `stats` (see `template_stats`)."""
    lines = examples(ctx, pd.Index(stats["example"]), ctx.settings.sample_chars)
    return [[int(c), share(int(c), whole), t, jsonable(f), jsonable(last), line]
            for c, t, f, last, line in zip(stats["count"], stats["template"], stats["first"], stats["last"], lines,
                                           strict=True)]


class PatternsParams(Params):
    n: int = Field(10, ge=1, le=50, description="how many patterns")
    rarest: bool = Field(False, description="the rarest first")
    since: str | None = Field(None, description="only templates first seen at/after this time")


@tool("message_patterns", "message templates with counts", PatternsParams, Patterns, optional=True)
def patterns(params: PatternsParams, ctx: ToolContext) -> ToolResult:
    stats = template_stats(ctx.rows, catalog(ctx.frame))
    whole, method = count(ctx.rows), None
    if params.since is not None:
        start = parse_time(params.since, ctx.now)
        stats = stats[stats["first"] >= start]
        method = f"templates whose first line in these rows is at or after {start.isoformat()}"
    shown = (stats.iloc[::-1] if params.rarest else stats).head(params.n)
    rows = pattern_rows(ctx, shown, whole)
    lead = ", ".join(f"{brief(r[2], 50)} ({r[0]:,})" for r in rows[:2]) or "none"
    return ToolResult(value=Patterns(columns=PATTERN_COLUMNS, rows=rows, patterns=len(stats), rows_counted=whole,
                                     method=method),
                      summary=f"message_patterns -> {len(stats):,} in {whole:,} rows"
                              + (f" ({method})" if method else "") + f": {lead}",
                      evidence=pd.Index(shown["example"]))
