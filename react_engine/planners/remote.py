"""What every model-server planner shares: retries, the truncation re-ask, and the silent-truncation check."""

from __future__ import annotations

import json
import time
from abc import abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from react_engine.contract.actions import strip_thinking, thinking_in
from react_engine.contract.planner import Planner, PlannerReply, PlanRequest, RetryRecord
from react_engine.contract.redaction import redacted_urls
from react_engine.contract.reply_schema import portable_reply_schema, simplify_schema
from react_engine.errors import (
    ModelNotFoundError,
    PlannerConnectionError,
    PlannerError,
    PlannerOverloadedError,
    PlannerServerError,
    PlannerValidationError,
    RunDeadlineError,
    TruncatedReplyError,
)
from react_engine.planners.deadline import DeadlineTransport
from react_engine.planners.modelfile import Modelfile
from react_engine.planners.retry import RetryPolicy

DEFAULT_NUM_CTX = 8192
# One action: its params, an answer of at most `schema.MAX_STRING` characters and a few words of reasoning. A cut
# reply is asked again once with the same budget and a reminder to be brief (more room only lets a model ramble).
ACTION_TOKENS = 128
DEFAULT_NUM_PREDICT = ACTION_TOKENS
DEFAULT_TIMEOUT = 120.0
CUT_REMINDER = ("NOTE: your last reply was cut off at {n} tokens. Reply with one short JSON object: the action, "
                "its params and a reasoning of a few words.")
# After the first reply, a call may take this many times what the first call's speed predicts for its prompt and
# a full reply budget (never less than MIN_CALL_SECONDS, never more than the request timeout).
CALL_SLACK = 4.0
MIN_CALL_SECONDS = 10.0
# The engine's estimate is conservative (real tokenizers count about 3/4 of it); a server count below half of it
# means the server dropped part of the prompt (Ollama truncates to fit num_ctx without an error).
TRUNCATION_RATIO = 0.5


def status_error(status: int) -> type[PlannerError]:
    """The error class for an HTTP status other than 404 (which each server words differently)."""
    if status in (429, 503, 529):  # 529: Anthropic's "overloaded"
        return PlannerOverloadedError
    if status >= 500:
        return PlannerServerError
    return PlannerValidationError


def http_error(server: str, status: int, detail: object, *, model: str, auth: str, failed: str) -> PlannerError:
    """The error for an HTTP error answer from `server`, with the fix for its kind: `auth` for 401/403,
    `failed` for a server failure (5xx)."""
    detail = one_line(detail)
    if status == 404:
        return ModelNotFoundError(f"model '{model}' not found at {server} ({detail}): check --model")
    if status in (401, 403):
        fix = auth
    elif status in (429, 503, 529):
        fix = "the server is busy or rate limiting; try again later"
    elif status >= 500:
        fix = failed
    else:
        fix = "check --model and the server's limits"
    return status_error(status)(f"{server} answered HTTP {status}: {detail}: {fix}")


def refused(message: str) -> PlannerConnectionError:
    """A connection error for a server that refused the connection: it is down, so retrying only delays the fix."""
    error = PlannerConnectionError(message)
    error.retryable = False
    return error


def one_line(text: object) -> str:
    """Server error text squeezed onto one line, any URL in it redacted."""
    return redacted_urls(" ".join(str(text).split()))[:300]


def complete_json(content: str) -> bool:
    """Whether `content` holds a whole JSON object (thinking and fences aside): the span from its first `{` to its
    last `}` parses as one (found in linear time, however many braces a reply holds)."""
    body = strip_thinking(content)
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        return False
    try:
        return isinstance(json.loads(body[start : end + 1]), dict)
    except (ValueError, RecursionError):
        return False


def closed_in_reasoning(content: str) -> str | None:
    """A reply cut off inside its last string, `reasoning` (the grammar asks for it last), closed: its action and
    params are whole, so it needs no re-ask. None when the cut is anywhere else."""
    body = strip_thinking(content).rstrip()
    start = body.find("{")
    if start < 0 or body.endswith("\\"):
        return None
    try:
        reply = json.loads(body[start:] + '"}')
    except (ValueError, RecursionError):
        return None
    whole = isinstance(reply, dict) and isinstance(reply.get("params"), dict) and isinstance(reply.get("reasoning"), str)
    return json.dumps(reply, ensure_ascii=False) if whole and "action" in reply else None


