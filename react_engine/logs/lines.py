"""Split decoded bytes into an Arrow array of lines, without a per-line Python loop."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from react_engine.logs.arrow import STRING, slices

REPLACEMENT = "\ufffd"
LF, CR = 10, 13


@dataclass(frozen=True)
class Lines:
    """The lines of one input (terminators removed) and how many undecodable bytes were replaced."""

    text: pa.Array
    replaced: int


def _as_text(data: bytes) -> tuple[bytes, int]:
    """UTF-8 bytes with undecodable sequences replaced by U+FFFD, and the count of replacements."""
    offsets = pa.array([0, len(data)], pa.int64()).buffers()[1]
    try:
        pa.Array.from_buffers(STRING, 1, [None, offsets, pa.py_buffer(data)]).validate(full=True)
        return data, 0
    except pa.ArrowInvalid:
        text = data.decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode())
        return text.encode("utf-8"), replaced


def _bounds(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """Start and length of each line; LF or CRLF end lines (a bare CR does only when there is no LF)."""
    separator = CR if b"\n" not in data and b"\r" in data else LF
    raw = np.frombuffer(data, np.uint8)
    block = 1 << 24  # search in blocks: a whole-file boolean mask would cost as much memory as the file
    ends = np.concatenate([np.flatnonzero(raw[i : i + block] == separator) + i for i in range(0, len(raw), block)])
    if raw[-1] != separator:
        ends = np.append(ends, len(raw))
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    if separator == LF and b"\r" in data:
        ends -= (ends > starts) & (raw[np.maximum(ends - 1, 0)] == CR)
    return starts, ends - starts


def split(data: bytes) -> Lines:
    """Lines of `data`; a final line terminator does not start an extra empty line."""
    data, replaced = _as_text(data)
    if not data:
        return Lines(pa.array([], STRING), replaced)
    starts, lengths = _bounds(data)
    if len(data) >= 2**31:
        text = pa.array([data[s : s + n].decode() for s, n in zip(starts, lengths)], STRING)
    else:
        text = slices(pa.py_buffer(data), starts, lengths)
    return Lines(text, replaced)
