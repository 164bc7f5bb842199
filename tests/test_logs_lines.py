"""`lines.split` against a plain-Python statement of its rules, on any bytes and any block size."""

from __future__ import annotations

import codecs
from unittest import mock

import numpy as np
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


@settings(max_examples=300, deadline=None)
@given(inputs, st.data(), st.integers(1, 5))
def test_drop_heads_leaves_each_line_after_its_head_in_the_lines_own_buffer(data: bytes, draw: st.DataObject,
                                                                          part: int) -> None:
    result = split(bytearray(data))
    texts = result.text.to_pylist()
    cuts = [draw.draw(st.integers(0, len(t))) for t in texts]
    skip = np.array([len(t[:cut].encode()) for t, cut in zip(texts, cuts)], np.int64)
    address = result.text.buffers()[2].address if texts else None
    with mock.patch.object(lines, "DROP_LINES", part):
        messages = lines.drop_heads(result.text, skip)
    if not texts:
        assert messages is None
        return
    assert messages is not None
    messages.validate(full=True)
    assert messages.to_pylist() == [t[cut:] for t, cut in zip(texts, cuts)]
    assert messages.buffers()[2].address == address  # no copy of the text


def test_drop_heads_leaves_lines_it_cannot_edit_alone() -> None:
    text = b"Dec 10 host: hiplain"
    offsets = pa.py_buffer(np.array([0, 15, 20], np.int64))
    held = pa.Array.from_buffers(pa.large_string(), 2, [None, offsets, pa.py_buffer(text)])  # read-only
    assert lines.drop_heads(held, np.array([13, 0], np.int64)) is None
    assert held.to_pylist() == ["Dec 10 host: hi", "plain"]
