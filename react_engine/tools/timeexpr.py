"""Time expressions the planner may write: `now`, `now-1h`, `now-15m`, `now-2d`, or an ISO timestamp."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import pandas as pd

from react_engine.errors import ToolError
from react_engine.lexicon.time_units import SHORT_UNITS

_SHORT = "|".join(SHORT_UNITS)
_RELATIVE = re.compile(rf"now\s*(?:([+-])\s*(\d+(?:\.\d+)?)\s*({_SHORT}))?", re.I)
_FREQUENCIES = {"s": "s", "m": "min", "h": "h", "d": "D", "w": "W"}  # a unit's letter -> its pandas frequency
_UNITS = {short: _FREQUENCIES[letter] for short, letter in SHORT_UNITS.items()}
_INTERVAL = re.compile(rf"(\d+)?\s*({_SHORT})", re.I)
T = TypeVar("T")
_HINT = "use now, now-15m, now-1h, now-2d or an ISO time such as 2026-11-20T10:00"


def relative(text: str) -> tuple[str, float, str] | None:
    """`(sign, amount, unit)` of a relative time (`now` is `("", 0, "")`), or None when `text` is not one."""
    found = _RELATIVE.fullmatch(text.strip())
    if not found:
        return None
    sign, amount, unit = found.groups()
    return (sign, float(amount), unit.lower()) if sign else ("", 0.0, "")


def parse_time(text: str, now: pd.Timestamp) -> pd.Timestamp:
    """`text` as a UTC timestamp; relative forms count back from `now`, naive ISO times are taken as UTC."""
    text = text.strip()
    parts = relative(text)
    if parts:
        if pd.isna(now):
            raise ToolError("the logs have no timestamps, so relative times cannot be used")
        sign, amount, unit = parts
        now = now.tz_localize("UTC") if now.tzinfo is None else now.tz_convert("UTC")
        if not sign:
            return now
        delta = _delta(amount, unit)
        return _checked(lambda: now - delta if sign == "-" else now + delta, text)
    stamp = _checked(lambda: pd.Timestamp(text), text)
    if pd.isna(stamp):
        raise ToolError(f"cannot read time {text!r}: {_HINT}")
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def parse_interval(text: str) -> pd.Timedelta:
    """A bucket width such as `1h`, `15m`, `1d` or `30s`."""
    found = _INTERVAL.fullmatch(text.strip())
    if not found:
        raise ToolError(f"cannot read interval {text!r}: use a number and a unit, e.g. 1m, 15m, 1h, 1d")
    width = _delta(float(found.group(1) or 1), found.group(2))
    if width <= pd.Timedelta(0):
        raise ToolError(f"interval {text!r} must be longer than zero")
    return width


def _delta(amount: float, unit: str) -> pd.Timedelta:
    return _checked(lambda: pd.Timedelta(amount, unit=_UNITS[unit.lower()]), f"{amount:g}{unit}")


def _checked(make: Callable[[], T], text: str) -> T:
    try:
        return make()
    except (ValueError, OverflowError, TypeError) as exc:
        raise ToolError(f"cannot read time {text!r} ({' '.join(str(exc).split())}): {_HINT}") from None
