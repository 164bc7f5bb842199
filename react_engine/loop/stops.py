"""The stop-reason matrix: which stops are retried, and what to tell the user about unusual ones."""

from __future__ import annotations

from collections.abc import Mapping

from react_engine import errors
from react_engine.contract.record import RunResult, StopReason


class Stop(Exception):
    """Ends a run with a stop reason and what to tell the user (control flow inside the engine)."""

    def __init__(self, reason: StopReason, message: str | None = None, error_type: str | None = None) -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.message = message
        self.error_type = error_type


def _retryable_errors() -> frozenset[str]:
    """Names of the planner errors that come from transport (connection, overload, server failure)."""
    found, todo = set(), [errors.PlannerError]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.retryable:
            found.add(cls.__name__)
    return frozenset(found)


RETRYABLE_ERRORS = _retryable_errors()

# What to do about each unusual stop, said once for a single run and once for a batch summary.
HINTS: dict[str, str] = {
    "tool_limit": "raise with --max-iterations, or look at the traces (react-engine trace show FILE)",
    "time_limit": "raise the run timeout (timeout_seconds) or narrow the question or the logs",
    "length": "the reply was cut off at the token limit: raise num_predict (PARAMETER num_predict in the Modelfile)",
    "insufficient_context": "the prompt does not fit the model's window: use a larger num_ctx (PARAMETER num_ctx)",
    "approval_denied": "a tool that needs approval was refused: rerun with --yes or --approve TOOL",
    "interrupted": "the run was interrupted: run it again (a batch resumes with the same --out)",
    "approval_timeout": "a tool that needs approval was not answered in time: ask again and answer the approval "
                        "within its time limit",
    "cancelled": "the run was cancelled: ask again to get an answer",
}
_TRANSPORT_HINT = "the model server failed: check that it is running and retry"


def should_retry(result: RunResult) -> bool:
    """True only for an `error` stop caused by transport; every other stop reason is final."""
    return result.stop_reason == "error" and result.error_type in RETRYABLE_ERRORS


def explain(result: RunResult) -> str | None:
    """A one-line hint for an unusual stop, or None when the run answered normally."""
    reason = result.stop_reason
    if reason == "stop":
        return None
    if reason == "tool_limit":  # the iteration limit, or a planner repeating itself: the message says which
        return result.message or f"hit max_iterations ({result.statistics.iterations}): {HINTS['tool_limit']}"
    if reason == "time_limit":
        return f"hit the time limit after {result.statistics.execution_time_seconds:.0f}s: {HINTS['time_limit']}"
    if reason == "error":
        if should_retry(result):  # the message names the server that was used and how to fix it
            return f"{result.error_type}: {result.message or _TRANSPORT_HINT}"
        return result.message or "the run failed: see the error above"
    return HINTS[reason]


def _error_hint(error_types: Mapping[str, int]) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(error_types.items(), key=lambda kv: -kv[1]))
    parts = [f"({kinds})"] if kinds else []
    if RETRYABLE_ERRORS & error_types.keys():
        parts.append(f"{_TRANSPORT_HINT};")
    return " ".join([*parts, "see each result's message"])


def summary_hints(counts: Mapping[str, int], error_types: Mapping[str, int] | None = None) -> list[str]:
    """One hint per unusual stop reason seen in a batch, most frequent first; errors are broken down by type."""
    return [f"{count} × {reason}: {_error_hint(error_types or {}) if reason == 'error' else HINTS[reason]}"
            for reason, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            if reason != "stop" and count]
