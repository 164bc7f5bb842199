"""Vectorised timestamp parsing: shapes, fractions, zones, epochs, missing years and rollover."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import LoadOptions, load
from react_engine.logs.timestamps import parse

REFERENCE = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _one(text: str, shapes: tuple[str, ...] | None = None, **options) -> pd.Timestamp | None:
    kwargs = {"reference": REFERENCE, **options}
    result = parse(pa.array([text], pa.large_string()), shapes, **kwargs) if shapes else parse(
        pa.array([text], pa.large_string()), **kwargs
    )
    value = result[0].as_py()
    return None if value is None else pd.Timestamp(value)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("2026-11-20 10:00:01", "2026-11-20 10:00:01"),
        ("2026-11-20T10:00:01.5Z", "2026-11-20 10:00:01.5"),
        ("2026-11-20 10:00:01,123", "2026-11-20 10:00:01.123"),  # comma decimal
        ("2026-11-20T10:00:01.123456789+02:00", "2026-11-20 08:00:01.123456789"),
        ("2026-11-20T10:00:01-0530", "2026-11-20 15:30:01"),
        ("2026-11-20,15:29:18.4", "2026-11-20 15:29:18.4"),
        ("2005-06-03-15.42.50.675872", "2005-06-03 15:42:50.675872"),
        ("Sun Dec 04 04:47:44 2005", "2005-12-04 04:47:44"),
        ("10/Oct/2000:13:55:36 -0700", "2000-10-10 20:55:36"),
        ("1/13/2026 4:19 PM", "2026-01-13 16:19:00"),
        ("12/31/1969 12:00 AM", "1969-12-31 00:00:00"),
        ("Nov  9 13:30:26.123 UTC", "2026-11-09 13:30:26.123"),
        ("Nov  9 13:30:26.123 EST", "2026-11-09 18:30:26.123"),  # named zones are converted
        ("2026-07-01 12:00:00 CEST", "2026-07-01 10:00:00"),
        ("Nov  9 13:30:26 ESTATE01 sshd", "2026-11-09 13:30:26"),  # a host that starts like a zone is no zone
    ],
)
def test_default_shapes(text: str, expected: str) -> None:
    assert _one(text) == pd.Timestamp(expected, tz="UTC")


@pytest.mark.parametrize(
    "text,shape,expected",
    [
        ("1117838570", "epoch", "2005-06-03 22:42:50"),
        ("1117838570.25", "epoch", "2005-06-03 22:42:50.25"),
        ("081109 203615", "ymd6", "2008-11-09 20:36:15"),
        ("17/06/09 20:10:40", "ymd2", "2017-06-09 20:10:40"),
        ("20171224-1:2:35:789", "compact", "2017-12-24 01:02:35.789"),
        ("03-17 16:13:38.811", "md", "2026-03-17 16:13:38.811"),
        ("Nov 20, 2026 1:00:02 PM", "mdy", "2026-11-20 13:00:02"),
    ],
)
def test_named_shapes(text: str, shape: str, expected: str) -> None:
    assert _one(text, (shape,)) == pd.Timestamp(expected, tz="UTC")


@pytest.mark.parametrize("text", ["garbage", "", "2026-13-01 00:00:00", "Foo 12 10:00:00", "99:99:99"])
def test_unparseable_gives_null(text: str) -> None:
    assert _one(text) is None


@pytest.mark.parametrize("text", ["9999999999", "100000000000000000000.5", "12345678"])
def test_out_of_range_epochs_give_null(text: str) -> None:
    assert _one(text, ("epoch",)) is None


def test_missing_year_rolls_back_after_reference() -> None:
    assert _one("Dec 31 23:59:59", reference=datetime(2027, 1, 2, tzinfo=UTC)) == pd.Timestamp(
        "2026-12-31 23:59:59", tz="UTC"
    )
    assert _one("Jan  1 00:00:01", reference=datetime(2027, 1, 2, tzinfo=UTC)) == pd.Timestamp(
        "2027-01-01 00:00:01", tz="UTC"
    )
    assert _one("Dec 31 23:59:59", year=2001) == pd.Timestamp("2001-12-31 23:59:59", tz="UTC")


def test_syslog_year_from_mtime_and_override(tmp_path: Path) -> None:
    path = tmp_path / "messages"
    path.write_text("Dec 31 23:59:00 h a: before\nJan  1 00:01:00 h a: after\n")
    january = datetime(2027, 1, 1, 0, 5, tzinfo=UTC).timestamp()
    os.utime(path, (january, january))
    frame = load(path, LoadOptions(use_cache=False))
    assert frame["timestamp"].dt.year.tolist() == [2026, 2027]
    assert frame["timestamp"].dt.year.tolist() == sorted(frame["timestamp"].dt.year.tolist())
    assert frame.attrs["year_assumed"] is True  # two years were assumed
    fixed = load(path, LoadOptions(year=2015, use_cache=False))
    assert fixed["timestamp"].dt.year.tolist() == [2015, 2016]  # the first yearless date is in the year given


@settings(max_examples=60, deadline=None)
@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2200, 1, 1)))
def test_iso_round_trip(moment: datetime) -> None:
    text = moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    assert _one(text) == pd.Timestamp(moment, tz="UTC")


@settings(max_examples=60, deadline=None)
@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2200, 1, 1)))
def test_bsd_with_year_round_trip(moment: datetime) -> None:
    text = moment.strftime("%a %b %d %H:%M:%S %Y")
    assert _one(text) == pd.Timestamp(moment.replace(microsecond=0), tz="UTC")
