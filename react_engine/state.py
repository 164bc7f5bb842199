"""Everything a run knows, held by the engine between iterations (the planner keeps no memory)."""

from __future__ import annotations

import copy
import json
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from react_engine.anchor import anchor
from react_engine.logs.schema import INTERNAL_COLUMNS
from react_engine.logs.text import entry_text
from react_engine.planners.base import ContextView, EntitySummary, HistoryItem
from react_engine.result import Step
from react_engine.rowops import category_codes, count, is_lazy, tally, within
from react_engine.tools.counts import top
from react_engine.understanding.vocabulary import Vocabulary

if TYPE_CHECKING:
    from react_engine.dask.summary import DaskStats

_KNOWN_VALUE_COLUMNS = ("host", "component")
_KNOWN_VALUES_MAX = 2000
_SHARED = frozenset({"question", "frame", "now", "inputs", "_known", "_vocabulary"})  # kept by `restart`


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
            severity_mix=codes["severity"].mix(pos) if "severity" in codes else {},
            time_range=time_range,
            top_hosts=codes["host"].top(pos, 3) if "host" in codes else [],
            top_components=codes["component"].top(pos, 3) if "component" in codes else [],
        )


def sample_lines(rows: pd.DataFrame) -> list[str]:
    """Sample rows as `file:line text` for the prompt."""
    return [f"{PurePath(str(src)).name}:{line} {body}" for src, line, body in
            zip(rows["source"], rows["line"], entry_text(rows))]


def stats_for(frame: pd.DataFrame) -> FrameStats | DaskStats:
    """The row-summary helper for `frame` (a Dask frame gets one that computes on the cluster)."""
    if is_lazy(frame):
        from react_engine.dask.summary import DaskStats

        return DaskStats(frame)
    return FrameStats(frame)


def spread(n: int, k: int) -> list[int]:
    """Up to `k` row positions spread evenly over `n` rows (first, middle, last...)."""
    if n <= 0 or k <= 0:
        return []
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)}) if k > 1 else [0]


def resolve_now(frame: pd.DataFrame, now: str | None) -> pd.Timestamp | None:
    """The time anchor: `--now` when given, else the newest timestamp in the logs (see `anchor`)."""
    return anchor(frame, now).now


def call_key(action: str, params: dict[str, Any], rows_version: int) -> str:
    """Identity of a call on a given set of rows, for loop detection."""
    return f"{rows_version}:{action}:{json.dumps(params, sort_keys=True, default=str)}"


@dataclass
class RunState:
    """The mutable state of one run."""

    question: str
    frame: pd.DataFrame
    now: pd.Timestamp | None
    inputs: tuple[Path, ...] = ()  # the loaded log files
    now_basis: str = "the newest log time"  # how `now` was chosen, said with relative times
    rows: pd.DataFrame = field(init=False)
    before: pd.DataFrame | None = None  # the rows before the last change of rows (the base of a share)
    entities: dict[str, pd.Series] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    feedback: str | None = None
    rows_version: int = 0  # bumps whenever the current rows change
    evidence: pd.Index | None = None  # frame labels behind the latest value
    consecutive_invalid: int = 0
    tool_failures: dict[str, int] = field(default_factory=dict)
    disabled_tools: set[str] = field(default_factory=set)
    calls: dict[str, int] = field(default_factory=dict)  # call_key -> iteration of the first such call
    repeats: int = 0
    denials: int = 0
    intent_nudges: int = 0
    giveup_nudges: int = 0
    strategies_tried: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # caveats from tools that the answer must carry
    _summary: tuple[int, RowSummary] | None = None
    _known: dict[str, list[str]] | None = None
    _vocabulary: Vocabulary | None = None
    _entity_summaries: dict[tuple[str, int, int], EntitySummary] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rows = self.frame
        self.stats = stats_for(self.frame)

    def restart(self) -> RunState:
        """A fresh run over the same loaded logs (all rows, no steps), sharing what was computed about the logs."""
        fresh = copy.copy(self)
        for f in fields(self):
            if f.name not in _SHARED:
                default = f.default_factory() if f.default_factory is not MISSING else f.default
                setattr(fresh, f.name, self.frame if f.name == "rows" else default)
        return fresh

    def set_rows(self, rows: pd.DataFrame) -> None:
        self.before, self.rows = self.rows, rows
        self.rows_version += 1
        self.evidence = None

    def summary(self, samples: int) -> RowSummary:
        if self._summary is None or self._summary[0] != self.rows_version:
            self._summary = (self.rows_version, self.stats.summary(self.rows, samples))
        return self._summary[1]

    def known_values(self) -> dict[str, list[str]]:
        if self._known is None:
            self._known = {}
            for col in _KNOWN_VALUE_COLUMNS:
                values = self.stats.distinct(col)
                if values is not None:
                    self._known[col] = sorted(values)[:_KNOWN_VALUES_MAX]
        return self._known

    def vocabulary(self) -> Vocabulary:
        """What the loaded rows contain, built on first use and kept for the run."""
        if self._vocabulary is None:  # the columns the row summaries coded are not counted again
            counts = self.stats.value_counts() if isinstance(self.stats, FrameStats) else None
            self._vocabulary = Vocabulary.build(self.frame, counts)
        return self._vocabulary

    def history(self) -> list[HistoryItem]:
        return [
            HistoryItem(iteration=s.iteration, action=s.action or f"<{s.kind}>", params=s.params,
                        summary=s.observation or (s.error or ""), ok=s.ok, value=s.value, kind=s.kind)
            for s in self.steps
        ]

    def entity_summaries(self) -> list[EntitySummary]:
        out = []
        for name, values in self.entities.items():
            key = (name, id(values), self.rows_version)
            if key not in self._entity_summaries:
                total, counts = tally(within(values, self.rows))
                self._entity_summaries[key] = EntitySummary(type=name, count=total, unique=len(counts),
                                                            top=[(str(v), c) for v, c in top(counts, 3)])
            out.append(self._entity_summaries[key])
        return out

    def view(self, iteration: int, max_iterations: int, samples: int) -> ContextView:
        summary = self.summary(samples)
        return ContextView(
            question=self.question,
            iteration=iteration,
            max_iterations=max_iterations,
            now=iso_time(self.now),
            total_rows=count(self.frame),
            row_count=count(self.rows),
            columns=self.stats.columns,
            samples=summary.samples,
            severity_mix=summary.severity_mix,
            time_range=summary.time_range,
            top_hosts=summary.top_hosts,
            top_components=summary.top_components,
            history=self.history(),
            entities=self.entity_summaries(),
            feedback=self.feedback,
            known_values=self.known_values(),
            vocabulary=self.vocabulary(),
        )
