"""A planner for OpenAI-compatible chat-completions servers (OpenRouter, llama.cpp, vLLM, LM Studio, Ollama /v1)."""

from __future__ import annotations

import os
import time
from typing import Any

import httpx

from react_engine.contract.planner import ModelUsage, PlannerReply, PlanRequest
from react_engine.contract.redaction import redacted_url
from react_engine.errors import ContextTooSmallError, PlannerError, PlannerServerError
from react_engine.planners import remote
from react_engine.planners.deadline import DeadlineTransport
from react_engine.planners.modelfile import Modelfile
from react_engine.planners.remote import ModelPlanner, http_error, one_line, refused
from react_engine.planners.retry import RetryPolicy

API_KEY_VARS = ("REACT_ENGINE_API_KEY", "OPENAI_API_KEY")
# How the reply schema is sent, most precise first: OpenAI's json_schema; llama-cpp-python's json_object with a
# schema (it rejects json_schema); plain JSON mode (the schema is then only in the prompt).
RESPONSE_FORMATS = ("json_schema", "json_object+schema", "json_object")


def api_key_from_env() -> str | None:
    """The first API key set in REACT_ENGINE_API_KEY or OPENAI_API_KEY."""
    return next((os.environ[v] for v in API_KEY_VARS if os.environ.get(v)), None)


def response_format(kind: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The `response_format` field for one of `RESPONSE_FORMATS`."""
    if kind == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "action", "schema": schema, "strict": False}}
    if kind == "json_object+schema":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


class OpenAIPlanner(ModelPlanner):
    """Asks an OpenAI-compatible `/chat/completions` endpoint for one JSON action per turn.

    The first `response_format` the server accepts is kept for the planner's lifetime.
    """

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: float = remote.DEFAULT_TIMEOUT,
        num_ctx: int = remote.DEFAULT_NUM_CTX,
        num_predict: int = remote.DEFAULT_NUM_PREDICT,
        seed: int | None = 42,
        retry: RetryPolicy | None = None,
        schema: dict[str, Any] | None = None,
        modelfile: Modelfile | None = None,
    ) -> None:
        super().__init__(
            model,
            num_ctx=num_ctx,
            num_predict=num_predict,
            timeout=timeout,
            retry=retry,
            schema=schema,
            modelfile=modelfile,
        )
        self.base_url = base_url.rstrip("/")
        self.seed = seed
        self.format = RESPONSE_FORMATS[0]
        key = api_key or api_key_from_env()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.transport = DeadlineTransport()
        self.client = httpx.Client(
            base_url=self.base_url + "/", timeout=timeout, headers=headers, transport=self.transport
        )

    @property
    def server(self) -> str:
        return f"the server at {redacted_url(self.base_url)}"

    def body(self, request: PlanRequest, num_predict: int) -> dict[str, Any]:
        """The JSON body of one chat-completions request."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": self.messages(request),
            "temperature": 0,
            "response_format": response_format(self.format, self.schema_for(request)),
        }
        if num_predict > 0:
            body["max_tokens"] = num_predict
        if self.seed is not None:
            body["seed"] = self.seed
        return body

    def _ask(self, request: PlanRequest, num_predict: int) -> PlannerReply:
        began = time.perf_counter()
        response = self._post(request, num_predict)
        rejected: list[str] = []
        while response.status_code >= 400 and self._rejects_format(response):
            rejected.append(self.format)
            self.format = RESPONSE_FORMATS[RESPONSE_FORMATS.index(self.format) + 1]
            response = self._post(request, num_predict)
        if response.status_code >= 400:
            raise self._http_error(response)
        try:
            data = response.json()
            choice = data["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise PlannerServerError(
                f"{self.server} sent a reply that is not a chat completion: check --base-url (it usually ends in /v1)"
            ) from None
        usage = data.get("usage") or {}
        warnings = [f"{self.server} does not accept response_format {' or '.join(rejected)}: using {self.format}"] \
            if rejected else []  # fmt: skip
        return PlannerReply(
            content=message.get("content") or "",
            thinking=message.get("reasoning_content") or message.get("reasoning") or None,
            done_reason=choice.get("finish_reason"),
            model=data.get("model"),
            usage=ModelUsage(
                requests=1,
                prompt_tokens=usage.get("prompt_tokens"),
                completion_tokens=usage.get("completion_tokens"),
                total_ms=round((time.perf_counter() - began) * 1000, 3),  # the API reports no durations
            ),
            warnings=warnings,
        )

    def _post(self, request: PlanRequest, num_predict: int) -> httpx.Response:
        try:
            with self.bounded(self.server):
                response = self.client.post("chat/completions", json=self.body(request, num_predict))
        except httpx.ConnectError as exc:
            raise refused(
                f"{self.server} is not reachable ({one_line(exc)}): start it, fix --base-url, or use --planner rules"
            ) from None
        except httpx.TransportError as exc:
            raise PlannerServerError(f"the exchange with {self.server} failed ({one_line(exc)}): retry") from None
        return response

    def _rejects_format(self, response: httpx.Response) -> bool:
        """Whether an error response is about `response_format` and a simpler format is left to try."""
        about = ("response_format", "json_schema", "json_object")
        return self.format != RESPONSE_FORMATS[-1] and any(word in response.text for word in about)

    def _http_error(self, response: httpx.Response) -> PlannerError:
        try:
            detail = response.json()["error"]
            detail = detail.get("message", detail) if isinstance(detail, dict) else detail
        except (ValueError, KeyError, TypeError):
            detail = response.text
        if "context_length_exceeded" in response.text:  # llama-cpp-python, vLLM and OpenAI word it so
            return ContextTooSmallError(f"the prompt does not fit the context window at {self.server} "
                                        f"({one_line(detail)}): raise the server's context size (--num-ctx here)")
        return http_error(self.server, response.status_code, detail, model=self.model,
                          auth=f"set {' or '.join(API_KEY_VARS)}", failed="see the server's log")  # fmt: skip

    def close(self) -> None:
        self.client.close()
