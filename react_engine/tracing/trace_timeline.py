"""A traced run as a readable timeline: one row per iteration, then the final answer and stop reason."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from react_engine.tracing.otlp import SpanRecord, TraceRecord, json_attribute


class TimelineRow(BaseModel):
    iteration: int
    action: str
    params: str = ""
    summary: str = ""
    ok: bool = True
    ms: float = 0.0
    prompt_tokens: int | None = None  # the engine's estimate of the prompt it built
    tokens_in: int | None = None  # as counted by the model server
    tokens_out: int | None = None
    planner: str | None = None  # the planner that chose this step (a model's, or the fallback's)


class Timeline(BaseModel):
    trace_id: str
    question: str
    paths: list[str] = Field(default_factory=list)
    now: str | None = None
    planner: str | None = None
    model: str | None = None
    rows: list[TimelineRow]
    answer: str | None = None
    value: Any = None
    verified: bool | None = None
    stop_reason: str | None = None
    total_ms: float = 0.0


def _child(trace: TraceRecord, span: SpanRecord, name: str) -> dict[str, Any]:
    found = trace.children(span, name)
    return found[-1].attributes if found else {}


def _summary(tool: dict[str, Any], iteration: dict[str, Any], planner: dict[str, Any]) -> str:
    if tool.get("error") or planner.get("error"):
        return str(tool.get("error") or planner.get("error"))
    if tool.get("summary"):
        return str(tool["summary"])
    if "rows_out" in tool:
        return f"rows {tool.get('rows_in', '?')} → {tool['rows_out']}"
    return str(iteration.get("kind", ""))


def _row(trace: TraceRecord, span: SpanRecord) -> TimelineRow:
    attrs = span.attributes
    context, planner, tool = (_child(trace, span, n) for n in ("context", "planner", "tool"))
    ok = bool(tool.get("ok", attrs.get("ok", True))) and not planner.get("error")
    return TimelineRow(
        iteration=attrs.get("iteration", 0),
        action=tool.get("tool") or attrs.get("action") or str(attrs.get("kind", "?")),
        params=str(tool.get("params", "")), summary=_summary(tool, attrs, planner), ok=ok,
        ms=round(span.duration_ms, 2), prompt_tokens=context.get("prompt_tokens"),
        tokens_in=planner.get("prompt_eval_count") or None, tokens_out=planner.get("eval_count") or None,
        planner=attrs.get("planner") or None,
    )


def timeline(trace: TraceRecord) -> Timeline:
    """The run in `trace`, iteration by iteration."""
    root = trace.root
    attrs = root.attributes
    return Timeline(
        trace_id=root.trace_id, question=attrs.get("question", ""), paths=attrs.get("paths", []),
        now=attrs.get("now_used") or attrs.get("now") or None, planner=attrs.get("planner"),
        model=attrs.get("model") or None, rows=[_row(trace, s) for s in trace.children(root, "iteration")],
        answer=attrs.get("answer"), value=json_attribute(attrs.get("value")), verified=attrs.get("verified"),
        stop_reason=attrs.get("stop_reason"), total_ms=round(root.duration_ms, 2),
    )
