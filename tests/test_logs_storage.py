"""The cache's on-disk form gives back exactly the table it was given."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from react_engine.logs import storage

STRING = pa.large_string()
texts = st.lists(st.one_of(st.none(), st.sampled_from(["", "sshd", "cron", "é ü"]), st.text(max_size=30)),
                 max_size=60)


def _round_trip(table: pa.Table) -> pa.Table:
    return storage.unpack(pa.ipc.open_file(pa.BufferReader(storage.pack(table))).read_all())


@given(texts, texts, st.integers(1, 4))
def test_round_trip_is_exact(first: list[str | None], second: list[str | None], chunks: int) -> None:
    rows = min(len(first), len(second))
    step = max(1, rows // chunks)
    host = pa.chunked_array([pa.array(first[i : i + step], STRING) for i in range(0, rows, step)] or [[]], STRING)
    table = pa.table({"host": host, "message": pa.array(second[:rows], STRING),
                      "line": pa.array(range(rows), pa.int64())}, metadata={b"k": b"v"})
    back = _round_trip(table)
    assert back.schema == table.schema
    assert back.equals(table)


def test_repetitive_columns_are_stored_smaller() -> None:
    rows = 50_000
    table = pa.table({"host": pa.array(["MAWED07T01", "MAWED07T02"] * (rows // 2), STRING),
                      "severity": pa.nulls(rows, STRING)})
    plain = pa.BufferOutputStream()
    with pa.ipc.new_file(plain, table.schema) as writer:
        writer.write_table(table)
    assert storage.pack(table).size < plain.getvalue().size / 20
    assert _round_trip(table).equals(table)
