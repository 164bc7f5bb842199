"""Everything a run knows, held by the engine between iterations (the planner keeps no memory)."""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from react_engine.contract.planner import ContextView, EntitySummary, HistoryItem
from react_engine.contract.record import ActionStep, Step
from react_engine.loop.anchor import anchor
from react_engine.question.vocabulary import Vocabulary
from react_engine.rows.ranked import top
from react_engine.rows.rowops import count, is_lazy, tally, within
from react_engine.rows.rowstats import FrameStats, RowSummary, iso_time

if TYPE_CHECKING:
    from react_engine.dask.overview import DaskStats

_KNOWN_VALUE_COLUMNS = ("host", "component")
_KNOWN_VALUES_MAX = 2000
_SHARED = frozenset({"question", "frame", "now", "inputs", "year_given", "_known"})  # kept by `restart`
_FACTS = "_react_engine_facts"  # the attribute of a frame that holds its `FrameFacts`


def stats_for(frame: pd.DataFrame) -> FrameStats | DaskStats:
    """The row-summary helper for `frame` (a Dask frame gets one that computes on the cluster)."""
    if is_lazy(frame):
        from react_engine.dask.overview import DaskStats

        return DaskStats(frame)
    return FrameStats(frame)


@dataclass
class FrameFacts:
    """What runs work out about a loaded frame, which no run changes: its row-summary helper and vocabulary."""

    stats: FrameStats | DaskStats
    vocabulary: Vocabulary | None = None


def facts_of(frame: pd.DataFrame) -> FrameFacts:
    """The `FrameFacts` of `frame`, kept on the frame object itself, so that the questions a batch, an eval or a
    chat asks of one loaded frame work them out once, and they go with the frame. (Not in `attrs`: pandas copies
    those to every frame derived from it.)"""
    facts = getattr(frame, _FACTS, None)
    if not isinstance(facts, FrameFacts):
        facts = FrameFacts(stats_for(frame))
        object.__setattr__(frame, _FACTS, facts)
    return facts


def resolve_now(frame: pd.DataFrame, now: str | None) -> pd.Timestamp | None:
    """The time anchor: `--now` when given, else the newest timestamp in the logs (see `anchor`)."""
    return anchor(frame, now).now


CallKey = tuple[int, str, Any]


def call_key(action: str, params: dict[str, Any], rows_version: int) -> CallKey:
    """Identity of a call on a given set of rows, for loop detection: hashable, whatever order the params came in."""
    return rows_version, action, _frozen(params)


def _frozen(value: Any) -> Any:
    """`value` (params as JSON-mode Python data) as a hashable value that equal params share."""
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return (value,) if isinstance(value, bool) else value  # True is not the number 1


@dataclass
class RunState:
    """The mutable state of one run."""

    question: str
    frame: pd.DataFrame
    now: pd.Timestamp | None
    inputs: tuple[Path, ...] = ()  # the loaded log files
    now_basis: str = "the newest log time"  # how `now` was chosen, said with relative times
    year_given: bool = False  # the logs were read with --year: no year of theirs is assumed
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
    calls: dict[CallKey, int] = field(default_factory=dict)  # call_key -> iteration of the first such call
    repeats: int = 0
    denials: int = 0
    intent_nudges: int = 0
    giveup_nudges: int = 0
    strategies_tried: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # caveats from tools that the answer must carry
    _summary: tuple[int, RowSummary] | None = None
    _known: dict[str, list[str]] | None = None
    _entity_summaries: dict[tuple[str, int, int], EntitySummary] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rows = self.frame
        self.stats = facts_of(self.frame).stats

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

    def brief_summary(self) -> RowSummary:
        """The current rows' severity mix alone (on a Dask cluster, the whole summary: one pass computes it all)."""
        if not isinstance(self.stats, FrameStats):
            return self.summary(0)
        return RowSummary(samples=[], severity_mix=self.stats.severity_mix(self.rows), time_range=(None, None),
                          top_hosts=[], top_components=[])

    def known_values(self) -> dict[str, list[str]]:
        if self._known is None:
            self._known = {}
            for col in _KNOWN_VALUE_COLUMNS:
                values = self.stats.distinct(col)
                if values is not None:
                    self._known[col] = sorted(values)[:_KNOWN_VALUES_MAX]
        return self._known

    def vocabulary(self) -> Vocabulary:
        """What the loaded rows contain, built on first use and kept with the frame."""
        facts = facts_of(self.frame)
        if facts.vocabulary is None:  # the columns the row summaries coded are not counted again
            counts = self.stats.value_counts() if isinstance(self.stats, FrameStats) else None
            facts.vocabulary = Vocabulary.build(self.frame, counts)
        return facts.vocabulary

    def history(self) -> list[HistoryItem]:
        return [
            HistoryItem(iteration=s.iteration, action=s.action or f"<{s.kind}>", params=s.params,
                        summary=s.observation or (s.error or ""), ok=s.ok, value=s.value,
                        result=s.result if isinstance(s, ActionStep) else None,
                        kind=s.kind)
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

    def view(self, iteration: int, max_iterations: int, samples: int, brief: bool = False) -> ContextView:
        """The run as a planner sees it; `brief`, for a planner that reads no prompt: the current rows' severity
        mix only, without the samples, time range and top values a prompt shows."""
        summary = self.brief_summary() if brief else self.summary(samples)
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
