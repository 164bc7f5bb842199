"""Formats and rules found by reading lnav's sample logs beside lnav, each over lines written for the test."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from react_engine.logs import LoadOptions, load
from react_engine.logs.formats.jsonl import JSONL

MTIME = datetime(2026, 7, 21, 19, 0, tzinfo=UTC)


def _load(tmp_path: Path, text: str, name: str = "input.log") -> pd.DataFrame:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    os.utime(path, (MTIME.timestamp(), MTIME.timestamp()))
    return load(path, LoadOptions(use_cache=False))


def test_json_without_a_level_takes_its_severity_from_a_nested_http_status(tmp_path: Path) -> None:
    text = ('{"started_at": 1490385986240, "response": {"status": 200}, "client_ip": "10.0.0.1"}\n'
            '{"started_at": 1490386367764, "response": {"status": 503}, "client_ip": "10.0.0.1"}\n'
            '{"started_at": 1490386531694, "response": {"status": 404}, "client_ip": "10.0.0.2"}\n'
            '{"started_at": 1490386531695, "level": "info", "response": {"status": 500}}\n')
    frame = _load(tmp_path, text, "requests.json")
    assert frame["severity"].fillna("").tolist() == ["", "error", "warning", "info"]  # a written level wins
    assert frame["level_raw"].fillna("").tolist() == ["", "", "", "info"]
    rules = frame["severity_rule"].fillna("").tolist()
    assert rules[0] == rules[3] == "" and rules[1] == rules[2] and "HTTP status" in rules[1]


@given(st.lists(st.tuples(st.integers(100, 599), st.booleans()), min_size=1, max_size=12))
def test_json_severity_is_the_written_level_else_the_status_rule(rows: list[tuple[int, bool]]) -> None:
    lines = [json.dumps({"msg": "m", "response": {"status": status}, **({"level": "info"} if leveled else {})})
             for status, leveled in rows]
    assert JSONL.reader is not None
    columns, matched = JSONL.reader(pa.array(lines, pa.large_string()))
    assert all(matched.to_pylist())
    inferred = columns["inferred"].to_pylist()
    for (status, leveled), level, got in zip(rows, columns["level"].to_pylist(), inferred, strict=True):
        assert level == ("info" if leveled else None)
        assert got == ("error" if status >= 500 else "warning" if status >= 400 else None)


def test_json_with_a_status_that_is_no_http_code_gets_no_severity(tmp_path: Path) -> None:
    text = ('{"ts": "2026-01-01T00:00:00Z", "status": "ok", "msg": "up"}\n'
            '{"ts": "2026-01-01T00:00:01Z", "status": 4040, "msg": "odd"}\n')
    frame = _load(tmp_path, text, "status.json")
    assert frame["severity"].isna().all()
    assert "severity_rule" not in frame or frame["severity_rule"].isna().all()


def test_indented_continuation_lines_do_not_hide_the_format_of_the_lines_that_start_entries(tmp_path: Path) -> None:
    notice = ("Aug 16 00:32:{s:02d} air syslogd[314]: Configuration Notice:\n"
              '\tASL Module "com.apple.install" claims selected messages.\n'
              "\tThose messages may not appear in standard system log files.\n")
    frame = _load(tmp_path, "".join(notice.format(s=s) for s in range(5)))
    assert frame.attrs["files"][0]["format"] == "syslog"
    dated = frame[frame["timestamp"].notna()]
    assert len(dated) == 5 and set(dated["component"]) == {"syslogd"} and set(dated["host"]) == {"air"}


def test_access_lines_led_by_the_virtual_host_are_access_lines(tmp_path: Path) -> None:
    text = ('shop.example:443 10.0.0.1 - jsmith [26/Jul/2023:00:01:26 -0700] "GET /a HTTP/2.0" 200 17 "-" "curl" 11\n'
            'shop.example:443 10.0.0.2 - - [26/Jul/2023:00:02:12 -0700] "GET /b HTTP/2.0" 503 16 "-" "curl" 15\n')
    frame = _load(tmp_path, text, "access.log")
    assert frame.attrs["files"][0]["format"] == "access"
    assert frame["vhost"].tolist() == ["shop.example:443"] * 2
    assert frame["client_ip"].tolist() == ["10.0.0.1", "10.0.0.2"] and frame["status"].tolist() == [200, 503]
    assert frame["severity"].fillna("").tolist() == ["", "error"]
    assert frame["timestamp"].iloc[0] == pd.Timestamp("2023-07-26 07:01:26", tz="UTC")
