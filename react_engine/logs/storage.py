"""The compact on-disk form of a parsed table: repetitive columns dictionary-encoded, buffers zstd-compressed.

`unpack(read(pack(table)))` gives back the same columns with the same types, so a cached load and a
fresh parse give identical frames.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

COMPRESSION = "zstd"
DICTIONARY_GAIN = 0.5
"""A string column is stored dictionary-encoded when that takes at most this share of its plain size."""


def _encoded(column: pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """The column dictionary-encoded when that pays (one dictionary for the whole column), else as it is."""
    if not pa.types.is_large_string(column.type) or not column.nbytes:
        return column
    encoded = pc.dictionary_encode(column.combine_chunks())
    return encoded if encoded.nbytes <= DICTIONARY_GAIN * column.nbytes else column


def pack(table: pa.Table) -> pa.Buffer:
    """`table` as one Arrow IPC file in memory (schema metadata kept)."""
    columns = [_encoded(column) for column in table.columns]
    packed = pa.table(columns, names=table.column_names, metadata=table.schema.metadata)
    sink = pa.BufferOutputStream()
    options = pa.ipc.IpcWriteOptions(compression=COMPRESSION)
    with pa.ipc.new_file(sink, packed.schema, options=options) as writer:
        writer.write_table(packed)
    return sink.getvalue()


def unpack(table: pa.Table) -> pa.Table:
    """A table read from `pack`'s output with its dictionary columns decoded back to plain strings."""
    columns = [
        column.cast(column.type.value_type) if pa.types.is_dictionary(column.type) else column
        for column in table.columns
    ]
    return pa.table(columns, names=table.column_names, metadata=table.schema.metadata)
