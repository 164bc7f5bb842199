"""Split decoded bytes into an Arrow array of lines, without a per-line Python loop."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Lines:
    """The lines of one input (terminators removed) and how many undecodable bytes were replaced."""

    text: pa.LargeStringArray
    replaced: int


def _as_text(data: bytes) -> tuple[bytes, int]:
    """UTF-8 bytes with undecodable sequences replaced by U+FFFD, and the count of replacements."""
    try:
        _lines_array(data).validate(full=True)
        return data, 0
    except pa.ArrowInvalid:
        text = data.decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode())
        return text.encode("utf-8"), replaced


def _lines_array(data: bytes, length: int | None = None) -> pa.LargeStringArray:
    """A one-element string array viewing `data[:length]` without copying it."""
    size = len(data) if length is None else length
    offsets = pa.array([0, size], pa.int64()).buffers()[1]
    return pa.Array.from_buffers(pa.large_string(), 1, [None, offsets, pa.py_buffer(data)])


def split(data: bytes) -> Lines:
    """Lines of `data`: LF or CRLF terminated (a bare CR ends lines only when the file has no LF)."""
    data, replaced = _as_text(data)
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n") if b"\n" in data else data.replace(b"\r", b"\n")
    if not data:
        return Lines(pa.array([], pa.large_string()), replaced)
    length = len(data) - 1 if data.endswith(b"\n") else len(data)
    parts = pc.split_pattern(_lines_array(data, length), "\n").flatten()
    return Lines(parts, replaced)
