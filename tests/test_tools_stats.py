"""Counts, top values, histograms and shown lines, checked against pandas and plain Python."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tool_frames import context, frame, frames, run

from react_engine.errors import ToolError
from react_engine.settings import Settings
from react_engine.tools.stats import MAX_BINS

FAST = settings(max_examples=60, deadline=None)


@given(df=frames(), field=st.sampled_from(["host", "component", "pid", "status", "level_raw"]), n=st.integers(1, 6))
@FAST
def test_top_values_are_ranked_by_count_then_value(df: pd.DataFrame, field: str, n: int) -> None:
    counts = df[field].dropna().value_counts()
    expected = sorted(((int(v) if field == "status" else v, int(c)) for v, c in counts.items()),
                      key=lambda pair: (-pair[1], pair[0]))[:n]
    if field == "status" and counts.empty:  # no status column nor any status in the lines: the logs have none
        with pytest.raises(ToolError, match="these logs have no status codes"):
            run("top_values", context(df), field=field, n=n)
        return
    result = run("top_values", context(df), field=field, n=n)
    assert result.value.recorded() == [list(pair) for pair in expected]
    if expected:
        top_rows = df.index[(df[field] == expected[0][0]).fillna(False).to_numpy(dtype=bool)]
        assert result.evidence is None if len(top_rows) == len(df) else list(result.evidence) == list(top_rows)


def test_top_values_of_current_rows_and_entity_types() -> None:
    df = frame([{"message": "a 10.0.0.2", "host": "h1"}, {"message": "b 10.0.0.1 10.0.0.2", "host": "h2"},
                {"message": "c 10.0.0.1", "host": "h2"}, {"message": "d", "host": "h3"}])
    assert run("top_values", context(df, df.loc[[100, 101]]), field="host").value.recorded() == [["h1", 1], ["h2", 1]]
    result = run("top_values", context(df), field="ip", n=1)
    assert result.value.recorded() == [["10.0.0.1", 2]] and list(result.evidence) == [101, 102]
    assert list(result.entities["ip"]) == ["10.0.0.2", "10.0.0.1", "10.0.0.2", "10.0.0.1"]
    with pytest.raises(ToolError, match="no column or entity type 'gizmo'; columns are: timestamp"):
        run("top_values", context(df), field="gizmo")


def _histogram(stamps: pd.Series, width: pd.Timedelta) -> list[list[object]]:
    """Every bucket from the first stamp's to the last's, counted one stamp at a time in plain Python."""
    epoch = pd.Timestamp(0, tz="UTC")
    counts = Counter((stamp - epoch) // width for stamp in stamps)
    return [[(epoch + n * width).isoformat(), counts[n]] for n in range(min(counts), max(counts) + 1)]


@given(df=frames(), interval=st.sampled_from(["15m", "1h", "2h", "1d", "30m"]))
@FAST
def test_count_by_time_matches_bucket_counting(df: pd.DataFrame, interval: str) -> None:
    stamps = df["timestamp"].dropna()
    result = run("count_by_time", context(df), interval=interval)
    if stamps.empty:
        assert result.value.recorded() == []
        return
    width = pd.Timedelta(interval.replace("m", "min").replace("d", "D"))
    assert result.value.recorded() == _histogram(stamps, width)
    peak = max(result.value.recorded(), key=lambda bucket: bucket[1])
    assert len(result.evidence) == peak[1]


@given(df=frames(), interval=st.sampled_from(["15m", "1h", "1d"]), order=st.sampled_from(["desc", "asc"]))
@FAST
def test_count_by_time_orders_the_buckets_by_count_ties_by_time(df: pd.DataFrame, interval: str, order: str) -> None:
    stamps = df["timestamp"].dropna()
    result = run("count_by_time", context(df), interval=interval, order=order)
    if stamps.empty:
        assert result.value.recorded() == []
        return
    by_time = _histogram(stamps, pd.Timedelta(interval.replace("m", "min").replace("d", "D")))
    expected = sorted(by_time, key=lambda bucket: bucket[1] if order == "asc" else -bucket[1])  # stable: by time
    assert result.value.recorded() == expected
    assert ("busiest first" if order == "desc" else "quietest first") in result.summary


@given(hours=st.lists(st.integers(0, 24 * 90), min_size=1, max_size=40))
@FAST
def test_count_by_time_keeps_the_asked_bucket_over_a_long_span(hours: list[int]) -> None:
    df = frame([{"message": "x", "timestamp": pd.Timestamp("2026-08-01T00:00Z") + pd.Timedelta(hours=h, minutes=7)}
                for h in [0, *hours, 24 * 90]])  # over 2,000 hourly buckets from the first to the last line
    result = run("count_by_time", context(df), interval="1h")
    busy = [bucket for bucket in _histogram(df["timestamp"], pd.Timedelta(hours=1)) if bucket[1]]
    assert result.value.recorded() == busy  # hourly buckets, the empty ones left out
    peak = max(busy, key=lambda bucket: bucket[1])
    assert f"peak {peak[0]} ({peak[1]:,} rows)" in result.summary and "empty" in result.summary


def test_count_by_time_lists_the_busiest_buckets_when_even_the_busy_ones_are_too_many() -> None:
    df = frame([{"message": "x", "timestamp": pd.Timestamp("2026-11-20T00:00Z") + pd.Timedelta(seconds=s)}
                for s in [*range(MAX_BINS + 10), 5, 5]])
    result = run("count_by_time", context(df), interval="1s")
    assert len(result.value.recorded()) == MAX_BINS and result.value.recorded()[0] == ["2026-11-20T00:00:00+00:00", 1]
    assert ["2026-11-20T00:00:05+00:00", 3] in result.value.recorded() and "busiest" in result.summary
    with pytest.raises(ToolError, match="cannot read interval"):
        run("count_by_time", context(df), interval="every hour")


@given(years=st.lists(st.integers(1700, 2260), min_size=1, max_size=20), interval=st.sampled_from(["1h", "1d"]))
@FAST
def test_count_by_time_over_the_whole_range_of_timestamps(years: list[int], interval: str) -> None:
    stamps = [pd.Timestamp(f"{year}-06-01T12:00Z") for year in [1700, *years, 2260]]  # 560 years apart
    df = frame([{"message": "x", "timestamp": stamp} for stamp in stamps])
    df["timestamp"] = df["timestamp"].astype("datetime64[ns, UTC]")  # as the loader gives them
    result = run("count_by_time", context(df), interval=interval)
    assert sum(bucket[1] for bucket in result.value.recorded()) == len(stamps)
    assert result.value.recorded()[0][0].startswith("1700-06-01") and result.value.recorded()[-1][0].startswith("2260-06-01")
    assert "empty ones left out" in result.summary


def test_get_log_count_counts_current_rows() -> None:
    df = frame([{"message": str(i)} for i in range(7)])
    result = run("get_log_count", context(df, df.iloc[2:5]))
    assert result.value.recorded() == 3 and result.summary == "3 of 7 rows"


def test_show_logs_gives_source_line_and_flattened_truncated_text() -> None:
    df = frame([{"message": "first\nsecond\tline"}, {"message": "x" * 500}, {"message": "third"}])
    ctx = context(df, df.loc[[101, 102, 100]], settings=Settings(sample_chars=60))
    result = run("show_logs", ctx, n=2)
    assert list(result.evidence) == [101, 102]
    long, short = result.value.recorded()
    assert long.startswith("test.log:2 ") and long.endswith("…") and len(long) == len("test.log:2 ") + 60
    assert short == "test.log:3 " + df.loc[102, "raw"]
    first = run("show_logs", context(df), n=1).value.recorded()[0]
    assert "\n" not in first and "\t" not in first and first.endswith("first second line")


@given(number=st.floats(min_value=-1e14, max_value=1e14, allow_nan=False).filter(lambda x: x != 0))
def test_a_plain_number_keeps_every_digit_before_the_point_and_six_significant(number: float) -> None:
    from react_engine.tools.numeric import plain

    shown = plain(number)
    if abs(number) >= 1e5:
        assert abs(shown - number) <= 0.05 + abs(number) * 1e-15  # one decimal kept, never tens rounded away
    else:
        assert abs(shown - number) <= abs(number) * 5e-6  # six significant digits


def test_an_average_of_large_values_is_printed_to_its_tenth(tmp_path) -> None:
    import json

    from click.testing import CliRunner

    from react_engine.app.cli import main

    sizes = [10_000_000, 90_000_000, 80_000_000, 70_000_000, 68_275_742]
    log = tmp_path / "sizes.jsonl"
    log.write_text("".join(json.dumps({"ts": f"2026-11-20T10:00:0{i}Z", "level": "INFO", "msg": "done", "bytes": v})
                           + "\n" for i, v in enumerate(sizes)))
    result = CliRunner().invoke(main, ["ask", "what is the average bytes?", str(log), "--planner", "rules",
                                       "--no-trace", "--no-cache"])
    mean = sum(sizes) / len(sizes)
    assert f"{mean:,.1f}" in result.stdout and "63,655,100" not in result.stdout, result.output
