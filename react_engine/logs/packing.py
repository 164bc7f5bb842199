"""How a parsed table is laid out in a cache entry, so that an entry is small and reads back without decoding.

`pack` stores string columns whose values repeat as dictionaries, the text columns (`message`, `raw_head`,
`raw`) with 32-bit offsets, and line numbers in 32 bits where they fit. A table that holds each entry as
`raw_head + message` (see `parse_lines`) keeps the log's text once, so an entry is about the log's size and
its text is read back through the memory map without a copy. `unpack` restores the exact table `pack` was given.

The name columns (`CATEGORICAL_COLUMNS`: severity, host, source...) are held as dictionaries from the parse on
(`encode_names`), in the cache and in memory alike, so they become pandas categoricals without being decoded.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING, VIEW_LIMIT
from react_engine.logs.schema import ENCODED_COLUMNS, RAW_COLUMN, RAW_HEAD

_INDEX_TYPES = (pa.int8(), pa.int16(), pa.int32())
_TEXT_COLUMNS = ("message", RAW_HEAD, RAW_COLUMN)
PACK_MIN_ROWS = 1000
"""Smaller tables are stored as they are: packing them saves little and costs more than reading them."""
LINE_COLUMN = "line"


def _array(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    if isinstance(column, pa.Array):
        return column
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def dictionary(values: pa.Array) -> pa.Array:
    """`values` dictionary-encoded (when not already) with the narrowest index type."""
    encoded = values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)
    size = len(encoded.dictionary)
    index = next(t for t in _INDEX_TYPES if size <= np.iinfo(t.to_pandas_dtype()).max + 1)
    return encoded.cast(pa.dictionary(index, encoded.type.value_type))


def _dictionary(values: pa.Array) -> pa.Array:
    """`values` dictionary-encoded, when that is smaller; else with 32-bit offsets."""
    encoded = dictionary(values)
    if encoded.nbytes < values.nbytes:
        return encoded
    return _narrow(values)


def decoded(values: pa.Array) -> pa.Array:
    """A dictionary array's values as `large_string` (other arrays are returned as they are)."""
    if not pa.types.is_dictionary(values.type):
        return values
    return pc.take(values.dictionary.cast(STRING), values.indices)  # a take decodes faster than a cast


def encode_names(table: pa.Table) -> pa.Table:
    """`table` with its string name columns (see `ENCODED_COLUMNS`) dictionary-encoded."""
    return _names(table, lambda kind: kind == STRING, dictionary)


def decode_names(table: pa.Table) -> pa.Table:
    """`table` with its name columns as `large_string` (the inverse of `encode_names`)."""
    return _names(table, pa.types.is_dictionary, decoded)


def _names(table: pa.Table, wanted: Callable[[pa.DataType], bool], convert: Callable[[pa.Array], pa.Array]
           ) -> pa.Table:
    """`table` with `convert` applied to each name column whose type is `wanted` (the others left as they are)."""
    for name in ENCODED_COLUMNS:
        index = table.schema.get_field_index(name)
        if index >= 0 and wanted(table.schema.field(index).type):
            table = table.set_column(index, name, convert(_array(table.column(index))))
    return table


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
    columns: dict[str, pa.Array] = {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        values = _array(column)
        if name == LINE_COLUMN and values.type == pa.int64() and _fits_int32(values):
            columns[name] = values.cast(pa.int32())
        elif values.type == STRING:
            columns[name] = _narrow(values) if name in _TEXT_COLUMNS else _dictionary(values)
        else:
            columns[name] = values
    return pa.table(columns, metadata=table.schema.metadata)


def unpack(table: pa.Table) -> pa.Table:
    """The table `pack` was given, `encode_names` applied (a name column stays a dictionary)."""
    columns: dict[str, pa.Array] = {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        values = _array(column) if name in ENCODED_COLUMNS else decoded(_array(column))
        columns[name] = values.cast(STRING) if pa.types.is_string(values.type) else values
    if LINE_COLUMN in columns and columns[LINE_COLUMN].type == pa.int32():
        columns[LINE_COLUMN] = columns[LINE_COLUMN].cast(pa.int64())
    return encode_names(pa.table(columns, metadata=table.schema.metadata))
