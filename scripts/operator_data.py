"""Reading logs for the operator suite's expected values, independently of react-engine.

A `LogData` holds one log's raw lines and, for loghub logs, its structured CSV; it counts rows matching a text
(grep: case-insensitive substring of the raw line), a level as written, a column value or a time window, and
ranks values. Every helper refuses an ambiguous expectation: a time bound with a row too close to it, a ranking
whose places are tied, or two readings of one question that disagree (`agree`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TypeAlias

import pandas as pd

YEAR = 2026  # the suite's year for lines that carry none

Mask: TypeAlias = pd.Series


class Ambiguous(ValueError):
    """An expectation that a reasonable reading of the question could contradict."""


def _hms(text: str) -> str:
    """`1:2:35:789` -> `01:02:35.789` (HealthApp pads nothing)."""
    h, m, s, *ms = text.split(":")
    return f"{int(h):02d}:{int(m):02d}:{int(s):02d}" + (f".{ms[0]}" if ms else "")


# loghub system -> the timestamp of each structured row, as written in the line (UTC, the suite year if none)
TIMESTAMPS: dict[str, Callable[[pd.DataFrame], pd.Series]] = {
    "Android": lambda d: pd.to_datetime(f"{YEAR}-" + d.Date + " " + d.Time, format="%Y-%m-%d %H:%M:%S.%f"),
    "Apache": lambda d: pd.to_datetime(d.Time, format="%a %b %d %H:%M:%S %Y"),
    "BGL": lambda d: pd.to_datetime(d.Time, format="%Y-%m-%d-%H.%M.%S.%f"),
    "HDFS": lambda d: pd.to_datetime(d.Date + d.Time.str.zfill(6), format="%y%m%d%H%M%S"),
    "HPC": lambda d: pd.to_datetime(d.Time.astype(int), unit="s"),
    "Hadoop": lambda d: pd.to_datetime(d.Date + " " + d.Time.str.replace(",", "."), format="%Y-%m-%d %H:%M:%S.%f"),
    "HealthApp": lambda d: pd.to_datetime(d.Time.str[:8] + " " + d.Time.str[9:].map(_hms), format="mixed"),
    "Linux": lambda d: pd.to_datetime(f"{YEAR} " + d.Month + " " + d.Date + " " + d.Time, format="%Y %b %d %H:%M:%S"),
    "Mac": lambda d: pd.to_datetime(f"{YEAR} " + d.Month + " " + d.Date + " " + d.Time, format="%Y %b %d %H:%M:%S"),
    "OpenSSH": lambda d: pd.to_datetime(f"{YEAR} " + d.Date + " " + d.Day + " " + d.Time, format="%Y %b %d %H:%M:%S"),
    "OpenStack": lambda d: pd.to_datetime(d.Date + " " + d.Time, format="%Y-%m-%d %H:%M:%S.%f"),
    "Proxifier": lambda d: pd.to_datetime(f"{YEAR}." + d.Time, format="%Y.%m.%d %H:%M:%S"),
    "Spark": lambda d: pd.to_datetime(d.Date + " " + d.Time, format="%y/%m/%d %H:%M:%S"),
    "Thunderbird": lambda d: pd.to_datetime(d.Date + " " + d.Time, format="%Y.%m.%d %H:%M:%S"),
    "Windows": lambda d: pd.to_datetime(d.Date + " " + d.Time, format="%Y-%m-%d %H:%M:%S"),
    "Zookeeper": lambda d: pd.to_datetime(d.Date + " " + d.Time.str.replace(",", "."), format="%Y-%m-%d %H:%M:%S.%f"),
}


WORSE_THAN_ERROR = ("F", "FATAL", "SEVERE", "CRITICAL", "CRIT", "ALERT", "EMERG", "PANIC")
"""Levels written above error, as loghub's logs and syslog write them."""


