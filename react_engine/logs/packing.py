"""How a parsed table is laid out in a cache entry, so that an entry is small and reads back without decoding.

`pack` stores `message`, where it is the tail of `raw` on every row (single-line formats), as the number of
bytes each row's message skips; string columns whose values repeat as dictionaries; other strings with
32-bit offsets; and line numbers in 32 bits where they fit. `unpack` restores the exact table `pack` was given.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING, VIEW_LIMIT, fits_views, tails
from react_engine.logs.schema import RAW_COLUMN

SKIP_TYPE = pa.int32()
"""`message` stored as offsets into `raw`."""
_INDEX_TYPES = (pa.int8(), pa.int16(), pa.int32())
CHECK_ROWS = 100_000
PACK_MIN_ROWS = 1000
"""Smaller tables are stored as they are: packing them saves little and costs more than reading them."""
LINE_COLUMN = "line"


def _array(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    if isinstance(column, pa.Array):
        return column
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _skips(message: pa.Array, raw: pa.Array) -> pa.Array | None:
    """The bytes each message skips of its row's `raw`, when every message is the tail of its raw entry."""
    if message.null_count or raw.null_count or not fits_views(raw):
        return None
    skip = pc.subtract(pc.binary_length(raw), pc.binary_length(message)).to_numpy(zero_copy_only=False)
    if len(skip) and skip.min() < 0:
        return None
    skip = skip.astype(np.int64)
    for start in range(0, len(raw), CHECK_ROWS):  # in slices, so that the check needs little memory
        rows = slice(start, start + CHECK_ROWS)
        same = pc.equal(tails(raw.slice(start, CHECK_ROWS), skip[rows]), message.slice(start, CHECK_ROWS))
        if not pc.all(same).as_py():
            return None
    return pa.array(skip.astype(np.int32), SKIP_TYPE)


def _dictionary(values: pa.Array) -> pa.Array:
    """`values` dictionary-encoded with the narrowest index type, when that is smaller; else with 32-bit offsets."""
    encoded = pc.dictionary_encode(values)
    size = len(encoded.dictionary)
    index = next(t for t in _INDEX_TYPES if size <= np.iinfo(t.to_pandas_dtype()).max + 1)
    encoded = encoded.cast(pa.dictionary(index, values.type))
    if encoded.nbytes < values.nbytes:
        return encoded
    return _narrow(values)


def _narrow(values: pa.Array) -> pa.Array:
    data = values.buffers()[2]
    return values.cast(pa.string()) if data is None or data.size < VIEW_LIMIT else values


def _fits_int32(values: pa.Array) -> bool:
    bounds = pc.min_max(values).as_py()
    return bounds["min"] is None or (bounds["min"] >= -(2**31) and bounds["max"] < 2**31)


def pack(table: pa.Table) -> pa.Table:
    """`table` as stored in a cache entry (see the module docstring)."""
    if table.num_rows < PACK_MIN_ROWS:
        return table
    raw = _array(table[RAW_COLUMN]) if RAW_COLUMN in table.column_names else None
    columns: dict[str, pa.Array] = {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        values = _array(column)
        skips = _skips(values, raw) if name == "message" and raw is not None else None
        if skips is not None:
            columns[name] = skips
        elif name == LINE_COLUMN and values.type == pa.int64() and _fits_int32(values):
            columns[name] = values.cast(pa.int32())
        elif values.type == STRING:
            columns[name] = _narrow(values) if name in ("message", RAW_COLUMN) else _dictionary(values)
        else:
            columns[name] = values
    return pa.table(columns, metadata=table.schema.metadata)


def unpack(table: pa.Table) -> pa.Table:
    """The table `pack` was given."""
    columns: dict[str, pa.Array] = {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        values = _array(column)
        stored = pa.types.is_string(values.type) or pa.types.is_dictionary(values.type)
        columns[name] = values.cast(STRING) if stored else values
    if LINE_COLUMN in columns and columns[LINE_COLUMN].type == pa.int32():
        columns[LINE_COLUMN] = columns[LINE_COLUMN].cast(pa.int64())
    if "message" in columns and columns["message"].type == SKIP_TYPE:
        skip = columns["message"].to_numpy(zero_copy_only=False).astype(np.int64)
        lengths = pc.binary_length(columns[RAW_COLUMN]).to_numpy(zero_copy_only=False)
        if columns["message"].null_count or (skip < 0).any() or (skip > lengths).any():
            raise ValueError("message offsets outside their raw entries")
        columns["message"] = tails(columns[RAW_COLUMN], skip)
    return pa.table(columns, metadata=table.schema.metadata)
