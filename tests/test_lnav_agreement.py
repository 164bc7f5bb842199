"""scripts/lnav_agreement.py over a folder of sample logs written for the test, with a stand-in `lnav` on PATH (a
script that prints the CSV lnav prints) and without one."""

from __future__ import annotations

import os
from pathlib import Path

import lnav_agreement as agreement
import pytest

SYSLOG = "Mar  3 09:00:00 gw cron[2]: x\nMar  3 09:00:05 gw cron[2]: y\n"
ACCESS = ('10.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /a HTTP/1.1" 200 12\n'
          '10.0.0.2 - - [10/Oct/2026:13:55:37 +0000] "GET /b HTTP/1.1" 404 12\n')


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "test"
    folder.mkdir()
    (folder / "logfile_syslog.0").write_text(SYSLOG)
    (folder / "logfile_access_log.0").write_text(ACCESS)
    (folder / "not_a_logfile.txt").write_text("ignored\n")
    return folder


def _fake_lnav(tmp_path: Path, rows: dict[str, str]) -> None:
    """An `lnav` that answers the query with one CSV row chosen by the file's name."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cases = "\n".join(f'  *{name}) echo "{row}" ;;' for name, row in rows.items())
    script = bin_dir / "lnav"
    script.write_text(f'#!/bin/sh\nfor last; do :; done\necho "format,lines,errors,first"\ncase "$last" in\n{cases}\n'
                      '  *) echo "<NULL>,0,<NULL>,<NULL>" ;;\nesac\n')
    script.chmod(0o755)
    os.environ["PATH"] = f"{bin_dir}:{os.environ['PATH']}"


def test_without_lnav_the_table_has_our_side_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(agreement.shutil, "which", lambda name: None)
    assert agreement.main([str(_folder(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "logfile_access_log.0" in out and "not_a_logfile" not in out
    assert "no-lnav=2" in out and "0 of 0 files" in out


def test_verdicts_against_a_stand_in_lnav(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    mtime = 1_785_000_000  # 2026-07-25: March is before it, so the year is 2026
    os.utime(folder / "logfile_syslog.0", (mtime, mtime))
    monkeypatch.setenv("PATH", os.environ["PATH"])
    _fake_lnav(tmp_path, {"logfile_syslog.0": "syslog_log,2,0,2026-03-03 09:00:00.000",
                          "logfile_access_log.0": "access_log,2,1,2026-10-10 13:55:36.000"})
    assert agreement.main([str(folder), "--lnav-cache", str(tmp_path / "lnav.json")]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("logfile_")}
    assert rows["logfile_syslog.0"].endswith("agree")
    assert rows["logfile_access_log.0"].endswith("convention:4xx")  # lnav's 4xx error is our inferred warning
    assert "2 of 2 files" in out
    assert (tmp_path / "lnav.json").exists()


def test_a_time_a_year_or_some_zone_hours_apart_is_a_convention_and_others_differ(tmp_path: Path) -> None:
    path = tmp_path / "logfile_x.0"
    path.write_text("one line\n")
    ours = agreement.Reading(format="generic", lines=1, errors=0, first="2025-11-03 09:23:38")
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 1, 0, "2026-11-03 09:23:38")) == \
        "convention:year"
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 1, 0, "2025-11-03 11:23:38")) == \
        "convention:zone"
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 1, 0, "2025-11-03 09:23:39")) == "differ"
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 2, 0, "2025-11-03 09:23:38")) == "differ"
    assert agreement.verdict(path, ours, agreement.Reading("", 0, 0, "")) == "lnav-text"


def test_lnav_errors_from_syslog_words_are_a_convention_only_where_they_account_for_the_difference(
        tmp_path: Path) -> None:
    path = tmp_path / "logfile_syslog.0"
    path.write_text("Nov  3 09:23:38 gw automount[7]: lookup for foo failed\nNov  3 09:23:39 gw sudo: ok\n")
    os.utime(path, (1_785_000_000, 1_785_000_000))
    ours = agreement.ours(path)
    assert (ours.errors, ours.keyword_errors) == (0, 1)
    first = ours.first
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 2, 1, first)) == "convention:keywords"
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 2, 2, first)) == "differ"
    assert agreement.verdict(path, ours, agreement.Reading("generic_log", 2, 1, first)) == "differ"


def test_lines_our_format_does_not_parse_after_a_dated_one_are_folded_lines(tmp_path: Path) -> None:
    path = tmp_path / "logfile_filter.1"
    path.write_text("hello\nMar 22 13:41:18 mac syslogd[557]: stats\nbye\nhello\n")
    os.utime(path, (1_785_000_000, 1_785_000_000))
    ours = agreement.ours(path)
    assert (ours.lines, ours.folded) == (4, 2)  # the leading line has no entry above to fold into
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 2, 0, ours.first)) == "convention:lines"
    assert agreement.verdict(path, ours, agreement.Reading("syslog_log", 3, 0, ours.first)) == "differ"


def test_the_test_folders_formats_are_loaded_unless_this_lnav_refuses_them(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "test"
    for name, text in (("jsontest", '{"test_log": {}}'), ("newer", '{"later_log": {"kind": "later"}}')):
        (folder / "formats" / name).mkdir(parents=True)
        (folder / "formats" / name / "format.json").write_text(text)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "lnav"  # refuses a config folder holding a format with "later" in it
    script.write_text('#!/bin/sh\n! grep -rq later "$3/formats"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    into = tmp_path / "config"
    into.mkdir()
    assert agreement.load_test_formats(folder, str(tmp_path), into) == ["newer"]
    assert [p.parent.name for p in (into / "formats").glob("*/format.json")] == ["jsontest"]
