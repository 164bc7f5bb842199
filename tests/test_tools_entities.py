"""Entity extraction and counting, checked against pandas `str.extractall` and hand-made lines."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tool_frames import context, frame, frames, run

from react_engine.errors import ToolError

FAST = settings(max_examples=50, deadline=None)


def values(result, kind: str) -> list[tuple[int, str]]:
    series = result.entities[kind]
    return list(zip(series.index, series))


def test_zero_padded_ipv4_octets_are_the_same_address() -> None:
    df = frame([{"message": "connection from 059.45.101.203 () at Sun"}, {"message": "from 59.45.101.203 again"},
                {"message": "from 010.0.0.1 and 300.1.1.1"}])
    result = run("extract_entities", context(df), types="ip")
    assert values(result, "ip") == [(100, "59.45.101.203"), (101, "59.45.101.203"), (102, "10.0.0.1")]


def test_every_mac_notation_counts_as_one_modem() -> None:
    df = frame([{"message": "modem 001d.d38e.d4b7 offline"}, {"message": "mac=00:1D:D3:8E:D4:B7 back"},
                {"message": "seen 00-1d-d3-8e-d4-b7 and 00:1d:d3:8e:d4:b8"}, {"message": "no mac 00:1d:d3"}])
    result = run("extract_entities", context(df), types="mac")
    assert values(result, "mac") == [(100, "00:1d:d3:8e:d4:b7"), (101, "00:1d:d3:8e:d4:b7"),
                                     (102, "00:1d:d3:8e:d4:b7"), (102, "00:1d:d3:8e:d4:b8")]
    assert result.value.recorded()["mac"] == {"total": 4, "unique": 2, "top": [["00:1d:d3:8e:d4:b7", 3],
                                                                    ["00:1d:d3:8e:d4:b8", 1]]}
    ctx = context(df, entities=result.entities)
    assert run("count_entities", ctx, type="mac").value.recorded() == 2
    assert run("count_entities", ctx, type="mac", unique=False).value.recorded() == 4


@pytest.mark.parametrize(("kind", "message", "expected"), [
    ("ip", "from 10.0.0.1 to 192.168.1.255 not 999.1.1.1 or 1.2.3", ["10.0.0.1", "192.168.1.255"]),
    ("ip", "v6 fe80::1 and 2001:DB8:0:0:0:0:0:1 not std::vector or 10:00:00", ["fe80::1", "2001:db8::1"]),
    ("ip", "UFW MAC=52:54:00:12:34:56:fe:54:00:ab:cd:ef:08:00 SRC=192.0.2.77 DST=1:2:3:4:5:6:7:8:9", ["192.0.2.77"]),
    ("mac", "UFW MAC=52:54:00:12:34:56:fe:54:00:ab:cd:ef:08:00 SRC=192.0.2.77", ["52:54:00:12:34:56",
                                                                               "fe:54:00:ab:cd:ef"]),
    ("email", "mail Bob.Smith@Example.COM, ops@x.io", ["bob.smith@example.com", "ops@x.io"]),
    ("url", "see https://a.example.com/x?y=1. and ftp://h/f", ["https://a.example.com/x?y=1", "ftp://h/f"]),
    ("uuid", "id 123E4567-E89B-12D3-A456-426614174000 ok", ["123e4567-e89b-12d3-a456-426614174000"]),
    ("hostname", "resolve db1.Example.org for a@mail.example.com, read app.log", ["db1.example.org"]),
    ("user", "Failed password for invalid user admin from x; user=root; for user bob by", ["admin", "root", "bob"]),
    ("user", "check pass; user unknown", []),
    ("user", "Accepted publickey for deploy from 10.0.0.5 port 22 ssh2", ["deploy"]),
    ("user", "No more user authentication methods; LOGIN chdir(pwd); Users: 3; user.name=x; login=carol", ["carol"]),
    ("hostname", "at org.apache.hadoop.ipc.Client and nova.compute.manager via wiki.apache.org", ["wiki.apache.org"]),
    ("cm_mac", "event;CM-MAC=00:18:C0:7C:10:07;CMTS-MAC=00:90:f0:2d:00:00;", ["00:18:c0:7c:10:07"]),
    ("cm_mac", "CMTS deleted unregistered Cable Modem bc64.4be1.611a", ["bc:64:4b:e1:61:1a"]),
    ("cmts_mac", "event;CM-MAC=00:18:c0:7c:10:07;CMTS-MAC=00:90:F0:2D:00:00;", ["00:90:f0:2d:00:00"]),
    ("interface", "T3 on Cable5/0/1 and Integrated-Cable7/0/2:3, uplink GigabitEthernet0/1", [
        "Cable5/0/1", "Integrated-Cable7/0/2:3", "GigabitEthernet0/1"]),
    ("interface", "link up on enp0s3, eth1 and bond0; not Tether5 or seth2", ["enp0s3", "eth1", "bond0"]),
    ("http_status", '1.2.3.4 - - "GET /a HTTP/1.1" 503 12', ["503"]),
])
def test_builtin_types(kind: str, message: str, expected: list[str]) -> None:
    df = frame([{"message": message}]).drop(columns="status")
    result = run("extract_entities", context(df), types=[kind])
    assert [v for _, v in values(result, kind)] == expected


def test_parsed_columns_win_and_text_fills_the_rest() -> None:
    df = frame([{"message": "GET 200", "status": 404}, {"message": 'x "GET /b HTTP/1.0" 500 1'}])
    df["cm_mac"] = pd.Series(["0018.C07C.1007", None], index=df.index, dtype="str")
    df.loc[101, "raw"] += " CM-MAC=aa:bb:cc:dd:ee:ff"
    result = run("extract_entities", context(df), types=["status", "cm_mac"])
    assert values(result, "http_status") == [(100, "404"), (101, "500")]
    assert values(result, "cm_mac") == [(100, "00:18:c0:7c:10:07"), (101, "aa:bb:cc:dd:ee:ff")]


PATTERNS = st.sampled_from([r"user=(\w+)", r"(\d+)\.\d+", r"(T\d)", r"([0-9a-f]{4})\.", r"(?i)(time)out",
                            r"(a)(a)?"])


@given(df=frames(), pattern=PATTERNS)
@FAST
def test_custom_pattern_matches_pandas_extractall(df: pd.DataFrame, pattern: str) -> None:
    result = run("extract_entities", context(df), types=[], pattern=pattern, name="thing")
    expected = df["raw"].str.extractall(pattern)[0].dropna()
    expected = expected[expected.str.len() > 0]
    assert values(result, "thing") == list(zip(expected.index.get_level_values(0), expected))
    assert result.value.recorded()["thing"]["unique"] == expected.nunique()


def test_custom_pattern_without_group_takes_whole_match_and_names_from_types() -> None:
    df = frame([{"message": "blk_-42 to blk_7"}, {"message": "none"}])
    result = run("extract_entities", context(df), types="block_id", pattern=r"blk_-?\d+")
    assert values(result, "block_id") == [(100, "blk_-42"), (100, "blk_7")]
    assert "block_id: 2 found, 2 unique" in result.summary


@given(df=frames(), keep=st.lists(st.booleans(), min_size=30, max_size=30), unique=st.booleans())
@FAST
def test_counts_only_look_at_current_rows(df: pd.DataFrame, keep: list[bool], unique: bool) -> None:
    extracted = run("extract_entities", context(df), types=["mac", "ip"]).entities
    rows = df[keep[: len(df)]]
    for kind in ("mac", "ip"):
        result = run("count_entities", context(df, rows, entities=extracted), type=kind, unique=unique)
        current = extracted[kind][extracted[kind].index.isin(rows.index)]
        assert result.value.recorded() == (current.nunique() if unique else len(current))
        assert result.entities is None


@given(df=frames(), keep=st.lists(st.booleans(), min_size=30, max_size=30), unique=st.booleans(),
       column=st.sampled_from(["host", "component", "pid", "status", "level_raw", "HOST"]))
@FAST
def test_counts_the_values_of_any_column_in_the_current_rows(df: pd.DataFrame, keep: list[bool], unique: bool,
                                                             column: str) -> None:
    rows = df[keep[: len(df)]]
    present = rows[column.lower()].dropna()
    if column == "status" and present.empty and df["status"].isna().all():  # no line of the log writes a status
        with pytest.raises(ToolError, match="these logs have no status codes"):
            run("count_entities", context(df, rows), type=column, unique=unique)
        return
    result = run("count_entities", context(df, rows), type=column, unique=unique)
    assert result.value.recorded() == (present.nunique() if unique else len(present))
    assert result.entities is None or present.empty  # an empty host column falls back to the hostname type
    assert result.evidence is None or set(result.evidence) == set(present.index)


def test_a_column_wins_over_the_entity_type_of_the_same_name_unless_it_is_empty() -> None:
    df = frame([{"message": "Failed password for root from 10.0.0.1"}, {"message": "user=bob", "status": 404}])
    df["user"] = pd.Series(["alice", "alice"], index=df.index, dtype="str")
    assert run("count_entities", context(df), type="user").value.recorded() == 1  # the column: alice
    df["user"] = pd.Series([None, None], index=df.index, dtype="str")
    assert run("count_entities", context(df), type="user").value.recorded() == 2  # extracted: root and bob
    assert run("count_entities", context(df), type="status", unique=False).value.recorded() == 1


def test_count_extracts_a_builtin_type_on_demand() -> None:
    df = frame([{"message": "from 10.0.0.1"}, {"message": "from 10.0.0.1 and 10.0.0.2"}, {"message": "none"}])
    result = run("count_entities", context(df), type="IPs")
    assert result.value.recorded() == 2 and list(result.entities["ip"].index) == [100, 101, 101]
    assert list(result.evidence) == [100, 101]


def test_unknown_types_are_tool_errors() -> None:
    ctx = context(frame([{"message": "x"}]))
    with pytest.raises(ToolError, match="unknown entity type 'gadget'.*mac, ip"):
        run("extract_entities", ctx, types=["gadget"])
    with pytest.raises(ToolError, match="no column or entity type 'gadget'; columns are: .*host.*; entity types "
                                        "are: .*ip"):
        run("count_entities", ctx, type="gadget")
    with pytest.raises(ToolError, match="give types"):
        run("extract_entities", ctx, types=[])
    with pytest.raises(ToolError, match="invalid regex"):
        run("extract_entities", ctx, types=[], pattern="(a)\\1", name="x")
