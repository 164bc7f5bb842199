"""Numeric thresholds of filter_by_field (gt, ge, lt, le) against a direct pandas computation: a column or a number
the messages carry, a value with or without a unit converted to the field's unit, rows without a value never
kept; the summary states the field, the comparison and the value in the field's unit."""

from __future__ import annotations

import operator

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.errors import ToolError
from react_engine.logs.loader import load
from tests.real_logs import real_log
from tests.tool_frames import context, frame, frames, run

OPS = {"gt": operator.gt, "ge": operator.ge, "lt": operator.lt, "le": operator.le}
TO_MS = {"": None, "ms": 1.0, "s": 1000.0, "sec": 1000.0, "seconds": 1000.0, "min": 60_000.0, "us": 0.001}


@st.composite
def timed_frames(draw: st.DrawFn) -> pd.DataFrame:
    """Frames with a `latency_ms` column (some rows without one) and the same number in their messages
    (`took=N ms`, read in seconds)."""
    df = draw(frames())
    drawn = draw(st.lists(st.one_of(st.none(), st.integers(0, 5000)), min_size=len(df), max_size=len(df)))
    df = df.assign(latency_ms=pd.array(drawn, dtype="Int64"))
    df["message"] = [f"request took={n}ms" if n is not None else m for m, n in zip(df["message"], drawn)]
    return df


@settings(max_examples=80, deadline=None)
@given(timed_frames(), st.sampled_from(list(OPS)), st.integers(0, 5000), st.sampled_from(list(TO_MS)),
       st.sampled_from(["latency_ms", "took", "duration"]), st.booleans(), st.booleans())
def test_a_threshold_keeps_the_rows_pandas_keeps(df: pd.DataFrame, op: str, number: int, unit: str, field: str,
                                                 spaced: bool, exclude: bool) -> None:
    in_ms = df["latency_ms"].astype("float")
    if field == "took" and in_ms.notna().sum() == 0:  # no message carries it: there is no such field
        with pytest.raises(ToolError, match="no numeric field"):
            run("filter_by_field", context(df), field=field, op=op, value=number)
        return
    scale = TO_MS[unit] or (1.0 if field != "took" else 1000.0)  # a bare number is in the field's unit
    target_ms = number * scale
    kept = OPS[op](in_ms, target_ms).fillna(False).astype(bool)
    if exclude:  # the rows with a value that fail the comparison
        kept = in_ms.notna() & ~kept
    value = f"{number}{' ' if spaced else ''}{unit}" if unit else number
    result = run("filter_by_field", context(df), field=field, op=op, value=value, exclude=exclude)
    assert result.rows is not None
    assert list(result.rows.index) == list(df.index[kept.to_numpy()])
    assert result.value.recorded() == int(kept.sum())
    name, shown_unit = ("latency_ms", "ms") if field != "took" else ("took", "s")
    assert result.summary.startswith(f"{name} ")
    assert f" {shown_unit}" in result.summary and f"-> {int(kept.sum()):,} of {len(df):,} rows" in result.summary


@settings(max_examples=40, deadline=None)
@given(frames(), st.lists(st.one_of(st.none(), st.integers(0, 3_000_000)), min_size=30, max_size=30),
       st.sampled_from(["gt", "le"]), st.floats(0, 2, allow_nan=False), st.sampled_from(["KB", "MB", "kb", "B"]))
def test_a_size_is_compared_in_bytes(df: pd.DataFrame, drawn: list[int | None], op: str, number: float,
                                     unit: str) -> None:
    number = round(number, 2)
    df = df.assign(bytes=pd.array(drawn[: len(df)], dtype="Int64"))
    factor = {"kb": 1024, "mb": 1024**2, "b": 1}[unit.lower()]
    kept = OPS[op](df["bytes"].astype(float), number * factor).fillna(False).astype(bool)
    result = run("filter_by_field", context(df), field="bytes", op=op, value=f"{number:g} {unit}")
    assert result.value.recorded() == int(kept.sum())
    assert result.rows is not None and list(result.rows.index) == list(df.index[kept.to_numpy()])


def test_a_unit_of_the_wrong_kind_or_an_unknown_one_is_refused() -> None:
    df = frame([{"message": f"request {n}"} for n in range(3)]).assign(latency_ms=pd.array([5, None, 7], "Int64"))
    with pytest.raises(ToolError, match="latency_ms is in ms"):
        run("filter_by_field", context(df), field="latency_ms", op="gt", value="1 MB")
    with pytest.raises(ToolError, match="unknown unit"):
        run("filter_by_field", context(df), field="latency_ms", op="gt", value="3 parsecs")
    with pytest.raises(ToolError, match="give a number"):
        run("filter_by_field", context(df), field="latency_ms", op="gt", value="fast")


@pytest.mark.parametrize(("field", "op", "value", "pattern", "unit"), [
    ("time", "gt", "250ms", r"\btime: (\d+(?:\.\d+)?)", 1.0),  # OpenStack's `time: 0.2477829`, in seconds
    ("status", "ge", 400, r"\bstatus: (\d+)", 1.0),
])
def test_a_message_field_threshold_matches_a_regex_over_the_raw_lines(field: str, op: str, value: str | int,
                                                                     pattern: str, unit: float) -> None:
    df = load([real_log("OpenStack")])
    numbers = df["raw"].str.extract(pattern)[0].astype(float) * unit
    threshold = 0.25 if isinstance(value, str) else float(value)
    result = run("filter_by_field", context(df), field=field, op=op, value=value)
    assert result.value.recorded() == int(OPS[op](numbers, threshold).sum()) > 0
