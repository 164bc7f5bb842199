"""Exceptions, split by audience.

- `ReactEngineError` and subclasses reach the user: the message is one line that carries its fix.
- `ReplyError` and `ToolError` are fed back to the planner so it can correct itself.
"""

from __future__ import annotations

from dataclasses import dataclass


class ReactEngineError(Exception):
    """A failure the user must act on; `str(error)` is one line that says what to do next."""


class InputError(ReactEngineError):
    """A path, log file or option given by the user cannot be used."""


class TimeLimitError(InputError):
    """Loading the logs (reading stdin, say) was still going when the run's time limit passed."""


class PlannerError(ReactEngineError):
    """The planner (a model server) could not produce a reply."""

    retryable: bool = False


class PlannerConnectionError(PlannerError):
    """The model server cannot be reached."""

    retryable = True


class ModelNotFoundError(PlannerError):
    """The server does not have the requested model."""


class PlannerOverloadedError(PlannerError):
    """The server is rate limiting or its queue is full."""

    retryable = True


class PlannerServerError(PlannerError):
    """The server failed (5xx) or timed out."""

    retryable = True


class ReplyTooLargeError(PlannerError):
    """The server sent more bytes for one reply than any reply needs (one that never ends, say)."""


class PlannerValidationError(PlannerError):
    """The request was rejected as invalid (4xx other than 404/429)."""


class RunDeadlineError(PlannerError):
    """The run's time limit passed while the planner was waiting for the model."""


class ContextTooSmallError(PlannerError):
    """Even the minimal prompt does not fit the model's context window."""


class TruncatedReplyError(PlannerError):
    """The reply was cut off at the token limit even after a re-ask with more room."""


@dataclass(frozen=True)
class ErrorItem:
    """One validation problem in a planner reply, in the compact form shown back to the model (a plain class: every
    command imports this module, and most never validate anything)."""

    loc: str
    msg: str


class ReplyError(Exception):
    """A planner reply that is not a valid action; the message is shown back to the planner."""

    def __init__(self, message: str, items: list[ErrorItem] | None = None, kind: str = "invalid") -> None:
        super().__init__(message)
        self.items = items or []
        self.kind = kind


class ToolError(Exception):
    """A tool could not run with the given parameters; the message is shown back to the planner."""


class ToolTimeoutError(ToolError):
    """A tool ran past its time limit and was abandoned (its thread may still be running)."""
