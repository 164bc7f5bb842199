"""What happened to an entity (every line naming it, in time order) and what came before it (the lines just before
it on the same host or component, grouped by template, against each template's overall rate)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.logs.text import entry_text
from react_engine.rows.ranked import brief, jsonable
from react_engine.rows.row_patterns import Catalog, catalog, template_ids
from react_engine.rows.rowops import count, select, value
from react_engine.tools.investigated import Preceded, Timeline
from react_engine.tools.patterns import share
from react_engine.tools.regex import literal, text_matches
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool

TIMELINE_LINES = 50
"""The lines a timeline lists, from the first (its counts and span cover them all)."""
PRECEDING_PATTERNS = 10
BEFORE = 5  # lines looked at before each occurrence
MAX_OCCURRENCES = 1000
"""Occurrences of X whose preceding lines are looked at, from the first."""


def _naming(frame: pd.DataFrame, text: str) -> np.ndarray:
    """Rows whose entry contains `text` (case-insensitive)."""
    if not text.strip():
        raise ToolError("give the id, address or name to look for")
    return text_matches(frame, literal(text), ignore_case=True)


def _templates(rows: pd.DataFrame, found: Catalog) -> list[str]:
    return [found.templates[i] if i >= 0 else "" for i in template_ids(rows, found)]


class EntityTimelineParams(Params):
    value: str = Field(description="the block id, MAC, user, request id or pid to follow")


@tool("entity_timeline", "lines naming value, by time", EntityTimelineParams, Timeline, optional=True)
def entity_timeline(params: EntityTimelineParams, ctx: ToolContext) -> ToolResult:
    rows = value(select(ctx.rows, _naming(ctx.rows, params.value) if count(ctx.rows) else []))
    rows = rows.sort_values("timestamp", kind="stable") if len(rows) else rows
    first, last = rows["timestamp"].min(), rows["timestamp"].max()
    shown = rows.head(TIMELINE_LINES)
    texts = [f"{s}:{line} {brief(t, ctx.settings.sample_chars)}"
             for s, line, t in zip(shown["source"], shown["line"], entry_text(shown), strict=True)]
    messages = [brief(str(m), ctx.settings.sample_chars) for m in shown["message"]]
    lines = [[jsonable(t), p, m, x] for t, p, m, x in zip(shown["timestamp"], _templates(shown, catalog(ctx.frame)),
                                                          messages, texts, strict=True)]
    span = (last - first).total_seconds() if len(rows) and pd.notna(first) else None
    return ToolResult(value=Timeline(columns=["time", "pattern", "message", "line"], rows=lines, lines=len(rows),
                                     first=jsonable(first), last=jsonable(last), span_seconds=span),
                      summary=f"entity_timeline {brief(params.value, 40)} -> {len(rows):,} lines"
                              + (f" from {jsonable(first)} to {jsonable(last)}" if span is not None else ""),
                      evidence=shown.index)


class PrecedingParams(Params):
    value: str = Field("", description="the text of the event (X) whose preceding lines are wanted; empty: the "
                                       "current rows (after a filter or search) are the occurrences")
    each: bool = Field(False, description="before every occurrence, not only the first")


def _scope(frame: pd.DataFrame) -> str:
    """The column whose value groups lines of one place: host, else component, else source."""
    return next(c for c in ("host", "component", "source") if c in frame and frame[c].notna().any())


def _before(frame: pd.DataFrame, hits: np.ndarray, lines: int, column: str) -> np.ndarray:
    """Positions of up to `lines` rows before each hit (a position) with the same `column` value, hits left out."""
    groups = pd.factorize(frame[column].astype("object"), use_na_sentinel=False)[0]
    is_hit = np.zeros(len(frame), bool)
    is_hit[hits] = True
    picked: list[np.ndarray] = []
    for group in np.unique(groups[hits]):
        members = np.flatnonzero((groups == group) & ~is_hit)
        for hit in hits[groups[hits] == group]:
            at = np.searchsorted(members, hit)
            picked.append(members[max(0, at - lines) : at])
    return np.concatenate(picked) if picked else np.zeros(0, np.int64)


def _current(frame: pd.DataFrame, ctx: ToolContext) -> np.ndarray:
    """The current rows, as a mask over `frame`, when a filter or search narrowed them."""
    rows = value(ctx.rows)
    if len(rows) == len(frame):
        raise ToolError("give the event's text, or filter or search the lines first: every line is current")
    return np.asarray(frame.index.isin(rows.index))


def _first(frame: pd.DataFrame, hits: np.ndarray, before: np.ndarray, chars: int) -> dict[str, Any]:
    """The first occurrence and the lines just before it, as `file:line text` (nothing when there is none)."""
    if not len(hits):
        return {}
    shown = frame.iloc[np.concatenate([before, hits[:1]])]
    texts = [f"{Path(str(s)).name}:{line} {brief(t, chars)}"
             for s, line, t in zip(shown["source"], shown["line"], entry_text(shown), strict=True)]
    return {"first": texts[-1], "just_before": texts[:-1]}


def _nearby(frame: pd.DataFrame, hits: np.ndarray) -> tuple[str, np.ndarray]:
    """The column whose value groups lines of one place, and the positions of the lines before the hits in it: on
    the same host or component, else (nothing before them there) in the same file."""
    column = _scope(frame) if len(frame) else "source"
    before = _before(frame, hits, BEFORE, column)
    if not len(before) and column != "source" and len(hits):
        return "source", _before(frame, hits, BEFORE, "source")
    return column, before


@tool("preceding", "patterns just before value", PrecedingParams, Preceded, optional=True)
def preceding(params: PrecedingParams, ctx: ToolContext) -> ToolResult:
    frame = value(ctx.frame)
    hits = np.flatnonzero(_naming(frame, params.value) if params.value.strip() else _current(frame, ctx))
    occurrences, hits = len(hits), hits[: MAX_OCCURRENCES if params.each else 1]
    column, before = _nearby(frame, hits)
    found = catalog(ctx.frame)
    ids = template_ids(frame, found)
    everywhere = pd.Series(ids).value_counts()
    near = pd.Series(ids[before], index=frame.index[before])
    counts = near[near >= 0].value_counts().head(PRECEDING_PATTERNS)  # a line of no template (-1) has no pattern
    first_of = near.groupby(near.to_numpy()).apply(lambda s: s.index[0]) if len(near) else pd.Series(dtype="int64")
    examples = entry_text(frame.loc[[first_of[t] for t in counts.index]])
    rows = [[int(c), share(int(c), len(near)), share(int(everywhere[t]), len(frame)), found.templates[t],
             brief(x, ctx.settings.sample_chars)] for (t, c), x in zip(counts.items(), examples, strict=True)]
    method = (f"the {BEFORE} lines before {f'each of the first {len(hits):,}' if params.each else 'the first'} of "
              f"the {occurrences:,} occurrences on the same {column}; context, not a diagnosis")
    return ToolResult(value=Preceded(columns=["count", "share_before", "share_overall", "pattern", "example"],
                                     rows=rows, occurrences=occurrences, lines_before=len(near), window=BEFORE,
                                     method=method,
                                     **({} if params.each else _first(frame, hits, before, ctx.settings.sample_chars))),
                      summary=f"preceding {brief(params.value, 40)} -> {len(near):,} lines before "
                              f"{len(hits):,} occurrences, {len(counts):,} patterns ({method})",
                      evidence=pd.Index(first_of[counts.index]) if len(counts) else None)
