"""Arrow helpers of the parser: combining a column's chunks without holding the column twice."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs.arrow import STRING, combined, holds_byte, may_hold

VALUES = st.lists(st.one_of(st.none(), st.text(max_size=8)), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(VALUES, st.integers(0, 3), st.integers(0, 3)), max_size=6))
def test_combined_chunks_equal_arrow_s_own_combine(parts: list[tuple[list[str | None], int, int]]) -> None:
    chunks = [pa.array(values, STRING).slice(start, max(len(values) - start - cut, 0)) for values, start, cut in parts]
    expected = pa.chunked_array(chunks, STRING).combine_chunks()
    held = list(chunks)
    result = combined(held)
    result.validate(full=True)
    assert held == []  # every chunk was let go
    assert result.type == STRING and result.equals(expected)


@given(st.lists(st.one_of(st.none(), st.text(alphabet=st.sampled_from("ab \x1b[m"), max_size=8)), max_size=20),
       st.sampled_from([pa.large_string(), pa.string()]))
def test_may_hold_a_byte_exactly_when_some_text_holds_it(texts: list[str | None], kind: pa.DataType) -> None:
    assert may_hold(pa.array(texts, kind), 0x1B) == any("\x1b" in t for t in texts if t is not None)


@given(st.binary(max_size=40), st.integers(0, 40), st.integers(0, 40), st.integers(0, 255))
def test_a_byte_is_held_exactly_when_the_bytes_searched_hold_it(data: bytes, start: int, size: int, byte: int) -> None:
    start, size = min(start, len(data)), min(size, len(data) - min(start, len(data)))
    found = holds_byte(pa.py_buffer(data), byte, start, size)
    assert found is None or found == (byte in data[start : start + size])
