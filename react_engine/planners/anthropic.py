"""The Anthropic planner: the Messages API through the official SDK, one forced tool call per turn.

Each engine tool is declared as an Anthropic tool whose input schema is the tool's params schema, and
`tool_choice` "any" (no parallel calls) makes the model call exactly one. The call is turned back into the
contract's JSON action, so parsing, validation, re-asks and the stop matrix are those of every other planner.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from react_engine.contract.planner import ModelUsage, PlannerReply, PlanRequest
from react_engine.contract.redaction import redacted_url
from react_engine.errors import InputError, PlannerError, PlannerServerError
from react_engine.planners import remote
from react_engine.planners.deadline import DeadlineTransport
from react_engine.planners.modelfile import Modelfile
from react_engine.planners.remote import ModelPlanner, http_error, one_line, refused
from react_engine.planners.retry import RetryPolicy

DEFAULT_MODEL = "claude-haiku-4-5"
DEFAULT_URL = "https://api.anthropic.com"
INSTALL_HINT = 'pip install -e ".[anthropic]"'
_DONE = {"tool_use": "stop", "end_turn": "stop", "max_tokens": "length"}  # stop_reason -> done_reason


def tools_from_schema(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Anthropic tool declarations from the reply schema: one per action, its params schema as input."""
    tools = []
    for variant in schema.get("anyOf", [schema]):
        action, params = variant["properties"]["action"], variant["properties"]["params"]
        name = action["enum"][0]
        tools.append({"name": name, "description": action.get("description", name), "input_schema": params})
    return tools


class AnthropicPlanner(ModelPlanner):
    """Asks an Anthropic model (or a server speaking the Messages API) for one tool call per turn.

    `ANTHROPIC_API_KEY` is required; `ANTHROPIC_BASE_URL` points the SDK at another server. The SDK's own
    retries are off: 429 and 529 (overloaded) are retried with this planner's backoff.
    """

    name = "anthropic"

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = remote.DEFAULT_TIMEOUT,
        num_predict: int = remote.DEFAULT_NUM_PREDICT,
        retry: RetryPolicy | None = None,
        schema: dict[str, Any] | None = None,
        modelfile: Modelfile | None = None,
    ) -> None:
        try:
            import anthropic
            import httpx2
        except ImportError:
            raise InputError(f"--planner anthropic needs the anthropic SDK: {INSTALL_HINT}") from None
        key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key:
            raise InputError("--planner anthropic needs an API key: set ANTHROPIC_API_KEY")
        super().__init__(
            model or DEFAULT_MODEL,
            num_ctx=200_000,
            num_predict=num_predict,
            timeout=timeout,
            retry=retry,
            schema=schema,
            modelfile=modelfile,
        )
        self.sdk = anthropic
        self.base_url = (base_url or os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_URL).rstrip("/")
        self.transport = DeadlineTransport(httpx2.HTTPTransport())
        self.client = anthropic.Anthropic(
            api_key=key,
            base_url=self.base_url,
            timeout=timeout,
            max_retries=0,
            http_client=httpx2.Client(transport=self.transport, timeout=timeout),  # type: ignore[arg-type]
        )

    @property
    def server(self) -> str:
        return f"Anthropic at {redacted_url(self.base_url)}"

    def request(self, request: PlanRequest, num_predict: int) -> dict[str, Any]:
        """The keyword arguments of one `messages.create` call."""
        system, *turns = self.messages(request)
        return {
            "model": self.model,
            "max_tokens": num_predict if num_predict > 0 else remote.DEFAULT_NUM_PREDICT,
            "system": system["content"],
            "messages": turns,
            "tools": tools_from_schema(self.schema_for(request)),
            "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
        }

    def _ask(self, request: PlanRequest, num_predict: int) -> PlannerReply:
        sdk = self.sdk
        began = time.perf_counter()
        try:
            with self.bounded(self.server):
                message = self.client.messages.create(**self.request(request, num_predict))
        except sdk.APIStatusError as exc:
            raise self._status_error(exc) from None
        except sdk.APIConnectionError as exc:
            raise self._connection_error(exc.__cause__ or exc) from None
        except sdk.APIResponseValidationError as exc:
            raise self._not_a_message(exc) from None
        if not isinstance(message, sdk.types.Message):  # a body that is not JSON comes back as text
            raise self._not_a_message(message)
        return PlannerReply(
            content=_content(message),
            done_reason=_DONE.get(message.stop_reason or "", message.stop_reason),
            model=message.model,
            usage=ModelUsage(
                requests=1,
                prompt_tokens=message.usage.input_tokens,
                completion_tokens=message.usage.output_tokens,
                total_ms=round((time.perf_counter() - began) * 1000, 3),
            ),
        )

    def _connection_error(self, cause: BaseException) -> PlannerError:
        """The error a failed connection stands for: the transport's own limit (the reply's size) as it is."""
        if isinstance(cause, PlannerError):
            return cause
        if "refused" in str(cause).lower() or isinstance(cause, ConnectionRefusedError):
            return refused(f"{self.server} is not reachable ({one_line(cause)}): check ANTHROPIC_BASE_URL, "
                           "or use --planner rules")
        return PlannerServerError(f"the exchange with {self.server} failed ({one_line(cause)}): retry")

    def _not_a_message(self, what: object) -> PlannerError:
        return PlannerServerError(f"{self.server} sent a reply that is not a message ({one_line(what)[:80]}): "
                                  "check ANTHROPIC_BASE_URL")

    def _status_error(self, exc: Any) -> PlannerError:
        body: dict[str, Any] = exc.body if isinstance(exc.body, dict) else {}
        error: dict[str, Any] = body["error"] if isinstance(body.get("error"), dict) else {}
        return http_error(self.server, exc.status_code, error.get("message") or exc.message, model=self.model,
                          auth="check ANTHROPIC_API_KEY", failed="the service failed; try again later")  # fmt: skip

    def close(self) -> None:
        self.client.close()


def _content(message: Any) -> str:
    """A message's text, or its tool call as the JSON action a planner's reply holds (its text the reasoning)."""
    text = " ".join(b.text for b in message.content if b.type == "text").strip()
    call = next((b for b in message.content if b.type == "tool_use"), None)
    return json.dumps({"reasoning": text, "action": call.name, "params": call.input}) if call else text
