"""A real `react-engine serve` app under uvicorn on 127.0.0.1 (a free port), in a thread of the test process, for
the API and page tests; and a helper to follow a run."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

uvicorn = pytest.importorskip("uvicorn", reason="needs the serve extra: pip install -e '.[serve]'")

from react_engine.app.serve.launch_server import build  # noqa: E402

APP_LOG = Path(__file__).resolve().parents[1] / "sample_logs" / "app" / "app.jsonl"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running(roots: list[Path], **limits: Any) -> Iterator[str]:
    """The server's base URL while it runs; stopped (and its runs cancelled) after."""
    limits.setdefault("trace", False)
    app = build("127.0.0.1", tuple(str(r) for r in roots), **limits)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def logs_root(tmp_path: Path) -> Path:
    """A served root holding a copy of sample_logs/app (3,200 JSON lines, 156 errors)."""
    root = tmp_path / "root"
    (root / "app").mkdir(parents=True)
    (root / "app" / "app.jsonl").write_bytes(APP_LOG.read_bytes())
    return root


def session(client: httpx.Client, **options: Any) -> str:
    reply = client.post("/v1/sessions", json={"logs": ["app"], "planner": "rules", **options})
    assert reply.status_code == 201, reply.text
    return str(reply.json()["id"])


def ask(client: httpx.Client, session_id: str, question: str) -> str:
    reply = client.post(f"/v1/sessions/{session_id}/ask", json={"question": question})
    assert reply.status_code == 202, reply.text
    return str(reply.json()["run_id"])


def wait(client: httpx.Client, run_id: str, seconds: float = 20) -> dict[str, Any]:
    """The run once it leaves `running` (awaiting an approval, or done)."""
    body: dict[str, Any] = client.get(f"/v1/runs/{run_id}", params={"wait": seconds}).json()
    return body
