"""Ranked counts and JSON-able values, shared by the tools that report what is most frequent."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from react_engine.rows.snippets import cut

_SPACE = re.compile(r"[\x00-\x1f\x7f\s]+")


def brief(value: Any, limit: int = 60) -> str:
    """`value` as one line for a summary: control characters become spaces and long text is cut with `…`."""
    flat = _SPACE.sub(" ", str(value)).strip()
    return cut(flat, limit)


def jsonable(value: Any) -> Any:
    """A pandas/numpy scalar as a plain JSON value (timestamps as ISO text, missing as None)."""
    if value is None or (np.ndim(value) == 0 and pd.isna(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value.item() if isinstance(value, np.generic) else value


def top(counts: pd.Series, n: int, least: bool = False) -> list[list[Any]]:
    """The `n` largest of `counts` (value -> count) as `[value, count]`, by count descending, then value; with
    `least`, the `n` smallest, by count ascending, then value."""
    if counts.empty:
        return []
    tied = counts[counts <= counts.nsmallest(n).iloc[-1]] if least else \
        counts[counts >= counts.nlargest(n).iloc[-1]]  # only the values that can make the top n  # fmt: skip
    order = pd.DataFrame({"value": tied.index, "count": tied.to_numpy()}).sort_values(
        ["count", "value"], ascending=[least, True], kind="stable", key=_comparable)
    return [[jsonable(v), int(c)] for v, c in order.head(n).itertuples(index=False)]


def _comparable(column: pd.Series) -> pd.Series:
    """Sort key: mixed-type object columns compare as text."""
    return column.map(str) if column.dtype == object else column
