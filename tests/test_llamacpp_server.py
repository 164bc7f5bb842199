"""The OpenAI planner against the real llama-cpp-python server on loopback, with a tiny real model."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import httpx
import pytest
from tiny_models import NO_CACHE, SYSLOG, real_model

from react_engine import Engine, Settings
from react_engine.contract.actions import parse_reply
from react_engine.planners.openai import OpenAIPlanner

pytestmark = pytest.mark.real_model


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    model = real_model("llama_cpp.server.app")  # llama-cpp-python[server]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryFile() as log:  # not a pipe: a full pipe would stall the server
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port",
             str(port), "--n_ctx", "4096", "--model_alias", "tiny"],
            stdout=subprocess.DEVNULL, stderr=log,
        )  # fmt: skip
        try:
            if not _ready(url, process):
                log.seek(0)
                pytest.fail(f"llama_cpp.server did not start: {log.read().decode(errors='replace')[-500:]}")
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)


def _ready(url: str, process: subprocess.Popen) -> bool:
    """Wait for the server to list its model (loading takes seconds, minutes on a busy machine)."""
    for _ in range(3000):
        if process.poll() is not None:
            return False
        try:
            if httpx.get(f"{url}/models", timeout=1).status_code == 200:
                return True
        except httpx.TransportError:
            time.sleep(0.1)
    return False


def test_the_format_is_negotiated_and_a_run_ends_with_a_stop_reason(server: str) -> None:
    planner = OpenAIPlanner("tiny", server, timeout=120)
    result = Engine(planner, Settings(max_iterations=3)).ask("How many lines are there?", [str(SYSLOG)],
                                                             load_options=NO_CACHE)  # fmt: skip
    # older servers reject json_schema (HTTP 500) and take json_object with the schema; newer ones take json_schema
    assert planner.format in ("json_schema", "json_object+schema")
    fell_back = any("does not accept response_format json_schema" in w for w in result.warnings)
    assert fell_back == (planner.format == "json_object+schema")
    assert result.stop_reason in ("stop", "tool_limit", "time_limit"), result.message
    for step in result.steps:
        parse_reply(step.reply or "")  # the schema reached the grammar: every reply is an action
    planner.close()
