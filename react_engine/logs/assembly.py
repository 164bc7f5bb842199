"""Joining a file's parsed pieces into one table: the canonical columns, the format's groups, line numbers, the
entries as written, years rolled over and header lines left out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs import years
from react_engine.logs.arrow import STRING, combined, concat, null_strings, release_memory
from react_engine.logs.formats.headed import METADATA_COLUMN
from react_engine.logs.formats.logformat import Columns
from react_engine.logs.packing import dictionary, encode_names
from react_engine.logs.schema import CANONICAL_COLUMNS, RAW_COLUMN, RAW_HEAD

Starts = np.ndarray | range
"""The line (from 0) where each of a piece's entries starts: a range where each line is an entry."""

_NAMED = ("timestamp", "severity", "level_raw", "host", "component", "pid", "message")


@dataclass
class Piece:
    """Consecutive entries of a file: their columns (`_NAMED`, then the format's groups), their first lines and
    the entries as written: `head` (before each message) when `head + message` is every entry, else `raw`."""

    columns: Columns
    head: pa.Array | pa.ChunkedArray | None
    raw: pa.Array | pa.ChunkedArray | None
    starts: Starts
    truncated: int
    yearless: np.ndarray



def assemble(pieces: list[Piece], message: pa.Array | None, order: list[str], extras: tuple[str, ...] | list[str], *,
             source: str, year: int | None, reference: datetime | None) -> tuple[pa.Table, list[str], int | bool | None]:
    """The file's table from its `pieces` (taken apart as it is built), the notes on what it left out, and the year
    assumed for its yearless dates. `order`: the format's groups, in its order; `message`: the messages when the
    pieces no longer hold them."""
    rows = sum(len(piece.starts) for piece in pieces)
    if message is None:
        message = _column(pieces, "message")
    for piece in pieces:
        piece.columns.pop("message", None)
    data = {name: _column(pieces, name) for name in _NAMED if name != "message"}
    data["timestamp"], year_assumed = _rolled(pieces, data["timestamp"], year=year, reference=reference)
    data["message"] = message
    data["source"] = pa.DictionaryArray.from_arrays(np.zeros(rows, np.int8), pa.array([source], STRING))
    data["line"] = _line_numbers(pieces, rows)
    data.update(_entries(pieces, message))
    data.update(_groups(pieces, order, rows))
    for name in (*CANONICAL_COLUMNS, *extras):
        if data.get(name) is None:
            data[name] = null_strings(rows)
    table = encode_names(pa.table(data))  # the names of the pieces already are; columns no line filled are not
    release_memory()
    table, notes = _without_metadata(table, source)
    return table, notes, year_assumed


def _groups(pieces: list[Piece], order: list[str], rows: int) -> dict[str, pa.Array]:
    """The format's groups (in `order`, then those the pieces added), taken out of the pieces; undeclared groups
    that never matched (e.g. RFC 5424 fields in a BSD syslog file) add nothing."""
    data = {}
    for name in dict.fromkeys(order + [name for piece in pieces for name in piece.columns]):
        values = _column(pieces, name)
        if values is not None and (values.null_count < rows or not rows):
            data[name] = values
    return data


def _chunks(parts: list[pa.Array | pa.ChunkedArray]) -> list[pa.Array]:
    """The arrays of `parts`, a chunked array standing for its chunks."""
    return [chunk for part in parts for chunk in (part.chunks if isinstance(part, pa.ChunkedArray) else [part])]


def _column(pieces: list[Piece], name: str) -> pa.Array | None:
    """One column of every piece (null where a piece lacks it), taken out of the pieces; None where none has it."""
    parts = [piece.columns.pop(name, None) for piece in pieces]
    present = [part for part in parts if part is not None]
    if not present:
        return None
    kind = present[0].type
    chunks = _chunks([part if part is not None else pa.nulls(len(piece.starts), kind)
                      for piece, part in zip(pieces, parts, strict=True)])
    del parts, present
    if pa.types.is_dictionary(kind):  # the pieces' dictionaries joined, in order of appearance
        return dictionary(pa.chunked_array(chunks, kind).unify_dictionaries().combine_chunks())
    return combined(chunks) if kind == STRING else pa.chunked_array(chunks, kind).combine_chunks()


def _entries(pieces: list[Piece], message: pa.Array) -> dict[str, pa.Array]:
    """`raw_head` when every piece is held as head and message, else `raw`."""
    lean = all(piece.head is not None for piece in pieces)
    parts, start = [], 0
    for piece in pieces:
        rows = len(piece.starts)
        if lean:
            parts.append(piece.head)
        else:
            parts.append(piece.raw if piece.raw is not None else concat(piece.head, message.slice(start, rows)))
        piece.head = piece.raw = None  # so that `combined` frees each part once copied
        start += rows
    chunks = _chunks(parts)
    del parts
    return {RAW_HEAD if lean else RAW_COLUMN: combined(chunks)}


def _line_numbers(pieces: list[Piece], rows: int) -> pa.Array:
    """Each entry's line number in the file (from 1), from the pieces' starts."""
    numbers = np.empty(rows, np.int64)
    at = 0
    for piece in pieces:
        starts, count = piece.starts, len(piece.starts)
        numbers[at : at + count] = np.arange(starts.start, starts.stop) if isinstance(starts, range) else starts
        at += count
    numbers += 1
    return pa.array(numbers)


def _rolled(pieces: list[Piece], stamps: pa.Array, *, year: int | None,
            reference: datetime | None) -> tuple[pa.Array, int | bool | None]:
    """The file's times with the years of its yearless dates rolled over (see `years.roll`), and the year assumed."""
    yearless = np.concatenate([piece.yearless for piece in pieces] or [np.zeros(0, np.int8)])
    return years.roll(stamps, yearless, year=year, reference=reference)


def _without_metadata(table: pa.Table, source: str) -> tuple[pa.Table, list[str]]:
    """The rows that are entries, without the header lines a format read as metadata (see `METADATA_COLUMN`)."""
    if METADATA_COLUMN not in table.column_names:
        return table, []
    metadata = pc.fill_null(table[METADATA_COLUMN], False)
    count = pc.sum(metadata).as_py() or 0
    table = table.drop_columns([METADATA_COLUMN])
    if not count:
        return table, []
    return table.filter(pc.invert(metadata)), [f"{source}: {count} header lines (`#...`) read as the file's "
                                                "metadata (the columns' names), not rows"]
