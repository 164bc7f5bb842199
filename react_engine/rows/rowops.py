"""Operations on log rows that work alike on a pandas frame and on a Dask frame held by a cluster.

Tools and the run state are written against pandas. Where they need every row at once (a reduction, a mask from
a function of the rows, a subset, a few rows to show), they go through these functions: on pandas they are the
plain operation; on Dask the function runs on each partition on the workers and only what is asked for is
computed and brought back.

A lean frame holds its name columns as categoricals (see `to_frame`), whose categories outlive a row filter.
The counts and distinct values here see only the values in the rows at hand, ranked and ordered as for a `str`
column, so no answer depends on how a column is held.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from react_engine.logs.mapped import take_rows, take_values
from react_engine.rows.subsets import kept_subset

Rows = Any  # a pandas or Dask DataFrame of log rows
Data = Any  # a pandas or Dask DataFrame or Series
Mask = Any  # a boolean numpy array, or a Dask boolean Series aligned with the rows


def is_lazy(obj: Any) -> bool:
    """True for a Dask collection (a frame or series held on the cluster)."""
    return type(obj).__module__.startswith("dask.")


def value(result: Any) -> Any:
    """A reduction's result, computed when it is lazy."""
    if is_lazy(result):
        from react_engine.dask import ops

        return ops.compute(result)
    return result


def values(*results: Any) -> tuple[Any, ...]:
    """Several reductions' results, computed together in one pass when lazy."""
    if any(is_lazy(r) for r in results):
        import dask

        return tuple(dask.compute(*results))
    return results


def mask(data: Data, fn: Callable[[Any], np.ndarray]) -> Mask:
    """`fn` (pandas rows or values -> boolean array) over `data`: run per partition when `data` is lazy."""
    if is_lazy(data):
        from react_engine.dask import ops

        return ops.mask(data, fn)
    return np.asarray(fn(data), dtype=bool)


def select(rows: Rows, keep: Mask) -> Rows:
    """The rows where `keep` holds (kept on the cluster when lazy; else the same subset as the last times `keep`
    was asked of these rows, see `subsets`)."""
    if is_lazy(rows):
        from react_engine.dask import ops

        return ops.select(rows, keep)
    keep = np.asarray(keep, dtype=bool)
    return rows if keep.all() else kept_subset(rows, keep, lambda positions: take_rows(rows, positions))


def partitionwise(fn: Callable[..., Any], data: Data, *args: Any, meta: Any) -> Any:
    """`fn(data, *args)` for a function that treats each row on its own (so it may run per partition);
    `meta` is an empty example of its result."""
    if is_lazy(data):
        return data.map_partitions(fn, *args, meta=meta)
    return fn(data, *args)


def within(values: Data, rows: Rows) -> Data:
    """`values` (labelled by frame row) whose row is one of `rows`."""
    if is_lazy(values):
        from react_engine.dask import ops

        return ops.within(values, rows)
    return values[values.index.isin(rows.index)]


def holding(rows: Rows, values: Data, keep: Mask) -> Mask:
    """Mask of `rows` that hold one of the `values` where `keep` holds."""
    if is_lazy(rows):
        from react_engine.dask import ops

        return ops.holding(rows, values, keep)
    return rows.index.isin(values.index[keep])


def count(rows: Data) -> int:
    """The number of rows (of a lazy frame: counted once, then remembered)."""
    if is_lazy(rows):
        from react_engine.dask import ops

        return ops.count(rows)
    return len(rows)


def tally(series: Data) -> tuple[int, pd.Series]:
    """`(number of values, count per distinct non-missing value, most frequent first)` in one pass."""
    if is_lazy(series):
        from react_engine.dask import ops

        return ops.tally(series)
    return len(series), _counts(series)


def _counts(series: pd.Series) -> pd.Series:
    """`series.value_counts()`: most frequent first, ties in order of appearance (of a categorical: the values
    present only, indexed by value)."""
    if not isinstance(series.dtype, pd.CategoricalDtype):
        return series.value_counts(dropna=True)
    codes, seen = category_codes(series)
    counts = np.bincount(codes[codes >= 0], minlength=len(series.cat.categories))[seen]
    index = series.cat.categories.take(seen).rename(series.name)
    return pd.Series(counts, index=index, name="count").sort_values(ascending=False, kind="stable")


def category_codes(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """A categorical's codes (-1 where missing) and the codes of the values present, in order of appearance."""
    codes = series.cat.codes.to_numpy()
    return codes, pd.unique(codes[codes >= 0])


def column_counts(frame: Rows, columns: list[str]) -> dict[str, pd.Series]:
    """`value_counts` of several columns (most frequent first), in one pass when lazy."""
    if is_lazy(frame):
        from react_engine.dask import ops

        return ops.column_counts(frame, columns)
    return {column: _counts(frame[column]) for column in columns}


def every(series: Data, step: int) -> pd.Series:
    """Every `step`-th value, from the first (by position over all rows)."""
    if is_lazy(series):
        from react_engine.dask import ops

        return ops.every(series, step)
    return take_values(series, np.arange(0, len(series), step))


def distinct(series: Data) -> list[str]:
    """The distinct values, as text, in order of appearance."""
    if is_lazy(series):
        from react_engine.dask import ops

        return ops.distinct(series)
    return [str(v) for v in series.dropna().unique()]


def value_counts(series: Data) -> pd.Series:
    """Count per distinct non-missing value, most frequent first."""
    return tally(series)[1]


def labels(data: Data, keep: Mask | None = None) -> pd.Index:
    """The distinct row labels of `data` (where `keep` holds), in order."""
    if is_lazy(data):
        from react_engine.dask import ops

        return ops.labels(data, keep)
    index = data.index if keep is None else data.index[np.asarray(keep, dtype=bool)]
    return index.unique()


def head(rows: Rows, n: int) -> pd.DataFrame:
    """The first `n` rows."""
    return rows.head(n, npartitions=-1, compute=True) if is_lazy(rows) else rows.head(n)


def take(frame: Rows, wanted: pd.Index) -> pd.DataFrame:
    """The rows of `frame` labelled `wanted`, in that order (unknown labels are left out)."""
    if is_lazy(frame):
        from react_engine.dask import ops

        return ops.take(frame, wanted)
    positions = frame.index.get_indexer(pd.Index(wanted))
    return frame.take(positions[positions >= 0])


def chunks(rows: Rows) -> Iterator[pd.DataFrame]:
    """The rows as pandas frames, in order: one partition at a time when lazy."""
    if is_lazy(rows):
        for part in rows.to_delayed():
            yield part.compute()
    else:
        yield rows


def attrs(frame: Rows) -> dict[str, Any]:
    """The loader's notes on the frame (`warnings`, `files`)."""
    return frame._meta.attrs if is_lazy(frame) else frame.attrs