class CallSpeed:
    """How fast the model answered its first call, to bound later calls: seconds per prompt token (as the engine
    estimates them) and per reply token."""

    def __init__(self, request: PlanRequest, reply: PlannerReply) -> None:
        usage = reply.usage
        replied = max(1, usage.completion_tokens or 1)
        if usage.prompt_ms is not None and usage.eval_ms is not None:
            self.prompt = usage.prompt_ms / 1000 / max(1, request.prompt_tokens)
            self.reply = usage.eval_ms / 1000 / replied
        else:  # one rate for both, from the whole call less the model's loading
            took = max(0.0, (usage.total_ms or 0.0) - (usage.load_ms or 0.0)) / 1000
            self.prompt = self.reply = took / (max(1, request.prompt_tokens) + replied)

    def expected(self, prompt_tokens: int, reply_tokens: int) -> float:
        """Seconds a call with this prompt and reply budget should take at this speed."""
        return prompt_tokens * self.prompt + reply_tokens * self.reply

    def limit(self, prompt_tokens: int, reply_tokens: int) -> float:
        """Seconds a call with this prompt and reply budget may take."""
        return max(MIN_CALL_SECONDS, CALL_SLACK * self.expected(prompt_tokens, reply_tokens))


def _scaled(limit: float, timeout: float) -> str:
    return "" if limit >= timeout else " (the limit that the first call's speed sets)"


