"""The Ollama planner: one `/api/chat` request per turn, schema-constrained, through the official client."""

from __future__ import annotations

import os
import threading
from typing import Any

import httpx
import ollama
import pydantic
from ollama._client import _parse_host  # the client's own OLLAMA_HOST normalisation

from react_engine.contract.planner import DEFAULT_MODEL, ModelUsage, PlannerReply, PlanRequest
from react_engine.contract.redaction import redacted_url
from react_engine.errors import ContextTooSmallError, ModelNotFoundError, PlannerError, PlannerServerError
from react_engine.planners.deadline import DeadlineTransport
from react_engine.planners.modelfile import Modelfile
from react_engine.planners.remote import (
    DEFAULT_NUM_CTX,
    DEFAULT_NUM_PREDICT,
    DEFAULT_TIMEOUT,
    ModelPlanner,
    one_line,
    refused,
    status_error,
)
from react_engine.planners.retry import RetryPolicy

DEFAULT_OPTIONS: dict[str, Any] = {
    "temperature": 0,
    "num_ctx": DEFAULT_NUM_CTX,
    "num_predict": DEFAULT_NUM_PREDICT,
    "seed": 42,
}
THINKING_NUM_PREDICT = 4096  # reasoning comes out of the same budget as the reply


def host_url(host: str | None = None) -> str:
    """The server URL the client will use for `host` (None: OLLAMA_HOST, else http://127.0.0.1:11434)."""
    return _parse_host(host or os.getenv("OLLAMA_HOST"))


def unreachable(url: str) -> str:
    return f"Ollama is not reachable at {redacted_url(url)}: start it with `ollama serve`, set OLLAMA_HOST, or use --planner rules"


def not_found(model: str) -> str:
    return f"model '{model}' not found: run `ollama pull {model}` or `react-engine models create modelfiles/...`"


def normalise_error(exc: Exception, url: str, model: str) -> PlannerError:
    """Map what the client raises (other than a timeout) to the planner error hierarchy, with a one-line fix."""
    url = redacted_url(url)
    if isinstance(exc, ollama.ResponseError):
        if exc.status_code == 404:
            return ModelNotFoundError(not_found(model))
        if "longer than the context length" in str(exc.error):  # context shift off: Ollama refuses, not truncates
            return ContextTooSmallError(f"the prompt does not fit {model}'s context window: raise num_ctx (--num-ctx)")
        cls = status_error(exc.status_code)
        return cls(f"Ollama at {url} answered HTTP {exc.status_code}: {one_line(exc.error)}: {_fix(exc)}")
    if isinstance(exc, (ConnectionError, httpx.ConnectError)):
        return refused(unreachable(url))
    if isinstance(exc, ValueError) and not isinstance(exc, pydantic.ValidationError):
        return PlannerServerError(f"the server at {url} sent a reply that is not JSON ({one_line(exc)}): "
                                  "check that OLLAMA_HOST (--host) points at Ollama")
    return PlannerServerError(f"the exchange with Ollama at {url} failed ({one_line(exc)}): see the `ollama serve` log")


def _fix(exc: ollama.ResponseError) -> str:
    if "support thinking" in str(exc.error):
        return "use --no-think with this model"
    if exc.status_code in (429, 503):
        return "the server is busy; try again later or lower the load"
    if exc.status_code >= 500:
        return "see the `ollama serve` log"
    return "check --model and the Modelfile PARAMETERs"


class OllamaPlanner(ModelPlanner):
    """Asks a local Ollama model for one JSON action per turn.

    `options` come from the defaults (temperature 0, num_ctx 8192, num_predict 128 (one action), or 4096 when thinking,
    seed 42), then the Modelfile's PARAMETERs, then `options`; its SYSTEM replaces the engine's system prompt.
    """

    name = "ollama"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        host: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        modelfile: Modelfile | None = None,
        options: dict[str, Any] | None = None,
        think: bool | str = False,
        keep_alive: str | float = "30m",
        retry: RetryPolicy | None = None,
        schema: dict[str, Any] | None = None,
    ) -> None:
        defaults = {**DEFAULT_OPTIONS, "num_predict": THINKING_NUM_PREDICT} if think else DEFAULT_OPTIONS
        self.options = {**defaults, **(modelfile.parameters if modelfile else {}), **(options or {})}
        super().__init__(
            model,
            num_ctx=int(self.options["num_ctx"]),
            num_predict=int(self.options["num_predict"]),
            timeout=timeout,
            retry=retry,
            schema=schema,
            modelfile=modelfile,
        )
        self.url = host_url(host)
        self.think = think
        self.keep_alive = keep_alive
        self.transport = DeadlineTransport()
        self.client = ollama.Client(host=self.url, timeout=timeout, transport=self.transport)

    def _ask(self, request: PlanRequest, num_predict: int) -> PlannerReply:
        try:
            with self.bounded(f"Ollama at {redacted_url(self.url)}"):
                response = self.client.chat(
                    model=self.model,
                    messages=self.messages(request),
                    format=self.schema_for(request),
                    options={**self.options, "num_predict": num_predict},
                    keep_alive=self.keep_alive,
                    think=self.think,
                )
        except (ollama.ResponseError, ConnectionError, httpx.HTTPError, ValueError) as exc:
            raise normalise_error(exc, self.url, self.model) from None
        return PlannerReply(
            content=response.message.content or "",
            thinking=response.message.thinking or None,
            done_reason=response.done_reason,
            model=response.model,
            usage=ModelUsage(
                requests=1,
                prompt_tokens=response.prompt_eval_count,
                completion_tokens=response.eval_count,
                load_ms=_ms(response.load_duration),
                prompt_ms=_ms(response.prompt_eval_duration),
                eval_ms=_ms(response.eval_duration),
                total_ms=_ms(response.total_duration),
            ),
        )

    def close(self) -> None:
        self.client.close()


def _ms(ns: int | None) -> float | None:
    return None if ns is None else round(ns / 1e6, 3)


def probe(model: str, host: str | None = None, timeout: float = 2.0) -> str | None:
    """Why `model` cannot be used on the Ollama server right now, or None when it can (a quick check)."""
    url = host_url(host)
    listed: list[set[str] | str] = []

    def ask() -> None:
        try:
            with ollama.Client(host=url, timeout=timeout) as client:
                listed.append({m.model for m in client.list().models})
        except (ollama.ResponseError, ConnectionError, httpx.HTTPError, pydantic.ValidationError):
            listed.append(f"Ollama is not reachable at {url}")
        except ValueError:  # a body that is not JSON: another kind of server
            listed.append(f"the server at {url} is not Ollama (its reply is not JSON)")

    asking = threading.Thread(target=ask, name="ollama-probe", daemon=True)
    asking.start()
    asking.join(timeout * 2)  # a server that drips its reply is given up on (the thread is left to end alone)
    installed = listed[0] if listed else f"Ollama at {url} did not answer within {timeout * 2:g}s"
    if isinstance(installed, str):
        return installed
    if model not in installed and f"{model}:latest" not in installed:
        return f"model '{model}' is not installed in Ollama at {url} (`ollama pull {model}`)"
    return None
