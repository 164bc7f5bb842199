"""Dates whose year the log does not write: an answer that prints one says the year was assumed, and how to set it."""

from __future__ import annotations

import re
from typing import Any

from react_engine.rows.rowops import attrs

YEAR_ASSUMED = "year_assumed"  # a loaded file's info: the year its yearless dates were given (see `logs.years.roll`)

_DATE = re.compile(r"(?<![\d-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)")
SHOWN_FILES = 2


def yearless_files(frame: Any) -> list[str]:
    """The loaded files whose dates are written without a year (the loader assumed it from the file's time)."""
    return [str(info.get("path", "")) for info in attrs(frame).get("files", []) if info.get(YEAR_ASSUMED) is not None]


def with_year_note(answer: str, frame: Any, year_given: bool = False) -> str:
    """`answer`, followed by a note that the year is assumed when it prints a date and a file of `frame` writes its
    dates without a year (and --year did not give it: `year_given`)."""
    files = [] if year_given else yearless_files(frame)
    if not files or not _DATE.search(answer):
        return answer
    names = ", ".join(files[:SHOWN_FILES]) + (f" and {len(files) - SHOWN_FILES:,} more" if len(files) > SHOWN_FILES
                                               else "")
    return (f"{answer.rstrip()} Note: year assumed: {names} write{'s' if len(files) == 1 else ''} dates without a "
            "year, read in the year of the file's time; give the right one with --year.")
