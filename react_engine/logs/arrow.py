"""Small Arrow helpers shared by the parsers (all columns are `large_string` while parsing)."""

from __future__ import annotations

import ctypes
import functools
import mmap
import os
import sys
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

STRING = pa.large_string()


def prefer_jemalloc() -> None:
    """Allocate Arrow memory with jemalloc where pyarrow has it, unless ARROW_DEFAULT_MEMORY_POOL chooses.

    Measured on a 1M-line parse: the default mimalloc pool faulted fewer pages but spent 0.65-0.7 s of
    system time on them against 0.35-0.45 s with jemalloc (0.3 s less of a 3 s first ask), at a similar peak.
    Freed pages go back to the OS at once (no decay): parsing frees large temporaries one after another, and
    jemalloc's default 1 s decay kept them, 80 MB more at the peak of that parse, for no measurable CPU. This reaches
    the arenas made from here on; the command line sets those pyarrow makes as it starts (`JE_ARROW_MALLOC_CONF`).
    """
    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        return
    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
        pa.jemalloc_set_decay_ms(0)
    except NotImplementedError:  # a build without jemalloc (Windows wheels)
        pass


def release_memory(*, heap: bool = False) -> None:
    """Hand memory freed by Arrow back to the OS now (its allocator otherwise keeps it for reuse). `heap` also
    trims glibc's C heap, where freed NumPy temporaries otherwise stay among live arrays (20 MB after one planning
    step over 1M rows); that walks the heap, so it is done once per engine step, not per parsed segment."""
    pa.default_memory_pool().release_unused()
    if heap and (c := libc()) is not None and hasattr(c, "malloc_trim"):
        c.malloc_trim(0)


def give_back(start: int, stop: int) -> None:
    """Tell the OS that the whole pages between addresses `start` and `stop` are no longer needed (MADV_DONTNEED:
    anonymous pages read back as zeros, pages of a file mapping are read from the file again). Linux only."""
    page = mmap.PAGESIZE
    first, last = -(-start // page) * page, stop // page * page
    if last > first and (c := libc()) is not None:
        c.madvise(ctypes.c_void_p(first), ctypes.c_size_t(last - first), mmap.MADV_DONTNEED)


def may_hold(values: pa.Array, byte: int) -> bool:
    """Whether the text of a string array may hold `byte`: False when its data buffer lacks it (one `memchr` over
    the buffer, at memory speed), True when it holds it (maybe outside the array's own rows) or it cannot be told."""
    buffers = values.buffers()
    if not (pa.types.is_large_string(values.type) or pa.types.is_string(values.type)) or len(buffers) < 3:
        return True
    data = buffers[2]
    if data is None or not data.size:
        return False
    found = holds_byte(data, byte, 0, data.size)
    return True if found is None else found


def holds_byte(buffer: pa.Buffer, byte: int, start: int, size: int) -> bool | None:
    """Whether the `size` bytes of `buffer` from `start` hold `byte`, by the C library's memchr (no copy, at memory
    speed); None where there is no memchr."""
    search = _memchr()
    return None if search is None else search(buffer.address + start, byte, size) is not None


@functools.cache
def _memchr() -> Any:
    """The C library's memchr (None where there is none)."""
    c = libc()
    if c is None:
        return None
    found = c["memchr"]
    found.restype, found.argtypes = ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t)
    return found


@functools.cache
def libc() -> ctypes.CDLL | None:
    """The C library of this process, on Linux (None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def lit(text: str) -> pa.Scalar:
    """A string literal usable next to `large_string` arrays in compute calls."""
    return pa.scalar(text, STRING)


def null_strings(length: int) -> pa.Array:
    return pa.nulls(length, STRING)


def blank_to_null(values: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Empty strings (unmatched optional groups) become nulls, without copying the string data."""
    if isinstance(values, pa.ChunkedArray):
        return pa.chunked_array([blank_to_null(chunk) for chunk in values.chunks], STRING)
    values = values.cast(STRING)
    keep = pc.and_(pc.is_valid(values), pc.not_equal(values, ""))
    if pc.all(keep).as_py() is not False:
        return values
    if keep.offset != values.offset:
        return pc.if_else(keep, values, pa.scalar(None, STRING))
    _, offsets, data = values.buffers()
    return pa.Array.from_buffers(STRING, len(values), [keep.buffers()[1], offsets, data], offset=values.offset)


def concat(*parts: pa.Array | str) -> pa.Array:
    """Element-wise concatenation of arrays and literal strings (null if any part is null)."""
    return pc.binary_join_element_wise(*(lit(p) if isinstance(p, str) else p for p in parts), lit(""))


def group(values: pa.Array | pa.ChunkedArray, pattern: str, name: str) -> pa.Array | pa.ChunkedArray:
    """The named group `name` of an RE2 `pattern` searched in each string (null where absent)."""
    return blank_to_null(pc.struct_field(pc.extract_regex(values, pattern), name))


