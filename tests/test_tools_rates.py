"""field_stats with `per`: a statistic of the current rows counted per time bucket, against pandas (every bucket
from the first timed row's to the last's, the empty ones 0, as `timechart count | stats` gives it)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.errors import ToolError
from tests.tool_frames import context, frame, frames, run

FUNCS = ["count", "sum", "mean", "median", "min", "max", "stddev", "p50", "p95", "p99.5"]
WIDTHS = {"1m": "1min", "7m": "7min", "1h": "1h", "1d": "1D"}  # as the tool reads it: as pandas does


def _stat(counts: pd.Series, func: str) -> float:
    values = counts.to_numpy(dtype=float)
    if func.startswith("p"):
        return float(np.percentile(values, float(func[1:])))
    return {"count": len(values), "sum": values.sum(), "mean": values.mean(), "median": np.median(values),
            "min": values.min(), "max": values.max(), "stddev": np.std(values)}[func]


def _per_bucket(stamps: pd.Series, width: str, span: tuple[pd.Timestamp, pd.Timestamp]) -> pd.Series:
    """Rows per bucket of `width` over every bucket of `span` (the floored first and last times)."""
    full = pd.date_range(*span, freq=WIDTHS[width])
    return stamps.dt.floor(WIDTHS[width]).value_counts().reindex(full, fill_value=0)


def _span(stamps: pd.Series, width: str) -> tuple[pd.Timestamp, pd.Timestamp]:
    return stamps.min().floor(WIDTHS[width]), stamps.max().floor(WIDTHS[width])


@settings(max_examples=80, deadline=None)
@given(frames(), st.sampled_from(FUNCS), st.sampled_from(sorted(WIDTHS)))
def test_a_rate_is_the_pandas_statistic_of_the_rows_per_bucket(df: pd.DataFrame, func: str, width: str) -> None:
    result = run("field_stats", context(df), func=func, per=width)
    stamps = df["timestamp"].dropna()
    if stamps.empty:
        assert result.value.recorded() == {"rows": 0}
        return
    counts = _per_bucket(stamps, width, _span(stamps, width))
    value = result.value.recorded()
    assert value[func] == pytest.approx(_stat(counts, func), rel=1e-5, abs=1e-9)
    assert (value["buckets"], value["counted"]) == (len(counts), len(stamps))
    assert pd.Timestamp(value["from"]) == counts.index[0]
    if func == "max":
        assert pd.Timestamp(value["at"]) == counts.idxmax()


@settings(max_examples=60, deadline=None)
@given(frames(), st.sampled_from(FUNCS), st.sampled_from(sorted(WIDTHS)), st.sampled_from(["host", "status", "pid"]))
def test_a_rate_per_group_counts_each_group_over_the_same_buckets(df: pd.DataFrame, func: str, width: str,
                                                                 key: str) -> None:
    result = run("field_stats", context(df), func=func, per=width, by=[key])
    kept = df.dropna(subset=["timestamp", key])
    if kept.empty:
        assert result.value.recorded() == {"rows": 0}
        return
    span = _span(kept["timestamp"], width)
    expected = {str(v): _stat(_per_bucket(rows["timestamp"], width, span), func)
                for v, rows in kept.groupby(kept[key].astype(str))}
    got = {str(k): v for k, v in result.value.recorded()["rows"]}
    assert got.keys() == expected.keys()
    assert all(got[k] == pytest.approx(expected[k], rel=1e-5, abs=1e-9) for k in expected)
    assert result.value.recorded()["groups"] == len(expected) and result.value.recorded()["counted"] == len(kept)
    ranked = [v for _, v in result.value.recorded()["rows"]]
    assert ranked == sorted(ranked, reverse=True)  # the largest statistic first


def test_empty_buckets_between_rows_count_as_zero() -> None:
    times = ["2026-11-20T10:05:00Z", "2026-11-20T10:50:00Z", "2026-11-20T13:10:00Z"]  # 10h: 2, 11h: 0, 12h: 0, 13h: 1
    df = frame([{"message": "x", "timestamp": pd.Timestamp(t)} for t in times])
    value = run("field_stats", context(df), func="mean", per="1h").value.recorded()
    assert (value["mean"], value["buckets"], value["counted"]) == (0.75, 4, 3)
    assert run("field_stats", context(df), func="median", per="1h").value.recorded()["median"] == 0.5


def test_a_rate_counts_rows_so_a_field_or_a_time_bucket_in_by_is_refused() -> None:
    df = frame([{"message": "x"}, {"message": "y"}])
    with pytest.raises(ToolError, match="leave field null"):
        run("field_stats", context(df), field="status", func="mean", per="1h")
    with pytest.raises(ToolError, match="per is the time bucket"):
        run("field_stats", context(df), func="mean", per="1h", by=["1m"])


def test_too_many_buckets_ask_for_a_wider_one() -> None:
    times = ["2026-01-01T00:00:00Z", "2026-12-31T00:00:00Z"]
    df = frame([{"message": "x", "timestamp": pd.Timestamp(t)} for t in times])
    with pytest.raises(ToolError, match="wider bucket"):
        run("field_stats", context(df), func="mean", per="1s")
    assert run("field_stats", context(df), func="sum", per="1d").value.recorded()["sum"] == 2



def test_a_group_key_the_current_rows_never_write_is_an_error_not_rows_without_a_time() -> None:
    """`by` a field of the messages' patterns (`src: <*>`) that no current row writes, though the rows carry times:
    the tool says so, rather than that no row has a time."""
    stamps = pd.date_range("2026-11-20T10:00:00Z", periods=12, freq="20min")
    lines = [f"Receiving block blk_{i} src: /10.0.0.{i % 3}:5001{i % 7} dest: /10.0.1.{i % 4}:50010" if i % 2 else
             f"ask 10.0.0.{i % 3}:50010 to replicate blk_{i} to datanode(s) 10.0.1.{i % 4}:50010"
             for i in range(len(stamps))]
    df = frame([{"message": m, "timestamp": t} for m, t in zip(lines, stamps, strict=True)])
    replicated = df[df["message"].str.contains("replicate")]
    ctx = context(df, replicated)
    assert run("field_stats", ctx, func="count", per="1h").value.recorded()["counted"] == len(replicated)
    assert run("field_stats", context(df), func="count", per="1h", by=["src"]).value.recorded()["groups"] == 3
    with pytest.raises(ToolError, match="writes src"):
        run("field_stats", ctx, func="count", per="1h", by=["src"])


def test_a_rate_of_lines_searched_by_a_phrase_is_not_grouped_by_a_word_of_it() -> None:
    """"how many invalid user per hour on average": `Invalid user` names the lines counted, so the rate is one number
    (the lines over every hour of their span), not a rate per user; truth from a regex over the raw lines."""
    import re

    from real_logs import real_log

    from react_engine import Engine
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    log = real_log("OpenSSH")
    hours = [int(m.group(1)) for line in log.read_text().splitlines()
             if "Invalid user" in line and (m := re.match(r"\w{3} +\d+ (\d\d):", line))]
    result = Engine(RulesPlanner()).ask("How many invalid user per hour on average?", [str(log)],
                                        load_options=LoadOptions(use_cache=False))
    assert result.verified and result.value == pytest.approx(len(hours) / (max(hours) - min(hours) + 1), rel=1e-4)
