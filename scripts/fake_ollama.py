"""A stand-in Ollama server with scripted replies, for tests and for demos without a GPU.

It speaks /api/chat, /api/generate, /api/tags, /api/show, /api/create, /api/ps, /api/version and the
OpenAI-compatible /v1/chat/completions in Ollama's shapes, and records every request body it receives.

Each chat/generate/completions request takes the next behaviour from a queue. A behaviour is a JSON object:
  {"content": "...", "thinking": "...", "done_reason": "stop"|"length", "delay": 1.5,
   "status": 500, "error": "...", "code": "...", "prompt_eval_count": 120, "drip": 2.0, "body": "<html>..."}
with helpers in this module for the common cases (`good`, `think_tagged`, `fenced`, `truncated`, `empty`,
`http_error`, `slow`) and for hostile servers (`dripping`: one byte of the reply every `drip` seconds;
`not_json`: HTTP 200 with a `body` that is not JSON; `endless`: HTTP 200 whose body never ends). When the queue is empty the `default` behaviour is used,
else HTTP 500. A `delay` ends early when the server stops, so a test can leave a request hanging.
A request for a model that is not installed gets Ollama's 404 `model 'NAME' not found`.

    python scripts/fake_ollama.py --port 11434 --script replies.json

where replies.json is {"models": ["qwen3:4b"], "replies": [...], "default": {...}} or a bare list of replies
(strings are good replies). Then run e.g. `OLLAMA_HOST=127.0.0.1:11434 react-engine ask --planner ollama ...`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Behaviour = dict[str, Any]
VERSION = "0.12.6"
_CREATED = "2025-07-07T20:32:53.844124Z"


def _text(reply: Any) -> str:
    return reply if isinstance(reply, str) else json.dumps(reply)


def good(reply: Any, **extra: Any) -> Behaviour:
    """A well-formed reply (`reply` is a JSON string or an object to serialise)."""
    return {"content": _text(reply), **extra}


def think_tagged(reply: Any, thought: str = "Let me think about the columns first.") -> Behaviour:
    """A reply with inline `<think>` reasoning in `content`, as when `think=false` is not honoured."""
    return {"content": f"<think>\n{thought}\n</think>\n\n{_text(reply)}"}


def fenced(reply: Any) -> Behaviour:
    """A reply wrapped in a ```json fence."""
    return {"content": f"```json\n{_text(reply)}\n```"}


def truncated(reply: Any, keep: float = 0.6) -> Behaviour:
    """The first part of a reply, cut at the token limit."""
    text = _text(reply)
    return {"content": text[: max(1, int(len(text) * keep))], "done_reason": "length"}


def empty(thinking: str = "Hmm, which tool fits best? " * 20) -> Behaviour:
    """No content: the whole token budget went on thinking."""
    return {"content": "", "thinking": thinking, "done_reason": "length"}


def http_error(status: int = 500, error: str = "llama runner process has terminated") -> Behaviour:
    """An HTTP error with Ollama's `{"error": ...}` body."""
    return {"status": status, "error": error}


def slow(seconds: float, reply: Any) -> Behaviour:
    """A good reply after a delay."""
    return {**good(reply), "delay": seconds}


def dripping(seconds_per_byte: float, reply: Any) -> Behaviour:
    """A good reply whose body arrives one byte every `seconds_per_byte` seconds (each read is quick)."""
    return {**good(reply), "drip": seconds_per_byte}


def not_json(body: str = "<html><body>502 Bad Gateway</body></html>") -> Behaviour:
    """HTTP 200 whose body is not JSON (a proxy's error page)."""
    return {"body": body}


def endless() -> Behaviour:
    """HTTP 200 with a chunked body that never ends, until the client hangs up."""
    return {"endless": True}


class FakeOllama:
    """The server: `start()` it, `push()` behaviours, read `requests`, `stop()` it (or use `with`)."""

    def __init__(
        self,
        replies: list[Behaviour | str] | None = None,
        models: list[str] | None = None,
        default: Behaviour | None = None,
        port: int = 0,
        response_formats: tuple[str, ...] | None = None,
    ) -> None:
        """`response_formats`: the kinds of `response_format` /v1 accepts (None: all) among "text", "json_schema",
        "json_object+schema" (a json_object with a schema) and "json_object"; ("text", "json_object+schema",
        "json_object") answers like llama-cpp-python's server, which rejects "json_schema" with HTTP 500."""
        self.response_formats = response_formats
        self.queue: deque[Behaviour] = deque()
        self.models: list[str] = list(models if models is not None else ["qwen3:4b"])
        self.default = default
        self.requests: list[dict[str, Any]] = []  # {"method", "path", "body", "headers"}
        self._lock = threading.Lock()
        self.push(*(replies or []))
        self.stopped = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self.handler())
        self._thread: threading.Thread | None = None

    def handler(self) -> type[BaseHTTPRequestHandler]:
        """The request handler class (a stand-in for another API overrides it)."""
        return _handler(self)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def host(self) -> str:
        """The value for OLLAMA_HOST."""
        return f"127.0.0.1:{self.port}"

    def push(self, *behaviours: Behaviour | str) -> None:
        """Queue replies; a plain string is a good reply."""
        with self._lock:
            self.queue.extend(good(b) if isinstance(b, str) else b for b in behaviours)

    def bodies(self, path: str) -> list[dict[str, Any]]:
        """Request bodies received on `path`, oldest first."""
        return [r["body"] for r in self.requests if r["path"] == path]

    def start(self) -> FakeOllama:
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def next_behaviour(self) -> Behaviour:
        with self._lock:
            if self.queue:
                return self.queue.popleft()
        return self.default or http_error(500, "fake_ollama: the reply script is exhausted")


def _handler(fake: FakeOllama) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go in separate writes

        def log_message(self, *args: Any) -> None:
            """Quiet: the recorded requests are the log."""

        def _body(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw.strip() else {}
            record = {"method": self.command, "path": self.path, "body": body, "headers": dict(self.headers)}
            with fake._lock:
                fake.requests.append(record)
            return body

        def _send(self, status: int, payload: Any, content_type: str = "application/json", drip: float = 0) -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if not drip:
                self.wfile.write(data)
                return
            for i in range(len(data)):
                if fake.stopped.wait(drip):
                    return
                try:
                    self.wfile.write(data[i : i + 1])
                    self.wfile.flush()
                except OSError:  # the client gave up
                    return

        def endless(self) -> None:
            """Stream 64 KiB chunks of one JSON string that never closes, until the client hangs up."""
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            head, data = b'{"id": "', b"a" * 65536
            try:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(head), head))
                while not fake.stopped.is_set():
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            except OSError:  # the client gave up
                return

        def do_GET(self) -> None:
            self._body()
            routes = {"/api/tags": _tags, "/api/ps": _ps, "/api/version": lambda f: {"version": VERSION}}
            if self.path in routes:
                self._send(200, routes[self.path](fake))
            elif self.path in ("/", "/api"):
                self._send(200, b"Ollama is running", "text/plain")
            else:
                self._send(404, b"404 page not found", "text/plain")

        def do_POST(self) -> None:
            body = self._body()
            if self.path in ("/api/chat", "/api/generate", "/v1/chat/completions"):
                self._reply(body)
            elif self.path == "/api/show":
                name = body.get("model") or body.get("name") or ""
                if _resolve(fake, name) is None:
                    self._send(404, {"error": f"model '{name}' not found"})
                else:
                    self._send(200, _show(_resolve(fake, name) or name))
            elif self.path == "/api/create":
                self._create(body)
            else:
                self._send(404, b"404 page not found", "text/plain")

        def _create(self, body: dict[str, Any]) -> None:
            if not body.get("from") and not body.get("files"):
                self._send(400, {"error": "neither 'from' or 'files' was specified"})
                return
            if body.get("from") and _resolve(fake, body["from"]) is None:
                self._send(404, {"error": f"model '{body['from']}' not found"})
                return
            with fake._lock:
                if body["model"] not in fake.models:
                    fake.models.append(body["model"])
            steps = ["using existing layer sha256:8d6fb9c2", "writing manifest", "success"]
            if body.get("stream") is False:
                self._send(200, {"status": "success"})
            else:
                lines = "".join(json.dumps({"status": s}) + "\n" for s in steps)
                self._send(200, lines.encode(), "application/x-ndjson")

        def _reply(self, body: dict[str, Any]) -> None:
            openai = self.path.startswith("/v1/")
            model = body.get("model", "")
            if _resolve(fake, model) is None:
                error = f"model '{model}' not found"
                self._send(404, {"error": {"message": error, "type": "api_error"}} if openai else {"error": error})
                return
            if self.path == "/api/chat" and not body.get("messages"):
                self._send(200, {"model": model, "created_at": _CREATED, "message": {"role": "assistant",
                                 "content": ""}, "done": True, "done_reason": "load"})  # fmt: skip
                return
            kind = _format_kind(body.get("response_format") or {})
            if openai and fake.response_formats is not None and kind not in fake.response_formats:
                allowed = " or ".join(repr(k.split("+")[0]) for k in dict.fromkeys(fake.response_formats))
                error = str([{"type": "literal_error", "loc": ("body", "response_format", "type"),
                              "msg": f"Input should be {allowed}", "input": kind}])  # fmt: skip
                self._send(500, {"error": {"message": error, "type": "internal_server_error"}})
                return
            behaviour = fake.next_behaviour()
            if fake.stopped.wait(float(behaviour.get("delay", 0))):
                return
            if "body" in behaviour:
                self._send(200, str(behaviour["body"]).encode(), "text/html")
                return
            if behaviour.get("endless"):
                self.endless()
                return
            if "status" in behaviour:
                error = behaviour.get("error", "error")
                code = {"code": behaviour["code"]} if "code" in behaviour else {}
                payload = {"error": {"message": error, "type": "api_error", **code}} if openai else {"error": error}
                self._send(int(behaviour["status"]), payload)
                return
            prompt_tokens = int(behaviour.get("prompt_eval_count", _estimate(body)))
            shape = _openai if openai else _generate if self.path == "/api/generate" else _chat
            self._send(200, shape(model, behaviour, prompt_tokens), drip=float(behaviour.get("drip", 0)))

    return Handler


def _format_kind(response_format: dict[str, Any]) -> str:
    kind = str(response_format.get("type", "text"))
    return "json_object+schema" if kind == "json_object" and "schema" in response_format else kind


def _resolve(fake: FakeOllama, name: str) -> str | None:
    """The installed model `name` refers to (`qwen3` means `qwen3:latest`), or None."""
    for candidate in (name, f"{name}:latest"):
        if candidate in fake.models:
            return candidate
    return None


def _estimate(body: dict[str, Any]) -> int:
    """Prompt tokens as a chat template would count them: about 4 characters a token, 4 per message."""
    messages = body.get("messages", [])
    text = body.get("prompt", "") + "".join(m.get("content", "") for m in messages)
    return len(text) // 4 + 4 * len(messages) + 1


def _metrics(behaviour: Behaviour, prompt_tokens: int) -> dict[str, Any]:
    eval_count = max(1, len(behaviour.get("content", "") + behaviour.get("thinking", "")) // 4)
    return {
        "total_duration": 3_244_883_583,
        "load_duration": 2_969_184_542,
        "prompt_eval_count": prompt_tokens,
        "prompt_eval_duration": 141_656_333,
        "eval_count": eval_count,
        "eval_duration": 133_293_625,
    }


def _chat(model: str, behaviour: Behaviour, prompt_tokens: int) -> dict[str, Any]:
    message = {"role": "assistant", "content": behaviour.get("content", "")}
    if behaviour.get("thinking"):
        message["thinking"] = behaviour["thinking"]
    return {"model": model, "created_at": _CREATED, "message": message, "done": True,
            "done_reason": behaviour.get("done_reason", "stop"), **_metrics(behaviour, prompt_tokens)}  # fmt: skip


def _generate(model: str, behaviour: Behaviour, prompt_tokens: int) -> dict[str, Any]:
    reply = _chat(model, behaviour, prompt_tokens)
    message = reply.pop("message")
    return {**reply, "response": message["content"], **({"thinking": message["thinking"]} if "thinking" in
            message else {})}  # fmt: skip


def _openai(model: str, behaviour: Behaviour, prompt_tokens: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": behaviour.get("content", "")}
    if behaviour.get("thinking"):
        message["reasoning"] = behaviour["thinking"]
    completion = _metrics(behaviour, prompt_tokens)["eval_count"]
    return {
        "id": "chatcmpl-42",
        "object": "chat.completion",
        "created": 1751920373,
        "model": model,
        "system_fingerprint": "fp_ollama",
        "choices": [{"index": 0, "message": message, "finish_reason": behaviour.get("done_reason", "stop")}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion,
                  "total_tokens": prompt_tokens + completion},
    }  # fmt: skip


def _details(name: str) -> dict[str, Any]:
    family = re.match(r"[A-Za-z]*[0-9]*", name).group(0) or name  # type: ignore[union-attr]
    return {"parent_model": "", "format": "gguf", "family": family, "families": [family],
            "parameter_size": "4.0B", "quantization_level": "Q4_K_M"}  # fmt: skip


def _entry(name: str) -> dict[str, Any]:
    digest = hashlib.sha256(name.encode()).hexdigest()
    return {"name": name, "model": name, "digest": digest, "details": _details(name)}


def _tags(fake: FakeOllama) -> dict[str, Any]:
    return {"models": [{**_entry(m), "modified_at": _CREATED, "size": 2_497_293_918} for m in fake.models]}


def _ps(fake: FakeOllama) -> dict[str, Any]:
    loaded = {"expires_at": "2099-01-01T00:00:00Z", "size": 3_800_000_000, "size_vram": 3_800_000_000}
    return {"models": [{**_entry(m), **loaded, "context_length": 8192} for m in fake.models[:1]]}


def _show(name: str) -> dict[str, Any]:
    family = _details(name)["family"]
    return {
        "license": "Apache License 2.0",
        "modelfile": f"FROM {name}\nPARAMETER temperature 0\nPARAMETER num_ctx 8192\n",
        "parameters": "temperature                    0\nnum_ctx                        8192",
        "template": "{{ .Prompt }}",
        "details": _details(name),
        "model_info": {"general.architecture": family, "general.parameter_count": 4_022_468_096,
                       f"{family}.context_length": 40960},
        "capabilities": ["completion", "thinking"],
        "modified_at": _CREATED,
    }  # fmt: skip


def load_script(path: Path) -> dict[str, Any]:
    """Read a script file: a list of replies, or {"models", "replies", "default"}."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {"replies": data} if isinstance(data, list) else data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=11434, help="0 picks a free port")
    parser.add_argument("--script", type=Path, help="JSON file of scripted replies")
    parser.add_argument("--model", action="append", help="an installed model (repeatable; default qwen3:4b)")
    args = parser.parse_args()
    script = load_script(args.script) if args.script else {}
    fake = FakeOllama(script.get("replies"), args.model or script.get("models"), script.get("default"), args.port)
    serve(fake, f"fake Ollama listening on {fake.url} (OLLAMA_HOST={fake.host})")


def serve(fake: FakeOllama, banner: str) -> None:
    """Serve in the foreground until Ctrl-C."""
    print(banner, flush=True)
    try:
        fake._server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
