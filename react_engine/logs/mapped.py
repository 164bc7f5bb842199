"""Text read through a cache entry's memory map, a chunk at a time.

A cached frame's text columns are slices of the entry's read-only memory map (see `cache`). Every page a pass
touches stays in the process's resident set until the map is closed, so a search over every message, then the
copy of the rows it kept, would each hold the whole entry. `drop_pages` takes the entry's pages out of the
resident set (they stay in the OS page cache: reading them again costs a minor fault, not a disk read), and the
passes here call it after each chunk, so a pass over a cached column holds about one chunk of its pages.
"""

from __future__ import annotations

import mmap
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TypeAlias

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import combined, release_memory

Strings: TypeAlias = pa.Array | pa.ChunkedArray
CHUNK_ROWS = 1 << 16
"""Rows per chunk of a pass over a text column."""
_REGIONS: weakref.WeakSet[mmap.mmap] = weakref.WeakSet()
"""The mappings `map_file` made that are still in use (a mapping lives as long as a buffer taken from it)."""


def map_file(path: Path) -> pa.Buffer:
    """The whole file, memory-mapped read-only; `drop_pages` applies to it while any buffer uses it."""
    with path.open("rb") as handle:
        region = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    _REGIONS.add(region)
    return pa.py_buffer(region)


def drop_pages() -> None:
    """Take the pages of every file `map_file` mapped out of this process's resident set (where the OS supports
    it). The mappings are read-only, so nothing is lost: a page is read again from the page cache when needed."""
    if not hasattr(mmap, "MADV_DONTNEED"):
        return
    for region in list(_REGIONS):
        region.madvise(mmap.MADV_DONTNEED)


def settle() -> None:
    """Between steps: memory freed handed back to the OS (see `release_memory`) and the entries' pages dropped."""
    release_memory(heap=True)
    drop_pages()


def chunked(*columns: Strings) -> Iterator[tuple[Strings, ...]]:
    """Columns of equal length, CHUNK_ROWS rows at a time, the entry's pages dropped after each chunk is used."""
    for start in range(0, len(columns[0]), CHUNK_ROWS):
        yield tuple(column.slice(start, CHUNK_ROWS) for column in columns)
        drop_pages()


def taken(values: Strings, positions: np.ndarray) -> pa.Array:
    """`values` at the ascending `positions`, as one `large_string` array, gathered a chunk at a time."""
    pieces: list[pa.Array] = []
    bounds = np.searchsorted(positions, np.arange(0, len(values) + CHUNK_ROWS, CHUNK_ROWS))
    for index, (chunk,) in enumerate(chunked(values)):
        first, last = bounds[index], bounds[index + 1]
        if last > first:
            piece = pc.take(chunk, positions[first:last] - index * CHUNK_ROWS)
            pieces.extend(piece.chunks if isinstance(piece, pa.ChunkedArray) else [piece])
    if not pieces:
        return pa.array([], values.type)
    return combined(pieces)


def is_arrow_text(series: pd.Series) -> bool:
    """Whether a column holds Arrow-backed strings (which a cached frame maps rather than copies)."""
    return isinstance(series.dtype, pd.StringDtype) and series.dtype.storage == "pyarrow"


def take_values(series: pd.Series, positions: np.ndarray) -> pd.Series:
    """`series.take(positions)` for ascending `positions`, Arrow text gathered a chunk at a time."""
    if not is_arrow_text(series):
        return series.take(positions)
    values = pd.array(taken(pa.array(series.array), positions), dtype=series.dtype)
    return pd.Series(values, index=series.index[positions], name=series.name)


def take_rows(frame: pd.DataFrame, positions: np.ndarray) -> pd.DataFrame:
    """`frame.take(positions)` for ascending `positions`, its Arrow text columns gathered a chunk at a time."""
    text = [name for name in frame.columns if is_arrow_text(frame[name])]
    if not text:
        return frame.take(positions)
    rows = frame.drop(columns=text).take(positions)
    for name in text:
        rows.insert(frame.columns.get_loc(name), name, take_values(frame[name], positions))
    return rows