@dataclass
class LogData:
    """One log: raw lines, optional structured rows and timestamps (both aligned with the lines)."""

    path: Path
    lines: pd.Series
    table: pd.DataFrame = field(default_factory=pd.DataFrame)
    times: pd.Series | None = None

    @classmethod
    def loghub(cls, root: Path, system: str) -> LogData:
        path = root / system / f"{system}_2k.log"
        table = pd.read_csv(root / system / f"{system}_2k.log_structured.csv", dtype=str, keep_default_na=False)
        log = cls.raw(path)
        if len(log.lines) != len(table):
            raise ValueError(f"{path}: {len(log.lines)} lines but {len(table)} structured rows")
        log.table, log.times = table, TIMESTAMPS[system](table).reset_index(drop=True)
        return log

    @classmethod
    def raw(cls, path: Path, times: Callable[[pd.Series], pd.Series] | None = None) -> LogData:
        lines = pd.Series(path.read_text(encoding="utf-8", errors="replace").splitlines())
        lines = lines[lines.str.strip() != ""].reset_index(drop=True)
        return cls(path=path, lines=lines, times=times(lines) if times else None)

    @property
    def stamps(self) -> pd.Series:
        """The rows' timestamps (a log read without them has none)."""
        if self.times is None:
            raise ValueError(f"{self.path}: read without timestamps")
        return self.times

    # ---- row sets

    def all(self) -> Mask:
        return pd.Series(True, index=self.lines.index)

    def grep(self, text: str) -> Mask:
        """Lines containing `text`, case-insensitively."""
        return self.lines.str.contains(text, case=False, regex=False)

    def regex(self, pattern: str) -> Mask:
        return self.lines.str.contains(pattern, regex=True)

    def col(self, name: str) -> pd.Series:
        return self.table[name]

    def level(self, word: str) -> Mask:
        """Rows whose level, as written, is `word`."""
        return self.col("Level") == word

    def or_worse(self, word: str) -> Mask:
        """Rows whose level, as written, is the error level `word` or one above it ("errors" are error or worse)."""
        return self.level(word) | self.col("Level").astype(str).str.upper().isin(WORSE_THAN_ERROR)

    def _within(self, lo: pd.Timestamp, hi: pd.Timestamp, bounds: tuple[pd.Timestamp, ...], margin: str) -> Mask:
        for bound in bounds:
            if ((self.stamps - bound).abs() < pd.Timedelta(margin)).any():
                raise Ambiguous(f"{self.path.name}: a row sits within {margin} of {bound}")
        return (self.stamps >= lo) & (self.stamps <= hi)

    def between(self, start: str, end: str, margin: str = "60s") -> Mask:
        """Rows in [start, end]; no row may sit within `margin` of either bound."""
        lo, hi = pd.Timestamp(start), pd.Timestamp(end)
        return self._within(lo, hi, (lo, hi), margin)

    def day(self, date: str) -> Mask:
        """Rows on the calendar day, month or year `date` (YYYY-MM-DD, YYYY-MM or YYYY)."""
        return self.stamps.dt.strftime("%Y-%m-%d").str.startswith(date)

    def last(self, span: str, margin: str = "1s") -> Mask:
        """Rows in [newest - span, newest]; none within `margin` of the start."""
        newest = self.stamps.max()
        start = newest - pd.Timedelta(span)
        return self._within(start, newest, (start,), margin)

    def first(self, span: str, margin: str = "1s") -> Mask:
        """Rows in [oldest, oldest + span]; none within `margin` of the end."""
        oldest = self.stamps.min()
        end = oldest + pd.Timedelta(span)
        return self._within(oldest, end, (end,), margin)

    # ---- values

    def extract(self, pattern: str, mask: Mask | None = None) -> pd.Series:
        """The first group of `pattern` in each (masked) raw line that has it."""
        lines = self.lines if mask is None else self.lines[mask]
        return lines.str.extract(pattern, expand=False).dropna()


def count(mask: Mask) -> int:
    return int(mask.sum())


def unique(values: pd.Series) -> int:
    return int(values.nunique())


def top(values: pd.Series, n: int = 1) -> list[list[object]]:
    """The n most frequent values as [value, count]; places 1..n must be strictly ordered (no ties)."""
    return ranked(values.value_counts().to_dict(), n)


