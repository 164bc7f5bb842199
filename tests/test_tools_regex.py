"""RE2 regexes over columns, and the time expressions the planner writes."""

from __future__ import annotations

import re
import time

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.errors import ToolError
from react_engine.tools.regex import check, findall, literal, matches
from react_engine.tools.timeexpr import parse_interval, parse_time

FAST = settings(max_examples=80, deadline=None)
NOW = pd.Timestamp("2026-11-20T12:00:00Z")
TEXT = st.text(alphabet="ab1.:-_ ()\nÄ", max_size=25)


def test_catastrophic_pattern_on_long_line_is_linear() -> None:
    lines = pd.Series(["a" * 100_000 + "b", "a" * 100_000, "b"], dtype="str")
    started = time.monotonic()
    mask = matches(lines, "(a+)+$")
    found = findall(lines, "(a+)+$")
    assert list(mask) == [False, True, False]
    assert list(found.index) == [1] and found.iloc[0] == "a" * 100_000
    assert time.monotonic() - started < 30  # sanity bound only: RE2 is linear, backtracking would never finish


@pytest.mark.parametrize("bad", ["(", "a**", r"(a)\1", "(?<=a)b", "(?!x)", "[z-a]"])
def test_unsupported_or_invalid_patterns_raise_tool_error(bad: str) -> None:
    with pytest.raises(ToolError, match="invalid regex"):
        check(bad)


@given(text=TEXT)
@FAST
def test_literal_matches_only_itself(text: str) -> None:
    lines = pd.Series([text, "x" + text + "y", "zz"], dtype="str")
    assert list(matches(lines, literal(text))) == [text in line for line in lines]


SAFE = st.sampled_from([r"a+", r"(b)1", r"\d", r"(a)(b)?", r"[.:]", r"x*", r"(?i)ä", r"a(?:b|1)", r"\s(\S)"])


@given(lines=st.lists(st.one_of(st.none(), TEXT), min_size=1, max_size=8), pattern=SAFE)
@FAST
def test_findall_matches_python_re(lines: list[str | None], pattern: str) -> None:
    series = pd.Series(lines, index=range(10, 10 + len(lines)), dtype="str")
    compiled = re.compile(pattern)
    expected = [(label, m.group(1 if compiled.groups else 0)) for label, line in series.dropna().items()
                for m in compiled.finditer(line)]
    expected = [(label, value) for label, value in expected if value]
    found = findall(series, pattern)
    assert list(zip(found.index, found)) == expected


def test_matches_casts_numbers_and_ignores_missing() -> None:
    numbers = pd.Series([404, None, 200], dtype="Int64")
    assert list(matches(numbers, "^4")) == [True, False, False]
    assert list(matches(pd.Series(["ERROR", None], dtype=object), "error", ignore_case=True)) == [True, False]


@pytest.mark.parametrize(("text", "expected"), [
    ("now", NOW), ("now-1h", NOW - pd.Timedelta(hours=1)), ("now-15m", NOW - pd.Timedelta(minutes=15)),
    ("now-2d", NOW - pd.Timedelta(days=2)), ("now - 30s", NOW - pd.Timedelta(seconds=30)),
    ("NOW+1w", NOW + pd.Timedelta(weeks=1)), ("2026-11-20T10:00", pd.Timestamp("2026-11-20T10:00Z")),
    ("2026-11-20 10:00:00", pd.Timestamp("2026-11-20T10:00Z")),
    ("2026-11-20T10:00:00+02:00", pd.Timestamp("2026-11-20T08:00Z")),
    ("2026-11-20T10:00:00Z", pd.Timestamp("2026-11-20T10:00Z")),
])
def test_parse_time(text: str, expected: pd.Timestamp) -> None:
    parsed = parse_time(text, NOW)
    assert parsed == expected and str(parsed.tz) == "UTC"


@given(text=st.text(max_size=30))
@settings(max_examples=100, deadline=None)
def test_parse_time_gives_utc_or_tool_error(text: str) -> None:
    try:
        parsed = parse_time(text, NOW)
    except ToolError as exc:
        assert "\n" not in str(exc).strip()
    else:
        assert str(parsed.tz) == "UTC"


def test_a_naive_anchor_is_taken_as_utc() -> None:
    assert parse_time("now-1h", pd.Timestamp("2026-11-20T12:00")) == pd.Timestamp("2026-11-20T11:00Z")


def test_relative_time_without_anchor_and_bad_interval() -> None:
    with pytest.raises(ToolError, match="no timestamps"):
        parse_time("now-1h", pd.NaT)
    with pytest.raises(ToolError, match="cannot read interval"):
        parse_interval("hourly")
    with pytest.raises(ToolError, match="longer than zero"):
        parse_interval("0m")
    assert parse_interval("15m") == pd.Timedelta(minutes=15) and parse_interval("d") == pd.Timedelta(days=1)


def test_findall_is_not_confused_by_marker_characters_in_the_text() -> None:
    lines = pd.Series(["a\ue000b a1 \ue001a2", "zz a3"], dtype="str")
    assert list(findall(lines, r"a(\d)")) == ["1", "2", "3"]
