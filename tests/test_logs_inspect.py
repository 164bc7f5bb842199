"""`inspect()` and `react-engine inspect`: per-file summaries, totals, JSON keys and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from react_engine.app.cli import main
from react_engine.logs.options import LoadOptions
from react_engine.logs.summary import inspect

SYSLOG = "<11>Nov 20 10:00:01 h1 app[1]: bad\n<14>Nov 20 10:00:05 h1 app[1]: fine\nno header here\n"
ACCESS = '10.0.0.1 - - [20/Nov/2026:11:00:00 +0000] "GET / HTTP/1.1" 200 5\n'
KEYS = {"format", "rows", "timestamp_parsed", "time_range", "severity_counts", "columns", "warnings"}


def _files(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_text(SYSLOG)
    second.write_text(ACCESS)
    return first, second


def test_single_file_report(tmp_path: Path) -> None:
    first, _ = _files(tmp_path)
    report = inspect(first, LoadOptions(year=2026, use_cache=False))
    assert report.format == "syslog" and report.rows == 3 and report.timestamp_parsed == 2
    assert report.severity_counts == {"error": 1, "info": 1, "missing": 1}
    assert report.time_range is not None
    assert report.time_range.first.startswith("2026-11-20T10:00:01")
    assert report.time_range.last.startswith("2026-11-20T10:00:05")
    assert "raw" not in report.columns and "message" in report.columns
    assert set(report.to_json_dict()) >= KEYS and "files" not in report.to_json_dict()


def test_several_files_have_totals_and_files(tmp_path: Path) -> None:
    first, second = _files(tmp_path)
    data = inspect([first, second], LoadOptions(year=2026, use_cache=False)).to_json_dict()
    assert set(data) >= KEYS and "path" not in data
    assert [f["format"] for f in data["files"]] == ["syslog", "access"]
    assert data["rows"] == 4 == sum(f["rows"] for f in data["files"])
    assert data["timestamp_parsed"] == 3
    assert data["severity_counts"] == {"error": 1, "info": 1, "missing": 2}
    assert data["time_range"]["last"].startswith("2026-11-20T11:00:00")
    assert "status" in data["columns"] and "pid" in data["columns"]


def test_cli_json_and_text(tmp_path: Path) -> None:
    first, second = _files(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["inspect", "--json", "--no-cache", "--year", "2026", str(first)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rows"] == 3
    text = runner.invoke(main, ["inspect", "--no-cache", str(first), str(second)])
    assert text.exit_code == 0
    assert "format:     access" in text.output and "total (2 files)" in text.output


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["inspect", str(tmp_path / "missing.log")])
    assert missing.exit_code == 1 and "no such file" in missing.output
    assert len(missing.output.strip().splitlines()) == 1
    first, _ = _files(tmp_path)
    bad = runner.invoke(main, ["inspect", "--format", "nope", str(first)])
    assert bad.exit_code == 2 and "use one of" in bad.output and "Traceback" not in bad.output  # a usage error
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    result = runner.invoke(main, ["inspect", "--no-cache", str(binary)])
    assert result.exit_code == 1 and "only binary" in result.output


def test_dask_is_refused_on_the_command_line_and_left_to_other_commands_from_the_environment(tmp_path: Path) -> None:
    first, _ = _files(tmp_path)
    runner = CliRunner()
    refused = runner.invoke(main, ["inspect", "--no-cache", "--dask", "local:2", str(first)])
    assert refused.exit_code == 2 and "takes no --dask" in refused.output and "Traceback" not in refused.output
    from_env = runner.invoke(main, ["inspect", "--json", "--no-cache", str(first)], env={"REACT_ENGINE_DASK": "local"})
    assert from_env.exit_code == 0 and json.loads(from_env.output)["rows"] == 3
