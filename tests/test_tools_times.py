"""First and last times, silences, start-to-end durations and ordered listings, checked against pandas and a plain
loop over the rows."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tool_frames import HOSTS, context, frame, frames, run

from react_engine.tools.clock import spoken

FAST = settings(max_examples=60, deadline=None)


def _timed(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["timestamp"].notna()]


@given(df=frames())
@FAST
def test_time_span_gives_the_earliest_and_latest_line(df: pd.DataFrame) -> None:
    result = run("time_span", context(df))
    timed = _timed(df)
    if timed.empty:
        assert result.value.recorded()["seconds"] is None
        assert (result.value.recorded()["first"]["line"], result.value.recorded()["last"]["line"]) == (df["line"].iloc[0], df["line"].iloc[-1])
        return
    first = timed[timed["timestamp"] == timed["timestamp"].min()].iloc[0]
    last = timed[timed["timestamp"] == timed["timestamp"].max()].iloc[-1]
    assert result.value.recorded()["first"] == {"time": first["timestamp"].isoformat(), "source": "test.log", "line": first["line"]}
    assert result.value.recorded()["last"] == {"time": last["timestamp"].isoformat(), "source": "test.log", "line": last["line"]}
    assert result.value.recorded()["seconds"] == (last["timestamp"] - first["timestamp"]).total_seconds()
    assert result.value.recorded()["untimed"] == len(df) - len(timed)
    assert result.value.recorded()["seconds_to_end"] == 0  # the current rows are all the rows


def test_time_span_over_no_rows_states_no_time() -> None:
    df = frame([{"message": "a"}, {"message": "b"}])
    result = run("time_span", context(df, df.iloc[:0]))
    assert result.value.recorded() is None and "no current rows" in result.summary


def test_time_span_over_centuries_and_naive_times() -> None:
    stamps = [pd.Timestamp("1700-01-01T00:00:00.5"), pd.Timestamp("2260-12-31T23:59:59")]
    df = frame([{"message": "old"}, {"message": "new"}])
    df["timestamp"] = pd.Series(stamps, index=df.index)  # naive: taken as UTC
    result = run("time_span", context(df, now=pd.Timestamp("2261-01-01", tz="UTC")))
    expected = (stamps[1].to_pydatetime() - stamps[0].to_pydatetime()).total_seconds()
    assert result.value.recorded()["seconds"] == pytest.approx(expected, abs=1e-6)
    assert result.value.recorded()["first"]["time"] == "1700-01-01T00:00:00.500000+00:00"
    gaps = run("gaps", context(df, now=pd.Timestamp("2261-01-01", tz="UTC")))
    assert gaps.value.recorded()["gaps"][0]["seconds"] == result.value.recorded()["seconds"]
    assert spoken(result.value.recorded()["seconds"]).startswith("204,") and spoken(result.value.recorded()["seconds"]).endswith(" s")


def test_time_span_of_some_rows_says_how_long_the_logs_went_on() -> None:
    df = frame([{"message": "a", "host": "h1"}, {"message": "b", "host": "h2"}, {"message": "c", "host": "h2"}])
    result = run("time_span", context(df, df.iloc[:1]))
    assert result.value.recorded()["seconds_to_end"] == 14 * 60 and "14 min after the last" in result.summary


def _reference_gaps(df: pd.DataFrame, key: str | None) -> list[float]:
    timed = _timed(df)
    groups = [timed] if key is None else [g for _, g in timed.groupby(key)]
    silences = [s.total_seconds() for g in groups for s in g["timestamp"].sort_values().diff().dropna()]
    return sorted(silences, reverse=True)


@given(df=frames(), n=st.integers(1, 5), key=st.sampled_from([None, "host", "pid"]))
@FAST
def test_gaps_are_the_longest_silences(df: pd.DataFrame, n: int, key: str | None) -> None:
    result = run("gaps", context(df), n=n, key=key)
    found = result.value.recorded()["gaps"]
    assert [g["seconds"] for g in found] == _reference_gaps(df, key)[:n]
    for g in found:
        assert (pd.Timestamp(g["to"]) - pd.Timestamp(g["from"])).total_seconds() == g["seconds"]
        if key is not None:
            held = df[df[key] == g["key"]]["timestamp"]
            assert pd.Timestamp(g["from"]) in set(held) and pd.Timestamp(g["to"]) in set(held)
    if found:
        assert f"({found[0]['seconds']:,} s)" in result.summary and len(result.evidence) >= 2


def _reference_durations(events: list[tuple[pd.Timestamp, str, str]]) -> list[float]:
    """A start opens (replacing an open one), an end right after a start of the same key closes it."""
    opened: dict[str, pd.Timestamp | None] = {}
    lasted = []
    for stamp, key, kind in sorted(events, key=lambda e: e[0]):  # stable: ties in row order
        if kind == "start":
            opened[key] = stamp
        elif opened.get(key) is not None:
            lasted.append((stamp - opened[key]).total_seconds())
            opened[key] = None
    return lasted


@given(rows=st.lists(st.tuples(st.sampled_from(["opened", "closed", "other"]), st.sampled_from(HOSTS),
                               st.integers(0, 600)), min_size=1, max_size=30),
       keyed=st.booleans())
@FAST
def test_durations_pair_each_start_with_the_next_end(rows: list[tuple[str, str, int]], keyed: bool) -> None:
    base = pd.Timestamp("2026-11-20T00:00Z")
    df = frame([{"message": f"session {word}", "host": host, "timestamp": base + pd.Timedelta(seconds=s)}
                for word, host, s in rows])
    result = run("durations", context(df), start="session opened", end="SESSION CLOSED",
                 key="host" if keyed else None)
    events = [(base + pd.Timedelta(seconds=s), host if keyed else "", {"opened": "start", "closed": "end"}[word])
              for word, host, s in rows if word != "other"]
    expected = _reference_durations(events)
    assert result.value.recorded()["count"] == len(expected)
    assert result.value.recorded()["starts"] == sum(w == "opened" for w, _, _ in rows)
    if expected:
        assert result.value.recorded()["mean_seconds"] == pytest.approx(sum(expected) / len(expected), abs=1e-6)
        assert result.value.recorded()["max_seconds"] == max(expected) == result.value.recorded()["longest"][0]["seconds"]
        assert [d["seconds"] for d in result.value.recorded()["longest"]] == sorted(expected, reverse=True)[:3]
    else:
        assert "no start line followed by an end line" in result.summary


@given(df=frames(), n=st.integers(1, 6), order=st.sampled_from(["newest", "oldest"]))
@FAST
def test_show_logs_newest_and_oldest_follow_the_times(df: pd.DataFrame, n: int, order: str) -> None:
    timed = _timed(df).assign(label=lambda d: d.index)
    ranked = timed.sort_values(["timestamp", "label"], ascending=order == "oldest", kind="stable")
    expected = list(ranked["line"][:n]) if len(timed) else (
        list(df["line"][::-1][:n]) if order == "newest" else list(df["line"][:n]))
    result = run("show_logs", context(df), n=n, order=order)
    assert [int(line.split(" ", 1)[0].rsplit(":", 1)[1]) for line in result.value.recorded()] == expected
    assert list(df.loc[result.evidence, "line"]) == expected


def test_show_logs_around_a_time_gives_the_nearest_lines_in_time_order() -> None:
    df = frame([{"message": f"m{i}"} for i in range(10)])  # one line every 7 minutes
    result = run("show_logs", context(df), n=3, order="2026-11-20T10:30:00Z")
    assert [line.split(" ")[-1] for line in result.value.recorded()] == ["m3", "m4", "m5"]
    assert run("show_logs", context(df), n=4, order="2000-01-01").value.recorded() == run("show_logs", context(df), n=4).value.recorded()


def test_show_logs_keeps_file_order_by_default() -> None:
    df = frame([{"message": "b", "timestamp": pd.Timestamp("2026-11-20T11:00Z")},
                {"message": "a", "timestamp": pd.Timestamp("2026-11-20T10:00Z")}])
    assert [line.split(" ")[-1] for line in run("show_logs", context(df)).value.recorded()] == ["b", "a"]
    assert [line.split(" ")[-1] for line in run("show_logs", context(df), order="newest").value.recorded()] == ["b", "a"]
    assert [line.split(" ")[-1] for line in run("show_logs", context(df), order="oldest").value.recorded()] == ["a", "b"]


@pytest.mark.parametrize(("seconds", "words"), [(0.2477, "0.248 s"), (46, "46 s"), (766, "12 min 46 s"),
                                                 (15434, "4 h 17 min 14 s"), (90000, "1 d 1 h")])
def test_durations_in_words(seconds: float, words: str) -> None:
    assert spoken(seconds) == words

