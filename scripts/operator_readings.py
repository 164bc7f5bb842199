"""Two independent readings of one log for the analytics questions: the structured reading (loghub's CSV columns:
`EventTemplate`, `Level`, the date and time columns, `LineId`; or a sample log's parsed records) and the raw
reading (regexes over the raw lines, timestamps parsed from the line text, line numbers counted in the file).

A `Reading` holds one reading's timestamps and line numbers; each measure of a row set (first or last place, span,
longest silence, newest lines, a statistic of numbers) is computed per reading, and `both` returns the value only
when the two readings give the same one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd
from operator_data import YEAR, Ambiguous, LogData, Mask


def _healthapp(text: pd.Series) -> pd.Series:
    """`20171223-22:15:29:606` (milliseconds last, unpadded fields) as times."""
    parts = text.str.extract(r"^(\d{8})-(\d+):(\d+):(\d+):(\d+)$").astype({1: int, 2: int, 3: int, 4: int})
    days = pd.to_datetime(parts[0], format="%Y%m%d")
    return days + pd.to_timedelta(parts[1] * 3600 + parts[2] * 60 + parts[3], unit="s") + pd.to_timedelta(
        parts[4], unit="ms")


def _fmt(pattern: str, layout: str, prefix: str = "") -> tuple[str, Callable[[pd.Series], pd.Series]]:
    return pattern, lambda text: pd.to_datetime(prefix + text, format=layout)


# loghub system -> (a regex whose groups, joined by a space, are the stamp text of a raw line; its parser)
RAW_TIMES: dict[str, tuple[str, Callable[[pd.Series], pd.Series]]] = {
    "Android": _fmt(r"^(\d\d-\d\d \d\d:\d\d:\d\d\.\d+)", "%Y-%m-%d %H:%M:%S.%f", f"{YEAR}-"),
    "Apache": _fmt(r"^\[\w{3} (\w{3} \d\d \d\d:\d\d:\d\d \d{4})\]", "%b %d %H:%M:%S %Y"),
    "BGL": _fmt(r"^\S+ \d+ \S+ \S+ (\d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d+) ", "%Y-%m-%d-%H.%M.%S.%f"),
    "HDFS": _fmt(r"^(\d{6} \d{6}) ", "%y%m%d %H%M%S"),
    "HPC": (r"^\d+ \S+ \S+ \S+ (\d{9,10}) ", lambda text: pd.to_datetime(text.astype(int), unit="s")),
    "Hadoop": _fmt(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+) ", "%Y-%m-%d %H:%M:%S,%f"),
    "HealthApp": (r"^(\d{8}-[\d:]+)\|", _healthapp),
    "Linux": _fmt(r"^(\w{3} +\d+ \d\d:\d\d:\d\d) ", "%Y %b %d %H:%M:%S", f"{YEAR} "),
    "Mac": _fmt(r"^(\w{3} +\d+ \d\d:\d\d:\d\d) ", "%Y %b %d %H:%M:%S", f"{YEAR} "),
    "OpenSSH": _fmt(r"^(\w{3} +\d+ \d\d:\d\d:\d\d) ", "%Y %b %d %H:%M:%S", f"{YEAR} "),
    "OpenStack": _fmt(r"^\S+ (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) ", "%Y-%m-%d %H:%M:%S.%f"),
    "Proxifier": _fmt(r"^\[(\d\d\.\d\d \d\d:\d\d:\d\d)\]", "%Y.%m.%d %H:%M:%S", f"{YEAR}."),
    "Spark": _fmt(r"^(\d\d/\d\d/\d\d \d\d:\d\d:\d\d) ", "%y/%m/%d %H:%M:%S"),
    "Thunderbird": _fmt(r"^\S+ \d+ (\d{4}\.\d\d\.\d\d) \S+ \w{3} +\d+ (\d\d:\d\d:\d\d) ", "%Y.%m.%d %H:%M:%S"),
    "Windows": _fmt(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d), ", "%Y-%m-%d %H:%M:%S"),
    "Zookeeper": _fmt(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+) ", "%Y-%m-%d %H:%M:%S,%f"),
}


def raw_times(lines: pd.Series, system: str) -> pd.Series:
    """Each raw line's timestamp, read from the line text alone."""
    pattern, parse = RAW_TIMES[system]
    parts = lines.str.extract(pattern)
    return parse(parts.fillna("").agg(" ".join, axis=1).str.strip())


def seconds(x: float) -> float | int:
    """A duration as the suite writes it: whole seconds as an int, else to the microsecond."""
    x = round(float(x), 6)
    return int(x) if x.is_integer() else x


