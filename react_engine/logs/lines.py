"""Split decoded bytes into an Arrow array of lines, without a per-line Python loop.

The lines keep the input's own buffer: terminators (and NUL bytes) are deleted in place, block by block,
so the peak stays near the size of the input rather than twice it. Once parsed, the same buffer becomes the
messages (`drop_heads`).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from react_engine.logs.arrow import STRING, fits_views, give_back, slices

REPLACEMENT = "\ufffd"
Chunks = bytes | bytearray
BLOCK = 1 << 20
"""Bytes compacted at a time: small enough to stay in the CPU cache, large enough to keep Python out of it."""
_LF, _CR = 10, 13
DROP_LINES = 1 << 16
"""Lines whose messages a `MessageCutter` gathers at a time."""


@dataclass(frozen=True)
class Lines:
    """The lines of one input (terminators removed), how many undecodable bytes were replaced and on how
    many lines NUL bytes were removed."""

    text: pa.Array
    replaced: int
    nul_lines: int = 0


def _as_text(data: Chunks) -> tuple[Chunks, int, int]:
    """UTF-8 bytes with undecodable sequences replaced by U+FFFD, how many leading bytes to skip (a UTF-8
    byte-order mark), and the count of replacements. UTF-16 text (with its BOM) is converted.
    """
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
        return text.encode("utf-8"), 0, text.count(REPLACEMENT)
    offsets = pa.array([skip, len(data)], pa.int64()).buffers()[1]
    try:
        pa.Array.from_buffers(STRING, 1, [None, offsets, pa.py_buffer(data)]).validate(full=True)
        return data, skip, 0
    except pa.ArrowInvalid:
        text = data[skip:].decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode(), skip)
        return text.encode("utf-8"), 0, replaced


def _find(raw: np.ndarray, code: int) -> np.ndarray:
    """Positions of byte `code`, searched in blocks (a whole-file mask would cost as much as the file)."""
    block = 1 << 24
    return np.concatenate([np.flatnonzero(raw[i : i + block] == code) + i for i in range(0, len(raw), block)])


def _bounds(raw: np.ndarray) -> Iterator[tuple[int, int]]:
    """Blocks of about BLOCK bytes; a block that ends in CR takes the LF after it, so CRLF is never cut."""
    start = 0
    while start < len(raw):
        stop = min(start + BLOCK, len(raw))
        if stop < len(raw) and raw[stop - 1] == _CR and raw[stop] == _LF:
            stop += 1
        yield start, stop
        start = stop


def _compact(raw: np.ndarray, marks: Callable[[np.ndarray, int], np.ndarray]) -> int:
    """Delete in place the bytes `marks(block, start)` flags, block by block; the length that remains."""
    kept = 0
    for start, stop in _bounds(raw):
        block = raw[start:stop]
        rest = block[~marks(block, start)]  # a copy: the block may be overwritten below
        raw[kept : kept + len(rest)] = rest
        kept += len(rest)
    return kept


@dataclass
class _Terminators:
    """Flags each block's line terminators (`separator`, and with `crlf` a CR right before it) and writes
    where each line ends once they are gone: the offsets of an Arrow string array, `lines + 1` of them.

    The offsets array is sized from the line density seen so far (its unused tail is never touched, so it
    takes no memory) and only grows, by copying, when a later part of the input has shorter lines.
    """

    separator: int
    crlf: bool
    size: int
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    lines: int = 0
    gone: int = 0
    """Terminator bytes flagged so far."""

    def __call__(self, block: np.ndarray, start: int) -> np.ndarray:
        marks = block == self.separator
        at = np.flatnonzero(marks)
        removed = np.ones(len(at), np.int64)
        if self.crlf:
            before = at[at > 0] - 1  # a block never starts with the LF of a CRLF (see _bounds)
            cr = block[before] == _CR
            marks[before[cr]] = True
            removed[len(at) - len(before) :] += cr
        self.add(at + (start + 1 - self.gone) - np.cumsum(removed), start + len(block))
        self.gone += int(removed.sum())
        return marks

    def add(self, ends: np.ndarray, seen: int) -> None:
        """Append line ends, `seen` bytes into the input."""
        lines = self.lines + len(ends)
        if lines >= len(self.offsets):
            grown = np.empty(int(lines * self.size / seen * 1.1) + 2, np.int64)
            grown[: self.lines + 1] = self.offsets[: self.lines + 1]
            self.offsets = grown
        self.offsets[self.lines + 1 : lines + 1] = ends
        self.lines = lines


def _nul_lines(raw: np.ndarray, separator: int) -> int:
    """How many lines hold a NUL byte."""
    return len(np.unique(np.searchsorted(_find(raw, separator), _find(raw, 0))))


def split(data: Chunks) -> Lines:
    """Lines of `data`: LF or CRLF end lines (a bare CR does only when there is no LF at all).

    A final terminator does not start an extra empty line. NUL bytes are dropped. A bytearray is consumed:
    its bytes are edited in place and become the lines' buffer (bytes are copied once). Its size is kept (a
    bytearray whose buffer is exported cannot shrink): the unused tail is the terminators' share, about 1%.
    """
    data, skip, replaced = _as_text(data)
    if not isinstance(data, bytearray):
        data = bytearray(data)
    separator = _LF if b"\n" in data else _CR
    raw = np.frombuffer(data, np.uint8)[skip:]
    nul_lines = 0
    if data.find(b"\0") != -1:
        nul_lines = _nul_lines(raw, separator)
        raw = raw[: _compact(raw, lambda block, _: block == 0)]
    if not len(raw):
        return Lines(pa.array([], STRING), replaced, nul_lines)
    unterminated = raw[-1] != separator
    crlf = separator == _LF and data.find(b"\r", skip, skip + len(raw)) != -1
    terminators = _Terminators(separator, crlf, len(raw))
    length = _compact(raw, terminators)
    if unterminated:
        terminators.add(np.array([length], np.int64), length)
    offsets = terminators.offsets[: terminators.lines + 1]
    text = pa.py_buffer(memoryview(data)[skip : skip + length])  # past `length`: left over from the edit
    array = pa.Array.from_buffers(STRING, terminators.lines, [None, pa.py_buffer(offsets), text])
    return Lines(array, replaced, nul_lines)


class MessageCutter:
    """Cuts each line's head off by writing its message over the lines in their own buffer, part after part in
    order, so that the messages take no second copy of the text. The lines are consumed (no longer valid).

    `editable` is False, and nothing may be cut, when the lines' buffer is read-only (e.g. over `bytes`) or too
    large for string views (see `arrow.fits_views`).
    """

    def __init__(self, lines: pa.Array) -> None:
        self.data = lines.buffers()[2]
        self.editable = self.data is not None and self.data.is_mutable and len(lines) > 0 and fits_views(lines)
        self.offsets = np.frombuffer(lines.buffers()[1], np.int64)[lines.offset : lines.offset + len(lines) + 1]
        self.ends = np.empty(len(lines) + 1, np.int64)
        """Where each message ends in the buffer (with where the first starts)."""
        self.ends[0] = self.offsets[0]

    def cut(self, first: int, skip: np.ndarray) -> pa.Array:
        """The lines from `first` on, each without its first `skip` bytes (ending on a character boundary). Parts
        are cut in order: `first` is where the previous part ended."""
        count = len(skip)
        buffer = np.frombuffer(self.data, np.uint8)
        offsets = self.offsets[first : first + count + 1]
        lengths = offsets[1:] - offsets[:-1] - skip
        written = int(self.ends[first])
        for part in range(0, count, DROP_LINES):  # each part is read whole before it is written lower down
            starts = offsets[part : min(part + DROP_LINES, count)] + skip[part : part + DROP_LINES]
            text = slices(self.data, starts, lengths[part : part + DROP_LINES])
            size = int(np.frombuffer(text.buffers()[1], np.int64)[-1])
            buffer[written : written + size] = np.frombuffer(text.buffers()[2], np.uint8)[:size]
            written += size
        ends = self.ends[first : first + count + 1]
        np.cumsum(lengths, out=ends[1:])
        ends[1:] += ends[0]
        last = first + count == len(self.offsets) - 1
        refilled = 0 if last else int(offsets[-1] - offsets[0])  # about what the next part's messages will fill
        _release(buffer[written + refilled : offsets[-1]])  # the heads' share, up to the lines not yet cut
        return pa.Array.from_buffers(STRING, count, [None, pa.py_buffer(ends), self.data])

    def messages(self) -> pa.Array:
        """Every line's message, once all are cut."""
        return pa.Array.from_buffers(STRING, len(self.ends) - 1, [None, pa.py_buffer(self.ends), self.data])


def drop_heads(lines: pa.Array, skip: np.ndarray) -> pa.Array | None:
    """Each line without its first `skip` bytes, cut in place by a `MessageCutter`; None, with the lines untouched,
    when they are not editable."""
    cutter = MessageCutter(lines)
    if not cutter.editable:
        return None
    cutter.cut(0, skip)
    return cutter.messages()


def _release(unused: np.ndarray) -> None:
    """Give the whole pages of an unused part of the buffer back to the OS (from 1 MB on: fewer calls)."""
    if len(unused) >= 1 << 20:
        give_back(unused.ctypes.data, unused.ctypes.data + len(unused))
