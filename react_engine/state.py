"""Everything a run knows, held by the engine between iterations (the planner keeps no memory)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from react_engine.logs.schema import RAW_COLUMN
from react_engine.planners.base import ContextView, EntitySummary, HistoryItem
from react_engine.result import Step

_KNOWN_VALUE_COLUMNS = ("host", "component")
_KNOWN_VALUES_MAX = 2000


def _top(series: pd.Series, n: int) -> list[tuple[str, int]]:
    counts = series.dropna().astype(str).value_counts()
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    return [(str(k), int(v)) for k, v in ordered]


def _iso(ts: Any) -> str | None:
    """Compact UTC time for the prompt: `2026-11-20T15:00:47Z`."""
    if ts is None or pd.isna(ts):
        return None
    stamp = pd.Timestamp(ts)
    return (stamp.tz_convert("UTC") if stamp.tzinfo else stamp).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class RowSummary:
    """The part of the prompt that depends on the current rows, computed once per change of rows."""

    samples: list[str]
    severity_mix: dict[str, int]
    time_range: tuple[str | None, str | None]
    top_hosts: list[tuple[str, int]]
    top_components: list[tuple[str, int]]

    @classmethod
    def of(cls, rows: pd.DataFrame, samples: int) -> "RowSummary":
        text_col = RAW_COLUMN if RAW_COLUMN in rows else "message"
        sample_rows = rows.iloc[_spread(len(rows), samples)]
        picked = [
            f"{src}:{line} {text}"
            for src, line, text in zip(sample_rows["source"], sample_rows["line"], sample_rows[text_col])
        ]
        sev = rows["severity"].value_counts(dropna=False) if "severity" in rows else pd.Series(dtype=int)
        mix = {("missing" if pd.isna(k) else str(k)): int(v) for k, v in sev.items() if v}
        ts = rows["timestamp"] if "timestamp" in rows else pd.Series(dtype="datetime64[ns, UTC]")
        return cls(
            samples=[str(p) for p in picked],
            severity_mix=mix,
            time_range=(_iso(ts.min()), _iso(ts.max())) if len(ts) else (None, None),
            top_hosts=_top(rows["host"], 3) if "host" in rows else [],
            top_components=_top(rows["component"], 3) if "component" in rows else [],
        )


def _spread(n: int, k: int) -> list[int]:
    """Up to `k` row positions spread evenly over `n` rows (first, middle, last...)."""
    if n <= 0 or k <= 0:
        return []
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)}) if k > 1 else [0]


def call_key(action: str, params: dict[str, Any], rows_version: int) -> str:
    """Identity of a call on a given set of rows, for loop detection."""
    return f"{rows_version}:{action}:{json.dumps(params, sort_keys=True, default=str)}"


@dataclass
class RunState:
    """The mutable state of one run."""

    question: str
    frame: pd.DataFrame
    now: pd.Timestamp | None
    rows: pd.DataFrame = field(init=False)
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
    _summary: tuple[int, RowSummary] | None = None
    _known: dict[str, list[str]] | None = None

    def __post_init__(self) -> None:
        self.rows = self.frame

    def set_rows(self, rows: pd.DataFrame) -> None:
        self.rows = rows
        self.rows_version += 1
        self.evidence = None

    def summary(self, samples: int) -> RowSummary:
        if self._summary is None or self._summary[0] != self.rows_version:
            self._summary = (self.rows_version, RowSummary.of(self.rows, samples))
        return self._summary[1]

    def known_values(self) -> dict[str, list[str]]:
        if self._known is None:
            self._known = {}
            for col in _KNOWN_VALUE_COLUMNS:
                if col in self.frame:
                    values = self.frame[col].dropna().astype(str).unique()
                    self._known[col] = sorted(values)[:_KNOWN_VALUES_MAX]
        return self._known

    def history(self) -> list[HistoryItem]:
        return [
            HistoryItem(iteration=s.iteration, action=s.action or f"<{s.kind}>", params=s.params,
                        summary=s.observation or (s.error or ""), ok=s.ok, value=s.value)
            for s in self.steps
        ]

    def entity_summaries(self) -> list[EntitySummary]:
        out = []
        for name, values in self.entities.items():
            current = values[values.index.isin(self.rows.index)]
            out.append(EntitySummary(type=name, count=int(len(current)), unique=int(current.nunique()),
                                     top=_top(current, 3)))
        return out

    def view(self, iteration: int, max_iterations: int, samples: int) -> ContextView:
        summary = self.summary(samples)
        return ContextView(
            question=self.question,
            iteration=iteration,
            max_iterations=max_iterations,
            now=_iso(self.now),
            total_rows=len(self.frame),
            row_count=len(self.rows),
            columns=[c for c in self.frame.columns if c != RAW_COLUMN],
            samples=summary.samples,
            severity_mix=summary.severity_mix,
            time_range=summary.time_range,
            top_hosts=summary.top_hosts,
            top_components=summary.top_components,
            history=self.history(),
            entities=self.entity_summaries(),
            feedback=self.feedback,
            known_values=self.known_values(),
        )