def iso(stamp: pd.Timestamp) -> str:
    """A time as ISO 8601 text in UTC (the log's own clock taken as UTC)."""
    return pd.Timestamp(stamp).tz_localize("UTC").isoformat()


@dataclass(frozen=True)
class Reading:
    """One reading of a log: every line's timestamp and line number (1-based, in the file)."""

    times: pd.Series
    lines: pd.Series

    def timeline(self, rows: Mask) -> pd.DataFrame:
        """The rows' times and lines, oldest first (file order among equal times)."""
        table = pd.DataFrame({"time": self.times[rows], "line": self.lines[rows]}).dropna()
        return table.sort_values(["time", "line"], kind="stable")

    def place(self, rows: Mask, which: str) -> dict[str, Any]:
        """The first row (oldest time, first in the file among equals) or the last (newest, last in the file)."""
        table = self.timeline(rows)
        if table.empty:
            raise Ambiguous("no row to place")
        row = table.iloc[0] if which == "first" else table.iloc[-1]
        return {"time": iso(row.time), "line": int(row.line)}

    def span(self, rows: Mask) -> dict[str, Any]:
        table = self.timeline(rows)
        return {"seconds": seconds((table.time.iloc[-1] - table.time.iloc[0]).total_seconds())}

    def silence(self, rows: Mask) -> dict[str, Any]:
        """The longest time between two consecutive rows; refused when two silences tie for it."""
        times = self.timeline(rows).time.reset_index(drop=True)
        gaps = times.diff().dt.total_seconds().iloc[1:]
        ranked = gaps.sort_values(ascending=False, kind="stable")
        if len(ranked) > 1 and ranked.iloc[0] == ranked.iloc[1]:
            raise Ambiguous(f"two silences tie at {ranked.iloc[0]} s")
        at = int(ranked.index[0])
        return {"seconds": seconds(ranked.iloc[0]), "from": iso(times[at - 1]), "to": iso(times[at])}

    def newest(self, rows: Mask, n: int) -> list[int]:
        """The line numbers of the n newest rows, newest first; refused when the nth ties with the next."""
        table = self.timeline(rows).iloc[::-1]
        if len(table) <= n or table.time.iloc[n - 1] == table.time.iloc[n]:
            raise Ambiguous(f"the {n} newest rows are not set apart by time")
        return [int(x) for x in table.line.iloc[:n]]

    def rate(self, rows: Mask, per: str, func: str) -> float:
        """`func` of how many rows each bucket of `per` (a pandas frequency: 1h, 1min) holds, over every bucket
        from the first row's to the last's, the empty ones 0."""
        buckets = self.times[rows].dropna().dt.floor(per)
        if buckets.empty:
            raise Ambiguous("no row to count")
        every = pd.date_range(buckets.min(), buckets.max(), freq=per)
        return statistic(buckets.value_counts().reindex(every, fill_value=0), func)

    def on(self, rows: Mask, start: str, end: str, margin: str = "1s") -> int:
        """How many rows are in [start, end); none may sit within `margin` of a bound."""
        lo, hi = pd.Timestamp(start), pd.Timestamp(end)
        times = self.times[rows]
        if any(((times - bound).abs() < pd.Timedelta(margin)).any() for bound in (lo, hi)):
            raise Ambiguous(f"a row sits on a bound of {start}..{end}")
        return int(((times >= lo) & (times < hi)).sum())


def loghub_readings(log: LogData, system: str) -> tuple[Reading, Reading]:
    """The structured reading (CSV times and LineId) and the raw one (times and positions from the lines)."""
    structured = Reading(log.stamps, log.col("LineId").astype(int))
    raw = Reading(raw_times(log.lines, system), pd.Series(log.lines.index + 1, index=log.lines.index))
    return structured, raw


def same(a: Any, b: Any, rel: float = 1e-9) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], rel) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, rel) for x, y in zip(a, b))
    return bool(a == b)


def both(structured: Any, raw: Any, rel: float = 1e-9) -> Any:
    """The value both readings give (numbers within `rel` of each other); refused when they differ."""
    if not same(structured, raw, rel):
        raise Ambiguous(f"the structured reading gives {structured!r}, the raw one {raw!r}")
    return structured


def statistic(values: pd.Series, func: str) -> float:
    """`func` of numbers: mean, median, min, max, sum, or pN (linear interpolation between ranks)."""
    numbers = values.astype(float)
    if func.startswith("p"):
        return float(numbers.quantile(float(func[1:]) / 100))
    return float(getattr(numbers, func)())
