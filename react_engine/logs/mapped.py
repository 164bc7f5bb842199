"""Text read through a cache entry's memory map, a chunk at a time.

A cached frame's text columns are slices of the entry's read-only memory map (see `cache`). Every page a pass
touches stays in the process's resident set until the map is closed, so a search over every message, then the
copy of the rows it kept, would each hold the whole entry. `drop_pages` takes the entry's pages out of the
resident set (they stay in the OS page cache: reading them again costs a minor fault, not a disk read), and the
passes here call it after each chunk, so a pass over a cached column holds about one chunk of its pages.
"""

from __future__ import annotations

import bisect
import mmap
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TypeAlias

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING, release_memory

Strings: TypeAlias = pa.Array | pa.ChunkedArray
CHUNK_ROWS = 1 << 16
"""Rows per chunk of a pass over a text column."""
_REGIONS: weakref.WeakKeyDictionary[mmap.mmap, int] = weakref.WeakKeyDictionary()
"""The mappings `map_file` made that are still in use (a mapping lives as long as a buffer taken from it), with
the address each starts at."""


def map_file(path: Path) -> pa.Buffer:
    """The whole file, memory-mapped read-only; `drop_pages` applies to it while any buffer uses it."""
    with path.open("rb") as handle:
        region = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    buffer = pa.py_buffer(region)
    _REGIONS[region] = buffer.address
    return buffer


def drop_pages(*text: Strings) -> None:
    """Take the pages of the files `map_file` mapped out of this process's resident set (where the OS supports
    it): all of them, or with `text` (string arrays) only those holding the arrays' offsets and characters. The
    mappings are read-only, so nothing is lost: a page is read again from the page cache when needed."""
    if not hasattr(mmap, "MADV_DONTNEED"):
        return
    if not text:
        for region in list(_REGIONS):
            region.madvise(mmap.MADV_DONTNEED)
        return
    regions = sorted(((address, region) for region, address in list(_REGIONS.items())), key=lambda item: item[0])
    for index, found in _spans_by_region(regions, text).items():
        address, region = regions[index]
        for start, stop in _merged(found):
            offset = (start - address) // mmap.PAGESIZE * mmap.PAGESIZE
            region.madvise(mmap.MADV_DONTNEED, offset, min(stop - address, len(region)) - offset)


def _spans_by_region(regions: list[tuple[int, mmap.mmap]], text: tuple[Strings, ...]) -> dict[int, list[tuple[int, int]]]:
    """The address spans of the arrays' buffers, by the index of the mapping (of `regions`, in address order)
    that holds them; spans outside every mapping are left out."""
    starts = [address for address, _ in regions]
    spans: dict[int, list[tuple[int, int]]] = {}
    for start, stop in (span for values in text for span in _spans(values)):
        index = bisect.bisect_right(starts, start) - 1
        if index >= 0 and start < starts[index] + len(regions[index][1]) and stop > start:
            spans.setdefault(index, []).append((start, stop))
    return spans


def _merged(spans: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The spans in order, those that overlap or lie within a page of each other joined."""
    spans.sort()
    start, stop = spans[0]
    for next_start, next_stop in spans[1:]:
        if next_start > stop + mmap.PAGESIZE:
            yield start, stop
            start = next_start
        stop = max(stop, next_stop)
    yield start, stop


def _spans(values: Strings) -> Iterator[tuple[int, int]]:
    """The address ranges of a `large_string` array's offsets and characters (chunk by chunk)."""
    for chunk in values.chunks if isinstance(values, pa.ChunkedArray) else [values]:
        if chunk.type != STRING or not len(chunk):
            continue
        _, offsets, data = chunk.buffers()
        ends = np.frombuffer(offsets, np.int64)[chunk.offset : chunk.offset + len(chunk) + 1]
        yield offsets.address + 8 * chunk.offset, offsets.address + 8 * (chunk.offset + len(chunk) + 1)
        if data is not None:
            yield data.address + int(ends[0]), data.address + int(ends[-1])


def settle() -> None:
    """Between steps: memory freed handed back to the OS (see `release_memory`) and the entries' pages dropped."""
    release_memory(heap=True)
    drop_pages()


def _taken(values: Strings, positions: np.ndarray) -> pa.ChunkedArray:
    """`values` (`large_string`) at the ascending `positions`, gathered a chunk at a time, each chunk's pages dropped
    once its rows are taken; the pieces are not copied again into one array."""
    bounds = np.searchsorted(positions, np.arange(0, len(values) + CHUNK_ROWS, CHUNK_ROWS))

    def piece(index: int) -> list[pa.Array]:
        first, last = bounds[index], bounds[index + 1]
        if last == first:
            return []
        chunk = values.slice(index * CHUNK_ROWS, CHUNK_ROWS)
        taken = pc.take(chunk, positions[first:last] - index * CHUNK_ROWS)
        drop_pages(chunk)
        return taken.chunks if isinstance(taken, pa.ChunkedArray) else [taken]

    return pa.chunked_array([p for index in range(len(bounds) - 1) for p in piece(index)], values.type)


def _is_arrow_text(dtype: object) -> bool:
    """Whether a column holds Arrow-backed strings (which a cached frame maps rather than copies)."""
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def take_values(series: pd.Series, positions: np.ndarray) -> pd.Series:
    """`series.take(positions)` for ascending `positions`, Arrow text gathered a chunk at a time."""
    if not _is_arrow_text(series.dtype):
        return series.take(positions)
    values = pd.array(_taken(pa.array(series.array), positions), dtype=series.dtype)
    return pd.Series(values, index=series.index[positions], name=series.name)


def take_rows(frame: pd.DataFrame, positions: np.ndarray) -> pd.DataFrame:
    """`frame.take(positions)` for ascending `positions`, its Arrow text columns gathered a chunk at a time."""
    text = [name for name, dtype in frame.dtypes.items() if _is_arrow_text(dtype)]
    if not text or not frame.columns.is_unique:
        return frame.take(positions)
    rows = frame.drop(columns=text).take(positions)
    for name in text:
        rows.insert(frame.columns.get_loc(name), name, take_values(frame[name], positions))
    return rows
