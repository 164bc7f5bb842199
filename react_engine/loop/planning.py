"""Asking the planner for one reply: timed into the step and the run's statistics, traced with the model's usage,
and each planner error turned into the stop it causes."""

from __future__ import annotations

import time

from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.contract.record import Statistics, StopReason
from react_engine.errors import ContextTooSmallError, PlannerError, RunDeadlineError, TruncatedReplyError
from react_engine.loop.stops import Stop
from react_engine.loop.turn import Turn
from react_engine.tracing import SpanHandle, Tracer
from react_engine.tracing.genai import request_attributes, usage_attributes

_STOPS: tuple[tuple[type[PlannerError], StopReason], ...] = (
    (TruncatedReplyError, "length"), (ContextTooSmallError, "insufficient_context"), (RunDeadlineError, "time_limit"),
    (PlannerError, "error"),
)  # the first that matches: the stop a planner error causes


def ask(planner: Planner, request: PlanRequest, step: Turn, stats: Statistics, tracer: Tracer) -> PlannerReply:
    """`planner`'s reply to `request`, recorded on `step` and counted in `stats`; `Stop` when the planner fails."""
    with tracer.span("planner", planner=planner.name, model=planner.model or "",
                     **request_attributes(planner)) as span:
        began = time.monotonic()
        try:
            reply = planner.plan(request)
        except PlannerError as exc:
            raise _stop(exc, planner, stats, span) from None
        finally:
            step.llm_ms = (time.monotonic() - began) * 1000
            stats.llm_duration_seconds += step.llm_ms / 1000
        _record(reply, span)
        text = reply.text() if tracer.recording else reply.content or None  # a replay reads it from the trace
        if tracer.recording:
            span.event("reply", text=text, thinking=reply.thinking or "")
    _count_call(planner, stats)
    stats.completion_tokens_total += reply.usage.completion_tokens or 0
    stats.retries += len(reply.retries)
    step.reply, step.thinking, step.done_reason = text, reply.thinking, reply.done_reason
    step.usage, step.retries = reply.usage, reply.retries
    return reply


def _stop(exc: PlannerError, planner: Planner, stats: Statistics, span: SpanHandle) -> Stop:
    """The stop a planner error causes (a cut-off reply still counts as a model call)."""
    reason = next(r for kind, r in _STOPS if isinstance(exc, kind))
    if reason == "length":
        _count_call(planner, stats)  # the model did reply, only out of room
    if reason == "error":
        span.set(error=str(exc))
    return Stop(reason, str(exc), type(exc).__name__)


def _record(reply: PlannerReply, span: SpanHandle) -> None:
    """What the server reported about producing `reply`, on the planner's span."""
    usage = reply.usage
    span.set(done_reason=reply.done_reason or "", prompt_eval_count=usage.prompt_tokens or 0,
             eval_count=usage.completion_tokens or 0, total_ms=usage.total_ms or 0.0,
             load_ms=usage.load_ms or 0.0, prompt_ms=usage.prompt_ms or 0.0, eval_ms=usage.eval_ms or 0.0,
             retries=len(reply.retries), **usage_attributes(reply))


def _count_call(planner: Planner, stats: Statistics) -> None:
    if planner.calls_model:
        stats.llm_calls += 1
