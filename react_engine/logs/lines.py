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


def _bounds(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and length of each line; LF or CRLF end lines (a bare CR does only when there is no LF)."""
    separator = LF if (raw == LF).any() or not (raw == CR).any() else CR
    ends = np.flatnonzero(raw == separator)
    if len(raw) and raw[-1] != separator:
        ends = np.append(ends, len(raw))
    starts = np.concatenate(([0], ends[:-1] + 1)) if len(ends) else ends
    if separator == LF:
        before = np.maximum(ends - 1, 0)
        ends = ends - ((ends > starts) & (raw[before] == CR))
    return starts, ends - starts


def split(data: bytes) -> Lines:
    """Lines of `data`; a final line terminator does not start an extra empty line."""
    data, replaced = _as_text(data)
    if not data:
        return Lines(pa.array([], STRING), replaced)
    starts, lengths = _bounds(np.frombuffer(data, np.uint8))
    if len(data) >= 2**31:
        text = pa.array([data[s : s + n].decode() for s, n in zip(starts, lengths)], STRING)
    else:
        text = slices(pa.py_buffer(data), starts, lengths)
    return Lines(text, replaced)