def ranked(counts: dict, n: int = 1) -> list[list[object]]:
    """The n largest of {value: count} as [value, count]; places 1..n must be strictly ordered (no ties)."""
    order = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(order) < n:
        raise Ambiguous(f"only {len(order)} distinct values for a top {n}")
    head = [c for _, c in order[: n + 1]]
    if any(a == b for a, b in pairwise(head)):
        raise Ambiguous(f"tied counts in the top {n}: {order[: n + 1]}")
    return [[str(v), int(c)] for v, c in order[:n]]


def agree(*readings: int) -> int:
    """The value every plausible reading of a question gives; they must all agree."""
    if len(set(readings)) != 1:
        raise Ambiguous(f"readings disagree: {readings}")
    return readings[0]


PHRASINGS = ("plain", "terse", "wordy", "typo", "dates-in-words", "ranking", "came-from", "honest-zero", "unserved")
EXTRA_PHRASINGS = ("investigation", "threshold")  # asked in the public suite only
ANALYTICS = ("statistic", "first-last", "duration", "gaps", "share", "comparison", "breakdown", "listing")
REL_TOLERANCE = 1e-4  # how far (relative) a computed number may be from the expected one: answers round it


@dataclass
class Questions:
    """One log's cases, in suite form: `logs` (or a ground-truth `set`), the paths they require, expectations."""

    prefix: str
    logs: list[str] = field(default_factory=list)
    set: str | None = None
    requires: list[str] = field(default_factory=list)
    cases: list[dict] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # questions left out, and why

    def _add(self, slug: str, phrasing: str, question: str, expect: dict) -> None:
        if phrasing not in PHRASINGS + EXTRA_PHRASINGS + ANALYTICS:
            raise ValueError(f"{slug}: unknown phrasing class {phrasing!r}")
        case: dict = {"id": f"{self.prefix}-{slug}", "class": phrasing, "question": question}
        case.update({"set": self.set} if self.set else {"logs": list(self.logs)})
        if self.requires:
            case["requires"] = list(self.requires)
        self.cases.append({**case, "expect": expect})

    def count(self, slug: str, phrasing: str, question: str, value: int) -> None:
        """A count (or unique count); 0 only for honest zeros, which must answer a plain 'nothing found'."""
        if (value == 0) != (phrasing == "honest-zero"):
            raise Ambiguous(f"{slug}: value {value} with phrasing {phrasing}: honest zeros and only they are 0")
        self._add(slug, phrasing, question, {"value": value, "no_data": True} if value == 0 else {"value": value})

    @contextmanager
    def refusing(self, slug: str) -> Iterator[None]:
        """Leave the question out (and say why in `refused`) when deriving its value finds it ambiguous."""
        try:
            yield
        except Ambiguous as why:
            self.refused.append(f"{self.prefix}-{slug}: {why}")

    def measured(self, slug: str, phrasing: str, question: str, value: object) -> None:
        """A number (matched within REL_TOLERANCE), a time, an [a, b] pair or a table."""
        self._add(slug, phrasing, question, {"value": value, "rel_tolerance": REL_TOLERANCE})

    def listing(self, slug: str, question: str, places: list[str]) -> None:
        """Listed lines: the answer shows each of these `file:line` references."""
        self._add(slug, "listing", question, {"contains": places})

    def unserved(self, slug: str, question: str) -> None:
        """An intent the engine cannot serve yet (a percentage, a comparison, a statistic of a field...): right only
        as a partial answer or a refusal, never as a verified answer."""
        self._add(slug, "unserved", question, {"unserved": True})

    def ranked(self, slug: str, phrasing: str, question: str, ranking: list[list[object]]) -> None:
        """A ranking whose answer must start with these values."""
        self._add(slug, phrasing, question, {"top": ranking})

    def patterns(self, slug: str, phrasing: str, question: str, largest: int) -> None:
        """Message patterns, whose answer's counts start with the largest group's."""
        self._add(slug, phrasing, question, {"top": [largest], "top_n": 1, "tools": ["message_patterns"]})

    def truth(self, slug: str, phrasing: str, question: str, key: str, top_n: int | None = None) -> None:
        """An expectation read from the sample generator's ground truth by key path (a ranking with `top_n`)."""
        expect: dict = {"top_from": key, "top_n": top_n} if top_n else {"value_from": key}
        self._add(slug, phrasing, question, expect)
