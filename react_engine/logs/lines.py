"""Split decoded bytes into an Arrow array of lines, without a per-line Python loop."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from react_engine.logs.arrow import STRING

REPLACEMENT = "\ufffd"
Chunks = bytes | bytearray


@dataclass(frozen=True)
class Lines:
    """The lines of one input (terminators removed), how many undecodable bytes were replaced and on how
    many lines NUL bytes were removed."""

    text: pa.Array
    replaced: int
    nul_lines: int = 0


def _drop_nuls(data: Chunks) -> tuple[Chunks, int]:
    """`data` without NUL bytes, and how many lines held one (the lines themselves are kept)."""
    if data.find(b"\0") == -1:
        return data, 0
    raw = np.frombuffer(data, np.uint8)
    line_of_nul = np.searchsorted(_find(raw, 10), _find(raw, 0))
    return data.replace(b"\0", b""), len(np.unique(line_of_nul))


def _as_text(data: Chunks) -> tuple[Chunks, int]:
    """UTF-8 bytes with undecodable sequences replaced by U+FFFD, and the count of replacements.

    A UTF-8 byte-order mark is dropped; UTF-16 text (with its BOM) is converted.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
        return text.encode("utf-8"), text.count(REPLACEMENT)
    offsets = pa.array([0, len(data)], pa.int64()).buffers()[1]
    try:
        pa.Array.from_buffers(STRING, 1, [None, offsets, pa.py_buffer(data)]).validate(full=True)
        return data, 0
    except pa.ArrowInvalid:
        text = data.decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode())
        return text.encode("utf-8"), replaced


def _find(raw: np.ndarray, code: int) -> np.ndarray:
    """Positions of byte `code`, searched in blocks (a whole-file mask would cost as much as the file)."""
    block = 1 << 24
    return np.concatenate([np.flatnonzero(raw[i : i + block] == code) + i for i in range(0, len(raw), block)])


def split(data: Chunks) -> Lines:
    """Lines of `data`: LF or CRLF end lines (a bare CR does only when there is no LF at all).

    A final terminator does not start an extra empty line. Terminators are deleted in one pass and
    the lines are described by offsets into what remains, so no per-line work happens.
    """
    data, replaced = _as_text(data)
    data, nul_lines = _drop_nuls(data)
    if not data:
        return Lines(pa.array([], STRING), replaced, nul_lines)
    separator = b"\r" if b"\n" not in data else b"\n"
    carriage_returns = data.count(b"\r") if separator == b"\n" else 0
    raw = np.frombuffer(data, np.uint8)
    ends = _find(raw, separator[0])
    before_end = raw[np.maximum(ends - 1, 0)] == 13
    if carriage_returns and carriage_returns != before_end.sum():  # bare CRs inside lines stay text
        data, carriage_returns = data.replace(b"\r\n", b"\n"), 0
        raw = np.frombuffer(data, np.uint8)
        ends = _find(raw, separator[0])
    crlf = carriage_returns > 0
    removed = np.ones(len(ends), np.int64)  # terminator bytes after each line
    if crlf:
        removed += before_end
    if data[-1:] != separator:  # an unterminated last line
        ends, removed = np.append(ends, len(raw)), np.append(removed, 1)
    text = data.translate(None, b"\r\n" if crlf else separator)
    offsets = np.zeros(len(ends) + 1, np.int64)
    offsets[1:] = ends + 1 - np.cumsum(removed)
    array = pa.Array.from_buffers(STRING, len(ends), [None, pa.py_buffer(offsets), pa.py_buffer(text)])
    return Lines(array, replaced, nul_lines)
