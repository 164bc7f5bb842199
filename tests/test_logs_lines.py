"""`lines.split` against a plain-Python statement of its rules, on any bytes and any block size."""

from __future__ import annotations

import codecs
from unittest import mock

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import lines
from react_engine.logs.lines import REPLACEMENT, split

FRAGMENTS = [b"a", b"bc ", b"\n", b"\r", b"\r\n", b"\0", b"\xff", b"\xe9", "\u00e9".encode(), REPLACEMENT.encode(),
             codecs.BOM_UTF8, codecs.BOM_UTF16_LE, b"\xe2\x82"]
inputs = st.one_of(st.binary(max_size=200), st.lists(st.sampled_from(FRAGMENTS), max_size=60).map(b"".join))


def expected(data: bytes) -> tuple[list[str], int, int]:
    """Lines, replaced bytes and lines with a NUL, by the rules `split` documents, one line at a time."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        text = data.decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode())
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
        replaced = text.count(REPLACEMENT)
    else:
        text = data.decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode())
    separator = "\n" if "\n" in text else "\r"
    nul_lines = sum("\0" in piece for piece in text.split(separator))
    text = text.replace("\0", "")
    if not text:
        return [], replaced, nul_lines
    pieces = text.split(separator)
    if text.endswith(separator):
        pieces.pop()
    terminated = len(pieces) if text.endswith(separator) else len(pieces) - 1
    if separator == "\n":  # the CR of a CRLF belongs to the terminator; any other CR is text
        pieces = [p[:-1] if i < terminated and p.endswith("\r") else p for i, p in enumerate(pieces)]
    return pieces, replaced, nul_lines


@settings(max_examples=400, deadline=None)
@given(inputs, st.integers(1, 9), st.booleans())
def test_split_follows_the_rules_at_any_block_size(data: bytes, block: int, mutable: bool) -> None:
    with mock.patch.object(lines, "BLOCK", block):
        result = split(bytearray(data) if mutable else data)
    result.text.validate(full=True)
    assert (result.text.to_pylist(), result.replaced, result.nul_lines) == expected(data)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([b"line one", b"x", b"", b"\r", b"tab\there"]), max_size=40),
       st.lists(st.sampled_from([b"\n", b"\r\n"]), min_size=40, max_size=40))
def test_valid_text_is_split_in_its_own_buffer(texts: list[bytes], endings: list[bytes]) -> None:
    data = bytearray(b"".join(text + ending for text, ending in zip(texts, endings)))
    view = memoryview(data)  # an export, as a reader may hold one: `data` cannot be resized
    result = split(data)
    text = "".join(result.text.to_pylist()).encode()
    assert not text or result.text.buffers()[2].address == pa.py_buffer(data).address  # the lines live in `data`
    assert data.startswith(text) and view.nbytes == len(data)
