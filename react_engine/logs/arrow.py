"""Small Arrow helpers shared by the parsers (all columns are `large_string` while parsing)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

STRING = pa.large_string()


def lit(text: str) -> pa.Scalar:
    """A string literal usable next to `large_string` arrays in compute calls."""
    return pa.scalar(text, STRING)


def null_strings(length: int) -> pa.Array:
    return pa.nulls(length, STRING)


def blank_to_null(values: pa.Array) -> pa.Array:
    """Empty strings (unmatched optional groups) become nulls."""
    values = values.cast(STRING)
    return pc.if_else(pc.equal(values, ""), pa.scalar(None, STRING), values)


def concat(*parts: pa.Array | str) -> pa.Array:
    """Element-wise concatenation of arrays and literal strings (null if any part is null)."""
    return pc.binary_join_element_wise(*(lit(p) if isinstance(p, str) else p for p in parts), lit(""))


def nil_to_null(values: pa.Array, nil: str = "-") -> pa.Array:
    """Placeholder values such as `-` (written for an absent field) become nulls."""
    return pc.if_else(pc.equal(values, nil), pa.scalar(None, values.type), values)
