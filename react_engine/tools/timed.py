"""The time tools' results, typed: the span of the rows, the longest silences and the durations from a start line
to an end line (what `time_span`, `gaps` and `durations` return). Times are ISO 8601 text, durations seconds."""

from __future__ import annotations

from pydantic import Field

from react_engine.tools.results import Number, Recorded, Result, Scalar, optional


class Place(Result):
    """A line: its time (None when it has none), its file and its line number."""

    time: str | None
    source: str
    line: Scalar


class Valued(Result):
    """A value of a column or entity type, and the line it was first (or last) found on."""

    value: Scalar
    place: Place


class OrderedValues(Result):
    """`ordered_values`: the distinct values on the first (`oldest`) or last (`newest`) lines holding one, in that
    order, and how many current rows hold a value."""

    order: str
    rows: int
    values: list[Valued]


class Disorder(Result):
    """How many timed lines come earlier than the line above them in their file, and the first in file order."""

    lines_back: int
    first_line: Place


class TimeSpan(Result):
    """The first and last line of the current rows and the seconds between them (None when no row has a time:
    then first and last are in file order); the rows left out without a time, the seconds from the last to the
    end of the logs, and how the lines are out of order, when they are."""

    rows: int
    first: Place
    last: Place
    seconds: Number | None
    untimed: int | None = optional()
    seconds_to_end: Number | None = optional()
    out_of_order: Disorder | None = optional()


class NoSpan(Recorded[None]):
    """`time_span` over no rows: no time at all."""


class Gap(Result):
    """A silence: its seconds, from one line's time to the next one's, and the key both share when asked per key."""

    seconds: Number
    start: str = Field(alias="from")
    end: str = Field(alias="to")
    key: Scalar = optional()


class Gaps(Result):
    """The longest silences between the timed rows (`rows`), longest first."""

    rows: int
    gaps: list[Gap]


class Lasted(Result):
    """One duration: its seconds, its start and end times, and its key when paired per key."""

    seconds: Number
    start: str
    end: str
    key: Scalar = optional()


class Durations(Result):
    """Durations from start lines to the end lines after them: how many paired, their mean, longest, shortest and
    total seconds and the longest ones (none when nothing paired), and the start and end lines left unpaired."""

    count: int
    mean_seconds: Number | None = optional()
    max_seconds: Number | None = optional()
    min_seconds: Number | None = optional()
    total_seconds: Number | None = optional()
    longest: list[Lasted] | None = optional()
    starts: int
    ends: int
    unclosed: int
    unopened: int
