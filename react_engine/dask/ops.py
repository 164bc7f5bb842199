"""The Dask side of `react_engine.rows.rowops`: per-partition masks, subsets kept on the cluster, label look-ups.

Every frame and series derived from a loaded frame keeps its partitions and divisions (row labels `0..N-1`),
so two of them are combined partition by partition without a shuffle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

_BOOL = pd.Series(dtype=bool)
_KEPT = 4096
_remembered: dict[tuple[str, str], Any] = {}  # (what, collection name) -> result; persisted data never changes


def per_partition(fn: Callable[..., Any], *data: dd.DataFrame | dd.Series) -> list[Any]:
    """`fn` of each partition (of each collection in `data`, side by side), computed on the workers in one pass;
    the small results come back in order."""
    parts = zip(*(d.to_delayed() for d in data))
    return list(dask.compute(*[dask.delayed(fn)(*group) for group in parts]))


def remembered(what: str, data: Any, fn: Callable[[], Any]) -> Any:
    """`fn()`, computed once per collection: a collection's name identifies its data, which never changes."""
    key = (what, data._name)
    if key not in _remembered:
        if len(_remembered) >= _KEPT:
            _remembered.clear()
        _remembered[key] = fn()
    return _remembered[key]


def remember(what: str, data: Any, result: Any) -> None:
    """Record what `remembered(what, data, ...)` would compute, when it is already known."""
    _remembered[(what, data._name)] = result


def count(rows: dd.DataFrame | dd.Series) -> int:
    return remembered("count", rows, lambda: int(sum(per_partition(len, rows))))


def compute(result: Any) -> Any:
    return remembered("compute", result, result.compute)


def _distinct(part: pd.Series) -> list[str]:
    return list(part.dropna().astype(str).unique())


def distinct(series: dd.Series) -> list[str]:
    return remembered("distinct", series,
                      lambda: list(dict.fromkeys(v for part in per_partition(_distinct, series) for v in part)))


def _combine(counts: list[pd.Series]) -> pd.Series:
    found = [c for c in counts if len(c)]
    if not found:
        return counts[0] if counts else pd.Series([], dtype="int64")
    total = pd.concat(found).groupby(level=0, sort=False).sum()
    total.index.name = found[0].index.name
    return total.sort_values(ascending=False, kind="stable").rename("count")


def _column_counts(part: pd.DataFrame, columns: list[str]) -> dict[str, pd.Series]:
    return {column: part[column].value_counts() for column in columns}


def column_counts(frame: dd.DataFrame, columns: list[str]) -> dict[str, pd.Series]:
    def run() -> dict[str, pd.Series]:
        parts = per_partition(lambda part: _column_counts(part, columns), frame[columns])
        return {column: _combine([p[column] for p in parts]) for column in columns}

    return remembered(f"column_counts:{','.join(columns)}", frame, run)


def _every(part: pd.Series, start: int, step: int) -> pd.Series:
    return part.iloc[start::step]


def every(series: dd.Series, step: int) -> pd.Series:
    lengths = remembered("lengths", series, lambda: per_partition(len, series))
    picked, offset = [], 0
    for part, length in zip(series.to_delayed(), lengths):
        picked.append(dask.delayed(_every)(part, (-offset) % step, step))
        offset += length
    found = [p for p in dask.compute(*picked) if len(p)]
    return pd.concat(found) if found else series._meta


def _tally(part: pd.Series) -> tuple[int, pd.Series]:
    return len(part), part.value_counts(dropna=True)


def tally(series: dd.Series) -> tuple[int, pd.Series]:
    parts = per_partition(_tally, series)
    return sum(n for n, _ in parts), _combine([c for _, c in parts])


def _mask_of(part: Any, fn: Callable[[Any], np.ndarray]) -> pd.Series:
    return pd.Series(np.asarray(fn(part), dtype=bool), index=part.index)


def mask(data: dd.DataFrame | dd.Series, fn: Callable[[Any], np.ndarray]) -> dd.Series:
    return data.map_partitions(_mask_of, fn, meta=_BOOL)


def select(rows: dd.DataFrame, keep: dd.Series) -> dd.DataFrame:
    return rows[keep].persist()


def _within(values: pd.Series, rows: pd.DataFrame) -> pd.Series:
    return values[values.index.isin(rows.index)]


def within(values: dd.Series, rows: dd.DataFrame) -> dd.Series:
    return dd.map_partitions(_within, values, rows, meta=values._meta, align_dataframes=False)


def _holding(rows: pd.DataFrame, values: pd.Series, keep: pd.Series) -> pd.Series:
    return pd.Series(rows.index.isin(values.index[keep.to_numpy(dtype=bool)]), index=rows.index)


def holding(rows: dd.DataFrame, values: dd.Series, keep: dd.Series) -> dd.Series:
    return dd.map_partitions(_holding, rows, values, keep, meta=_BOOL, align_dataframes=False)


def _labels(part: Any, keep: pd.Series | None = None) -> pd.Index:
    return (part.index if keep is None else part.index[keep.to_numpy(dtype=bool)]).unique()


def labels(data: dd.DataFrame | dd.Series, keep: dd.Series | None) -> pd.Index:
    found = per_partition(_labels, data) if keep is None else per_partition(_labels, data, keep)
    return found[0].append(found[1:]) if found else pd.Index([], dtype="int64")


def take(frame: dd.DataFrame, wanted: pd.Index) -> pd.DataFrame:
    if not len(wanted):
        return frame._meta
    found = frame.loc[sorted(set(wanted.tolist()))].compute()
    return found.loc[[label for label in wanted if label in found.index]]
