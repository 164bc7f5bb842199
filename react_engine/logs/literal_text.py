"""A literal looked for in a lean frame's entries (`raw_head + message`) without joining the two.

A literal of n characters is in `head + message` when it is in the head, in the message, or across their
boundary, that is in the head's last n-1 characters followed by the message's first n-1. Each part is tested with
the literal's own RE2 pattern (with its letter case), so the mask is the joined text's. The heads of a chunk of
rows are not searched when they lack some character of the literal in every case the pattern allows (heads write
times, hosts and programs in few characters, so most words are never in them), and the boundary is joined only for
the rows whose head ends in a character the literal's start could end with.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING, concat, holds_byte
from react_engine.logs.mapped import Strings
from react_engine.logs.text import bool_mask

Test = Callable[[Strings], Strings]
"""An Arrow predicate over strings (true where the pattern matches)."""
_OPERATORS = frozenset("\\.^$*+?()[]{}|")
_FOLDS_BEYOND_ASCII = {"\u017f": "sS", "\u212a": "kK"}
"""The characters beyond ASCII that RE2 matches to ASCII letters when the case is ignored (long s, Kelvin sign)."""


def literal_of(pattern: str) -> str | None:
    """The text `pattern` matches when it is a literal as `re2.escape` writes one (punctuation escaped by a
    backslash); None when it holds any operator or another escape."""
    out: list[str] = []
    escaped = False
    for char in pattern:
        if escaped:
            if not char.isascii() or char.isalnum():
                return None
            out.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in _OPERATORS:
            return None
        else:
            out.append(char)
    return None if escaped or not out else "".join(out)


@dataclass(frozen=True)
class _Form:
    """The characters that match one of the literal's: the ASCII bytes they may be, and whether they may be
    characters beyond ASCII (whose UTF-8 bytes are all 0x80 and above)."""

    ascii: bytes
    wide: bool

    @staticmethod
    def of(char: str, ignore_case: bool) -> _Form:
        if not char.isascii():
            return _Form(_FOLDS_BEYOND_ASCII.get(char, "").encode() if ignore_case else b"", True)
        if not ignore_case:
            return _Form(char.encode(), False)
        return _Form((char.lower() + char.upper()).encode(), char.lower() in "ks")

    def held(self, data: _Data) -> bool:
        """Whether `data` may hold a matching character."""
        return any(data.has(byte) for byte in self.ascii) or (self.wide and not data.narrow)

    def bytes_ending(self) -> np.ndarray:
        """Which last byte (indexed 0-255) a character matching this one may end with."""
        ending = np.zeros(256, dtype=bool)
        ending[list(self.ascii)] = True
        ending[0x80:] = self.wide
        return ending


@dataclass(frozen=True)
class LiteralSearch:
    """A literal's test of head and message apart: called with a chunk's heads and messages, it gives the mask
    `test(head + message)` would (null head or message never matches)."""

    text: str
    test: Test
    ignore_case: bool

    def __call__(self, head: Strings, message: Strings) -> np.ndarray:
        head, message = _array(head), _array(message)
        found = bool_mask(self.test(message))
        data, forms = _Data(head), [_Form.of(char, self.ignore_case) for char in self.text]
        start = next((n for n, form in enumerate(forms) if not form.held(data)), len(forms))
        if start == len(forms):  # every character may be in the heads
            found |= bool_mask(self.test(head))
        endings = [form.bytes_ending() for form in forms[: min(start, len(forms) - 1)]]  # of the starts they may end
        if endings:
            found |= self._across(head, message, np.logical_or.reduce(endings))
        for part in (head, message):
            if part.null_count:
                found &= part.is_valid().to_numpy(zero_copy_only=False)
        return found

    def _across(self, head: pa.Array, message: pa.Array, ending: np.ndarray) -> np.ndarray:
        """Where the literal runs from the end of the head into the message, for heads whose last byte may end
        one of its starts."""
        offsets = _offsets(head).astype(np.int64)
        starts, ends = offsets[:-1], offsets[1:]
        data = np.frombuffer(head.buffers()[2], np.uint8) if head.buffers()[2] is not None else np.zeros(0, np.uint8)
        last = np.zeros(len(head), dtype=np.uint8)
        some = ends > starts
        last[some] = data[ends[some] - 1]
        rows = np.flatnonzero(some & ending[last])
        out = np.zeros(len(head), dtype=bool)
        if len(rows):
            reach = len(self.text) - 1
            picked = pa.array(rows)
            window = concat(pc.utf8_slice_codeunits(pc.take(head, picked), -reach).cast(STRING),
                            pc.utf8_slice_codeunits(pc.take(message, picked), 0, reach).cast(STRING))
            out[rows] = bool_mask(self.test(window))
        return out


def literal_search(pattern: str, test: Test, ignore_case: bool) -> LiteralSearch | None:
    """The head-and-message test of `pattern` (whose Arrow predicate is `test`), when it is a literal."""
    text = literal_of(pattern)
    return None if text is None else LiteralSearch(text, test, ignore_case)


def _array(values: Strings) -> pa.Array:
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def _offsets(values: pa.Array) -> np.ndarray:
    """Where each string starts in the array's character data, and where the last ends."""
    width = np.int64 if pa.types.is_large_string(values.type) else np.int32
    return np.frombuffer(values.buffers()[1], width)[values.offset : values.offset + len(values) + 1]


class _Data:
    """The character data of an array's strings, asked which bytes it holds: by the C library's memchr where it is
    at hand (no copy), else in a copy."""

    def __init__(self, values: pa.Array) -> None:
        offsets, self.buffer = _offsets(values), values.buffers()[2]
        empty = not len(values) or self.buffer is None
        self.start, self.size = (0, 0) if empty else (int(offsets[0]), int(offsets[-1] - offsets[0]))

    def has(self, byte: int) -> bool:
        if not self.size:
            return False
        found = holds_byte(self.buffer, byte, self.start, self.size)
        return byte in self.buffer[self.start : self.start + self.size].to_pybytes() if found is None else found

    @functools.cached_property
    def narrow(self) -> bool:
        """Whether every byte is ASCII."""
        return not self.size or int(np.frombuffer(self.buffer, np.uint8, self.size, self.start).max()) < 0x80
