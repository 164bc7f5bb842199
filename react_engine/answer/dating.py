"""Dates whose year the log does not write: an answer that prints one says the year was assumed, and how to set it."""

from __future__ import annotations

import re
from typing import Any

from react_engine.rows.rowops import attrs, is_lazy

YEAR_ASSUMED = "year_assumed"  # a loaded file's info: the year its yearless dates were given (see `logs.years.roll`)

_DATE = re.compile(r"(?<![\d-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)")
SHOWN_FILES = 2


def yearless_files(frame: Any, rows: Any = None, now: Any = None) -> list[str]:
    """The loaded files whose dates are written without a year (the loader assumed it from the file's time); with
    `rows` (the rows an answer rests on) and `now` (its time anchor), only those whose lines are among `rows` or
    hold `now`: a date that came from a file writing its year needs no note."""
    files = [str(info.get("path", "")) for info in attrs(frame).get("files", []) if info.get(YEAR_ASSUMED) is not None]
    if not files or rows is None or is_lazy(rows) or "source" not in rows.columns:
        return files
    used = set(rows["source"].unique()) | _holding(frame, now)
    return [name for name in files if name in used]


def _holding(frame: Any, now: Any) -> set[str]:
    """The files with a line at `now` (none when there is no `now`, or the frame is not in memory)."""
    if now is None or is_lazy(frame) or "timestamp" not in frame.columns:
        return set()
    return set(frame.loc[frame["timestamp"] == now, "source"].unique())


def with_year_note(answer: str, frame: Any, year_given: bool = False, rows: Any = None, now: Any = None) -> str:
    """`answer`, followed by a note that the year is assumed when it prints a date and a file behind it (see
    `yearless_files`) writes its dates without a year (and --year did not give it: `year_given`)."""
    files = [] if year_given or not _DATE.search(answer) else yearless_files(frame, rows, now)
    if not files:
        return answer
    names = ", ".join(files[:SHOWN_FILES]) + (f" and {len(files) - SHOWN_FILES:,} more" if len(files) > SHOWN_FILES
                                               else "")
    return (f"{answer.rstrip()} Note: year assumed: {names} write{'s' if len(files) == 1 else ''} dates without a "
            "year, read in the year of the file's time; give the right one with --year.")
