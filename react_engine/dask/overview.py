"""The per-turn row summary over a Dask frame: one `dask.compute` of several small aggregates.

Each partition reports its row count, severity, host and component counts and time range in one task; the
client adds them up. The sample lines are then fetched by position from the partitions that hold them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

from react_engine.dask.ops import distinct, per_partition, remember, remembered
from react_engine.logs.schema import RAW_COLUMN
from react_engine.rows.ranked import top
from react_engine.rows.rowstats import RowSummary, iso_time, sample_lines, spread

_CODED = ("severity", "host", "component")


@dataclass
class _Part:
    """One partition's share of the summary."""

    rows: int
    counts: dict[str, pd.Series]
    first: Any
    last: Any


def _part_summary(part: pd.DataFrame) -> _Part:
    counts = {c: part[c].value_counts(dropna=c != "severity") for c in _CODED if c in part.columns}
    stamps = part["timestamp"] if "timestamp" in part.columns else pd.Series([], dtype="datetime64[ns, UTC]")
    return _Part(len(part), counts, stamps.min(), stamps.max())


@dataclass
class Facts:
    """What the summaries need from one partition, gathered while it is parsed (so no later pass is needed)."""

    part: _Part
    present: pd.Series  # non-missing values per column
    distinct: dict[str, list[str]]  # distinct severity, host and component values, in order of appearance


def facts(frame: pd.DataFrame) -> Facts:
    """The `Facts` of one parsed partition."""
    distinct = {c: [str(v) for v in frame[c].dropna().unique()] for c in _CODED if c in frame.columns}
    return Facts(_part_summary(frame), frame.count(), distinct)


def seed(frame: dd.DataFrame, found: list[Facts]) -> None:
    """Record what the loaded `frame` is known to hold, from its partitions' `Facts` (in partition order)."""
    if not found:
        return
    remember("parts", frame, [f.part for f in found])
    for data in (frame, *(frame[column] for column in frame.columns)):
        remember("lengths", data, [f.part.rows for f in found])
    remember("present", frame, pd.concat([f.present for f in found], axis=1).sum(axis=1).reindex(frame.columns,
                                                                                                   fill_value=0))
    _seed_distinct(frame, found)
    if "timestamp" in frame.columns:
        _seed_last_time(frame, found)


def _seed_last_time(frame: dd.DataFrame, found: list[Facts]) -> None:
    """Record the frame's latest time, the latest of its partitions' (none when no row has a time)."""
    lasts = [f.part.last for f in found if not pd.isna(f.part.last)]
    remember("compute", frame["timestamp"].max(), max(lasts) if lasts else pd.NaT)


def _seed_distinct(frame: dd.DataFrame, found: list[Facts]) -> None:
    """Record the distinct values of the coded columns, in order of appearance over the partitions."""
    for column in _CODED:
        if column in frame.columns:
            seen = (v for f in found for v in f.distinct.get(column, []))
            remember("distinct", frame[column], list(dict.fromkeys(seen)))


def _combined(parts: list[_Part], column: str) -> pd.Series | None:
    found = [p.counts[column] for p in parts if column in p.counts and len(p.counts[column])]
    if not found:
        return None
    return pd.concat(found).groupby(level=0, dropna=False, sort=False).sum()


class DaskStats:
    """What `FrameStats` gives for a pandas frame, computed on the cluster."""

    def __init__(self, frame: dd.DataFrame) -> None:
        self.frame = frame
        self.text = RAW_COLUMN if RAW_COLUMN in frame.columns else "message"
        present = remembered("present", frame, frame.count().compute)
        self.columns = [str(c) for c in frame.columns if c != RAW_COLUMN and int(present[c]) > 0]
        self.severity_order = distinct(frame["severity"]) if "severity" in frame.columns else []  # as `Codes.mix`

    def distinct(self, column: str) -> list[str] | None:
        """The distinct values of `column`, or None when the frame has no such column."""
        return distinct(self.frame[column]) if column in self.frame.columns else None

    def summary(self, rows: dd.DataFrame, samples: int) -> RowSummary:
        return remembered(f"summary:{samples}", rows, lambda: self._summary(rows, samples))

    def _summary(self, rows: dd.DataFrame, samples: int) -> RowSummary:
        parts = remembered("parts", rows, lambda: per_partition(_part_summary, rows))
        lengths = np.asarray([p.rows for p in parts], dtype=np.int64)
        firsts = [p.first for p in parts if not pd.isna(p.first)]
        lasts = [p.last for p in parts if not pd.isna(p.last)]
        severity = _combined(parts, "severity")
        return RowSummary(
            samples=sample_lines(self._rows_at(rows[["source", "line", self.text]], lengths,
                                               spread(int(lengths.sum()), samples))),
            severity_mix=self._mix(severity) if severity is not None else {},
            time_range=(iso_time(min(firsts)), iso_time(max(lasts))) if firsts else (None, None),
            top_hosts=_top(_combined(parts, "host"), 3),
            top_components=_top(_combined(parts, "component"), 3),
        )

    def _mix(self, counts: pd.Series) -> dict[str, int]:
        missing = int(counts[counts.index.isna()].sum())
        present = counts[counts.index.notna()]
        mix = {name: int(present[name]) for name in self.severity_order if present.get(name, 0)}
        return mix | ({"missing": missing} if missing else {})

    @staticmethod
    def _rows_at(rows: dd.DataFrame, lengths: np.ndarray, positions: list[int]) -> pd.DataFrame:
        """The rows at these global positions, fetched from the partitions that hold them."""
        if not positions:
            return rows._meta
        starts = np.concatenate([[0], np.cumsum(lengths)])
        parts = rows.to_delayed()
        picked: list[Any] = []
        for position in positions:
            part = int(np.searchsorted(starts, position, side="right") - 1)
            picked.append(parts[part].iloc[position - int(starts[part])])
        return pd.DataFrame(dask.compute(*picked))


def _top(counts: pd.Series | None, n: int) -> list[tuple[str, int]]:
    if counts is None:
        return []
    counts = counts[counts.index.notna()]
    return [(str(v), c) for v, c in top(counts.sort_values(ascending=False, kind="stable"), n)]
