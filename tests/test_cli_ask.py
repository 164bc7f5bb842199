"""`react-engine ask` end to end: scripted replies through the real CLI, and bad input ending cleanly."""

from __future__ import annotations

import bz2
import gzip
import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from react_engine.app.cli import main
from react_engine.logs import load

ROOT = Path(__file__).resolve().parents[1]
CMTS = ROOT / "sample_logs" / "cmts"
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with socket.socket() as s:  # a port nothing listens on: Ollama is "down"
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{s.getsockname()[1]}")


def script(tmp_path: Path, *replies: dict) -> str:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps([json.dumps(r) for r in replies]))
    return f"script:{path}"


def act(action: str, **params) -> dict:
    return {"reasoning": "r", "action": action, "params": params}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_scripted_answer_json_has_the_contract_keys(tmp_path: Path) -> None:
    frame = load([str(CMTS)])
    expected = int((frame["host"] == "MAWED07T01").sum())
    planner = script(tmp_path, act("filter_by_field", field="host", value="MAWED07T01"), act("get_log_count"),
                     act("finalize_answer", answer=f"MAWED07T01 logged {expected} lines.", value=expected))
    result = invoke("ask", "How many lines from MAWED07T01?", str(CMTS), "--planner", planner, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("query", "answer", "value", "verified", "stop_reason", "steps", "statistics", "evidence", "planner",
                "model", "trace_file", "now"):
        assert key in data
    assert data["value"] == expected and data["verified"] is True and data["stop_reason"] == "stop"
    for key in ("iteration", "action", "params", "observation", "value", "ok", "error", "duration_ms",
                "prompt_tokens"):
        assert key in data["steps"][0]
    for key in ("iterations", "llm_calls", "tool_calls", "prompt_tokens_max", "prompt_tokens_total",
                "execution_time_seconds", "rows_loaded"):
        assert key in data["statistics"]
    assert data["statistics"]["rows_loaded"] == len(frame)
    assert all(e["text"].split()[1] == "MAWED07T01" or "MAWED07T01" in e["text"] for e in data["evidence"])
    assert Path(data["trace_file"]).is_file()


def test_human_output_has_answer_mark_evidence_and_footer(tmp_path: Path) -> None:
    failed = sum("failed password" in line.lower() for line in SYSLOG.read_text().splitlines())
    planner = script(tmp_path, act("search_logs", value="Failed password"), act("get_log_count"),
                     act("finalize_answer", answer=f"{failed} lines.", value=None))
    result = invoke("ask", "failed passwords?", str(SYSLOG), "--planner", planner, "--no-trace")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{failed} lines."
    assert lines[1].startswith("✓ verified")
    assert "evidence:" in lines and any("Failed password" in line for line in lines)
    assert "— stop" not in result.stdout
    assert result.stderr.splitlines()[-1].startswith("— stop · 3 steps · 0 model calls")


def test_verbose_prints_each_iteration_and_trace_path(tmp_path: Path) -> None:
    planner = script(tmp_path, act("get_log_count"), act("finalize_answer", answer="ok"))
    result = invoke("ask", "q", str(SYSLOG), "--planner", planner, "-v", "--trace-dir", str(tmp_path / "t"))
    assert "[1] get_log_count({})" in result.stderr and " tok" in result.stderr
    assert f"trace: {tmp_path / 't'}" in result.stderr


def test_limit_exits_1_with_a_hint(tmp_path: Path) -> None:
    planner = script(tmp_path, act("get_log_count"), act("search_logs", value="x"), act("show_logs", n=1))
    result = invoke("ask", "q", str(SYSLOG), "--planner", planner, "--max-iterations", "2", "--no-trace")
    assert result.exit_code == 1
    assert "tool_limit" in result.stderr and "--max-iterations" in result.stderr


def test_offline_auto_falls_back_to_rules_with_one_line_notice(tmp_path: Path) -> None:
    result = invoke("ask", "How many lines are there?", str(SYSLOG), "--no-trace")
    notice = [line for line in result.stderr.splitlines() if "rules planner" in line]
    assert len(notice) == 1 and "not reachable" in notice[0]
    assert result.exit_code == 0
    assert "planner rules" in result.stderr


def test_now_override_is_reported(tmp_path: Path) -> None:
    planner = script(tmp_path, act("filter_by_time", start="now-1h", end="now"), act("get_log_count"),
                     act("finalize_answer", answer="done"))
    result = invoke("ask", "q", str(SYSLOG), "--planner", planner, "--now", "2026-11-20T12:00:00Z", "--json",
                    "--no-trace")
    assert json.loads(result.stdout)["now"] == "2026-11-20T12:00:00+00:00"


@pytest.mark.parametrize("kind", ["missing", "empty", "binary", "corrupt_gz", "directory_without_files"])
def test_bad_input_is_one_line_and_no_traceback(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "input.log"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "binary":
        path.write_bytes(bytes(range(256)) * 64)
    elif kind == "corrupt_gz":
        path = tmp_path / "input.log.gz"
        path.write_bytes(gzip.compress(b"Nov 20 10:00:00 host sshd[1]: hello\n" * 100)[:60])
    elif kind == "directory_without_files":
        path = tmp_path / "emptydir"
        path.mkdir()
    result = invoke("ask", "how many errors?", str(path), "--planner", "rules", "--no-trace")
    assert "Traceback" not in result.output + result.stderr
    if kind == "empty":
        assert result.exit_code in (0, 1)
    else:
        assert result.exit_code == 1
        assert str(path.name) in result.output + result.stderr


def test_compressed_inputs_answer_like_plain(tmp_path: Path) -> None:
    raw = SYSLOG.read_bytes()
    (tmp_path / "a.gz").write_bytes(gzip.compress(raw))
    (tmp_path / "b.bz2").write_bytes(bz2.compress(raw))
    planner = script(tmp_path, act("get_log_count"), act("finalize_answer", answer="ok"))
    for name in ("a.gz", "b.bz2"):
        out = json.loads(invoke("ask", "q", str(tmp_path / name), "--planner", planner, "--json",
                                "--no-trace").stdout)
        assert out["steps"][0]["value"] == len(raw.splitlines())


def test_usage_error_exits_2() -> None:
    assert invoke("ask").exit_code == 2
    assert invoke("ask", "q", "x", "--max-iterations", "0").exit_code == 2


def test_unreadable_script_is_one_line(tmp_path: Path) -> None:
    result = invoke("ask", "q", str(SYSLOG), "--planner", f"script:{tmp_path / 'none.json'}")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "none.json" in result.output


def test_a_question_the_rules_planner_cannot_map_exits_1_with_a_suggestion() -> None:
    result = invoke("ask", "What is the meaning of life?", str(SYSLOG), "--planner", "rules", "--no-trace")
    assert result.exit_code == 1
    assert "rephrase" in result.stdout.lower() and "no tool computed" in result.stderr


def test_an_unknown_tool_to_approve_is_a_usage_error_naming_the_valid_ones(tmp_path: Path) -> None:
    result = invoke("ask", "q", str(SYSLOG), "--planner", "rules", "--approve", "export_result", "--no-trace")
    assert result.exit_code == 2 and "export_result" in result.output and "export_results" in result.output
    assert "Traceback" not in result.output


def test_overwrite_lets_an_approved_export_replace_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "out.csv").write_text("old")
    planner = script(tmp_path, act("export_results", path="out.csv"), act("finalize_answer", answer="done"))
    args = ("ask", "q", str(SYSLOG), "--planner", planner, "--approve", "export_results", "--output-dir",
            str(tmp_path), "--no-trace", "--json")
    kept = json.loads(invoke(*args).stdout)
    assert "--overwrite" in kept["steps"][0]["error"] and (tmp_path / "out.csv").read_text() == "old"
    replaced = json.loads(invoke(*args, "--overwrite").stdout)
    assert replaced["steps"][0]["ok"] and (tmp_path / "out.csv").read_text() != "old"


def test_timeout_bounds_the_whole_question_and_says_how_to_raise_it() -> None:
    result = CliRunner().invoke(main, ["ask", "How many lines?", str(SYSLOG), "--planner", "rules", "--no-cache",
                                       "--no-trace", "--json", "--timeout", "0.000001"])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert payload["stop_reason"] == "time_limit" and "--timeout" in payload["answer"]
    roomy = CliRunner().invoke(main, ["ask", "How many lines?", str(SYSLOG), "--planner", "rules", "--no-trace",
                                      "--json", "--timeout", "600"])
    assert roomy.exit_code == 0 and json.loads(roomy.stdout)["stop_reason"] == "stop"


@pytest.mark.parametrize("value", ["0", "-5", "soon"])
def test_a_timeout_that_is_not_a_positive_number_is_a_usage_error(value: str) -> None:
    result = CliRunner().invoke(main, ["ask", "How many lines?", str(SYSLOG), "--timeout", value])
    assert result.exit_code == 2 and "--timeout" in result.output


APP = ROOT / "sample_logs" / "app" / "app.jsonl"


@pytest.mark.parametrize("question", ["when was the first failed password?", "which hour had the most lines?"])
def test_a_date_from_a_log_without_years_says_the_year_is_assumed_and_how_to_set_it(question: str,
                                                                                    tmp_path: Path) -> None:
    copy = tmp_path / "messages"  # a syslog file: `Nov 20 10:00:00`, no year
    copy.write_bytes(SYSLOG.read_bytes())
    asked = ["ask", question, str(copy), "--planner", "rules", "--no-trace"]
    assumed = CliRunner().invoke(main, asked)
    assert assumed.exit_code == 0 and "year assumed" in assumed.stdout and "--year" in assumed.stdout, assumed.output
    assert "✓ verified" in assumed.stdout
    given = CliRunner().invoke(main, [*asked, "--year", "2005"])
    assert given.exit_code == 0 and "2005-" in given.stdout and "year assumed" not in given.stdout, given.output
    counted = CliRunner().invoke(main, ["ask", "how many failed passwords?", str(copy), "--planner", "rules",
                                        "--no-trace"])
    assert "year assumed" not in counted.stdout  # no date printed: nothing to say
    dated = CliRunner().invoke(main, ["ask", "when was the first error?", str(APP), "--planner", "rules", "--no-trace"])
    assert "2026-11-19" in dated.stdout and "year assumed" not in dated.stdout  # ISO dates carry their year


def test_the_year_note_names_only_the_yearless_files_behind_the_answer(tmp_path: Path) -> None:
    yearless, dated = tmp_path / "messages", tmp_path / "app.jsonl"  # syslog writes no year; JSON lines do
    yearless.write_bytes(SYSLOG.read_bytes())
    dated.write_bytes(APP.read_bytes())
    both = ["--planner", "rules", "--no-trace", str(yearless), str(dated)]
    from_dated = CliRunner().invoke(main, ["ask", "when was the first error in app.jsonl?", *both])
    assert "2026-" in from_dated.stdout and "year assumed" not in from_dated.stdout, from_dated.output
    from_yearless = CliRunner().invoke(main, ["ask", "when was the first failed password?", *both])
    assert "year assumed: " + str(yearless) in from_yearless.stdout, from_yearless.output
    assert str(dated) not in from_yearless.stdout.split("year assumed")[1]
