"""How a tool is declared: one pydantic model gives both its schema and its argument validation."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from react_engine.errors import ToolTimeoutError
from react_engine.logs.field_catalog import FieldCatalog
from react_engine.logs.fields import NumericField
from react_engine.rows.bounded import Overdue, within
from react_engine.settings import Settings
from react_engine.tools.figures import Compared, Grouped, Pivot, Rate, ShareOf, Statistic, Unmeasured
from react_engine.tools.investigated import Jumps, Patterns, Preceded, Timeline, UnusualTimes
from react_engine.tools.results import (
    Counted,
    DistinctRanking,
    Exported,
    Extracted,
    Histogram,
    Lines,
    NeverSeen,
    Ranking,
    Stated,
    ValuesCounted,
)
from react_engine.tools.timed import Durations, Gaps, NoSpan, OrderedValues, TimeSpan

ToolValue = (Counted | ValuesCounted | Ranking | DistinctRanking | Histogram | Lines | Stated | Exported | Extracted | Unmeasured | Statistic | Rate
             | Grouped | Pivot | ShareOf | Compared | TimeSpan | NoSpan | OrderedValues | Gaps | Durations | Patterns | UnusualTimes
             | Jumps | Timeline | Preceded | NeverSeen)


class Params(BaseModel):
    """Base of every tool's parameter model: unknown keys are rejected so the planner learns the contract. A model's
    validator is built when first used, so a run pays only for the tools it calls (and the schema, when asked)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


@dataclass
class ToolContext:
    """The data a tool runs on, injected by the engine; tools never read files themselves."""

    frame: pd.DataFrame  # every loaded row
    rows: pd.DataFrame  # the current rows (a subset of `frame`, same index labels)
    now: pd.Timestamp  # the time anchor for relative times (UTC)
    now_basis: str = "the newest log time"  # how `now` was chosen, for a note when relative times are used
    settings: Settings = field(default_factory=Settings)
    # entity type -> values found, indexed by the frame row label they came from (a label may repeat)
    entities: dict[str, pd.Series] = field(default_factory=dict)
    output_dir: Path = field(default_factory=Path.cwd)  # the only directory tools may write under
    allow_overwrite: bool = False  # whether an approved write may replace an existing file (--overwrite)
    inputs: tuple[Path, ...] = ()  # the loaded log files, which are never written
    deadline: float | None = None  # time.monotonic() past which the call has been abandoned
    # the numeric fields of the messages, found when a tool first asks (from a sample of `frame` if None)
    fields: Callable[[], tuple[NumericField, ...]] | None = None
    # the fields of the messages' patterns, found once per load (from a sample of `frame` if None)
    catalog: Callable[[], FieldCatalog] | None = None
    before: pd.DataFrame | None = None  # the current rows before the last call that narrowed them

    def check_deadline(self) -> None:
        """For long tools, between chunks of work: stop once the call has been abandoned."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ToolTimeoutError("the time limit passed before the tool finished: narrow the rows first")


@dataclass
class ToolResult:
    """What a tool returns: its typed `value`, a one-line `summary`, and any state it changes.

    `value` is what an answer may rest on, by the grounding rule (react_engine/answer/check.py): only the JSON
    numbers of its recorded value (int, float; list items and dict values) count as computed, together with the
    rows a step leaves. Text in it (log lines, a value's text, dict keys) is names, whose digits never ground a
    number. So every quantity is held as a number: a count, a statistic, a share (`ShareOf.percent`), a duration as
    seconds (`TimeSpan.seconds`, which grounds "4 h 17 min 14 s"); a time as ISO 8601 text
    (`pd.Timestamp.isoformat()`), which grounds the times an answer states. `summary` grounds nothing."""

    value: ToolValue
    summary: str
    rows: pd.DataFrame | None = None  # the new current rows, when the tool narrows or resets them
    entities: dict[str, pd.Series] | None = None  # entity sets to add or replace
    evidence: pd.Index | None = None  # frame row labels behind `value`, when narrower than the current rows
    note: str | None = None  # a caveat on `value` that the answer must carry (one line, its numbers computed)


ToolFn = Callable[[Any, ToolContext], ToolResult]
Returns = Any  # a `ToolValue` model, or a union of them (a type form): what a tool's result may be


@dataclass(frozen=True)
class Tool:
    """A fixed operation the planner may call by name."""

    name: str
    description: str
    params: type[Params]
    run: ToolFn
    returns: Returns  # the result model(s) its value is one of, to read a recorded value back
    requires_approval: bool = False
    terminal: bool = False  # ends the run (finalize_answer)
    narrows: bool = False  # replaces the current rows with a subset; the same call again is a repeat
    timeout: float | None = None  # seconds before the call is abandoned, when tighter than the settings' limit
    # offered to a model only when the question's reading needs it, the run used it, or the prompt has room
    optional: bool = False

    def call(self, params: Params, ctx: ToolContext, timeout: float) -> ToolResult:
        """Run on a daemon thread; past `timeout` seconds the call is abandoned (the process need not wait for it)
        and reported as a `ToolTimeoutError`. A long tool may stop itself sooner with `ctx.check_deadline()`."""
        ctx = replace(ctx, deadline=time.monotonic() + timeout)
        try:
            return within(lambda: self.run(params, ctx), timeout, f"tool-{self.name}")
        except Overdue:
            raise ToolTimeoutError(f"{self.name} took longer than {timeout:g}s and was abandoned: "
                                   "narrow the rows first") from None

    def signature(self) -> str:
        """`name(a, b=default)` derived from the params model, for the one-line tool list in the prompt."""
        parts = []
        for name, info in self.params.model_fields.items():
            if info.is_required():
                parts.append(name)
            else:
                parts.append(f"{name}={_literal(info.get_default(call_default_factory=True))}")
        return f"{self.name}({', '.join(parts)})"


def _literal(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


REGISTRY: dict[str, Tool] = {}


def tool(name: str, description: str, params: type[Params], returns: Returns, *, requires_approval: bool = False,
         terminal: bool = False, narrows: bool = False, timeout: float | None = None,
         optional: bool = False) -> Callable[[ToolFn], ToolFn]:
    """Register `fn` as the tool `name`; the declaration is the single source of its schema."""

    def register(fn: ToolFn) -> ToolFn:
        if name in REGISTRY:
            raise ValueError(f"tool {name!r} declared twice")
        REGISTRY[name] = Tool(name, description, params, fn, returns, requires_approval, terminal, narrows, timeout,
                              optional)
        return fn

    return register


@cache
def _reader(name: str) -> TypeAdapter[ToolValue]:
    return TypeAdapter(REGISTRY[name].returns)


def read_result(action: str, value: Any) -> ToolValue | None:
    """The typed result of tool `action` from its recorded `value` (a trace's, a made-up history's); None when no
    tool is so named or the value is none of its results."""
    if action not in REGISTRY:
        return None
    try:
        return _reader(action).validate_python(value)
    except ValidationError:
        return None
