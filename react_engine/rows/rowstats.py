"""A summary of the current rows for the prompt (samples, severity mix, time range, top hosts and components),
made cheap by counting each coded column once per run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import numpy as np
import pandas as pd

from react_engine.logs.schema import INTERNAL_COLUMNS
from react_engine.logs.text import entry_text
from react_engine.rows.ranked import top
from react_engine.rows.rowops import category_codes


def iso_time(ts: Any) -> str | None:
    """Compact UTC time for the prompt: `2026-11-20T15:00:47Z`."""
    if ts is None or pd.isna(ts):
        return None
    stamp = pd.Timestamp(ts)
    return (stamp.tz_convert("UTC") if stamp.tzinfo else stamp).strftime("%Y-%m-%dT%H:%M:%SZ")


class Codes:
    """A column factorized once per run, so that counts over any subset of rows are one `bincount`.

    Values are numbered in order of appearance. A categorical column (see `to_frame`) is not factorized again:
    its own codes are used, renumbered only when its categories are not the values present in that order.
    """

    def __init__(self, series: pd.Series) -> None:
        if isinstance(series.dtype, pd.CategoricalDtype):
            self.codes, self.uniques = _appearance_codes(series)
        elif series.isna().all():  # e.g. no line carries a level: nothing to hash
            self.codes, self.uniques = np.full(len(series), -1, dtype=np.intp), pd.factorize(series.iloc[:0])[1]
        else:
            self.codes, self.uniques = pd.factorize(series, use_na_sentinel=True)
        self._whole: np.ndarray | None = None

    def value_counts(self) -> pd.Series:
        """Rows per value over the whole column, most frequent first and ties in order of appearance: what
        `Series.value_counts()` gives, from the codes."""
        return pd.Series(self.counts(slice(None)), index=self.uniques).sort_values(ascending=False, kind="stable")

    def tally(self, positions: np.ndarray | slice) -> np.ndarray:
        """Rows per code at `positions`, missing values first (one pass; the whole column's is kept)."""
        if not (isinstance(positions, slice) and positions == slice(None)):
            return self._bincount(self.codes[positions])
        if self._whole is None:
            self._whole = self._bincount(self.codes)
        return self._whole

    def _bincount(self, codes: np.ndarray) -> np.ndarray:
        return np.bincount(np.add(codes, 1, dtype=np.intp), minlength=len(self.uniques) + 1)

    def counts(self, positions: np.ndarray | slice) -> np.ndarray:
        return self.tally(positions)[1:]

    def top(self, positions: np.ndarray | slice, n: int) -> list[tuple[str, int]]:
        counts = self.counts(positions)
        nonzero = np.flatnonzero(counts)
        named = pd.Series(counts[nonzero], index=[str(self.uniques[i]) for i in nonzero])
        return [(str(value), count) for value, count in top(named, n)]

    def mix(self, positions: np.ndarray | slice) -> dict[str, int]:
        """Counts of every value including missing ones (as "missing")."""
        tally = self.tally(positions)
        counts, missing = tally[1:], int(tally[0])
        mix = {str(self.uniques[i]): int(counts[i]) for i in np.flatnonzero(counts)}
        return mix | ({"missing": missing} if missing else {})


def _appearance_codes(series: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """A categorical's codes and the values they stand for, numbered in order of appearance (as `pd.factorize`
    numbers them); the codes are the column's own when its categories are already so ordered."""
    codes, seen = category_codes(series)
    uniques = series.cat.categories.take(seen)
    if len(seen) == len(series.cat.categories) and (seen == np.arange(len(seen))).all():
        return codes, uniques
    renumber = np.full(len(series.cat.categories) + 1, -1, dtype=codes.dtype)  # the last entry maps -1 to -1
    renumber[seen] = np.arange(len(seen))
    return renumber[codes], uniques


@dataclass
class RowSummary:
    """The part of the prompt that depends on the current rows, computed once per change of rows."""

    samples: list[str]
    severity_mix: dict[str, int]
    time_range: tuple[str | None, str | None]
    top_hosts: list[tuple[str, int]]
    top_components: list[tuple[str, int]]


class FrameStats:
    """Per-run precomputation over the whole frame that makes each row summary cheap."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.positional = isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0 and \
            frame.index.step == 1
        self.codes = {c: Codes(frame[c]) for c in ("severity", "host", "component") if c in frame}
        ts = frame.get("timestamp", None)
        self.times = ts.to_numpy(dtype="datetime64[ns]") if ts is not None and len(ts) else None
        self.columns = [c for c in frame.columns if c not in INTERNAL_COLUMNS and frame[c].notna().any()]

    def positions(self, rows: pd.DataFrame) -> np.ndarray | slice:
        """Where `rows` sit in the frame (all of it as a slice, which indexes without copying)."""
        if rows is self.frame:
            return slice(None)
        if self.positional:
            return rows.index.to_numpy(dtype=np.int64)
        return self.frame.index.get_indexer(rows.index)

    def value_counts(self) -> dict[str, pd.Series]:
        """`Codes.value_counts` of each coded column."""
        return {column: codes.value_counts() for column, codes in self.codes.items()}

    def distinct(self, column: str) -> list[str] | None:
        """The distinct values of `column` (found when it was factorized), or None when it is not coded."""
        return [str(value) for value in self.codes[column].uniques] if column in self.codes else None

    def severity_mix(self, rows: pd.DataFrame) -> dict[str, int]:
        """How many of `rows` have each severity (`missing`: none)."""
        return self._mix(self.positions(rows))

    def _mix(self, pos: np.ndarray | slice) -> dict[str, int]:
        return self.codes["severity"].mix(pos) if "severity" in self.codes else {}

    def summary(self, rows: pd.DataFrame, samples: int) -> RowSummary:
        pos = self.positions(rows)
        picked = sample_lines(rows.iloc[spread(len(rows), samples)])
        time_range: tuple[str | None, str | None] = (None, None)
        if self.times is not None and len(rows):
            times = self.times[pos]
            times = times[~np.isnat(times)]
            if len(times):
                time_range = (iso_time(pd.Timestamp(times.min(), tz="UTC")), iso_time(pd.Timestamp(times.max(), tz="UTC")))
        codes = self.codes
        return RowSummary(
            samples=picked,
            severity_mix=self._mix(pos),
            time_range=time_range,
            top_hosts=codes["host"].top(pos, 3) if "host" in codes else [],
            top_components=codes["component"].top(pos, 3) if "component" in codes else [],
        )


def sample_lines(rows: pd.DataFrame) -> list[str]:
    """Sample rows as `file:line text` for the prompt."""
    return [f"{PurePath(str(src)).name}:{line} {body}" for src, line, body in
            zip(rows["source"], rows["line"], entry_text(rows))]


def spread(n: int, k: int) -> list[int]:
    """Up to `k` row positions spread evenly over `n` rows (first, middle, last...)."""
    if n <= 0 or k <= 0:
        return []
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)}) if k > 1 else [0]
