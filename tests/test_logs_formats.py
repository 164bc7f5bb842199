"""Every format family: detection, canonical columns, extras, severities and multi-line entries."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import LoadOptions, format_names, load
from react_engine.logs.macs import normalize, normalize_array


def _load(tmp_path: Path, text: str, **options) -> pd.DataFrame:
    path = tmp_path / "input.log"
    path.write_text(text, encoding="utf-8")
    return load(path, LoadOptions(use_cache=False, **options))


def _format(frame: pd.DataFrame) -> str:
    return frame.attrs["files"][0]["format"]


def _loaded(tmp_path: Path, text: str, fmt: str, **options) -> pd.DataFrame:
    """Load `text`, checking that it was detected as `fmt`."""
    frame = _load(tmp_path, text, **options)
    assert _format(frame) == fmt
    return frame


CASA = (
    "<132>2026-11-20,15:29:18.4 MAWED07T01 CMTS[DOCSIS]: <82000200> No Ranging Response received - T3 time-out;"
    "CM-MAC=14:CF:E2:AC:D6:82;CMTS-VER=3.0;\n"
    "<130>2026-11-20,15:29:19.0 MAWED07T01 CMTS[DOCSIS]: <73055400> CM partial service;CM-MAC=14-cf-e2-ac-d6-83;"
    "CMTS-VER=3.0;(event count 19, last time: 2026-11-20,15:29:18.4)\n"
)
CISCO = (
    "Nov 20 15:29:18 MAWED07T02 %UBR10000-5-UNREGSIDTIMEOUT: CMTS deleted unregistered Cable Modem 0018.c0d8.9614\n"
    "<134>Nov 20 15:29:19 MAWED07T02 %UBR10000-4-BADTXOFFSET: Bad timing offset 1000 detected for cable modem "
    "0018.C0D8.9615.\n"
    "000123: *Nov  9 13:30:26.123 UTC: %UBR7200-4-INVALID_MODEM_CONFIGURATION_SETTING_FORMAT: <133>CMTS[DOCSIS]:"
    "<73011700> Invalid Modem Capabilities configuration setting . CM Mac Addr <0018.c0d8.9616>\n"
)
MODEM = (
    "2026-11-19 16:05:37 Notice (6) CM-STATUS message sent. Event Type Code: 24; Chan ID: 2;CM-MAC=00:18:c0:7c:10:07;"
    "CMTS-MAC=00:90:f0:2d:00:00;CM-QOS=1.1;CM-VER=3.0;\n"
    "1/13/2026 16:19  82000400  3  Received Response to Broadcast Maintenance Request - T4 time out;"
    "CM-MAC=986b3d71ef29;CMTS-MAC=00:90:f0:2d:00:00;CM-QOS=1.1;CM-VER=3.0;\n"
)


def test_casa_cmts_lines(tmp_path: Path) -> None:
    frame = _loaded(tmp_path, CASA, "cmts", year=2026)
    assert frame["severity"].tolist() == ["warning", "critical"]  # <132> local0.warning, <130> local0.crit
    assert frame["level_raw"].tolist() == ["<132>", "<130>"]
    assert frame["host"].tolist() == ["MAWED07T01"] * 2
    assert frame["event_id"].tolist() == ["82000200", "73055400"]
    assert frame["cm_mac"].tolist() == ["14:cf:e2:ac:d6:82", "14:cf:e2:ac:d6:83"]
    assert frame["timestamp"][0] == pd.Timestamp("2026-11-20 15:29:18.4", tz="UTC")
    assert frame["message"][0].startswith("No Ranging Response received")


def test_cisco_cmts_lines_severity_from_mnemonic(tmp_path: Path) -> None:
    frame = _loaded(tmp_path, CISCO, "cmts", year=2026)
    assert frame["severity"].tolist() == ["notice", "warning", "warning"]  # mnemonic wins over <134> (info)
    assert frame["component"].tolist() == ["UBR10000", "UBR10000", "UBR7200"]
    assert frame["mnemonic"][0] == "UNREGSIDTIMEOUT"
    assert frame["cm_mac"].tolist() == ["00:18:c0:d8:96:14", "00:18:c0:d8:96:15", "00:18:c0:d8:96:16"]
    assert frame["event_id"][2] == "73011700"
    assert frame["host"][:2].tolist() == ["MAWED07T02", "MAWED07T02"]
    assert frame["timestamp"][2] == pd.Timestamp("2026-11-09 13:30:26.123", tz="UTC")


def test_modem_event_log_lines(tmp_path: Path) -> None:
    frame = _loaded(tmp_path, MODEM, "cmts")
    assert frame["severity"].tolist() == ["notice", "critical"]  # DOCSIS levels 6 and 3
    assert frame["level_raw"].tolist() == ["Notice (6)", "3"]
    assert frame["cm_mac"].tolist() == ["00:18:c0:7c:10:07", "98:6b:3d:71:ef:29"]
    assert frame["cmts_mac"].tolist() == ["00:90:f0:2d:00:00"] * 2
    assert frame["event_id"][1] == "82000400"
    assert frame["timestamp"][1] == pd.Timestamp("2026-01-13 16:19", tz="UTC")


@pytest.mark.parametrize(
    "written", ["0018.c0d8.9614", "00:18:C0:D8:96:14", "00-18-c0-d8-96-14", "0018C0D89614", " 00:18:c0:d8:96:14 "]
)
def test_mac_notations_normalise(written: str) -> None:
    assert normalize(written) == "00:18:c0:d8:96:14"


@pytest.mark.parametrize("written", ["xxxx.xxxx.xxxx", "00:18:c0", "", None, "zz:18:c0:d8:96:14"])
def test_non_macs_are_rejected(written: str | None) -> None:
    assert normalize(written) is None


def test_syslog_rfc3164_rfc5424_and_pri(tmp_path: Path) -> None:
    text = (
        "<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8\n"
        "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut=\"3\"] "
        "An application event\n"
        "Oct 11 22:14:16 mymachine sshd(pam_unix)[19939]: check pass; user unknown\n"
    )
    frame = _loaded(tmp_path, text, "syslog", year=2003)
    assert frame["severity"].tolist() == ["critical", "notice", None] or frame["severity"].isna()[2]
    assert frame["severity"][:2].tolist() == ["critical", "notice"]
    assert frame["component"].tolist() == ["su", "evntslog", "sshd(pam_unix)"]
    assert frame["pid"].isna()[1] and frame["pid"][2] == "19939"
    assert frame["host"][1] == "mymachine.example.com"
    assert frame["timestamp"][1] == pd.Timestamp("2003-10-11 22:14:15.003", tz="UTC")
    assert frame["message"][1] == "An application event"


def test_jsonl_usual_keys_numbers_and_bad_lines(tmp_path: Path) -> None:
    text = (
        '{"@timestamp": "2026-11-20T10:00:00+02:00", "level": "WARN", "message": "disk low", "host": "db1",'
        ' "logger": "storage", "pct": 91}\n'
        '{"time": 1763632800, "severity": "E", "msg": "boom", "pct": 5}\n'
        "not json at all\n"
        '{"ts": 1763632800123, "log": {"level": "debug"}, "text": "nested"}\n'
    )
    frame = _loaded(tmp_path, text, "jsonl")
    assert len(frame) == 4
    assert frame["severity"].tolist()[:2] == ["warning", "error"]
    assert frame["severity"][3] == "debug"
    assert frame["timestamp"][0] == pd.Timestamp("2026-11-20 08:00:00", tz="UTC")
    assert frame["timestamp"][1] == pd.Timestamp(1763632800, unit="s", tz="UTC")
    assert frame["timestamp"][3] == pd.Timestamp(1763632800123, unit="ms", tz="UTC")
    assert frame["message"].tolist()[:3] == ["disk low", "boom", "not json at all"]
    assert frame["host"][0] == "db1" and frame["component"][0] == "storage"
    assert frame["pct"].tolist()[:2] == [91, 5] and str(frame["pct"].dtype) == "Int64"


ACCESS = (
    '10.0.0.1 - frank [10/Oct/2026:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 "http://x/" "Mozilla/4.08"\n'
    '10.0.0.2 - - [10/Oct/2026:13:55:37 +0000] "POST /login HTTP/1.1" 503 - "-" "curl/8"\n'
    '10.0.0.3 - - [10/Oct/2026:13:55:38 +0000] "-" 400 0\n'
)
APACHE_ERROR = (
    "[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok /etc/httpd/conf/workers2.properties\n"
    "[Wed Oct 11 14:32:52.123456 2026] [core:error] [pid 35708:tid 4328636416] [client 72.15.99.187:80] "
    "File does not exist: /a\n"
)


def test_jsonl_survives_deep_nesting_and_odd_values(tmp_path: Path) -> None:
    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    text = deep + '\n{"ts": 1e30, "level": "info", "msg": "x"}\n{"ts": NaN, "msg": "y"}\n'
    frame = _loaded(tmp_path, text, "jsonl")
    assert len(frame) == 3 and frame["raw"][0] == deep and frame["message"][0].endswith("[truncated]")
    assert frame["timestamp"].isna().all() and frame["severity"][1] == "info"


def test_access_log_combined(tmp_path: Path) -> None:
    frame = _loaded(tmp_path, ACCESS, "access")
    assert frame["client_ip"].tolist() == ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
    assert frame["method"][:2].tolist() == ["GET", "POST"]
    assert frame["status"].tolist() == [200, 503, 400]
    assert pd.isna(frame["bytes"][1]) and frame["bytes"][0] == 2326
    assert frame["timestamp"][0] == pd.Timestamp("2026-10-10 20:55:36", tz="UTC")
    # access logs write no level: it is inferred from the status, said so in severity_rule, never as written
    assert frame["severity"].fillna("").tolist() == ["", "error", "warning"]
    assert frame["level_raw"].isna().all()
    assert frame["severity_rule"].notna().tolist() == [False, True, True]
    assert frame["user"][0] == "frank" and pd.isna(frame["user"][1])


def test_apache_and_nginx_error_logs(tmp_path: Path) -> None:
    frame = _loaded(tmp_path, APACHE_ERROR, "apache_error")
    assert frame["severity"].tolist() == ["notice", "error"]
    assert frame["pid"][1] == "35708" and frame["client_ip"][1] == "72.15.99.187" and frame["component"][1] == "core"
    assert frame["timestamp"][1] == pd.Timestamp("2026-10-11 14:32:52.123456", tz="UTC")
    nginx = "2026/11/20 10:00:01 [crit] 1234#0: *5 connect() failed\n2026/11/20 10:00:02 [warn] 1234#0: slow\n"
    frame = _loaded(tmp_path, nginx, "nginx_error")
    assert frame["severity"].tolist() == ["critical", "warning"]


def test_python_logging_with_traceback_joins_entry(tmp_path: Path) -> None:
    text = (
        "2026-11-20 10:00:00,123 - app.db - ERROR - query failed\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "ValueError: bad\n"
        "2026-11-20 10:00:01,000 - app.web - INFO - served\n"
    )
    frame = _loaded(tmp_path, text, "python")
    assert frame["line"].tolist() == [1, 5]
    assert frame["severity"].tolist() == ["error", "info"]
    assert frame["raw"][0].count("\n") == 3 and frame["raw"][0].endswith("ValueError: bad")
    assert frame["message"][0].startswith("query failed\nTraceback")
    assert frame["timestamp"][0] == pd.Timestamp("2026-11-20 10:00:00.123", tz="UTC")


def test_log4j_with_stack_trace(tmp_path: Path) -> None:
    text = (
        "2026-11-20 10:00:00,001 [main] ERROR com.example.Service - failed to start\n"
        "java.lang.IllegalStateException: nope\n"
        "\tat com.example.Service.start(Service.java:10)\n"
        "2026-11-20 10:00:00,002 [main] WARN  com.example.Other - retrying\n"
        "2026-11-20 10:00:00,003 INFO [pool-1] org.apache.Foo: started\n"
    )
    frame = _loaded(tmp_path, text, "log4j")
    assert frame["line"].tolist() == [1, 4, 5]
    assert frame["severity"].tolist() == ["error", "warning", "info"]
    assert frame["component"].tolist() == ["com.example.Service", "com.example.Other", "org.apache.Foo"]
    assert frame["thread"].tolist() == ["main", "main", "pool-1"]
    assert "IllegalStateException" in frame["message"][0]


def test_java_util_logging_two_line_entries(tmp_path: Path) -> None:
    text = (
        "Nov 20, 2026 10:00:01 AM com.example.Foo run\nSEVERE: it broke\n"
        "Nov 20, 2026 1:00:02 PM com.example.Bar go\nINFO: fine now\n"
    )
    frame = _load(tmp_path, text, format="java")
    assert frame["severity"].tolist() == ["critical", "info"]
    assert frame["level_raw"].tolist() == ["SEVERE", "INFO"]
    assert frame["message"].tolist() == ["it broke", "fine now"]
    assert frame["timestamp"][1] == pd.Timestamp("2026-11-20 13:00:02", tz="UTC")


def test_generic_fallback_finds_time_and_level_anywhere(tmp_path: Path) -> None:
    text = "job 7 finished at 2026-11-20 10:00:00 ok\nsomething [ERROR] happened\n\njust words\n"
    frame = _loaded(tmp_path, text, "generic")
    assert len(frame) == 4
    assert frame["message"].tolist() == text.splitlines()
    assert frame["timestamp"][0] == pd.Timestamp("2026-11-20 10:00:00", tz="UTC")
    assert frame["severity"][1] == "error" and frame["timestamp"][1:].isna().all()


def test_format_override_and_names(tmp_path: Path) -> None:
    assert {"syslog", "cmts", "jsonl", "access", "generic", "log4j", "python"} <= set(format_names())
    frame = _load(tmp_path, CISCO, format="generic")
    assert _format(frame) == "generic" and "cm_mac" not in frame.columns


def test_mixed_formats_union_columns(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text(CASA)
    (tmp_path / "b.log").write_text('10.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.0" 200 1\n')
    frame = load(tmp_path, LoadOptions(use_cache=False))
    assert [f["format"] for f in frame.attrs["files"]] == ["cmts", "access"]
    assert len(frame) == 3 and frame["cm_mac"].notna().tolist() == [True, True, False]
    assert frame["status"].tolist()[2] == 200 and frame["line"].dtype == "int64"


LOG4J_ENTRY = (
    "2026-11-20 10:00:00,001 [main] ERROR com.example.Service - failed\n"
    "java.lang.IllegalStateException: nope\n\tat com.example.Service.start(Service.java:10)\n"
)


@pytest.mark.parametrize("sample", [CASA + CISCO + MODEM + "stray line without header\n", LOG4J_ENTRY])
def test_large_inputs_parse_in_parallel_chunks_like_small_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample: str
) -> None:
    from react_engine.logs import matching, parse

    lines = sample.splitlines()
    text = "\n".join(lines * (5_000 // len(lines))) + "\n"
    monkeypatch.setattr(matching, "CHUNK_LINES", 700)  # many chunks, matched in threads
    monkeypatch.setattr(parse, "SEGMENT_LINES", 900)  # many segments, where the lines are the entries
    chunked = _load(tmp_path, text, year=2026)
    monkeypatch.setattr(matching, "CHUNK_LINES", 10**9)
    monkeypatch.setattr(parse, "SEGMENT_LINES", 10**9)
    whole = _load(tmp_path, text, year=2026)
    assert chunked["raw"].str.count("\n").sum() + len(chunked) == len(text.splitlines())
    pd.testing.assert_frame_equal(chunked, whole)
    assert chunked["severity"].notna().sum() == whole["severity"].notna().sum() > 0


@pytest.mark.parametrize(
    "line,host,component,pid,message",
    [
        ("Nov 20 10:00:01 10.0.0.1 sshd[7]: hi", "10.0.0.1", "sshd", "7", "hi"),
        ("Nov  2 10:00:01 2026 gw1 ntpd[7]: synced", "gw1", "ntpd", "7", "synced"),
        ("Nov 20 10:00:01 h kernel: [1.0] usb", "h", "kernel", None, "[1.0] usb"),
        ("Nov 20 10:00:01 h sshd(pam_unix)[19939]: x", "h", "sshd(pam_unix)", "19939", "x"),
        ("Nov 20 10:00:01 h cron[abc]:y", "h", "cron", "abc", "y"),
    ],
)
def test_syslog_fast_and_full_patterns_agree(
    tmp_path: Path, line: str, host: str, component: str, pid: str | None, message: str
) -> None:
    frame = _load(tmp_path, line + "\n", format="syslog", year=2026)
    row = frame.iloc[0]
    assert (row["host"], row["component"], row["message"]) == (host, component, message)
    assert (None if pd.isna(row["pid"]) else row["pid"]) == pid
    assert row["timestamp"].year == 2026 and row["timestamp"].second == 1


@settings(max_examples=80, deadline=None)
@given(st.binary(min_size=6, max_size=6), st.sampled_from(["colon", "dotted", "hyphen", "bare"]), st.booleans())
def test_any_mac_in_any_notation_normalises(raw: bytes, notation: str, upper: bool) -> None:
    digits = raw.hex()
    written = {
        "colon": ":".join(digits[i : i + 2] for i in range(0, 12, 2)),
        "dotted": ".".join(digits[i : i + 4] for i in range(0, 12, 4)),
        "hyphen": "-".join(digits[i : i + 2] for i in range(0, 12, 2)),
        "bare": digits,
    }[notation]
    written = written.upper() if upper else written
    expected = ":".join(digits[i : i + 2] for i in range(0, 12, 2))
    assert normalize(written) == expected
    assert normalize_array(pa.array([written], pa.large_string())).to_pylist() == [expected]


CISCO_LINE = st.tuples(
    st.integers(0, 7), st.binary(min_size=6, max_size=6), st.from_regex(r"[A-Z]{3,6}[0-9]{2}T[0-9]{2}", fullmatch=True),
    st.sampled_from(["UNREGSIDTIMEOUT", "BADTXOFFSET", "AUTHFAIL"]), st.booleans(),
)
CASA_LINE = st.tuples(st.integers(128, 135), st.binary(min_size=6, max_size=6), st.integers(10**7, 10**8 - 1))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(CISCO_LINE, CASA_LINE), min_size=1, max_size=20))
def test_generated_cmts_lines_parse(rows: list[tuple]) -> None:
    from react_engine.logs.severity import from_pri, from_syslog

    lines, expected = [], []
    for row in rows:
        mac = row[1].hex()
        colon = ":".join(mac[i : i + 2] for i in range(0, 12, 2))
        if len(row) == 5:
            sev, _, host, mnemonic, with_pri = row
            prefix = "<189>" if with_pri else ""
            dotted = ".".join(mac[i : i + 4] for i in range(0, 12, 4))
            lines.append(f"{prefix}Nov 20 15:29:18 {host} %UBR10000-{sev}-{mnemonic}: Cable Modem {dotted} x")
            expected.append((from_syslog(sev), colon, None))
        else:
            pri, _, event = row
            lines.append(f"<{pri}>2026-11-20,15:29:18.4 MAWED07T01 CMTS[DOCSIS]: <{event}> text;CM-MAC={colon};")
            expected.append((from_pri(pri), colon, str(event)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cmts.log"
        path.write_text("\n".join(lines) + "\n")
        frame = load(path, LoadOptions(format="cmts", use_cache=False))
    got = [(s, m, None if pd.isna(e) else e) for s, m, e in zip(frame["severity"], frame["cm_mac"], frame["event_id"])]
    assert got == expected
    assert frame["timestamp"].notna().all()


def test_full_patterns_give_the_same_rows_as_head_slicing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from react_engine.logs import arrow

    text = CASA + CISCO + MODEM + "Nov 20 10:00:01 h1 sshd[1]: ok\n<34>Oct 11 22:14:15 m su: x\n"
    sliced = _load(tmp_path, text, year=2026)
    monkeypatch.setattr(arrow, "VIEW_LIMIT", 0)  # as for inputs over 2 GiB: no string views
    whole = _load(tmp_path, text, year=2026)
    pd.testing.assert_frame_equal(sliced, whole)


def test_arris_c4_lines(tmp_path: Path) -> None:
    text = (
        "12:26:25 13 notc: MAC=00:15:a4:a4:58:1f; Upstream portNumber 3; SMRanger - Ranging opportunities exceeded\n"
        "14:00:50 13 debg: Debug:cm-status.msgs.expected:CM-STATUS from MAC=00:00:ca:d4:db:33, Transaction=1\n"
    )
    frame = _loaded(tmp_path, text, "cmts")
    assert frame["severity"].tolist() == ["notice", "debug"]
    assert frame["level_raw"].tolist() == ["notc", "debg"]
    assert frame["cm_mac"].tolist() == ["00:15:a4:a4:58:1f", "00:00:ca:d4:db:33"]
    assert frame["timestamp"].isna().all()  # a time of day without a date is not guessed


_SYSLOG_PIECES = st.tuples(
    st.sampled_from(["Nov 20 10:00:01", "Nov  2 10:00:01 2026", "2026-11-20T10:00:01Z", "<13>1 2026-11-20T10:00:01Z",
                     "<34>Nov 20 10:00:01", "no header at all"]),
    st.sampled_from(["h", "10.0.0.1", "gw-1.example", "3host", "2026", "12345", "1a", "123", "1234x"]),
    st.sampled_from(["sshd", "sshd(pam_unix)", "CRON", "kernel", "my app", "-"]),
    st.sampled_from(["", "[7]", "[abc]", " (ctx)", "[1] (ctx)", " - - [x=1]"]),
    st.sampled_from([": ", ":", " ", ": x: "]),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_SYSLOG_PIECES, min_size=1, max_size=12))
def test_every_pattern_takes_the_groups_re2_finds_in_each_line(pieces: list[tuple[str, ...]]) -> None:
    """The groups of the pattern that matched each line first are those RE2 itself gives for that line, also for the
    patterns ending in their message, which are matched without it (the message is sliced off after `_head`)."""
    import re2

    from react_engine.logs.arrow import STRING
    from react_engine.logs.formats.syslog import SYSLOG
    from react_engine.logs.matching import match_patterns

    lines = [f"{stamp} {host} {program}{pid}{colon}{text}" for stamp, host, program, pid, colon, text in pieces]
    columns, matched = match_patterns(SYSLOG.patterns, pa.array(lines, STRING))
    compiled = [re2.compile(pattern) for pattern in SYSLOG.patterns]
    for row, line in enumerate(lines):
        found = next((m for m in (c.search(line) for c in compiled) if m is not None), None)
        assert bool(matched[row]) == (found is not None), line
        if found is None:
            continue
        for name, value in found.groupdict().items():
            assert (columns[name][row].as_py() or None) == (value or None), (line, name)  # "" is no value


def test_one_pass_patterns_capture_the_same_in_two_runs() -> None:
    """A `OnePass` pattern is matched in two RE2 runs (head, then groups from the head); its columns equal one run's
    on every line of the sample and real logs, and on lines made to stress its groups."""
    from real_logs import REAL_LOGS

    from react_engine.logs.arrow import STRING
    from react_engine.logs.formats import BY_NAME
    from react_engine.logs.formats.logformat import OnePass
    from react_engine.logs.matching import match_patterns

    files = [*Path("sample_logs").rglob("*.log"), *REAL_LOGS.glob("*/*_2k.log")]
    lines = [line for path in files for line in path.read_text(errors="replace").splitlines()]
    lines += ["Nov 20 10:00:01 2026 cron[1]: x", "Nov  2 10:00:01 12345 a[b: y", "Nov 20 10:00:01 1 x comp: z",
              "081109 203615 148 INFO dfs.DataNode$PacketResponder: done", "081109 203615 148 INFO : none",
              "2017-05-16 00:00:00.008 25746 INFO nova.compute.manager [req-1 - - -] done",
              "nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:00.008 25746 INFO nova.osapi_compute.wsgi.server "
              "[req-2 - - -] done"]
    one_pass = [p for fmt in BY_NAME.values() for p in fmt.patterns if isinstance(p, OnePass)]
    assert len(one_pass) >= 2
    for pattern in one_pass:
        for messages in (True, False):
            two, two_matched = match_patterns((pattern,), pa.array(lines, STRING), messages)
            one, one_matched = match_patterns((str(pattern),), pa.array(lines, STRING), messages)
            assert (two_matched == one_matched).all() and two_matched.any()
            assert list(two) == list(one)
            for name in one:
                assert two[name].to_pylist() == one[name].to_pylist(), (pattern, name)
