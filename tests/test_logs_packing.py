"""The cache entry layout: `unpack(pack(t))` is `t` with its name columns dictionary-encoded, whatever the strings,
with `raw` or with `raw_head`."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine.logs import packing
from react_engine.logs.arrow import STRING
from react_engine.logs.packing import decode_names, encode_names, pack, unpack

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@pytest.fixture(autouse=True)
def _pack_small_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "PACK_MIN_ROWS", 0)


def _table(raws: list[str], messages: list[str], hosts: list[str | None]) -> pa.Table:
    return pa.table({
        "host": pa.array(hosts, STRING),
        "message": pa.array(messages, STRING),
        "line": pa.array(range(1, len(raws) + 1), pa.int64()),
        "raw": pa.array(raws, STRING),
    })


def _stored(table: pa.Table) -> pa.Table:
    """`table` packed, written as an Arrow IPC file and read back, as a cache entry is."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, pack(table).schema) as writer:
        writer.write_table(pack(table))
    return pa.ipc.open_file(sink.getvalue()).read_all()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(TEXT, TEXT, st.one_of(st.none(), st.sampled_from(["h1", "h2", "é"]))), max_size=30),
       st.booleans())
def test_pack_then_unpack_gives_the_table_back(rows: list[tuple[str, str, str | None]], lean: bool) -> None:
    heads, bodies, hosts = zip(*rows, strict=True) if rows else ((), (), ())
    raws = [head + body for head, body in zip(heads, bodies, strict=True)]
    table = _table(raws, list(bodies), list(hosts))
    if lean:
        table = table.drop_columns(["raw"]).append_column("raw_head", pa.array(heads, STRING))
    read_back = unpack(_stored(table))
    assert read_back.equals(encode_names(table))
    assert pa.types.is_dictionary(read_back["host"].type)
    assert decode_names(read_back).equals(table)


def test_text_is_stored_with_32_bit_offsets_and_repeating_columns_as_dictionaries() -> None:
    table = _table(["Dec 10 sshd[1]: Failed password", "Dec 10 cron[2]: job ✓"], ["Failed password", "job ✓"],
                   ["h1", "h1"])
    lean = table.drop_columns(["raw"]).append_column("raw_head", pa.array(["Dec 10 sshd[1]: ", "Dec 10 cron[2]: "],
                                                                           STRING))
    for packed in (pack(table), pack(lean)):
        assert packed["message"].type == pa.string()
        assert packed["host"].type.index_type == pa.int8()
        assert packed["line"].type == pa.int32()
    assert pack(table)["raw"].type == pack(lean)["raw_head"].type == pa.string()
