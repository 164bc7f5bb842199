"""The message templates of log rows: which template each row has, and per template its count and times.

The parse masks each message into the `pattern` column (see `logs.templates.masked`); here the distinct masks of
a whole load are merged into templates once (`catalog`, remembered per loaded frame) and every question maps its
rows through that catalog, so a template reads the same in every answer about the same load. It works alike on
a pandas frame and on a Dask frame (per partition on the workers, the small per-template tables combined here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from react_engine.logs.schema import PATTERN_COLUMN
from react_engine.logs.templates import merge
from react_engine.rows.rowops import Rows, is_lazy, tally

STATS_COLUMNS = ("count", "first", "last", "example")


@dataclass(frozen=True)
class Catalog:
    """A load's templates, and the template of each distinct mask."""

    templates: list[str]
    of_mask: dict[str, int]

    def ids(self, masks: pd.Series) -> np.ndarray:
        """The template of each mask (-1 where the row has none)."""
        if isinstance(masks.dtype, pd.CategoricalDtype):
            lookup = np.fromiter((self.of_mask.get(c, -1) for c in masks.cat.categories), np.int64,
                                 len(masks.cat.categories))
            codes = masks.cat.codes.to_numpy()
            return np.where(codes >= 0, lookup[np.maximum(codes, 0)], -1) if len(lookup) else np.full(len(codes), -1)
        return masks.map(self.of_mask).fillna(-1).to_numpy(dtype=np.int64)


_catalogs: dict[int, tuple[Any, Catalog]] = {}
_KEPT = 8


def catalog(frame: Rows) -> Catalog:
    """The templates of a whole loaded frame, merged once per frame (see `logs.templates.merge`)."""
    if PATTERN_COLUMN not in frame.columns:
        return Catalog([], {})
    key = id(frame)
    if key in _catalogs and _catalogs[key][0] is frame:
        return _catalogs[key][1]
    if is_lazy(frame):
        from react_engine.dask.ops import remembered

        found = remembered("catalog", frame, lambda: _built(frame))
    else:
        found = _built(frame)
    if len(_catalogs) >= _KEPT:
        _catalogs.clear()
    _catalogs[key] = (frame, found)
    return found


def _built(frame: Rows) -> Catalog:
    counts = tally(frame[PATTERN_COLUMN])[1]
    masks = [str(m) for m in counts.index]
    merged = merge(masks, counts.to_numpy().tolist())
    return Catalog(merged.templates, dict(zip(masks, merged.group.tolist(), strict=True)))


def template_ids(rows: pd.DataFrame, found: Catalog) -> np.ndarray:
    """The template of each of `rows` (pandas), -1 where it has none."""
    if PATTERN_COLUMN not in rows.columns:
        return np.full(len(rows), -1, np.int64)
    return found.ids(rows[PATTERN_COLUMN])


def _stats(part: pd.DataFrame, found: Catalog) -> pd.DataFrame:
    ids = template_ids(part, found)
    table = pd.DataFrame({"id": ids, "time": part["timestamp"].array, "label": part.index.to_numpy()})
    table = table[table["id"] >= 0]
    return table.groupby("id", sort=False).agg(count=("label", "size"), first=("time", "min"),
                                               last=("time", "max"), example=("label", "first"))


def template_stats(rows: Rows, found: Catalog) -> pd.DataFrame:
    """Per template of `rows` (indexed by template id): count, first and last time, the first row's label;
    largest first, ties by template text."""
    if is_lazy(rows):
        from react_engine.dask.ops import per_partition

        parts = per_partition(lambda part: _stats(part, found), rows[[PATTERN_COLUMN, "timestamp"]])
        joined = pd.concat(parts) if parts else _stats(rows._meta, found)
        stats = joined.groupby(level=0, sort=False).agg(count=("count", "sum"), first=("first", "min"),
                                                        last=("last", "max"), example=("example", "first"))
    else:
        stats = _stats(rows, found)
    text = pd.Series([found.templates[i] for i in stats.index], index=stats.index)
    return stats.assign(template=text).sort_values(["count", "template"], ascending=[False, True], kind="stable")
