"""The investigating tools' results, typed: message patterns, unusual times or values, a value's timeline and the
patterns before an event (what `message_patterns`, `unusual`, `entity_timeline` and `preceding` return); each is a
table with what it was computed over."""

from __future__ import annotations

from react_engine.tools.results import Number, Scalar, Table, optional


class Patterns(Table):
    """Message templates with their counts and shares (`PATTERN_COLUMNS`), of `patterns` in `rows_counted` rows;
    `method` says which templates when only new ones are listed."""

    patterns: int
    rows_counted: int
    method: str | None


class UnusualTimes(Table):
    """Time buckets whose count is far from the median, farthest first, of `buckets`, and how far is far."""

    buckets: int
    median: Number
    mad: Number
    method: str


class Jumps(Table):
    """The values of a field whose count rose most from before a time to after it."""

    method: str


class Timeline(Table):
    """The lines naming a value, by time: the first of them listed, of `lines`, from `first` to `last`."""

    lines: int
    first: Scalar
    last: Scalar
    span_seconds: Number | None


class Preceded(Table):
    """The patterns of the lines just before an event's occurrences, with their shares before it and overall;
    the first occurrence and the lines just before it, when one occurrence is looked at."""

    occurrences: int
    lines_before: int
    window: int  # how many lines before each occurrence were looked at
    method: str
    first: str | None = optional()
    just_before: list[str] | None = optional()
