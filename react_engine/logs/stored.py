"""A numeric field's values over a large cached file, stored beside the file's cache entry.

A field of the messages is read from them (`fields.read`: 0.3 to 0.7 CPU s per million lines) when a statistic
asks for it. Over a file of at least STORE_ROWS rows whose parse is cached, values are stored beside the entry (8
bytes a row, ending in a keyed digest of them and their name under the cache folder's secret, `cache_key`, so that
values written by anyone without it, or stored for another entry or field, are never read: a CRC would let anyone
who can write the folder make a statistic read values of their choosing), by the first statistic of the field over
half the file's rows or more, which reads all of them once. Nothing is read at parse: reading the four fields most
messages carry cost 1 to 2 CPU s on 500k OpenStack lines (against 2 to 3 s for the parse), for one field a question
then asked. A later statistic of a stored field on that file, over any of its rows, in this process or another, reads them
back. The masks of a file's messages (their templates, see `rows.row_patterns`) are stored alike, by the first
question that needs them over the whole file, as an Arrow dictionary of the masks with each row's index. Values are
named for the entry's version (see `cache.entry_id`) and the field's patterns, so a changed
file, a new parser or another field never reads them; `cache.put` and `cache.evict` delete them with their entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import tempfile
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.fields import NumericField, read
from react_engine.logs.frame_cache import (
    TAG_BYTES,
    TEMP_SUFFIX,
    VALUES_SUFFIX,
    cache_dir,
    cache_key,
    keyed_tag,
    temp_prefix,
    touch,
)

STORE_ROWS = 200_000
MASKS_NAME = "masks"
Masks = tuple[pa.Array, np.ndarray]
T = TypeVar("T")
"""The distinct masks of some messages (see `templates.masked`), and each message's index among them."""
_loaded: dict[int, weakref.ref[pd.DataFrame]] = {}  # the frames `as_loaded` marked, by id


@dataclass(frozen=True)
class _Span:
    """One cached file's rows in a loaded frame: frame rows `start` to `stop`, and its entry's id."""

    entry: str
    start: int
    stop: int


def as_loaded(frame: pd.DataFrame) -> pd.DataFrame:
    """Mark `frame` as `load` returns it (its rows those of its files, in order), so `field_values` may use the
    values stored for them; a frame derived from it (sorted, filtered) is not marked."""
    key = id(frame)
    _loaded[key] = weakref.ref(frame, lambda _: _loaded.pop(key, None))
    return frame


def field_values(frame: pd.DataFrame, rows: pd.DataFrame, field: NumericField) -> pd.Series:
    """`read(rows["message"], field)`, the same values, taken from the store for the rows of a large cached file
    (`rows` are a subset of `frame`, with the same index labels; the store is used when `frame` is `as_loaded`)."""
    spans = [s for s in _spans(frame) if s.stop - s.start >= STORE_ROWS]
    if not spans:
        return read(rows["message"], field)
    if rows.index.equals(frame.index) and len(spans) == 1 and spans[0].stop - spans[0].start == len(frame):
        values = _whole(frame, spans[0], field, len(frame))  # every row of one file: no positions to look up
        assert values is not None  # read and stored when not stored yet
        return pd.Series(values, index=rows.index, name=field.name)
    out, left = _looked_up(frame, rows, spans, field)
    if left.all():
        return read(rows["message"], field)
    if left.any():
        out[left] = read(rows["message"][left], field).to_numpy()
    return pd.Series(out, index=rows.index, name=field.name)


def _looked_up(frame: pd.DataFrame, rows: pd.DataFrame, spans: list[_Span],
               field: NumericField) -> tuple[np.ndarray, np.ndarray]:
    """The field's stored values at the rows, and the mask of the rows no stored values answer."""
    labels = rows.index.to_numpy()
    out = np.full(len(rows), np.nan)
    left = np.ones(len(rows), dtype=bool)
    for span in spans:
        at = np.flatnonzero((labels >= span.start) & (labels < span.stop))
        values = _whole(frame, span, field, len(at)) if len(at) else None
        if values is not None:
            out[at] = values[labels[at] - span.start]
            left[at] = False
    return out, left


def _spans(frame: pd.DataFrame) -> list[_Span]:
    """The frame's cached files and their rows; none unless the frame is `as_loaded`."""
    files = frame.attrs.get("files") or []
    if not _as_loaded(frame, files):
        return []
    spans, start = [], 0
    for info in files:
        stop = start + int(info.get("rows", 0))
        if info.get("entry"):
            spans.append(_Span(str(info["entry"]), start, stop))
        start = stop
    return spans


def _as_loaded(frame: pd.DataFrame, files: list[dict[str, Any]]) -> bool:
    """Whether the frame is marked `as_loaded` and its rows are still its files' rows, numbered from 0."""
    marked, rows, index = _loaded.get(id(frame)), len(frame), frame.index
    return (marked is not None and marked() is frame and sum(int(f.get("rows", 0)) for f in files) == rows
            and isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1)


