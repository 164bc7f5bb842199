"""Replay a recorded run: the same question on the same logs, fed the recorded replies in order.

The replayed run is traced in memory and compared with the recording action by action, then by answer, so
a trace doubles as a determinism check and any bad run becomes a test case.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from react_engine.contract.planner import PlannerReply, PlanRequest
from react_engine.contract.record import RunResult
from react_engine.errors import InputError
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.factory import make_advisor
from react_engine.planners.script import ScriptPlanner
from react_engine.settings import Settings
from react_engine.tracing import TraceRecord, open_tracer, read_trace
from react_engine.tracing.otlp import json_attribute


class Action(BaseModel):
    action: str
    params: dict[str, Any] = Field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.action}({json.dumps(self.params, sort_keys=True, ensure_ascii=False)})"


class Outcome(BaseModel):
    """What a run did, as its trace shows it."""

    actions: list[Action]
    answer: str | None = None
    value: Any = None
    stop_reason: str | None = None


class ReplayReport(BaseModel):
    trace_file: str
    question: str
    recorded: Outcome
    replayed: Outcome
    same_actions: bool
    same_answer: bool
    first_difference: str | None = None
    replay_trace_file: str | None = None
    replayed_first: list[str] = Field(default_factory=list)  # a chat follow-up's earlier questions, replayed first

    @property
    def identical(self) -> bool:
        return self.same_actions and self.same_answer


def outcome(trace: TraceRecord) -> Outcome:
    """The actions (tool spans, in order) and the final answer of a traced run."""
    root = trace.root.attributes
    actions = [Action(action=s.attributes.get("tool", ""), params=json_attribute(s.attributes.get("params", "{}")))
               for s in trace.descendants("tool")]
    return Outcome(actions=actions, answer=root.get("answer"), value=json_attribute(root.get("value")),
                   stop_reason=root.get("stop_reason"))


class RecordedRun(BaseModel):
    """The question and settings a trace recorded on its root span; a tampered value fails validation."""

    model_config = ConfigDict(extra="ignore")

    question: str = ""
    paths: list[str] = Field(default_factory=list)
    max_iterations: int = Settings().max_iterations
    now: str | None = None
    format: str | None = None
    year: int | None = None
    model: str | None = None
    deterministic: bool = False
    follows: str | None = None  # a chat follow-up: the trace file (beside this one) of the answer it started from

    @classmethod
    def of(cls, trace: TraceRecord) -> RecordedRun:
        """The recorded run of `trace`; an `InputError` naming the bad field when it was tampered with."""
        try:
            run = cls.model_validate(trace.root.attributes)
            return run.model_copy(update={"now": run.now or None, "format": run.format or None,
                                          "year": run.year or None, "model": run.model or None})
        except ValidationError as exc:
            problem = exc.errors()[0]
            raise InputError(f"{trace.path}: the recorded {'.'.join(map(str, problem['loc']))} is invalid "
                             f"({problem['msg']}): replay a trace written by a run") from None


class RecordedPlanner(ScriptPlanner):
    """A script planner that also repeats what the server reported (done_reason, thinking) with each reply."""

    def __init__(self, replies: Sequence[PlannerReply], model: str | None = None, deterministic: bool = False) -> None:
        super().__init__([r.content for r in replies], model=model)
        self.recorded = list(replies)
        self.deterministic = deterministic  # the engine nudges only planners that may answer differently

    def plan(self, request: PlanRequest) -> PlannerReply:
        reply = super().plan(request)
        original = self.recorded[len(self.requests) - 1]
        return reply.model_copy(update={"done_reason": original.done_reason, "thinking": original.thinking})


def recorded_replies(trace: TraceRecord) -> list[PlannerReply]:
    """The raw replies of a traced run, in the order the planner sent them."""
    replies = []
    for span in trace.descendants("planner"):
        event = span.event("reply")
        if event is not None:
            replies.append(PlannerReply(content=event.attributes.get("text", ""),
                                        thinking=event.attributes.get("thinking") or None,
                                        done_reason=span.attributes.get("done_reason") or None))
    return replies


def _first_difference(recorded: Outcome, replayed: Outcome) -> str | None:
    for number, (old, new) in enumerate(zip(recorded.actions, replayed.actions), 1):
        if old != new:
            return f"action {number}: recorded {old}, replayed {new}"
    if len(recorded.actions) != len(replayed.actions):
        return f"recorded {len(recorded.actions)} actions, replayed {len(replayed.actions)}"
    if (recorded.answer, recorded.value) != (replayed.answer, replayed.value):
        return f"answer: recorded {recorded.answer!r}, replayed {replayed.answer!r}"
    if recorded.stop_reason != replayed.stop_reason:
        return f"stop reason: recorded {recorded.stop_reason}, replayed {replayed.stop_reason}"
    return None


MAX_FOLLOWS = 100
"""Questions of one chat a follow-up's replay goes back through at most."""


def _earlier(path: Path, run: RecordedRun, depth: int) -> Path | None:
    """The trace a chat follow-up's run started from, beside `path`; None for a run that follows none."""
    if not run.follows:
        return None
    earlier = path.parent / Path(run.follows).name
    if depth >= MAX_FOLLOWS or not earlier.is_file():
        raise InputError(f"{path}: it follows the chat answer traced in {run.follows}, which is not beside it: "
                         "replay it among the traces of its chat")
    return earlier


def _rerun(path: Path, paths: Sequence[str | Path] | None, tracer: Any, depth: int = 0
           ) -> tuple[TraceRecord, RecordedRun, RunResult, list[str]]:
    """Re-run the traced question, after the chat questions it follows (each on the previous answer's rows)."""
    trace = read_trace(path)
    run = RecordedRun.of(trace)
    try:
        settings = Settings(max_iterations=run.max_iterations)
        options = LoadOptions(format=run.format, year=run.year)
    except ValidationError as exc:
        raise InputError(f"{path}: the recorded settings are invalid ({exc.errors()[0]['msg']}): "
                         "replay a trace written by a run") from None
    frame: Any = None
    first: list[str] = []
    if (earlier := _earlier(path, run, depth)) is not None:
        _, before, result, first = _rerun(earlier, paths, None, depth + 1)
        frame, first = (result.rows if result.answered else None), [*first, before.question]
    planner = RecordedPlanner(recorded_replies(trace), model=run.model, deterministic=run.deterministic)
    engine = Engine(planner, settings, tracer_factory=(lambda: tracer) if tracer else None, advisor=make_advisor())
    result = engine.ask(run.question, list(paths or run.paths), frame=frame, now=run.now, load_options=options)
    return trace, run, result, first


def replay(path: str | Path, *, paths: Sequence[str | Path] | None = None,
           trace_dir: str | Path | None = None) -> ReplayReport:
    """Re-run the traced question with its recorded replies; `paths` overrides the recorded log paths. A chat
    follow-up's earlier questions are replayed first, from the traces beside it."""
    tracer = open_tracer(trace_dir)
    trace, run, result, first = _rerun(Path(path), paths, tracer)
    recorded, replayed = outcome(trace), outcome(tracer.record())
    difference = _first_difference(recorded, replayed)
    return ReplayReport(
        trace_file=str(path), question=run.question, recorded=recorded, replayed=replayed,
        same_actions=recorded.actions == replayed.actions,
        same_answer=(recorded.answer, recorded.value, recorded.stop_reason)
        == (replayed.answer, replayed.value, replayed.stop_reason),
        first_difference=difference, replay_trace_file=result.trace_file, replayed_first=first,
    )
