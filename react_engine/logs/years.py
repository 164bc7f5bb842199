"""Years of dates written without one (`Nov  3 09:23:38`), over a whole file in the order of its lines.

Such a date takes the year of the file's modification time (or `--year`); where the months jump back (December,
then January) the later lines are a year on. Without `--year` the last such date of the file is placed no later
than the file was written (a day's slack): a file last written in July whose lines say November is from the year
before. With `--year`, the first such date is in that year.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.timestamps import DATE_ASSUMED, TIMESTAMP_TYPE, days_from_civil

ROLLBACK_HOURS = 1
"""How far back a time written without a date must go from one line to the next to start a new day (03:00 ->
00:00 is 3 hours; lines of several processes a few milliseconds out of order are no new day)."""
ROLLBACK_MONTHS = 6
"""How far back the month must jump from one dated line to the next to start a new year (December -> January is
11; a line a month out of order is no new year)."""
_DAY_NS = 86_400 * 1_000_000_000
_SLACK_NS = _DAY_NS


def default_year(year: int | None, reference: datetime | None) -> int:
    """The year a yearless date is first read in: `year`, else the reference's (the file's mtime), else now's."""
    if year is not None:
        return year
    ref = reference or datetime.now(UTC)
    return (ref if ref.tzinfo else ref.replace(tzinfo=UTC)).year


def _runs(ns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each run of rows on one day, and each run's length: a date's calendar is then worked out
    once per run, not per row (a file's lines keep a day for many lines)."""
    days = np.floor_divide(ns, _DAY_NS)  # as numpy's cast to days, which floors
    starts = np.concatenate([[0], np.flatnonzero(days[1:] != days[:-1]) + 1])
    return starts, np.diff(np.append(starts, len(ns)))


def _moves(ns: np.ndarray, years: np.ndarray) -> np.ndarray:
    """The nanoseconds that move each of `ns` (since 1970) by whole calendar `years`, the day and time of day kept."""
    days = ns.astype("datetime64[ns]").astype("datetime64[D]")
    month_start = days.astype("datetime64[M]")
    year = days.astype("datetime64[Y]").astype(np.int64) + 1970
    month = month_start.astype(np.int64) % 12 + 1
    day = (days - month_start.astype("datetime64[D]")).astype(np.int64) + 1
    return (days_from_civil(year + years, month, day) - days.astype(np.int64)) * _DAY_NS


def _year_shifts(ns: np.ndarray, starts: np.ndarray, *, fixed: bool, reference: datetime | None) -> np.ndarray:
    """Per run of yearless dates on one day (in line order, first rows `starts`), the years to add to the default
    year."""
    months = ns[starts].astype("datetime64[ns]").astype("datetime64[M]").astype(np.int64)
    jumps = np.concatenate([[0], np.cumsum(np.diff(months) <= -ROLLBACK_MONTHS)])
    if fixed:
        return jumps
    jumps -= jumps[-1]
    ref = reference or datetime.now(UTC)
    ref = ref if ref.tzinfo else ref.replace(tzinfo=UTC)
    if ns[-1] + _moves(ns[-1:], jumps[-1:])[0] > int(ref.timestamp() * 1e9) + _SLACK_NS:
        jumps -= 1
    return jumps


def _moved(ns: np.ndarray, *, fixed: bool, reference: datetime | None) -> np.ndarray:
    """Yearless dates (in line order) moved by the years their runs of days take (see `_year_shifts`): `ns` itself
    when none moves."""
    starts, lengths = _runs(ns)
    shifts = _year_shifts(ns, starts, fixed=fixed, reference=reference)
    if not shifts.any():
        return ns
    moved = np.repeat(_moves(ns[starts], shifts), lengths)
    moved += ns
    return moved


def _assumed_year(ns: np.ndarray) -> int | bool:
    """The year all the dates `ns` fall in, or True when they fall in several."""
    first, last = (int(ns[i].astype("datetime64[ns]").astype("datetime64[Y]").astype(np.int64)) + 1970
                   for i in (ns.argmin(), ns.argmax()))
    return first if first == last else True


def _roll_days(ns: np.ndarray) -> np.ndarray:
    """Times written without a date, all on the reference's day, in line order: where the time goes back more than
    `ROLLBACK_HOURS` a new day starts, and the last line stays on the reference's day (the days before it earlier)."""
    jumps = np.concatenate([[0], np.cumsum(np.diff(ns) < -ROLLBACK_HOURS * 3_600 * 1_000_000_000)])
    return ns + (jumps - jumps[-1]) * _DAY_NS


def roll(stamps: pa.Array, assumed: np.ndarray, *, year: int | None,
         reference: datetime | None) -> tuple[pa.Array, int | bool | None]:
    """`stamps` with the years of the `assumed` rows (read in `default_year`) rolled over and anchored, and the year
    assumed: an int when all such dates fell in one year, True when in several, None when no date was yearless.
    Rows whose whole date was assumed (`DATE_ASSUMED`) first roll over from day to day (see `_roll_days`)."""
    valid = np.asarray(stamps.is_valid().to_numpy(zero_copy_only=False), bool)
    yearless = (assumed > 0) & valid
    if not yearless.any():
        return stamps, None
    whole = bool(yearless.all())  # every time was written without its year: no positions or copies of them taken
    rows = slice(None) if whole else np.flatnonzero(yearless)
    del yearless
    ns = pc.fill_null(stamps.cast(pa.int64()), 0).to_numpy(zero_copy_only=False)  # read-only: copied to be moved
    dateless = np.flatnonzero((assumed == DATE_ASSUMED) & valid)
    if len(dateless):
        ns = np.array(ns, np.int64)
        ns[dateless] = _roll_days(ns[dateless])
    at = ns if whole else ns[rows]
    moved = _moved(at, fixed=year is not None, reference=reference)
    assumed_year = _assumed_year(moved)
    if moved is at and not len(dateless):  # no time moved: the times are `stamps`' own, not a copy of them
        return stamps, assumed_year
    if whole:
        ns = moved
    else:
        ns = ns if ns.flags.writeable else np.array(ns, np.int64)
        ns[rows] = moved
    del moved, at, rows
    return pa.array(ns, pa.int64(), mask=~valid).cast(TIMESTAMP_TYPE), assumed_year