class ModelPlanner(Planner):
    """A planner backed by a model server; subclasses make one request in `_ask`."""

    calls_model = True
    uses_schema = True
    model: str
    transport: DeadlineTransport | None = None  # set by planners that speak HTTP

    def __init__(
        self,
        model: str,
        *,
        num_ctx: int = DEFAULT_NUM_CTX,
        num_predict: int = DEFAULT_NUM_PREDICT,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        schema: dict[str, Any] | None = None,
        modelfile: Modelfile | None = None,
    ) -> None:
        """`modelfile`: its SYSTEM replaces the engine's system prompt and its MESSAGEs precede every turn."""
        self.model = model
        self.num_ctx = num_ctx
        self.num_predict = num_predict
        self.timeout = timeout
        self.history = [m.model_dump() for m in modelfile.messages] if modelfile else []
        self._run_end: float | None = None  # monotonic time of the run's time limit, for the turn being planned
        self.retry = retry or RetryPolicy()
        self.system_prompt = modelfile.system if modelfile else None
        self._schema = schema
        self._format: dict[str, Any] | None = None
        self.speed: CallSpeed | None = None  # measured on the first call
        self._call_timeout = timeout  # the bound of the request being made

    @property
    def context_tokens(self) -> int:  # type: ignore[override]
        """Room for the prompt: the window less the reply budget and a 10% margin for the template."""
        reserve = self.num_predict if self.num_predict > 0 else self.num_ctx // 4
        return max(0, self.num_ctx - reserve - self.num_ctx // 10)

    @property
    def format_schema(self) -> dict[str, Any]:
        """The reply schema for every registered tool (or the one given), simplified for grammar decoding."""
        if self._format is None:
            from react_engine.tools import REGISTRY  # registers the tools on import

            self._format = simplify_schema(self._schema) if self._schema is not None else \
                portable_reply_schema(tuple(REGISTRY.values()))  # fmt: skip
        return self._format

    def schema_for(self, request: PlanRequest) -> dict[str, Any]:
        """The reply schema for this turn: the engine's, built from the tools it still offers (its own tools
        included, a disabled one left out); the registry's when the request carries none."""
        if self._schema is not None or request.reply_schema is None:
            return self.format_schema
        return request.reply_schema

    def messages(self, request: PlanRequest) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": self.system_prompt or request.system},
            *self.history,
            {"role": "user", "content": request.prompt},
        ]

    def plan(self, request: PlanRequest) -> PlannerReply:
        self._run_end = None if request.time_left is None else time.monotonic() + request.time_left
        self._call_timeout = self.call_timeout(request)
        self._check_room(request)
        retries: list[RetryRecord] = []
        reply = self.retry.call(lambda: self._ask(request, self.num_predict), retries, deadline=self._run_end)
        if self.speed is None:
            self.speed = CallSpeed(request, reply)
        usage, warnings = reply.usage, list(reply.warnings)
        if self._truncated(reply):
            again = request.model_copy(update={"prompt": f"{request.prompt}\n\n{CUT_REMINDER.format(n=self.num_predict)}"})
            reply = self.retry.call(lambda: self._ask(again, self.num_predict), retries, deadline=self._run_end)
            usage += reply.usage
            warnings += reply.warnings
            if self._truncated(reply):
                raise TruncatedReplyError(
                    f"the reply from {self.model} was cut off twice at num_predict={self.num_predict}, the second time "
                    "after a reminder to be brief: use a model that follows the JSON schema, or --no-think"
                )
            warnings.append(f"the first reply was cut off at num_predict={self.num_predict}; re-asked once")
        if reply.done_reason == "length" and not complete_json(reply.content):
            reply = reply.model_copy(update={"content": closed_in_reasoning(reply.content)})
        count = reply.usage.prompt_tokens
        if count is not None and count < request.prompt_tokens * TRUNCATION_RATIO:
            warnings.append(
                f"the server read {count} prompt tokens but the prompt was estimated at {request.prompt_tokens}: "
                f"it may have been truncated silently; raise num_ctx (now {self.num_ctx})"
            )
        return reply.model_copy(
            update={
                "content": strip_thinking(reply.content),
                "thinking": reply.thinking or thinking_in(reply.content),  # think=false not honoured
                "usage": usage,
                "retries": retries,
                "warnings": warnings,
            }
        )

    def _check_room(self, request: PlanRequest) -> None:
        """Raise `RunDeadlineError` when the first call's speed says this call cannot end before the run's limit
        (a call in progress may not stop at once: llama.cpp reads a prompt without a pause): the run's end, and a
        fallback planner, come now rather than after it."""
        if self.speed is None or self._run_end is None:
            return
        expected = self.speed.expected(request.prompt_tokens, self._budget())
        if time.monotonic() + expected > self._run_end:
            raise RunDeadlineError(f"the next call to {self.model} would take about {expected:.0f}s at the speed of "
                                   "its first call, past the run's time limit: raise the run timeout or use a "
                                   "faster model")

    def _budget(self) -> int:
        return self.num_predict if self.num_predict > 0 else ACTION_TOKENS * 8

    def call_timeout(self, request: PlanRequest) -> float:
        """The bound of one request for `request`: the request timeout until a first call has been measured, then
        what that call's speed predicts for this prompt and a full reply, with slack."""
        if self.speed is None:
            return self.timeout
        return min(self.timeout, self.speed.limit(request.prompt_tokens, self._budget()))

    @contextmanager
    def bounded(self, server: str) -> Iterator[float]:
        """Make one request to `server` inside the block; it must be over by the deadline yielded: after the
        request timeout, or at the run's time limit if that is sooner. Running out of time raises a
        `PlannerServerError` (retryable) or, at the run's limit, a `RunDeadlineError`."""
        own = time.monotonic() + self._call_timeout
        by_run = self._run_end is not None and self._run_end < own
        deadline = self._run_end if by_run and self._run_end is not None else own
        with self.transport.bound(deadline) if self.transport is not None else nullcontext():
            try:
                yield deadline
            except Exception:
                if time.monotonic() < deadline:
                    raise
                if by_run:
                    raise RunDeadlineError(f"the run's time limit passed while waiting for {server}: raise "
                                           "the run timeout (timeout_seconds) or use a faster model") from None
                raise PlannerServerError(f"{server} did not answer within {self._call_timeout:.3g}s"
                                         f"{_scaled(self._call_timeout, self.timeout)}: raise --request-timeout or "
                                         "use a smaller model") from None

    @staticmethod
    def _truncated(reply: PlannerReply) -> bool:
        return reply.done_reason == "length" and not complete_json(reply.content) and \
            closed_in_reasoning(reply.content) is None

    @abstractmethod
    def _ask(self, request: PlanRequest, num_predict: int) -> PlannerReply:
        """Make one request; raise a `PlannerError` subclass on failure."""
