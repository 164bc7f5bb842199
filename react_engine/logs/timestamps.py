"""Vectorised timestamp parsing.

A *shape* is an RE2 pattern whose named groups are date parts: `Y` (4-digit year), `y` (2-digit year),
`mon` (month name), `m` (month number), `d`, `H`, `M`, `S`, `f` (fraction), `p` (AM/PM), `tz`
(`Z`, `UTC`, `GMT`, `+hh:mm`, `+hhmm`, or an unambiguous abbreviation such as `EST` or `CEST`) and `epoch` (seconds since 1970). Parts become integers and
then nanoseconds with integer arithmetic, so no per-line Python code runs. Naive times are taken as
UTC; written offsets are converted. A missing year comes from a reference time (the file's mtime)
with a Dec->Jan rollover: a date later than the reference belongs to the year before.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.lexicon.time_units import MONTH_ABBREVIATIONS, WEEKDAY_ABBREVIATIONS

_MON = r"(?P<mon>(?i:" + "|".join(MONTH_ABBREVIATIONS) + r")[a-z]*)"
_WEEKDAY = r"(?:(?i:" + "|".join(WEEKDAY_ABBREVIATIONS) + r")[a-z]*,? +)"
_TIME = r"(?P<H>\d{1,2}):(?P<M>\d{1,2})(?::(?P<S>\d{1,2}))?(?:[.,:](?P<f>\d{1,9}))?"
# Zone abbreviations whose offset is unambiguous (they name standard or daylight time themselves).
ZONE_OFFSETS: dict[str, str] = {
    "EST": "-0500", "EDT": "-0400", "CST": "-0600", "CDT": "-0500", "MST": "-0700", "MDT": "-0600",
    "PST": "-0800", "PDT": "-0700", "AKST": "-0900", "AKDT": "-0800", "HST": "-1000",
    "WET": "+0000", "WEST": "+0100", "CET": "+0100", "CEST": "+0200", "EET": "+0200", "EEST": "+0300",
    "MSK": "+0300", "JST": "+0900", "KST": "+0900", "AEST": "+1000", "AEDT": "+1100", "NZST": "+1200",
    "NZDT": "+1300",
}
_TZ = r"(?: ?(?P<tz>Z|UTC|GMT|[+-]\d{2}:?\d{2}|(?:" + "|".join(ZONE_OFFSETS) + r")\b))?"

SHAPES: dict[str, str] = {
    "iso": r"(?P<Y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?:[T ,_]+|-)(?P<H>\d{1,2})[:.](?P<M>\d{2})[:.]"
    r"(?P<S>\d{2})(?:[.,](?P<f>\d{1,9}))?" + _TZ,
    "bsd": _WEEKDAY + "?" + _MON + r" +(?P<d>\d{1,2}),? +" + _TIME + r"(?: (?P<Y>\d{4})\b)?" + _TZ
    + r"(?: (?P<Y2>\d{4})\b)?",
    "mdy": _MON + r" +(?P<d>\d{1,2}),? (?P<Y>\d{4}),? +" + _TIME + r"(?: ?(?P<p>[AaPp][Mm]))?",
    "clf": r"(?P<d>\d{1,2})/" + _MON + r"/(?P<Y>\d{4}):" + _TIME + _TZ,
    "us": r"(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<Y>\d{4}),? +" + _TIME + r"(?: ?(?P<p>[AaPp][Mm]))?",
    "compact": r"(?P<Y>\d{4})(?P<m>\d{2})(?P<d>\d{2})[-T ]" + _TIME,
    "ymd2": r"(?P<y>\d{2})/(?P<m>\d{2})/(?P<d>\d{2}) " + _TIME,
    "ymd6": r"(?P<y>\d{2})(?P<m>\d{2})(?P<d>\d{2}) (?P<H>\d{2})(?P<M>\d{2})(?P<S>\d{2})",
    "md": r"(?P<m>\d{1,2})[-.](?P<d>\d{1,2}) " + _TIME,
    "epoch": r"(?P<epoch>\d{9,10})\b(?:\.(?P<f>\d{1,9}))?",
    "mmdd": r"(?P<m>\d{2})(?P<d>\d{2}) " + _TIME,
    "compact_dot": r"(?P<Y>\d{4})(?P<m>\d{2})(?P<d>\d{2})\.(?P<H>\d{2})(?P<M>\d{2})(?P<S>\d{2})(?:[.,](?P<f>\d{1,9}))?",
    "yday": r"(?P<Y>\d{4})-(?P<j>\d{3})T" + _TIME,
    "minsec": r"(?P<M>\d{2}):(?P<S>\d{2})\.(?P<f>\d{1,9})",
    "clock": r"(?P<H>\d{1,2}):(?P<M>\d{2}):(?P<S>\d{2})(?:[.,](?P<f>\d{1,9}))?\b",
}
# Shapes tried when a format does not name its own; also used to find a time anywhere in a line.
DEFAULT_SHAPES: tuple[str, ...] = ("iso", "bsd", "clf", "us")
YEAR_ASSUMED = 1
"""A date written without its year (`Nov  3 09:23:38`)."""
DATE_ASSUMED = 2
"""A time written without a date (`08:09:33.814936`)."""
_MONTHS = pa.array(MONTH_ABBREVIATIONS)
_NS = 1_000_000_000
_ROLLOVER_SLACK_NS = 86_400 * _NS
_MAX_EPOCH = 9_200_000_000  # seconds; nanoseconds since 1970 must fit in int64
TIMESTAMP_TYPE = pa.timestamp("ns", tz="UTC")


def days_from_civil(y: np.ndarray, m: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Days since 1970-01-01 for proleptic Gregorian dates (H. Hinnant's algorithm)."""
    y = y - (m <= 2)
    era = np.floor_divide(y, 400)
    yoe = y - era * 400
    doy = (153 * (m + np.where(m > 2, -3, 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _ints(part: pa.Array, default: int = -1) -> np.ndarray:
    """Digits as int64, `default` where empty or null."""
    blank = pc.or_kleene(pc.is_null(part), pc.equal(part, ""))
    cleaned = pc.if_else(blank, "0", part)
    values = pc.cast(cleaned, pa.int64(), safe=False).to_numpy(zero_copy_only=False)
    return np.where(blank.to_numpy(zero_copy_only=False), default, values)


def _fraction_ns(part: pa.Array) -> np.ndarray:
    padded = pc.utf8_slice_codeunits(pc.utf8_rpad(pc.fill_null(part, ""), 9, "0"), 0, 9)
    return _ints(padded, 0)


def _offset_seconds(part: pa.Array) -> np.ndarray:
    digits = pc.replace_substring(pc.fill_null(part, ""), ":", "")
    if pc.any(pc.match_substring_regex(digits, r"^[A-Z]")).as_py():  # rare: only then map the names
        for name, offset in ZONE_OFFSETS.items():
            digits = pc.if_else(pc.equal(digits, name), offset, digits)
    numeric = pc.match_substring_regex(digits, r"^[+-]\d{4}$")
    hours = _ints(pc.if_else(numeric, pc.utf8_slice_codeunits(digits, 1, 3), ""), 0)
    minutes = _ints(pc.if_else(numeric, pc.utf8_slice_codeunits(digits, 3, 5), ""), 0)
    sign = np.where(pc.starts_with(digits, "-").to_numpy(zero_copy_only=False), -1, 1)
    return sign * (hours * 3600 + minutes * 60)


def _month(parts: pa.StructArray, names: set[str]) -> np.ndarray:
    if "j" in names:  # a day of the year: January's day 1 to 366 (the date arithmetic carries it on)
        return np.ones(len(parts), np.int64)
    if "m" in names:
        return _ints(parts.field("m"))
    key = pc.utf8_lower(pc.utf8_slice_codeunits(parts.field("mon"), 0, 3))
    return pc.fill_null(pc.index_in(key, value_set=_MONTHS), -2).to_numpy(zero_copy_only=False).astype(np.int64) + 1


def _hour(parts: pa.StructArray, names: set[str]) -> np.ndarray:
    hour = _ints(parts.field("H"))
    if "p" not in names:
        return hour
    marker = pc.utf8_lower(pc.fill_null(parts.field("p"), "")).to_numpy(zero_copy_only=False)
    hour = np.where((marker == "pm") & (hour < 12), hour + 12, hour)
    return np.where((marker == "am") & (hour == 12), 0, hour)


def _year(parts: pa.StructArray, names: set[str]) -> np.ndarray:
    """The year written (4 digits, 2 digits, or 4 digits after the zone: `May 19 08:00:01 EST 2021`); -1 where
    none is."""
    if "Y" in names:
        year = _ints(parts.field("Y"))
    elif "y" in names:
        year = _ints(parts.field("y")) + 2000
    else:
        year = np.full(len(parts), -1, dtype=np.int64)
    return np.where(year < 0, _ints(parts.field("Y2")), year) if "Y2" in names else year


def _clock(parts: pa.StructArray, names: set[str], frac: np.ndarray | int,
           reference_ns: int) -> tuple[np.ndarray, np.ndarray]:
    """A time of day written without a date (`08:09:33.814936`), on the day of `reference_ns`; minutes and seconds
    written without an hour (`29:47.191`), in the hour of `reference_ns`."""
    unit = 3_600 if "H" not in names else 86_400
    start = reference_ns - reference_ns % (unit * _NS)
    hour = _ints(parts.field("H")) if "H" in names else np.zeros(len(parts), np.int64)
    minute, second = _ints(parts.field("M")), _ints(parts.field("S"), 0)
    ok = (hour >= 0) & (hour <= 24) & (minute >= 0) & (minute <= 59) & (second >= 0) & (second <= 60)
    ns = start + (hour * 3600 + minute * 60 + second) * _NS + frac
    return np.where(ok, ns, np.iinfo(np.int64).min), np.where(ok, DATE_ASSUMED, 0).astype(np.int8)


def _assemble(parts: pa.StructArray, default_year: int, reference_ns: int | None,
              now_ns: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Nanoseconds since the epoch for each matched row (a sentinel, min int64, where invalid) and whether its
    year was assumed (`default_year`, or the year before when that puts it after `reference_ns`; a time with no
    date at all is on the day of `now_ns`, the reference time; see `_clock`)."""
    names = {parts.type.field(i).name for i in range(parts.type.num_fields)}
    frac = _fraction_ns(parts.field("f")) if "f" in names else 0
    if "epoch" in names:
        return _epoch(parts, frac)
    if "d" not in names and "j" not in names:
        return _clock(parts, names, frac, now_ns)
    return _dated(parts, names, frac, default_year, reference_ns)


def _epoch(parts: pa.StructArray, frac: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    """Seconds since the epoch as written (a sentinel where out of range); no year is assumed."""
    seconds = _ints(parts.field("epoch"), -1)
    valid = (seconds >= 0) & (seconds < _MAX_EPOCH)
    return np.where(valid, seconds * _NS + frac, np.iinfo(np.int64).min), np.zeros(len(parts), bool)


def _dated(parts: pa.StructArray, names: set[str], frac: np.ndarray | int, default_year: int,
           reference_ns: int | None) -> tuple[np.ndarray, np.ndarray]:
    """A date and time (see `_assemble`), its year assumed where none was written."""
    year = _year(parts, names)
    yearless = year < 0
    year = np.where(yearless, default_year, year)
    month, day = _month(parts, names), _ints(parts.field("j" if "j" in names else "d"))
    hour, minute = _hour(parts, names), _ints(parts.field("M"))
    second = _ints(parts.field("S"), 0) if "S" in names else 0
    offset = _offset_seconds(parts.field("tz")) if "tz" in names else 0
    clock = hour * 3600 + minute * 60 + second - offset
    ns = (days_from_civil(year, month, day) * 86400 + clock) * _NS + frac
    if reference_ns is not None:
        late = yearless & (ns > reference_ns + _ROLLOVER_SLACK_NS)
        earlier = (days_from_civil(year - 1, month, day) * 86400 + clock) * _NS + frac
        ns = np.where(late, earlier, ns)
    ok = (month >= 1) & (month <= 12) & (day >= 1) & (day <= (366 if "j" in names else 31)) & (hour >= 0)
    ok &= hour <= 24
    ok &= (minute >= 0) & (minute <= 59) & (year >= 1678) & (year <= 2261)
    return np.where(ok, ns, np.iinfo(np.int64).min), (yearless & ok).astype(np.int8) * YEAR_ASSUMED


def _reference(reference: datetime | None) -> tuple[int, int | None]:
    """(default year, reference ns) from a reference time; the current time when none is known."""
    ref = reference or datetime.now(UTC)
    ref = ref if ref.tzinfo else ref.replace(tzinfo=UTC)
    return ref.year, int(ref.timestamp() * _NS)


def _distinct(text: pa.Array | pa.ChunkedArray) -> tuple[pa.Array, pa.Array | pa.ChunkedArray]:
    """The distinct strings and, per row, the index of its string (chunks share one dictionary)."""
    if not isinstance(text, pa.ChunkedArray):
        encoded = pc.dictionary_encode(text)
        return encoded.dictionary, encoded.indices
    if text.num_chunks == 0:
        return pa.array([], text.type), pa.array([], pa.int32())
    encoded = pc.dictionary_encode(text).unify_dictionaries()
    return encoded.chunk(0).dictionary, pa.chunked_array([chunk.indices for chunk in encoded.chunks])


def parse(
    text: pa.Array,
    shapes: tuple[str, ...] = DEFAULT_SHAPES,
    *,
    year: int | None = None,
    reference: datetime | None = None,
    anchored: bool = True,
) -> pa.Array:
    """Parse strings into `timestamp[ns, UTC]` (null where no shape fits).

    `year` fixes the year of dates written without one; otherwise it comes from `reference`
    (with rollover). `anchored=False` finds a time anywhere in the string.
    """
    return parse_dated(text, shapes, year=year, reference=reference, anchored=anchored)[0]


def parse_dated(
    text: pa.Array,
    shapes: tuple[str, ...] = DEFAULT_SHAPES,
    *,
    year: int | None = None,
    reference: datetime | None = None,
    anchored: bool = True,
) -> tuple[pa.Array, np.ndarray]:
    """`parse`, and per row what was assumed: `YEAR_ASSUMED` (the date was written without a year),
    `DATE_ASSUMED` (a time was written without a date) or 0 (nothing); a time written
    without a date is on the day of `reference`."""
    default_year, reference_ns = (year, None) if year is not None else _reference(reference)
    now_ns = _reference(reference)[1] or 0
    values, indices = _distinct(text)
    invalid = np.iinfo(np.int64).min
    result = np.full(len(values), invalid, dtype=np.int64)
    assumed = np.zeros(len(values), np.int8)
    for shape in shapes:
        todo = np.flatnonzero(result == invalid)
        if not len(todo):
            break
        subset = values if len(todo) == len(values) else values.take(pa.array(todo))
        parts = pc.extract_regex(subset, ("^" if anchored else "") + SHAPES[shape])
        matched = parts.is_valid().to_numpy(zero_copy_only=False)
        if matched.any():
            stamps, yearless = _assemble(parts, default_year, reference_ns, now_ns)
            result[todo[matched]] = stamps[matched]
            assumed[todo[matched]] = yearless[matched]
    mask = result == invalid
    parsed = pa.array(result, type=pa.int64(), mask=mask).cast(TIMESTAMP_TYPE)
    per_row = pc.fill_null(pc.take(pa.array(assumed, pa.int8()), indices), 0)
    return pc.take(parsed, indices), np.asarray(per_row.to_numpy(zero_copy_only=False), np.int8)