def nil_to_null(values: pa.Array, nil: str = "-") -> pa.Array:
    """Placeholder values such as `-` (written for an absent field) become nulls."""
    return pc.if_else(pc.equal(values, nil), pa.scalar(None, values.type), values)


VIEW_LIMIT = 2**31
"""String views address their data with 32-bit offsets."""


def fits_views(lines: pa.Array) -> bool:
    """Whether `tails()` can slice these lines (their data buffer is under VIEW_LIMIT bytes)."""
    return lines.buffers()[2] is None or lines.buffers()[2].size < VIEW_LIMIT


def _first_bytes(raw: np.ndarray, starts: np.ndarray, width: int = 12) -> np.ndarray:
    """`raw[start:start+width]` for each start, as one (rows, width) gather over a strided view."""
    window = np.zeros((len(starts), width), np.uint8)
    if len(raw) < width:
        for row, start in enumerate(starts):
            piece = raw[start : start + width]
            window[row, : len(piece)] = piece
        return window
    rows = np.lib.stride_tricks.as_strided(raw, (len(raw) - width + 1, width), (1, 1), writeable=False)
    inside = starts <= len(raw) - width
    window[inside] = rows[starts[inside]]
    for i in np.flatnonzero(~inside):  # the last few bytes of the buffer
        piece = raw[starts[i] :]
        window[i, : len(piece)] = piece[:width]
    return window


def _words(raw: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The 4 bytes at each start, as one little-endian 32-bit word (each start must have 4 bytes after it)."""
    words = np.ndarray(shape=(max(len(raw) - 3, 0),), dtype="<u4", buffer=raw, offset=0, strides=(1,))
    return words[starts].view(np.int32)


def slices(data: pa.Buffer, starts: np.ndarray, lengths: np.ndarray) -> pa.Array:
    """Strings `data[start:start+length]` for each row, gathered in one copy (via a string-view array).

    `data` must hold valid UTF-8, be smaller than VIEW_LIMIT, and each slice must start and end on a
    character boundary.
    """
    count = len(starts)
    if count == 0:
        return pa.array([], STRING)
    raw = np.frombuffer(data, np.uint8)
    views = np.zeros((count, 4), np.int32)  # a view: length, then 12 inline bytes, or a prefix, buffer and offset
    views[:, 0] = lengths
    long = lengths > 12
    views[long, 1] = _words(raw, starts[long])
    views[long, 3] = starts[long]  # in buffer 0
    short = np.flatnonzero(~long)
    if len(short):
        window = _first_bytes(raw, starts[short])
        window[np.arange(12) >= lengths[short, None]] = 0  # inline strings are zero-padded
        views.view(np.uint8).reshape(count, 16)[short, 4:16] = window
    view_array = pa.Array.from_buffers(pa.string_view(), count, [None, pa.py_buffer(views), data])
    return view_array.cast(STRING)


def tails(lines: pa.Array, skip_bytes: np.ndarray) -> pa.Array:
    """Each line without its first `skip_bytes` bytes (which must end on a character boundary).

    Only for lines that `fits_views()`."""
    lines = lines.cast(STRING)
    offsets = np.frombuffer(lines.buffers()[1], np.int64)[lines.offset : lines.offset + len(lines) + 1]
    starts = offsets[:-1] + skip_bytes
    return slices(lines.buffers()[2], starts, offsets[1:] - starts)


def combined(chunks: list[pa.Array]) -> pa.Array:
    """One `large_string` array of `chunks` (emptied here), each chunk let go as soon as it is copied: the result's
    pages are taken only as they are written, so the peak is about the column plus one chunk, not twice the column.
    """
    rows = sum(len(chunk) for chunk in chunks)
    offsets = np.empty(rows + 1, np.int64)
    data = np.empty(sum(_text_bytes(chunk) for chunk in chunks), np.uint8)
    valid = np.empty(rows, bool)
    offsets[0] = row = written = 0
    while chunks:
        chunk = chunks.pop(0)
        ends = np.frombuffer(chunk.buffers()[1], np.int64)[chunk.offset : chunk.offset + len(chunk) + 1]
        size = int(ends[-1] - ends[0])
        if size:
            data[written : written + size] = np.frombuffer(chunk.buffers()[2], np.uint8)[ends[0] : ends[-1]]
        offsets[row + 1 : row + len(chunk) + 1] = ends[1:] - ends[0] + written
        valid[row : row + len(chunk)] = chunk.is_valid().to_numpy(zero_copy_only=False)
        row, written = row + len(chunk), written + size
        del chunk
    bitmap = None if valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    return pa.Array.from_buffers(STRING, rows, [bitmap, pa.py_buffer(offsets), pa.py_buffer(data)])


def _text_bytes(chunk: pa.Array) -> int:
    ends = np.frombuffer(chunk.buffers()[1], np.int64)
    return int(ends[chunk.offset + len(chunk)] - ends[chunk.offset])