def _whole(frame: pd.DataFrame, span: _Span, field: NumericField, asked: int) -> np.ndarray | None:
    """The field over all of the span's rows: stored, else read and stored when `asked` rows are half of them or
    more; None otherwise."""
    path = values_path(span.entry, field)
    values = _load(path, span.stop - span.start)
    if values is None and asked * 2 >= span.stop - span.start:
        values = read(frame["message"].iloc[span.start : span.stop], field).to_numpy()
        _save(path, values)
    return values


def values_path(entry: str, field: NumericField) -> Path:
    """Where the values of `field` over the file cached as `entry` are stored."""
    digest = hashlib.sha256(json.dumps(field.patterns).encode()).hexdigest()[:16]
    return cache_dir() / f"{entry}.{digest}{VALUES_SUFFIX}"


def stored_beside(frame: pd.DataFrame, name: str, compute: Callable[[], T], encode: Callable[[T], bytes],
                  decode: Callable[[memoryview], T | None], least: int = 0) -> T:
    """`compute()`, read back (by `decode`, None for a body it cannot read) from the file `name` beside the entry of
    the cached file that is all of the `as_loaded` `frame`, of `least` rows or more, and stored there (by `encode`)
    when first computed; computed each time for any other frame (one of several files, or of too few rows)."""
    spans = _spans(frame)
    if len(spans) != 1 or (spans[0].start, spans[0].stop) != (0, len(frame)) or len(frame) < least:
        return compute()
    path = cache_dir() / f"{spans[0].entry}.{name}{VALUES_SUFFIX}"
    body = _read(path, lambda _: True)
    if body is not None and (found := decode(body)) is not None:
        return found
    found = compute()
    _write(path, encode(found))
    return found


def stored_masks(frame: pd.DataFrame, compute: Callable[[pd.Series], Masks]) -> Masks:
    """`compute(frame["message"])`: the distinct templates' masks of the messages and each row's index among them
    (-1 where none), read back from beside the entry of a large cached file that is all of the `as_loaded` frame,
    and stored there when first computed (masking a million messages costs 0.3 to 0.8 CPU s)."""

    def decode(body: memoryview) -> Masks | None:
        with contextlib.suppress(pa.ArrowException):
            column = pa.ipc.open_stream(pa.py_buffer(body)).read_all().column(0).combine_chunks()
            if len(column) == len(frame):
                return column.dictionary, pc.fill_null(column.indices, -1).to_numpy().astype(np.int64)
        return None

    return stored_beside(frame, MASKS_NAME, lambda: compute(frame["message"]), _encoded_masks, decode, STORE_ROWS)


def _encoded_masks(found: Masks) -> bytes:
    """The masks and each row's index among them, as one dictionary column in an Arrow stream."""
    masks, codes = found
    encoded = pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32), mask=codes < 0), masks)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, pa.schema([("mask", encoded.type)])) as writer:
        writer.write_table(pa.table({"mask": encoded}))
    return bytes(sink.getvalue().to_pybytes())


def _read(path: Path, fits: Callable[[memoryview], bool]) -> memoryview | None:
    """What is stored at `path`, or None (with the file deleted when it is damaged, does not fit or was not stored
    under this cache's key; None without a key)."""
    key = cache_key()
    try:
        data = path.read_bytes() if key is not None else None
    except OSError:
        return None
    if key is None or data is None:
        return None
    body = memoryview(data)[:-TAG_BYTES]  # not a copy
    if not fits(body) or not hmac.compare_digest(keyed_tag(key, path.name, body), data[-TAG_BYTES:]):
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
        return None
    with contextlib.suppress(OSError):
        touch(path)
    return body


def _load(path: Path, rows: int) -> np.ndarray | None:
    """The stored values of `rows` rows, or None (see `_read`)."""
    body = _read(path, lambda data: len(data) == rows * 8)
    return None if body is None else np.frombuffer(body, dtype="<f8")


def _save(path: Path, values: np.ndarray) -> None:
    _write(path, np.ascontiguousarray(values, dtype="<f8").tobytes())


def _write(path: Path, body: bytes) -> None:
    """Store `body` in place of what is stored at `path` (errors are not raised: the store only saves time; nothing
    is stored without a key)."""
    key = cache_key()
    if key is None:
        return
    tmp: Path | None = None
    try:
        descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=temp_prefix(), suffix=TEMP_SUFFIX)
        tmp = Path(name)
        with os.fdopen(descriptor, "wb") as sink:
            sink.write(body)
            sink.write(keyed_tag(key, path.name, body))
        os.replace(tmp, path)
        touch(path)
    except OSError:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
