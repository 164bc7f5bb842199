"""`--output text|json|csv|table`: rankings and histograms as tables and charts, CSV with headers, disclosures."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from react_engine.app.cli import main
from react_engine.app.cli.chart import bar, chart
from react_engine.logs import load

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"
APP = ROOT / "sample_logs" / "app" / "app.jsonl"
START = datetime(2026, 11, 20, tzinfo=UTC)
HOUR = timedelta(hours=1)


@pytest.fixture(autouse=True)
def _isolated(cli_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "72")


def act(action: str, **params) -> str:
    return json.dumps({"action": action, "params": params})


def ask(tmp_path: Path, log: Path, *replies: str, output: str = "text"):
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(list(replies)))
    return CliRunner().invoke(main, ["ask", "q", str(log), "--planner", f"script:{path}", "--no-trace",
                                     "--output", output], catch_exceptions=False)


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture
def tied_log(tmp_path: Path) -> Path:
    """Hosts a:3, b:2, c:2, d:2, e:1."""
    hosts = "aaabbccdde"
    path = tmp_path / "tied.log"
    path.write_text("".join(f"Nov 20 10:00:{i:02d} {h} app[1]: hello\n" for i, h in enumerate(hosts)))
    return path


def test_a_ranking_prints_as_a_table_and_discloses_what_is_left_out_and_ties(tmp_path: Path, tied_log: Path) -> None:
    replies = (act("top_values", field="host", n=2), act("finalize_answer", answer="a leads with 3", value=3))
    table = ask(tmp_path, tied_log, *replies, output="table")
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["VALUE", "COUNT"]
    assert [line.split() for line in lines[1:3]] == [["a", "3"], ["b", "2"]]
    assert "(2 of 5 values shown; 2 more tie at 2)" in lines
    text = ask(tmp_path, tied_log, *replies).stdout
    assert text.splitlines()[0] == "a leads with 3" and "2 of 5 values shown; 2 more tie at 2" in text


def test_ranking_csv_is_value_then_count_and_matches_the_logs(tmp_path: Path) -> None:
    frame = load([str(SYSLOG)])
    expected = frame["host"].value_counts()
    result = ask(tmp_path, SYSLOG, act("top_values", field="host", n=3),
                 act("finalize_answer", answer="top hosts", value=None), output="csv")
    rows = rows_of(result.stdout)
    assert rows[0] == ["value", "count"] and len(rows) == 4
    assert {value: int(count) for value, count in rows[1:]} == {k: int(expected[k]) for k, _ in rows[1:]}
    assert [int(c) for _, c in rows[1:]] == sorted(expected.to_numpy().tolist(), reverse=True)[:3]
    if len(expected) > 3:
        assert f"3 of {len(expected)} values shown" in result.stderr  # the disclosure, kept out of the CSV


def test_a_histogram_is_a_bar_chart_that_fits_the_terminal_and_csv_is_bucket_then_count(tmp_path: Path) -> None:
    frame = load([str(SYSLOG)])
    replies = (act("count_by_time", interval="1h"), act("finalize_answer", answer="per hour", value=None))
    text = ask(tmp_path, SYSLOG, *replies).stdout
    bars = [line for line in text.splitlines() if "█" in line or any(c in line for c in "▏▎▍▌▋▊▉")]
    assert bars and all(len(line) <= 72 for line in bars)
    rows = rows_of(ask(tmp_path, SYSLOG, *replies, output="csv").stdout)
    assert rows[0] == ["bucket_start", "count"]
    assert sum(int(c) for _, c in rows[1:]) == int(frame["timestamp"].notna().sum())
    assert len(bars) == len(rows) - 1
    peak = max(rows[1:], key=lambda r: int(r[1]))
    assert any(line.rstrip().endswith(f"{int(peak[1]):,}") and "█" * 10 in line for line in bars)


def test_empty_buckets_left_out_are_said_with_the_chart(tmp_path: Path) -> None:
    path = tmp_path / "long.log"
    path.write_text("".join(f"2026-11-{d:02d}T10:00:00Z host app: x\n" for d in range(1, 29)))
    result = ask(tmp_path, path, act("count_by_time", interval="1m"), act("finalize_answer", answer="ok"))
    assert "the 28 with rows listed" in result.stdout and "empty ones left out" in result.stdout


def test_a_listing_csv_holds_the_matching_log_rows(tmp_path: Path) -> None:
    frame = load([str(SYSLOG)])
    matching = frame[frame["message"].str.contains("Failed password", case=False)]
    result = ask(tmp_path, SYSLOG, act("search_logs", value="Failed password"), act("show_logs", n=2),
                 act("finalize_answer", answer="these"), output="csv")
    rows = rows_of(result.stdout)
    assert rows[0][:2] == ["source", "line"] and "message" in rows[0]
    assert sorted(int(r[1]) for r in rows[1:]) == sorted(matching["line"].tolist())


def test_a_single_value_is_one_csv_cell_and_json_is_the_full_result(tmp_path: Path) -> None:
    replies = (act("get_log_count"), act("finalize_answer", answer="many", value=None))
    assert rows_of(ask(tmp_path, SYSLOG, *replies, output="csv").stdout) == [
        ["value"], [str(len(load([str(SYSLOG)])))]]
    assert json.loads(ask(tmp_path, SYSLOG, *replies, output="json").stdout)["stop_reason"] == "stop"


@given(count=st.integers(0, 10**6), peak=st.integers(1, 10**6), width=st.integers(1, 200))
def test_a_bar_never_overflows_and_only_empty_buckets_are_blank(count: int, peak: int, width: int) -> None:
    count = min(count, peak)
    drawn = bar(count, peak, width)
    assert len(drawn) <= width + 1 and (drawn == "") == (count == 0)


@given(counts=st.lists(st.integers(1, 10**5), min_size=1, max_size=30), width=st.integers(20, 200))
def test_a_chart_has_one_line_per_busy_bucket_within_the_width(counts: list[int], width: int) -> None:
    buckets = [[f"2026-11-20T{h % 24:02d}:00:00+00:00", c] for h, c in enumerate(counts)]
    lines = chart(buckets, width).splitlines()
    assert len(lines) == len(counts)
    assert all(len(line) <= max(width, 16 + 10 + 4 + len(f"{max(counts):,}")) for line in lines)
    assert [int(line.split()[-1].replace(",", "")) for line in lines] == counts


@pytest.mark.parametrize("output", ["csv", "table"])
def test_a_refusal_prints_nothing_on_stdout_for_csv_and_table_and_says_why_on_stderr(output: str) -> None:
    result = CliRunner().invoke(main, ["ask", "What is the meaning of life?", str(SYSLOG), "--planner", "rules",
                                       "--no-trace", "--output", output])
    assert result.exit_code == 1 and result.stdout == ""
    assert "I could not answer this" in result.stderr and "unverified" in result.stderr


def test_a_refusal_in_json_is_one_json_document_and_exit_1() -> None:
    result = CliRunner().invoke(main, ["ask", "What is the meaning of life?", str(SYSLOG), "--planner", "rules",
                                       "--no-trace", "--output", "json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["verified"] is False
    assert "not answered" in result.stderr


def test_an_unverified_answer_in_csv_keeps_the_mark_off_stdout(tmp_path: Path) -> None:
    result = ask(tmp_path, SYSLOG, act("get_log_count"), act("finalize_answer", answer="There are 7 lines", value=7),
                 output="csv")
    assert rows_of(result.stdout)[0] == ["value"] and "⚠" not in result.stdout and "There are" not in result.stdout
    assert "unverified" in result.stderr


@pytest.mark.parametrize("value", [7, {"lines": 7}])
def test_an_unverified_answer_puts_no_invented_number_in_a_cell_but_what_the_tool_computed(
        tmp_path: Path, value) -> None:
    count = str(len(load([str(SYSLOG)])))
    replies = (act("get_log_count"), act("finalize_answer", answer="There are 7 lines", value=value))
    rows = rows_of(ask(tmp_path, SYSLOG, *replies, output="csv").stdout)
    assert rows == [["value"], [count]]
    assert ask(tmp_path, SYSLOG, *replies, output="table").stdout.split() == ["VALUE", f"{int(count):,}"]


def test_runs_of_empty_buckets_fold_into_one_line(tmp_path: Path) -> None:
    path = tmp_path / "sparse.log"
    path.write_text("".join(f"2026-11-{1 + h // 24:02d}T{h % 24:02d}:05:00Z host sshd: user guest\n"
                            for h in (0, 1, 66, 132)))
    replies = (act("count_by_time", interval="1h"), act("finalize_answer", answer="per hour", value=None))
    text = ask(tmp_path, path, *replies).stdout
    folds = [line for line in text.splitlines() if "empty buckets" in line]
    bars = [line for line in text.splitlines() if line.startswith("2026-") and line not in folds]
    assert [line.split()[-1] for line in bars] == ["1", "1", "1", "1"]
    assert len(folds) == 2 and "64 empty buckets" in folds[0] and "65 empty buckets" in folds[1]
    assert folds[0].startswith("2026-11-01 02:00 ") and folds[0].endswith(" to 2026-11-03 17:00")
    assert len(rows_of(ask(tmp_path, path, *replies, output="csv").stdout)) == 1 + 133  # the data keeps them all


@given(counts=st.lists(st.integers(0, 3), min_size=1, max_size=60))
def test_a_chart_folds_only_runs_of_three_or_more_empty_buckets(counts: list[int]) -> None:
    buckets = [[(START + i * HOUR).isoformat(), c] for i, c in enumerate(counts)]
    lines = chart(buckets, 80).splitlines()
    assert all(len(line) <= 80 for line in lines)
    folded = sum(int(line.split("empty")[0].split()[-1]) for line in lines if "empty buckets" in line)
    drawn = [int(line.split()[-1]) for line in lines if "empty buckets" not in line]
    assert folded + len(drawn) == len(counts) and sum(drawn) == sum(counts)
    runs = "".join("0" if c == 0 else "x" for c in counts).split("x")
    assert folded == sum(len(run) for run in runs if len(run) >= 3)


@pytest.mark.parametrize("output", ["csv", "table"])
def test_a_listing_of_the_n_newest_lines_holds_those_lines_in_that_order(tmp_path: Path, output: str) -> None:
    frame = load([str(APP)])
    errors = frame[frame["severity"] == "error"].sort_values("timestamp", ascending=False)
    result = CliRunner().invoke(main, ["ask", "show the 3 newest error lines", str(APP), "-o", output, "--planner",
                                       "rules", "--no-trace"])
    assert result.exit_code == 0, result.output
    shown = rows_of(result.stdout)[1:] if output == "csv" else [line.split() for line in result.stdout.splitlines()[1:]]
    lines = [int(row[1].replace(",", "")) for row in shown]
    assert lines == errors["line"].head(3).tolist()
    every = CliRunner().invoke(main, ["ask", "show error lines", str(APP), "-o", "csv", "--planner", "rules",
                                      "--no-trace"])
    assert len(rows_of(every.stdout)) - 1 == len(errors)  # no number asked: every matching line
