"""The cache entry layout: `unpack(pack(t))` is `t`, whatever the strings; message is stored as offsets only when
it is the tail of raw on every row."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine.logs import packing
from react_engine.logs.arrow import STRING
from react_engine.logs.packing import SKIP_TYPE, pack, unpack

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
def test_pack_then_unpack_gives_the_table_back(rows: list[tuple[str, str, str | None]], tails: bool) -> None:
    heads, bodies, hosts = zip(*rows, strict=True) if rows else ((), (), ())
    raws = [head + body for head, body in zip(heads, bodies, strict=True)]
    messages = list(bodies) if tails else list(heads)
    table = _table(raws, messages, list(hosts))
    assert unpack(_stored(table)).equals(table)


def test_message_is_stored_as_offsets_only_when_it_ends_every_raw_entry() -> None:
    raws = ["Dec 10 sshd[1]: Failed password", "Dec 10 cron[2]: job ✓"]
    tail = _table(raws, ["Failed password", "job ✓"], ["h1", "h1"])
    assert pack(tail)["message"].type == SKIP_TYPE
    assert pack(tail)["host"].type.index_type == pa.int8()  # a repeating column is a dictionary
    assert pack(tail)["line"].type == pa.int32()
    other = _table(raws, ["Failed password", "job"], ["h1", "h1"])  # e.g. a message cut short
    assert pack(other)["message"].type == pa.string()
    assert unpack(pack(other)).equals(other)


def test_offsets_outside_the_raw_entries_are_refused() -> None:
    table = pack(_table(["abc", "de"], ["bc", "e"], ["h", "h"]))
    damaged = table.set_column(table.schema.get_field_index("message"), "message", pa.array([1, 3], SKIP_TYPE))
    with pytest.raises(ValueError, match="outside"):
        unpack(damaged)
