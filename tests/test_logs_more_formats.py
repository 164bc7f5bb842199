"""Formats read as lnav reads them: their times (with years rolled over and assumed years said), written levels,
header lines as metadata and severities inferred by a stated rule. Every sample here is written for the test."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from react_engine.logs import LoadOptions, load
from react_engine.logs.formats import REGISTRY, Format
from react_engine.logs.loader import without_colours
from react_engine.logs.matching import match_patterns
from react_engine.logs.summary import inspect
from react_engine.logs.years import roll

MTIME = datetime(2026, 7, 21, 19, 0, tzinfo=UTC)


def _load(tmp_path: Path, text: str, name: str = "input.log", **options) -> pd.DataFrame:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    os.utime(path, (MTIME.timestamp(), MTIME.timestamp()))
    return load(path, LoadOptions(use_cache=False, **options))


def _format(frame: pd.DataFrame) -> str:
    return frame.attrs["files"][0]["format"]


def _times(frame: pd.DataFrame) -> list[str]:
    return [t.strftime("%Y-%m-%d %H:%M:%S") if not pd.isna(t) else "" for t in frame["timestamp"]]


def test_a_year_after_the_zone_wins(tmp_path: Path) -> None:
    frame = _load(tmp_path, "Wed May 19 08:00:01 EST 2021 started\nWed May 19 08:00:03 EST 2021 stopped\n")
    assert _times(frame) == ["2021-05-19 13:00:01", "2021-05-19 13:00:03"]  # EST is UTC-5
    assert "year_assumed" not in frame.attrs


def test_yearless_syslog_rolls_over_and_says_the_year_was_assumed(tmp_path: Path) -> None:
    text = ("Dec 30 10:00:00 gw sshd[1]: a\nDec 31 23:59:00 gw sshd[1]: b\nJan  1 00:01:00 gw sshd[1]: c\n"
            "Jan  2 08:00:00 gw sshd[1]: d\n")
    frame = _load(tmp_path, text)
    assert _times(frame) == ["2025-12-30 10:00:00", "2025-12-31 23:59:00", "2026-01-01 00:01:00",
                             "2026-01-02 08:00:00"]
    assert frame["timestamp"].is_monotonic_increasing
    assert frame.attrs["year_assumed"] is True  # two years
    one_year = _load(tmp_path, "Mar  3 09:00:00 gw cron[2]: x\nMar  4 09:00:00 gw cron[2]: y\n", "other.log")
    assert one_year.attrs["year_assumed"] == 2026
    later = _load(tmp_path, "Nov  3 09:00:00 gw cron[2]: x\n", "late.log")
    assert later.attrs["year_assumed"] == 2025  # November is after the file was written in July: the year before
    given_year = _load(tmp_path, text, "given.log", year=2019)
    assert [t.year for t in given_year["timestamp"]] == [2019, 2019, 2020, 2020]
    assert given_year.attrs["year_assumed"] is True


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=30))
def test_rolled_years_never_go_back_at_a_large_month_jump(months: list[int]) -> None:
    stamps = pa.array([pd.Timestamp(2000, m, 15).value for m in months], pa.int64()).cast(pa.timestamp("ns", "UTC"))
    rolled, assumed = roll(stamps, pd.Series([True] * len(months)).to_numpy(), year=2000, reference=None)
    years = [t.year for t in rolled.to_pandas()]
    assert years[0] == 2000
    for (before, after), (y0, y1) in zip(pairwise(months), pairwise(years), strict=True):
        assert y1 == y0 + (1 if after - before <= -6 else 0)
    assert assumed == (years[0] if len(set(years)) == 1 else True)


def test_glog(tmp_path: Path) -> None:
    text = ("I0517 15:04:22.619632  1234 server.cc:10] listening on 8080\n"
            "E0517 15:04:23.000001  1234 server.cc:42] bind failed\n"
            "W0517 15:04:24.5  1234 server.cc:50] not glog\n"
            "F0517 15:04:25.000002  1235 main.cc:7] aborting\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "glog"
    assert frame["severity"].tolist()[:2] == ["info", "error"] and frame["severity"].iloc[-1] == "critical"
    assert _times(frame)[1] == "2026-05-17 15:04:23"
    assert frame["component"].iloc[0] == "server.cc" and frame["src_line"].iloc[1] == "42"
    assert len(frame) == 3  # the odd line joins the entry above


def test_strace_failed_calls_are_errors_by_its_rule(tmp_path: Path) -> None:
    text = ('08:09:33.814936 execve("/bin/ls", ["ls"]) = 0 <0.000264>\n'
            '08:09:33.815801 open("/etc/nope", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000019>\n'
            "08:09:33.815900 brk(0) = 0x1513000\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "strace"
    assert _times(frame)[0] == "2026-07-21 08:09:33"  # the file's date
    assert frame["severity"].fillna("").tolist() == ["", "error", ""]
    assert frame["level_raw"].isna().all() and frame["severity_rule"].notna().tolist() == [False, True, False]
    assert frame["errno"].tolist()[1] == "ENOENT" and frame["syscall"].tolist() == ["execve", "open", "brk"]


def test_tai64n(tmp_path: Path) -> None:
    frame = _load(tmp_path, "@4000000043322583000003e8 tcpserver: status: 5/30\n"
                            "@40000000433225840c85ba04 tcpserver: pid 26162\n")
    assert _format(frame) == "tai64n"
    assert _times(frame) == ["2005-09-22 03:31:05", "2005-09-22 03:31:06"]
    assert frame["message"].iloc[0] == "tcpserver: status: 5/30"


def test_epoch_prefixes_in_seconds_and_milliseconds(tmp_path: Path) -> None:
    frame = _load(tmp_path, "1428634687123 Hello\n1428634688456 Goodbye\n")
    assert _format(frame) == "epoch"
    assert _times(frame) == ["2015-04-10 02:58:07", "2015-04-10 02:58:08"]
    assert frame["timestamp"].iloc[0].microsecond == 123000
    seconds = _load(tmp_path, "1428634687 up\n1428634690 down\n", "s.log")
    assert _times(seconds)[1] == "2015-04-10 02:58:10"


def test_tcsh_history_one_row_per_command(tmp_path: Path) -> None:
    frame = _load(tmp_path, "#+1162490366\n./configure\n#+1162490385\nmake -j4\n")
    assert _format(frame) == "tcsh_history"
    assert frame["message"].tolist() == ["./configure", "make -j4"]
    assert _times(frame) == ["2006-11-02 17:59:26", "2006-11-02 17:59:45"]


def test_zeek_headers_are_metadata_not_rows(tmp_path: Path) -> None:
    text = ("#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\thttp\n"
            "#fields\tts\tuid\tid.orig_h\tmethod\tstatus_code\n#types\ttime\tstring\taddr\tstring\tcount\n"
            "1320279566.452687\tCwFs1P\t192.168.2.76\tGET\t200\n"
            "1320279567.181050\tCtgxRA\t192.168.2.76\tGET\t404\n"
            "1320279568.000000\tC6nSoj\t192.168.2.77\tPOST\t-\n#close\t2011-11-03-00-20-00\n")
    frame = _load(tmp_path, text, "http.log")
    assert _format(frame) == "zeek"
    assert len(frame) == 3 and frame["line"].tolist() == [8, 9, 10]
    assert _times(frame)[0] == "2011-11-03 00:19:26"
    assert frame["id_orig_h"].tolist()[2] == "192.168.2.77" and pd.isna(frame["status_code"].iloc[2])
    assert frame["severity"].fillna("").tolist() == ["", "warning", ""]
    assert any("header lines" in w for w in frame.attrs["warnings"])


def test_w3c_fields_header_quoted_values_and_status_rule(tmp_path: Path) -> None:
    text = ("#Software: Microsoft Internet Information Services 8.5\n#Version: 1.0\n#Date: 2015-01-13 00:32:17\n"
            "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)\n"
            '2015-01-13 00:32:17 10.0.0.1 GET /index.html 200 "Mozilla/5.0 (X11)"\n'
            "2015-01-13 00:32:18 10.0.0.2 GET /missing 404 curl/8.0\n"
            "2015-01-13 00:32:19 10.0.0.3 POST /api 503 curl/8.0\n"
            "#Fields: time c-ip sc-status\n"
            "00:40:00 10.0.0.4 200\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "w3c"
    assert len(frame) == 4
    assert frame["status"].tolist() == [200, 404, 503, 200]
    assert frame["user_agent"].iloc[0] == "Mozilla/5.0 (X11)"
    assert frame["severity"].fillna("").tolist() == ["", "warning", "error", ""]
    assert _times(frame)[3] == "2015-01-13 00:40:00"  # a time without a date is on the header's #Date


def test_a_file_of_comments_is_not_w3c(tmp_path: Path) -> None:
    frame = _load(tmp_path, "# a comment\n# another\nplain text\n")
    assert _format(frame) not in ("w3c", "zeek") and len(frame) == 3


def test_colour_codes_are_removed_before_detection(tmp_path: Path) -> None:
    text = ("\x1b[0m\x1b[32mSep 19 \x1b[0m\x1b[1m09:24:04\x1b[0m gw \x1b[31mdiscoveryd\x1b[0m[176]: up\n"
            "\x1b[32mSep 19 09:24:05\x1b[0m gw discoveryd[176]: down\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "syslog" and frame["component"].tolist() == ["discoveryd", "discoveryd"]
    assert "\x1b" not in "".join(frame["message"])


@given(st.lists(st.text(alphabet="ab[1;3m\x1b", max_size=12), max_size=8))
def test_without_colours_leaves_no_colour_code(lines: list[str]) -> None:
    text, count = without_colours(pa.array(lines, pa.large_string()))
    assert count == sum("\x1b[" in line for line in lines)
    assert all("\x1b[" not in line or "\x1b[" in line.replace("\x1b[", "", 0) for line in text.to_pylist())
    assert len(text) == len(lines)


def test_level_words_after_the_time(tmp_path: Path) -> None:
    text = ("2016-06-30 12:00:01 trace starting\n2016-06-30 12:00:02 debug2 detail\n"
            "2016-06-30 12:00:03 warn slow\n2016-06-30 12:00:04 fatal gone\n2016-06-30 12:00:05 other words\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "timed_level"
    assert frame["severity"].fillna("").tolist() == ["debug", "debug", "warning", "critical", ""]
    assert frame["level_raw"].tolist()[3] == "fatal" and len(frame) == 5


def test_vmware_mysql_and_laravel_levels_as_written(tmp_path: Path) -> None:
    vmware = _load(tmp_path, "2022-06-02T11:58:12.193Z info vpxd[45715] [Originator@6876 sub=Lro opID=7e] begin\n"
                             "2022-06-02T11:59:41.498Z error vpxd[47756] [Originator@6876 sub=drm] thrown\n"
                             "--> detail of the error\n", "vpxd.log")
    assert _format(vmware) == "vmware" and vmware["severity"].tolist() == ["info", "error"]
    assert vmware["component"].tolist() == ["vpxd", "vpxd"] and "detail" in vmware["message"].iloc[1]
    mysql = _load(tmp_path, "2020-08-06T14:25:02.835618Z 0 [Note] [MY-012487] [InnoDB] recovery begins\n"
                            "2020-08-06T14:25:02.936146Z 0 [Warning] [MY-010068] [Server] self signed\n"
                            "2020-08-06T14:25:03.109022Z 5 [ERROR] [MY-010051] [Server] cannot open\n", "mysql.err")
    assert _format(mysql) == "mysql_error"
    assert mysql["severity"].tolist() == ["notice", "warning", "error"] and mysql["code"].iloc[2] == "MY-010051"
    laravel = _load(tmp_path, "[2023-05-15 18:19:32] local.ERROR: Target class missing {\"exception\":\"x\"}\n"
                              "[stacktrace]\n#0 /app/Container.php(795): build()\n"
                              "[2023-05-15 18:20:00] local.INFO: recovered\n", "laravel.log")
    assert _format(laravel) == "laravel" and laravel["severity"].tolist() == ["error", "info"]
    assert laravel["channel"].tolist() == ["local", "local"] and "#0" in laravel["message"].iloc[0]


def test_syslog_without_levels_gets_none_invented(tmp_path: Path) -> None:
    text = ("<11>Nov  3 09:23:38 gw app[1]: all good\n"  # PRI 11: error, written
            "Nov  3 09:23:39 gw automount[7]: lookup for foo failed\n")
    frame = _load(tmp_path, text)
    assert frame["severity"].fillna("").tolist() == ["error", ""]  # "failed" is a word, not a level
    assert "severity_rule" not in frame or frame["severity_rule"].isna().all()


def test_postgres_detected_when_statements_fill_the_sample(tmp_path: Path) -> None:
    statement = "\n".join(f"\t    column_{i} text," for i in range(20))
    text = (f"2025-04-12 00:14:12.837 CEST [1329] ERROR:  syntax error at or near \"null\"\n"
            f"2025-04-12 00:14:12.837 CEST [1329] STATEMENT:  create table t (\n{statement}\n\t);\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "postgres" and len(frame) == 1 and frame["severity"].iloc[0] == "error"
    assert _times(frame) == ["2025-04-11 22:14:12"]  # CEST is UTC+2


def test_json_level_keys_by_name_and_value(tmp_path: Path) -> None:
    text = ('{"t":{"$date":"2026-03-10T20:58:09.401+00:00"},"s":"W","c":"NET","msg":"slow"}\n'
            '{"t":{"$date":"2026-03-10T20:58:10.401+00:00"},"s":"E","c":"NET","msg":"down"}\n')
    mongo = _load(tmp_path, text, "mongo.json")
    assert mongo["severity"].tolist() == ["warning", "error"] and _times(mongo)[0] == "2026-03-10 20:58:09"
    bunyan = _load(tmp_path, '{"level":30,"msg":"up","time":"2023-03-24T14:26:16Z"}\n'
                             '{"level":50,"msg":"down","time":"2023-03-24T14:26:17Z"}\n', "bunyan.json")
    assert bunyan["severity"].tolist() == ["info", "error"] and bunyan["level_raw"].tolist() == ["30", "50"]
    nested = _load(tmp_path, '{"ts":"2013-09-06T20:00:48Z","@fields":{"lvl":"FATAL","msg":"gone"}}\n', "n.json")
    assert nested["severity"].tolist() == ["critical"] and nested["message"].tolist() == ["gone"]


def test_time_of_day_lines_take_the_file_date(tmp_path: Path) -> None:
    frame = _load(tmp_path, "00:00:00.000 foo DEBUG tick\n01:00:00.000 foo ERROR tock\n02:00:00.000 foo plain\n")
    assert _format(frame) == "clock"
    assert _times(frame) == ["2026-07-21 00:00:00", "2026-07-21 01:00:00", "2026-07-21 02:00:00"]
    assert frame["severity"].fillna("").tolist() == ["debug", "error", ""]
    assert frame.attrs["year_assumed"] == 2026


def test_dated_blocks_join_their_lines(tmp_path: Path) -> None:
    frame = _load(tmp_path, "Wed May 19 08:00:01 EST 2021 line 1\n/abc/def\nWed May 19 08:00:03 EST 2021 line 3\n"
                            "/ghi/jkl\n")
    assert _format(frame) == "dated_block" and len(frame) == 2
    assert _times(frame) == ["2021-05-19 13:00:01", "2021-05-19 13:00:03"]
    assert frame["message"].iloc[0] == "line 1\n/abc/def"


def test_vdsm_levels_and_tracebacks(tmp_path: Path) -> None:
    text = ("MainThread::INFO::2011-12-05 07:04:56,101::vdsm::71::vds::(run) I am vdsm 4.9-0\n"
            "MainThread::ERROR::2011-12-05 07:04:56,300::vdsm::74::vds::(run) Traceback (most recent call last):\n"
            '  File "/usr/share/vdsm/vdsm", line 72, in run\n'
            "Thread-16::DEBUG::2011-12-05 07:05:11,607::clientIF::225::Storage.Dispatcher::(wrapper) ok\n")
    frame = _load(tmp_path, text)
    assert _format(frame) == "vdsm" and frame["severity"].tolist() == ["info", "error", "debug"]
    assert frame["thread"].tolist()[2] == "Thread-16" and frame["function"].tolist()[0] == "run"


def test_generic_reads_compact_and_day_of_year_times(tmp_path: Path) -> None:
    frame = _load(tmp_path, "20120702.102240,672:DEBUG:foo bar\n2012-060T16:56:38,344:WARN:leap day\n"
                            "2013-060T00:00:00,000:INFO:first of March\n")
    assert _format(frame) == "generic"
    assert _times(frame) == ["2012-07-02 10:22:40", "2012-02-29 16:56:38", "2013-03-01 00:00:00"]
    assert frame["severity"].tolist() == ["debug", "warning", "info"]


QUICK = [fmt for fmt in REGISTRY if fmt.quick is not None and fmt.patterns]


@pytest.mark.parametrize("fmt", QUICK, ids=[fmt.name for fmt in QUICK])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_formats_quick_check_passes_every_line_it_matches(fmt: Format, data: st.DataObject) -> None:
    """Detection skips a format whose `quick` pattern no sample line matches: it must never skip a real match."""
    pattern = data.draw(st.sampled_from(fmt.detect_patterns))
    line = data.draw(st.from_regex(re.compile(pattern.replace("(?i:", "(?:"), re.ASCII), fullmatch=True)
                     .filter(lambda text: "\n" not in text and "\r" not in text))
    assume(match_patterns((pattern,), pa.array([line], pa.large_string()))[1][0])  # Python's regex is not RE2's
    assert pc.any(pc.match_substring_regex(pa.array([line]), fmt.quick)).as_py()


def test_inspect_counts_inferred_severities_and_says_the_year_was_assumed(tmp_path: Path) -> None:
    access = tmp_path / "access.log"
    access.write_text('10.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /a HTTP/1.1" 200 12\n'
                      '10.0.0.2 - - [10/Oct/2026:13:55:37 +0000] "GET /b_error HTTP/1.1" 404 12\n'
                      '10.0.0.3 - - [10/Oct/2026:13:55:38 +0000] "GET /c HTTP/1.1" 503 12\n')
    report = inspect([access], LoadOptions(use_cache=False))
    assert report.severity_counts == {"error": 1, "warning": 1, "missing": 1}
    assert sum(report.severity_rules.values()) == 2 and report.year_assumed is None
    syslog = tmp_path / "messages"
    syslog.write_text("Mar  3 09:00:00 gw cron[2]: x\n")
    os.utime(syslog, (MTIME.timestamp(), MTIME.timestamp()))
    both = inspect([access, syslog], LoadOptions(use_cache=False))
    assert both.year_assumed == 2026 and both.files is not None and both.files[1].year_assumed == 2026
    assert both.severity_rules == report.severity_rules


def test_tcf_minutes_and_seconds_in_the_files_hour(tmp_path: Path) -> None:
    frame = _load(tmp_path, "TCF 29:47.191: Server-Properties: {}\nTCF 30:04.735: channel server connecting\n"
                            "  continued\n")
    assert _format(frame) == "tcf" and len(frame) == 2
    assert _times(frame) == ["2026-07-21 19:29:47", "2026-07-21 19:30:04"]  # the hour of the mtime, 19:00
    assert frame["timestamp"].iloc[1].microsecond == 735000


def test_a_level_after_a_bracket_is_a_level_and_no_host_holds_one(tmp_path: Path) -> None:
    frame = _load(tmp_path, "2015-04-24T21:09:29.296 25376]INFO:somemodule:Something INFOrmative.\n"
                            "2015-04-24T21:09:39.296 25376]ERROR:somemodule:Something broke.\n")
    assert _format(frame) == "generic" and frame["severity"].tolist() == ["info", "error"]


def test_times_without_a_date_roll_over_to_the_next_day(tmp_path: Path) -> None:
    frame = _load(tmp_path, "22:00:00.000 a\n23:59:59.900 b\n23:59:59.800 c\n00:00:01.000 d\n")
    assert _times(frame) == ["2026-07-20 22:00:00", "2026-07-20 23:59:59", "2026-07-20 23:59:59",
                             "2026-07-21 00:00:01"]  # the last line is on the file's day; 0.1 s back is no new day


def test_process_state_dumps_are_one_row_each(tmp_path: Path) -> None:
    dump = ("========== Start of system state dump at Thu Jun 2 00:0{m}:01 UTC 2022 ==========\n\n/bin/ps auxww\n"
            "USER PID %CPU COMMAND\nroot 1 0.0 /lib/systemd/systemd\n========== End of system state dump ==========\n")
    frame = _load(tmp_path, "".join(dump.format(m=m) for m in (1, 2)))
    assert _format(frame) == "procstate" and len(frame) == 2
    assert _times(frame) == ["2022-06-02 00:01:01", "2022-06-02 00:02:01"]
    assert "/lib/systemd/systemd" in frame["message"].iloc[0]


def test_strace_with_pids_and_epoch_times(tmp_path: Path) -> None:
    frame = _load(tmp_path, '10000 1697048351.000001 execve("./web", ["./web"]) = 0 <0.000421>\n'
                            '10001 1697048351.000541 openat(AT_FDCWD, "/x", O_RDONLY) = -1 EACCES (Permission denied)\n')
    assert _format(frame) == "strace" and frame["pid"].tolist() == ["10000", "10001"]
    assert _times(frame) == ["2023-10-11 18:19:11", "2023-10-11 18:19:11"]
    assert frame["severity"].fillna("").tolist() == ["", "error"]
