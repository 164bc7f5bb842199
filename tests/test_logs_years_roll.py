"""`years.roll` gives the times and year its first definition gave, which copied every time even where none moved."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs.timestamps import DATE_ASSUMED, TIMESTAMP_TYPE
from react_engine.logs.years import _moves, _roll_days, _runs, _year_shifts, roll


def _first_roll(stamps: pa.Array, assumed: np.ndarray, *, year: int | None,
                reference: datetime | None) -> tuple[pa.Array, int | bool | None]:
    """`roll` as first written: the times copied, rolled and rebuilt whether or not any moved, each row's calendar
    worked out on its own."""
    valid = np.asarray(stamps.is_valid().to_numpy(zero_copy_only=False), bool)
    yearless = (assumed > 0) & valid
    if not yearless.any():
        return stamps, None
    whole = bool(yearless.all())
    rows = slice(None) if whole else np.flatnonzero(yearless)
    ns = np.array(pc.fill_null(stamps.cast(pa.int64()), 0).to_numpy(zero_copy_only=False), np.int64)
    dateless = np.flatnonzero((assumed == DATE_ASSUMED) & valid)
    if len(dateless):
        ns[dateless] = _roll_days(ns[dateless])
    at = ns if whole else ns[rows]
    starts, lengths = _runs(at)
    shifts = np.repeat(_year_shifts(at, starts, fixed=year is not None, reference=reference), lengths)
    moved = at + _moves(at, shifts) if shifts.any() else at
    if whole:
        ns = moved
    else:
        ns[rows] = moved
    first, last = (int(moved[i].astype("datetime64[ns]").astype("datetime64[Y]").astype(np.int64)) + 1970
                   for i in (moved.argmin(), moved.argmax()))
    rolled = pa.array(ns, pa.int64(), mask=~valid).cast(TIMESTAMP_TYPE)
    return rolled, first if first == last else True


_DAY = 86_400 * 10**9
_ROW = st.tuples(st.none() | st.integers(10_950 * _DAY, 11_400 * _DAY), st.sampled_from([0, 0, 1, 1, DATE_ASSUMED]))


@settings(max_examples=300, deadline=None)
@given(st.lists(_ROW, min_size=1, max_size=40), st.none() | st.integers(2000, 2001),
       st.none() | st.integers(10_900, 11_500))
def test_roll_gives_what_its_first_definition_gave(rows: list[tuple[int | None, int]], year: int | None,
                                                   day: int | None) -> None:
    stamps = pa.array([ns for ns, _ in rows], pa.int64()).cast(TIMESTAMP_TYPE)
    assumed = np.array([flag for _, flag in rows], np.int8)
    reference = None if day is None else datetime.fromtimestamp(day * 86_400, UTC)
    ours, our_year = roll(stamps, assumed, year=year, reference=reference)
    theirs, their_year = _first_roll(stamps, assumed, year=year, reference=reference)
    assert ours.type == theirs.type
    assert ours.to_pylist() == theirs.to_pylist()
    assert our_year == their_year
