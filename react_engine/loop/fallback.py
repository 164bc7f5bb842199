"""Finishing a model planner's run with a fallback planner: a model may fail to help, never make an answer worse.

When a model planner's run ends without a verified answer (an error, a cut-off reply, the step limit, a refusal
or an unverified answer), the engine asks the fallback planner (the rules planner, injected by the factory) to
answer from the loaded rows. Its answer replaces the model's only when it is verified and whole; the two runs'
steps are kept in order, so the result and the trace show both.
"""

from __future__ import annotations

import time
from typing import Any

from react_engine.contract.record import RunResult, Statistics
from react_engine.rows.snippets import cut

# end states after which a fallback may still help: the logs were loaded and the run was not stopped from outside
_FALLBACK_AFTER = frozenset({"stop", "error", "length", "tool_limit", "insufficient_context", "time_limit"})
FALLBACK_SECONDS = 5.0  # the least time the fallback gets, past the run's limit if need be (it reads no model)


def fallback_start(started: float, timeout: float) -> float:
    """The start time to give the fallback's run, so that it has what is left of the run's time, or at least
    `FALLBACK_SECONDS` (a model that used all the time still gets the rules planner's answer)."""
    return max(started, time.monotonic() + FALLBACK_SECONDS - timeout)


UNREACHABLE = frozenset({
    "PlannerConnectionError", "ModelNotFoundError", "PlannerServerError", "PlannerOverloadedError",
    "PlannerValidationError", "ReplyTooLargeError", "RunDeadlineError"})  # fmt: skip
"""The planner errors that say the model could not be had (its server down, overloaded, failing, answering what is
no reply or dripping it, the model not there), as opposed to a reply the model got wrong."""


def unreachable(result: RunResult) -> bool:
    """Whether `result` ended because the planner's server or model could not be had."""
    return result.stop_reason in ("error", "time_limit") and result.error_type in UNREACHABLE


def needs_fallback(result: RunResult, if_unreachable: bool = True) -> bool:
    """Whether `result` ended without a verified answer that a fallback planner could give instead; a model that
    could not be had is stood in for only `if_unreachable` (not for a planner the user named)."""
    if result.stop_reason not in _FALLBACK_AFTER or (not if_unreachable and unreachable(result)):
        return False
    return not result.verified or result.partial


def merge(first: RunResult, second: RunResult, started: float) -> RunResult:
    """The model's run `first` (begun at `started`) finished by the fallback's run `second`: the fallback's answer
    when it is verified and whole, or partial where the model gave no answer at all; else `first` unchanged."""
    if not _takes_over(first, second):
        return first
    offset = len(first.steps)
    steps = [*first.steps, *(s.model_copy(update={"iteration": s.iteration + offset}) for s in second.steps)]
    merged = second.model_copy(update={
        "steps": steps, "warnings": _warnings(first, second), "statistics": _sum(first.statistics, second.statistics),
        "planner": f"{first.planner}+{second.planner}", "model": first.model, "trace_file": first.trace_file,
    })  # fmt: skip
    merged.statistics.execution_time_seconds = round(time.monotonic() - started, 4)
    merged._rows = second.rows
    return merged


def _takes_over(first: RunResult, second: RunResult) -> bool:
    """Whether the fallback's run answers in place of the model's (see `merge`)."""
    whole = second.verified and not second.partial
    return second.stop_reason == "stop" and (whole or (second.partial and first.stop_reason != "stop"))


def _warnings(first: RunResult, second: RunResult) -> list[str]:
    """Both runs' warnings, with the notice that the fallback answered and the model's answer it set aside."""
    warnings = [*first.warnings, _notice(first, second),
                *(w for w in second.warnings if w not in first.warnings)]
    if first.stop_reason == "stop" and first.answer and _differs(first.value, second.value):
        warnings.append(f"the {first.planner} planner's unverified answer was set aside: {cut(first.answer, 160)}")
    return warnings


def _notice(first: RunResult, second: RunResult) -> str:
    """The one line that says the fallback answered, and why."""
    how = "gave an unverified answer" if first.stop_reason == "stop" else f"ended with {first.stop_reason}"
    why = f" ({cut(first.message, 120)})" if first.message else ""
    return f"the {first.planner} planner {how}{why}: the {second.planner} planner answered from the loaded rows"


def _differs(a: Any, b: Any) -> bool:
    return a is not None and str(a).strip().lower() != str(b).strip().lower()


def _sum(a: Statistics, b: Statistics) -> Statistics:
    """The statistics of both runs: counts and durations added, maxima kept (the run's time is set by `merge`)."""
    added = {name: getattr(a, name) + getattr(b, name) for name in (
        "iterations", "llm_calls", "tool_calls", "prompt_tokens_total", "completion_tokens_total",
        "llm_duration_seconds", "tool_duration_seconds", "retries")}  # fmt: skip
    errors = dict(a.errors_by_type)
    for kind, n in b.errors_by_type.items():
        errors[kind] = errors.get(kind, 0) + n
    return a.model_copy(update={**added, "errors_by_type": errors,
                                "prompt_tokens_max": max(a.prompt_tokens_max, b.prompt_tokens_max)})
