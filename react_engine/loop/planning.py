"""Asking the planner for one reply: timed into the step and the run's statistics, traced with the model's usage,
and each planner error turned into the stop it causes."""

from __future__ import annotations

import time

from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.contract.record import Statistics, Step
from react_engine.errors import ContextTooSmallError, PlannerError, RunDeadlineError, TruncatedReplyError
from react_engine.loop.stops import Stop
from react_engine.tracing import Tracer
from react_engine.tracing.genai import request_attributes, usage_attributes


def ask(planner: Planner, request: PlanRequest, step: Step, stats: Statistics, tracer: Tracer) -> PlannerReply:
    """`planner`'s reply to `request`, recorded on `step` and counted in `stats`; `Stop` when the planner fails."""
    with tracer.span("planner", planner=planner.name, model=planner.model or "",
                     **request_attributes(planner)) as span:
        began = time.monotonic()
        try:
            reply = planner.plan(request)
        except TruncatedReplyError as exc:
            _count_call(planner, stats)  # the model did reply, only out of room
            raise Stop("length", str(exc), type(exc).__name__) from None
        except ContextTooSmallError as exc:
            raise Stop("insufficient_context", str(exc), type(exc).__name__) from None
        except RunDeadlineError as exc:
            raise Stop("time_limit", str(exc), type(exc).__name__) from None
        except PlannerError as exc:
            span.set(error=str(exc))
            raise Stop("error", str(exc), type(exc).__name__) from None
        finally:
            step.llm_ms = (time.monotonic() - began) * 1000
            stats.llm_duration_seconds += step.llm_ms / 1000
        usage = reply.usage
        span.set(done_reason=reply.done_reason or "", prompt_eval_count=usage.prompt_tokens or 0,
                 eval_count=usage.completion_tokens or 0, total_ms=usage.total_ms or 0.0,
                 load_ms=usage.load_ms or 0.0, prompt_ms=usage.prompt_ms or 0.0, eval_ms=usage.eval_ms or 0.0,
                 retries=len(reply.retries), **usage_attributes(reply))
        text = reply.text() if tracer.recording else reply.content or None  # a replay reads it from the trace
        if tracer.recording:
            span.event("reply", text=text, thinking=reply.thinking or "")
    _count_call(planner, stats)
    stats.completion_tokens_total += reply.usage.completion_tokens or 0
    stats.retries += len(reply.retries)
    step.reply, step.thinking, step.done_reason = text, reply.thinking, reply.done_reason
    step.usage, step.retries = reply.usage, reply.retries
    return reply


def _count_call(planner: Planner, stats: Statistics) -> None:
    if planner.calls_model:
        stats.llm_calls += 1
