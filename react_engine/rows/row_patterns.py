"""The message templates of log rows: which template each row has, and per template its count and times.

Each message is masked (see `logs.templates.masked`) when a question first needs its template, not at parse: few
questions do, and masking cost a third of a parse's CPU on short messages. The distinct masks of a whole load are
merged into templates once (`catalog`, remembered per loaded frame, with the template of each of its rows; the
masks of a large cached file are stored beside its entry, see `logs.stored.stored_masks`) and
every question maps its rows through that catalog, so a template reads the same in every answer about the same
load. It works alike on a pandas frame and on a Dask frame (per partition on the workers, the small per-template
tables combined here).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.kept import Kept
from react_engine.logs.stored import stored_masks
from react_engine.logs.templates import masked, merge
from react_engine.rows.rowops import Rows, is_lazy

STATS_COLUMNS = ("count", "first", "last", "example")


@dataclass(frozen=True)
class Catalog:
    """A load's templates, the template of each distinct mask, and of each row of the frame it was built from
    (None on a Dask frame)."""

    templates: list[str]
    of_mask: dict[str, int]
    rows: np.ndarray | None = None

    def ids(self, masks: pa.Array, codes: np.ndarray) -> np.ndarray:
        """The template of each row whose mask is `masks[codes]` (-1 where the row has none)."""
        lookup = np.fromiter((self.of_mask.get(m, -1) for m in masks.to_pylist()), np.int64, len(masks))
        return np.where(codes >= 0, lookup[np.maximum(codes, 0)], -1) if len(lookup) else np.full(len(codes), -1)


def _text(messages: pd.Series) -> pa.ChunkedArray:
    """The messages as Arrow strings (null where missing), without a copy when they are held in Arrow."""
    if hasattr(messages.array, "__arrow_array__"):
        values = messages.array.__arrow_array__()
    else:
        values = pa.array(messages.to_numpy(dtype=object), pa.large_string(), from_pandas=True)
    return values if isinstance(values, pa.ChunkedArray) else pa.chunked_array([values])


def _masks(messages: pd.Series) -> tuple[pa.Array, np.ndarray]:
    """The distinct masks of some messages, and the index of each message's among them (-1 where it has none)."""
    encoded = pc.dictionary_encode(masked(_text(messages))).unify_dictionaries()
    if not encoded.num_chunks:
        return pa.array([], pa.string()), np.zeros(0, np.int64)
    indices = [pc.fill_null(chunk.indices, -1).to_numpy() for chunk in encoded.chunks]
    return encoded.chunk(0).dictionary, np.concatenate(indices).astype(np.int64)


def _mask_counts(messages: pd.Series) -> pd.Series:
    """The rows of each distinct mask of some messages."""
    masks, codes = _masks(messages)
    return pd.Series(np.bincount(codes[codes >= 0], minlength=len(masks)), index=masks.to_pylist(), dtype="int64")


_CATALOGS: Kept[Catalog] = Kept(1)  # each live frame's catalog, forgotten with the frame


def catalog(frame: Rows) -> Catalog:
    """The templates of a whole loaded frame, merged once per frame (see `logs.templates.merge`)."""
    if "message" not in frame.columns:
        return Catalog([], {})
    if (kept := _CATALOGS.get((frame,), "catalog")) is not None:
        return kept
    if is_lazy(frame):
        from react_engine.dask.ops import per_partition, remembered

        def built() -> Catalog:
            counts = pd.concat(per_partition(_mask_counts, frame["message"])).groupby(level=0, sort=False).sum()
            return _merged(counts.index.tolist(), counts.tolist())

        found = remembered("catalog", frame, built)
    else:
        masks, codes = stored_masks(frame, _masks)
        listed = masks.to_pylist()
        merged = _merged(listed, np.bincount(codes[codes >= 0], minlength=len(listed)).tolist())
        found = Catalog(merged.templates, merged.of_mask, merged.ids(masks, codes))
    _CATALOGS.put((frame,), "catalog", found)
    return found


def _merged(masks: list[str], counts: list[int]) -> Catalog:
    merged = merge(masks, counts)
    return Catalog(merged.templates, dict(zip(masks, merged.group.tolist(), strict=True)))


def template_ids(rows: pd.DataFrame, found: Catalog) -> np.ndarray:
    """The template of each of `rows` (pandas), -1 where it has none."""
    if "message" not in rows.columns:
        return np.full(len(rows), -1, np.int64)
    if found.rows is not None and _CATALOGS.get((rows,), "catalog") is found:
        return found.rows
    return found.ids(*_masks(rows["message"]))


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

        parts = per_partition(lambda part: _stats(part, found), rows[["message", "timestamp"]])
        joined = pd.concat(parts) if parts else _stats(rows._meta, found)
        stats = joined.groupby(level=0, sort=False).agg(count=("count", "sum"), first=("first", "min"),
                                                        last=("last", "max"), example=("example", "first"))
    else:
        stats = _stats(rows, found)
    text = pd.Series([found.templates[i] for i in stats.index], index=stats.index)
    return stats.assign(template=text).sort_values(["count", "template"], ascending=[False, True], kind="stable")
