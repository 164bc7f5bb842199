"""Time units and their spellings, the buckets a count is drawn in ("per hour", "hourly"), and the names of days
and months."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class TimeUnit:
    """A unit of time: its name, the letter relative times write it with ("now-5m"), the spellings a question
    uses (each also with an "s"), the bucket a count per unit is drawn in, and the adverb that asks for one."""

    name: str
    letter: str
    spellings: tuple[str, ...]
    bucket: str
    adverb: str | None = None


UNITS_OF_TIME = (
    TimeUnit("second", "s", ("second", "sec"), "1s"),
    TimeUnit("minute", "m", ("minute", "min"), "1m"),
    TimeUnit("hour", "h", ("hour", "hr"), "1h", "hourly"),
    TimeUnit("day", "d", ("day",), "1d", "daily"),
    TimeUnit("week", "w", ("week",), "1w"),
)
"""The units of time as questions write them, shortest first; log lines write theirs as
`measure_units.UNITS_OF_MEASURE` holds them (with sub-second units and factors, without days and weeks)."""

UNITS: Mapping[str, str] = MappingProxyType(
    {spelling: u.letter for u in UNITS_OF_TIME for spelling in (u.letter, *reversed(u.spellings))})
"""A unit as written (singular, or its letter) -> its letter."""

UNIT = r"(" + "|".join(f"{s}s?" for u in UNITS_OF_TIME for s in u.spellings) + "|[" + "".join(
    u.letter for u in UNITS_OF_TIME) + "])"
"""A unit as written, as group 1 ("minutes", "hrs", "d")."""

SHORT_UNITS: Mapping[str, str] = MappingProxyType(
    {s: u.letter for u in UNITS_OF_TIME for s in (u.letter, *u.spellings[1:])})
"""A unit as a relative time or an interval writes it short ("now-15m", "2hr") -> its letter."""

TIME_KEYS: Mapping[str, str] = MappingProxyType({u.name: u.bucket for u in UNITS_OF_TIME})
"""A time word -> its bucket ("hour" -> "1h")."""

BUCKET_WORDS: Mapping[str, str] = MappingProxyType({u.bucket: u.name for u in UNITS_OF_TIME})
"""A bucket -> the time word that names it ("1h" -> "hour")."""

BUCKET_ADVERBS: Mapping[str, str] = MappingProxyType({u.adverb: u.bucket for u in UNITS_OF_TIME if u.adverb})
"""An adverb asking for a count per bucket -> the bucket ("hourly" -> "1h")."""


def unit_names(first: str = "second", last: str = "week", plural: str = "") -> str:
    """The names of the units from `first` to `last` as regex alternatives ("minute|hour|day"), each followed by
    `plural` ("s?": also in the plural; "s": only in the plural)."""
    names = [u.name for u in UNITS_OF_TIME]
    return "|".join(n + plural for n in names[names.index(first):names.index(last) + 1])


HISTOGRAM_BUCKET = r"\b(minute|day)s?\b|\b(daily)\b|\b(?:per|each|every)\s+(second)\b"
"""The bucket a histogram question names, as the group that matched: a minute or a day wherever named, "daily",
or a second only when counted per second (a histogram is drawn per hour otherwise)."""

TIME = r"(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?Z?|\d{1,2}(?::\d{2}){0,2}\s*(?:am|pm)?|noon|midnight)"
"""A time of day or a date with or without one, as "between X and Y" and "since X" accept it."""

WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The days of the week, in order."""

WEEKDAY_ABBREVIATIONS = tuple(d[:3] for d in WEEKDAY_NAMES)
"""The days of the week shortened to three letters ("mon", "tue", ...), as logs and questions write them."""

WEEKDAYS = frozenset(WEEKDAY_NAMES + WEEKDAY_ABBREVIATIONS)
"""Day names: a date's day of the week, which the time window holds."""

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
"""The months, in order; their first three letters are how logs and questions shorten them."""

MONTH_ABBREVIATIONS = tuple(m[:3] for m in MONTHS)
"""The months shortened to three letters ("jan", "feb", ...), in order."""

MONTH_SPELLINGS = ("jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?", "july?",
                   "aug(?:ust)?", "sep(?:t(?:ember)?)?", "oct(?:ober)?", "nov(?:ember)?", "dec(?:ember)?")
"""Each month as a text writes it, whole or shortened ("Sept" too), as a regex, in order."""

CLOCK_WORDS: Mapping[str, str] = MappingProxyType({"noon": "12:00:00", "midday": "12:00:00", "midnight": "00:00:00"})
"""Times of day named in words -> the time."""
