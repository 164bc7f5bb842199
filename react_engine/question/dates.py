"""Dates written in words: `July 17`, `Nov 10 2008`, `December 4th 2005`, `Sept 29 2016`, `July 2005`, `in 2005`.

The regexes only find where a date is written; dateutil reads it. A date without a year takes the latest year
in which that day (or month) falls inside the log, else the year of the log's newest line.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime, timedelta

import pandas as pd
from dateutil import parser as dateparser

MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
         r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d{2})"
# (pattern, the groups' meaning): each finds one written date; `take` order matters (longest first)
DATE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\b" + MONTH + r"\s+(?:the\s+(?=\d{1,2}(?:st|nd|rd|th)\b))?" + _DAY + r"(?:,?\s+" + _YEAR + r")?(?![\d:])\b", "mdy"),  # "december the 5th"
    (r"\b" + _DAY + r"\s+(?:of\s+)?" + MONTH + r"(?:,?\s+" + _YEAR + r")?\b", "dmy"),
    (r"\b" + MONTH + r",?\s+" + _YEAR + r"\b", "my"),
    (r"\b(?:in|during|for|of|on|throughout)\s+(?:the\s+month\s+of\s+)?" + MONTH + r"(?!\w)", "m"),
    (r"\b(?:in|during|for|of|throughout)\s+(?:the\s+year\s+)?" + _YEAR + r"\b", "y"),
)


@dataclass(frozen=True)
class DaySpan:
    """A written date as the half-open interval it covers."""

    start: datetime
    end: datetime  # exclusive
    unit: str  # day | month | year

    def words(self) -> str:
        """`on 2008-11-10`, `from 2005-07-01 to 2005-07-31` (ISO dates, which answers may state unverified)."""
        if self.unit == "day":
            return f"on {self.start:%Y-%m-%d}"
        return f"from {self.start:%Y-%m-%d} to {self.end - timedelta(days=1):%Y-%m-%d}"


def read(groups: tuple[str | None, ...], kind: str, first: pd.Timestamp | None,
         last: pd.Timestamp | None) -> DaySpan | None:
    """The span of the date whose pieces `groups` matched (in the order `kind` names), or None if no such date
    exists (`February 30`)."""
    parts = dict(zip(kind, groups))
    month, day, year = parts.get("m"), parts.get("d"), parts.get("y")
    unit = "day" if day else "month" if month else "year"
    years = [int(year)] if year else _candidate_years(first, last)
    return _first_span(years, month, day, unit, bool(year), (first, last))


def _first_span(years: list[int], month: str | None, day: str | None, unit: str, written: bool,
                log: tuple[pd.Timestamp | None, pd.Timestamp | None]) -> DaySpan | None:
    """The date's span in the first of `years` (the year `written`, or one the `log`'s first and last times
    overlap, else the last tried); None when the date does not exist."""
    for candidate in years:
        start = _parsed(" ".join(p for p in (month, day, str(candidate)) if p), candidate)
        if start is None:
            return None
        span = _span(start.replace(day=1) if unit == "month" else start, unit)
        if written or _overlaps(span, *log) or candidate == years[-1]:
            return span
    return None


def _parsed(text: str, year: int) -> datetime | None:
    """The date `text` writes (in `year` unless it says), or None when there is no such date."""
    try:
        return dateparser.parse(text, default=datetime(year, 1, 1))
    except (ValueError, OverflowError):
        return None


def _candidate_years(first: pd.Timestamp | None, last: pd.Timestamp | None) -> list[int]:
    """Years to try for a date written without one: newest first, then the log's first year."""
    if last is None:
        return [datetime.now().year]
    low = first.year if first is not None else last.year
    return list(range(last.year, max(low, last.year - 20) - 1, -1))


def _span(start: datetime, unit: str) -> DaySpan:
    start = start.replace(hour=0, minute=0, second=0, microsecond=0)
    if unit == "day":
        return DaySpan(start, start + timedelta(days=1), unit)
    if unit == "month":
        days = calendar.monthrange(start.year, start.month)[1]
        return DaySpan(start.replace(day=1), start.replace(day=1) + timedelta(days=days), unit)
    return DaySpan(start.replace(month=1, day=1), start.replace(year=start.year + 1, month=1, day=1), unit)


def _overlaps(span: DaySpan, first: pd.Timestamp | None, last: pd.Timestamp | None) -> bool:
    if first is None or last is None:
        return False
    lo, hi = _naive(first), _naive(last)
    return span.start <= hi and span.end > lo


def _naive(ts: pd.Timestamp) -> datetime:
    stamp = pd.Timestamp(ts)
    return (stamp.tz_convert("UTC").tz_localize(None) if stamp.tzinfo else stamp).to_pydatetime()


def iso(moment: datetime) -> str:
    """`2005-12-04T00:00:00` (what `filter_by_time` reads)."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def end_of(span: DaySpan) -> str:
    """The last instant inside `span`, for an inclusive time filter."""
    return (span.end - timedelta(microseconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%f")
