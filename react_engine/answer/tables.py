"""The rows behind an answer, as a table: a ranking, a histogram, a listing of log lines, a grouped measure or a
pivot (a tool value holding `columns` and `rows`), or one value (a record's fields as columns).

`result_table(result)` picks the last tool result of a run and lays it out with a header, so the CLI can
print it as a table, a chart or CSV, and says what it leaves out (values beyond the top n, ties at the cut).
"""

from __future__ import annotations

import re
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, Field

from react_engine.contract.record import ActionStep, RunResult, last_value
from react_engine.errors import ToolError
from react_engine.rows.ranked import jsonable
from react_engine.rows.rowops import value_counts
from react_engine.tools import results
from react_engine.tools.registry import ToolContext

Kind = Literal["ranking", "histogram", "listing", "table", "value"]
LISTING_COLUMNS = ("source", "line", "timestamp", "severity", "host", "component", "message")
_LEFT_OUT = re.compile(r", (the [\d,]+ (?:with rows|busiest) listed(?: \([^)]*\))?)")


class ResultTable(BaseModel):
    """Columns and rows of one result, with what was left out."""

    kind: Kind
    columns: list[str]
    rows: list[list[Any]]  # JSON cells
    distinct: int | None = Field(None, description="values in the whole ranking, when known")
    tied: int = Field(0, description="values left out with the same count as the last one shown")
    note: str | None = Field(None, description="what the tool left out, e.g. the empty buckets of a long span")

    @property
    def disclosure(self) -> str | None:
        """'5 of 17 values shown; 2 more tie at 4', or None when nothing was left out."""
        if self.kind != "ranking" or self.distinct is None or self.distinct <= len(self.rows):
            return None
        text = f"{len(self.rows)} of {self.distinct} values shown"
        if self.tied:
            text += f"; {self.tied} more {'ties' if self.tied == 1 else 'tie'} at {self.rows[-1][1]:,}"
        return text


def _ranking_values(rows: pd.DataFrame, field: str) -> pd.Series | None:
    """Every value of `field` in `rows`, for a column or a built-in entity type (no field of the messages' patterns:
    an empty catalogue); None when unknown here."""
    from react_engine.logs.field_catalog import FieldCatalog
    from react_engine.tools.entities import field_values

    ctx = ToolContext(frame=rows, rows=rows, now=pd.NaT, catalog=FieldCatalog)
    try:
        return field_values(ctx, field)[0]
    except (ToolError, KeyError):
        return None


def _ranking(step: ActionStep, ranked: results.Ranking, rows: pd.DataFrame | None) -> ResultTable:
    pairs: list[list[Any]] = [list(p) for p in ranked.root]
    table = ResultTable(kind="ranking", columns=["value", "count"], rows=pairs)
    if pairs and rows is not None and step.rows_out == len(rows):
        values = _ranking_values(rows, str(step.params.get("field", "")))
        if values is not None:
            counts = value_counts(values)
            table.distinct = len(counts)
            table.tied = max(0, int((counts == pairs[-1][1]).sum()) - sum(c == pairs[-1][1] for _, c in pairs))
    return table


def _listing(rows: pd.DataFrame) -> ResultTable:
    columns = [c for c in LISTING_COLUMNS if c in rows and rows[c].notna().any()]
    values = [[jsonable(v) for v in row] for row in rows[columns].itertuples(index=False)]
    return ResultTable(kind="listing", columns=columns, rows=values)


def _listed(step: ActionStep, result: RunResult) -> pd.DataFrame:
    """The rows a listing lays out: those the question asked for by number ("the 3 newest", in that order), else
    every matching row."""
    query = result.interpretation.query if result.interpretation else None
    return _shown(step, result.rows, result.now) if query is not None and query.limit is not None else result.rows


def _shown(step: ActionStep, rows: pd.DataFrame, now: str | None) -> pd.DataFrame:
    """The rows a `show_logs` call listed, as it picked and ordered them ("the 3 newest"), not every current row."""
    from react_engine.rows.rowops import take
    from react_engine.tools.times import ordered

    ctx = ToolContext(frame=rows, rows=rows, now=pd.Timestamp(now) if now else pd.NaT)
    try:
        picked, _ = ordered(ctx, int(step.params.get("n", 5)), str(step.params.get("order", "file")))
    except (ToolError, ValueError):
        return rows
    return take(rows, picked)


def result_table(result: RunResult) -> ResultTable | None:
    """The table behind `result`'s answer, or None when no tool computed anything."""
    step = last_value(result.steps)
    if step is None:
        return None
    match step.result:
        case results.Table() as table:
            return ResultTable(kind="table", columns=list(table.columns), rows=[list(r) for r in table.rows])
        case results.Ranking() as ranked:
            return _ranking(step, ranked, result.rows)
        case results.DistinctRanking() as ranked:  # the values with how many distinct values of another each holds
            return ResultTable(kind="ranking", columns=[ranked.field, f"distinct {ranked.distinct}"],
                               rows=[list(p) for p in ranked.pairs], distinct=ranked.values, tied=ranked.tied_count)
        case results.Histogram() as counted:
            left_out = _LEFT_OUT.search(step.observation)
            return ResultTable(kind="histogram", columns=["bucket_start", "count"], rows=[list(p) for p in counted.root],
                               note=left_out.group(1) if left_out else None)
        case results.Lines() if result.rows is not None:
            return _listing(_listed(step, result))
    return _value_table(result, step)


def _value_table(result: RunResult, step: ActionStep) -> ResultTable:
    """The value behind the answer as a one-row table: the answer's own value only once verified (a number the
    model stated is never laid out as computed), else the last tool's."""
    value = result.value if result.value is not None and result.verified else step.value
    if isinstance(value, dict) and value and all(not isinstance(v, (dict, list)) for v in value.values()):
        return ResultTable(kind="value", columns=[str(k) for k in value], rows=[list(value.values())])
    return ResultTable(kind="value", columns=["value"], rows=[[value]])
