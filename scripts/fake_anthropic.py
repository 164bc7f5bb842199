"""A stand-in for Anthropic's Messages API (`POST /v1/messages`) with scripted replies, for tests and demos.

Each request takes the next behaviour from the queue (see `fake_ollama.FakeOllama`, whose queue, recording and
hostile behaviours it shares). A behaviour is a JSON object:
  {"tool": "get_log_count", "input": {}, "text": "why", "stop_reason": "tool_use"|"max_tokens",
   "status": 529, "error": "Overloaded", "delay": 1.5, "endless": true}
A request with neither an `x-api-key` nor an `authorization` header gets 401. Point the planner at it with ANTHROPIC_BASE_URL:

    python scripts/fake_anthropic.py --port 8090 --script replies.json
    ANTHROPIC_BASE_URL=http://127.0.0.1:8090 ANTHROPIC_API_KEY=test react-engine ask --planner anthropic ...
"""

from __future__ import annotations

import argparse
import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from fake_ollama import Behaviour, FakeOllama, load_script, serve

_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
                429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}  # fmt: skip


def call(tool: str, text: str = "", **params: Any) -> Behaviour:
    """A reply that calls `tool` with `params`, after an optional text block."""
    return {"tool": tool, "input": params, "text": text}


def overloaded() -> Behaviour:
    """HTTP 529, Anthropic's "overloaded"."""
    return {"status": 529, "error": "Overloaded"}


class FakeAnthropic(FakeOllama):
    """The server: `start()` it, `push()` behaviours, read `requests` (bodies under /v1/messages)."""

    def __init__(self, replies: list[Behaviour] | None = None, port: int = 0) -> None:
        super().__init__(replies, models=[], port=port)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self
        base: Any = super().handler()

        class Handler(base):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:
                body = self._body()
                if self.path != "/v1/messages":
                    self._send(404, _error(404, f"no route {self.path}"))
                elif not (self.headers.get("x-api-key") or self.headers.get("authorization")):
                    self._send(401, _error(401, "an x-api-key or authorization header is required"))
                else:
                    behaviour = fake.next_behaviour()
                    if fake.stopped.wait(float(behaviour.get("delay", 0))):
                        return
                    if "body" in behaviour:
                        self._send(200, str(behaviour["body"]).encode(), "text/html")
                    elif behaviour.get("endless"):
                        self.endless()
                    elif "status" in behaviour:
                        status = int(behaviour["status"])
                        self._send(status, _error(status, behaviour.get("error", "error")))
                    else:
                        self._send(200, _message(body, behaviour), drip=float(behaviour.get("drip", 0)))

        return Handler


def _error(status: int, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}}


def _message(body: dict[str, Any], behaviour: Behaviour) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if behaviour.get("text"):
        content.append({"type": "text", "text": behaviour["text"]})
    if behaviour.get("tool"):
        content.append({"type": "tool_use", "id": "toolu_01", "name": behaviour["tool"],
                        "input": behaviour.get("input", {})})  # fmt: skip
    prompt = json.dumps(body.get("messages", [])) + str(body.get("system", ""))
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", ""),
        "content": content,
        "stop_reason": behaviour.get("stop_reason", "tool_use" if behaviour.get("tool") else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": len(prompt) // 4, "output_tokens": max(1, len(json.dumps(content)) // 4)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8090, help="0 picks a free port")
    parser.add_argument("--script", type=Path, help="JSON file: a list of behaviours")
    args = parser.parse_args()
    script = load_script(args.script) if args.script else {}
    fake = FakeAnthropic(script.get("replies"), args.port)
    serve(fake, f"fake Anthropic listening on {fake.url} (ANTHROPIC_BASE_URL={fake.url})")


if __name__ == "__main__":
    main()
