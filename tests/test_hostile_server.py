"""A hostile model server: dripping bytes, hanging, HTTP 200 with a body that is not JSON (stand-in on loopback)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from react_engine import Engine, Settings
from react_engine.app.batches import BatchItem, run_batch
from react_engine.errors import PlannerServerError, RunDeadlineError
from react_engine.logs.options import LoadOptions
from react_engine.planners.ollama import OllamaPlanner
from react_engine.planners.openai import OpenAIPlanner
from react_engine.planners.retry import RetryPolicy

NO_CACHE = LoadOptions(use_cache=False)
SYSLOG = Path(__file__).resolve().parents[1] / "sample_logs" / "syslog" / "messages"
REPLY = {"reasoning": "r", "action": "get_log_count", "params": {}}
ONCE = RetryPolicy(max_attempts=1)


def _ollama(fake, **kwargs) -> OllamaPlanner:
    return OllamaPlanner("qwen3:4b", host=fake.host, **kwargs)


def _openai(fake, **kwargs) -> OpenAIPlanner:
    return OpenAIPlanner("qwen3:4b", f"{fake.url}/v1", **kwargs)


@pytest.mark.parametrize("make", [_ollama, _openai], ids=["ollama", "openai"])
def test_a_dripping_reply_is_cut_at_the_request_timeout(fake_ollama, fake_ollama_module, plan_request, make):
    # every byte comes well within the timeout, so only a bound on the whole request can stop it
    fake_ollama.push(fake_ollama_module.dripping(0.2, REPLY))
    planner = make(fake_ollama, timeout=1.0, retry=ONCE)
    with pytest.raises(PlannerServerError, match=r"did not answer within 1s: raise --request-timeout"):
        planner.plan(plan_request())
    planner.close()


@pytest.mark.parametrize("make", [_ollama, _openai], ids=["ollama", "openai"])
def test_the_run_limit_cuts_a_request_in_flight(fake_ollama, fake_ollama_module, make):
    fake_ollama.push(fake_ollama_module.slow(600, REPLY))  # a hung server; default request timeout and retries
    planner = make(fake_ollama)
    began = time.monotonic()
    result = Engine(planner, Settings(timeout_seconds=1.0)).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.stop_reason == "time_limit" and result.error_type == RunDeadlineError.__name__
    assert "the run's time limit passed while waiting for" in (result.message or "")
    assert time.monotonic() - began < planner.timeout  # ended by the run limit, not by the request timeout
    planner.close()


def test_a_dripping_reply_is_cut_by_the_run_limit(fake_ollama, fake_ollama_module):
    fake_ollama.push(fake_ollama_module.dripping(0.3, REPLY))
    planner = _ollama(fake_ollama)
    result = Engine(planner, Settings(timeout_seconds=1.0)).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.stop_reason == "time_limit" and result.statistics.llm_calls == 0
    planner.close()


def test_no_retry_starts_after_the_deadline() -> None:
    waits: list[float] = []

    def fail() -> None:
        raise PlannerServerError("HTTP 502")

    with pytest.raises(PlannerServerError):
        RetryPolicy(initial_delay=5).call(fail, [], sleep=waits.append, deadline=time.monotonic() + 1)
    assert waits == []


@pytest.mark.parametrize("make", [_ollama, _openai], ids=["ollama", "openai"])
def test_http_200_with_a_body_that_is_not_json_is_a_planner_error(fake_ollama, fake_ollama_module, plan_request,
                                                                 make):  # fmt: skip
    fake_ollama.push(fake_ollama_module.not_json())
    planner = make(fake_ollama, retry=ONCE)
    with pytest.raises(PlannerServerError, match="not (JSON|a chat completion)"):
        planner.plan(plan_request())
    planner.close()


def test_a_body_that_is_not_json_does_not_abort_a_batch(fake_ollama, fake_ollama_module, tmp_path):
    fake_ollama.push(*[fake_ollama_module.not_json()] * 3,  # the first question: every attempt
                     json.dumps(REPLY), json.dumps({"action": "finalize_answer", "params": {"answer": "Counted."}}))
    planner = _ollama(fake_ollama, retry=RetryPolicy(initial_delay=0.01, max_delay=0.01))
    out = tmp_path / "out.jsonl"
    items = [BatchItem(question="How many lines?"), BatchItem(question="How many lines in all?")]
    run_batch(Engine(planner), items, out, logs=[SYSLOG], retries=0)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [w["stop_reason"] for w in written] == ["error", "stop"]
    assert "not JSON" in written[0]["message"]
    planner.close()


def _cli(*args: str, host: str):
    from click.testing import CliRunner

    from react_engine.app.cli import main

    began = time.monotonic()
    result = CliRunner().invoke(main, ["ask", "How many lines?", str(SYSLOG), "--no-cache", "--no-trace", *args],
                                env={"OLLAMA_HOST": host})
    return result, time.monotonic() - began


_UNREACHABLE = {  # how the named planner's server fails, and what the one line says
    "down": (None, "not reachable"),
    "unknown model": ("model", "not found"),
    "not json": ("not_json", "not JSON"),
    "dripping": ("dripping", "time limit"),
}


@pytest.mark.parametrize("case", list(_UNREACHABLE))
def test_a_named_planner_that_cannot_be_had_ends_with_one_line_and_exit_1(fake_ollama, fake_ollama_module, case,
                                                                          cli_home):
    how, said = _UNREACHABLE[case]
    host, model = ("127.0.0.1:9" if how is None else fake_ollama.host), "no-such:1b" if how == "model" else "qwen3:4b"
    if how == "not_json":
        fake_ollama.default = fake_ollama_module.not_json()
    elif how == "dripping":
        fake_ollama.default = fake_ollama_module.dripping(0.3, REPLY)
    result, took = _cli("--planner", "ollama", "--model", model, "--timeout", "4", host=host)
    assert result.exit_code == 1 and result.stdout == "", result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and said in lines[0], lines
    assert took < 4 + 10  # within the run's limit (and the time a loaded machine takes to start)
    rescued, _ = _cli("--planner", "ollama", "--model", model, "--timeout", "4", "--fallback", "rules", host=host)
    assert rescued.exit_code == 0 and rescued.stdout.startswith("4,200"), rescued.output
    assert "the rules planner answered" in rescued.stderr


def test_the_automatic_planner_still_falls_back_when_the_server_fails(fake_ollama, fake_ollama_module, cli_home):
    fake_ollama.default = fake_ollama_module.not_json()  # up and with the model, so auto picks it
    result, _ = _cli("--timeout", "20", host=fake_ollama.host)
    assert result.exit_code == 0 and result.stdout.startswith("4,200"), result.output
    assert "the rules planner answered" in result.stderr


def test_a_named_openai_planner_answering_what_is_not_json_ends_with_one_line(fake_ollama, fake_ollama_module,
                                                                             cli_home):
    fake_ollama.default = fake_ollama_module.not_json()
    result, _ = _cli("--planner", "openai", "--base-url", f"{fake_ollama.url}/v1", "--model", "qwen3:4b",
                     "--timeout", "20", host=fake_ollama.host)
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.output


class _NotOllama:
    """A server on loopback that answers every request with HTTP 200 and `body` (a web page), sent one byte every
    `drip` seconds when given."""

    def __init__(self, body: bytes = b"<html><body>It works!</body></html>", drip: float = 0.0) -> None:
        import http.server
        import threading

        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(outer.body)))
                self.end_headers()
                for byte in outer.body:
                    if outer.stopped.wait(outer.drip):
                        return
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.body, self.drip, self.stopped = body, drip, threading.Event()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.host = f"127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.stopped.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("drip", [0.0, 0.5], ids=["web page", "dripping"])
def test_a_server_that_is_not_ollama_gives_one_line_everywhere(drip, cli_home):
    from click.testing import CliRunner

    from react_engine.app.cli import main

    server = _NotOllama(drip=drip)
    try:
        auto, took = _cli("--timeout", "30", host=server.host)  # the automatic choice: the rules answer
        assert auto.exit_code == 0 and auto.stdout.startswith("4,200") and "Traceback" not in auto.stderr, auto.output
        assert "using the built-in rules planner" in auto.stderr and took < 30
        env = {"OLLAMA_HOST": server.host}
        began = time.monotonic()
        listed = CliRunner().invoke(main, ["models", "--request-timeout", "3", "list"], env=env)
        assert listed.exit_code == 0 and "installed models unknown" in listed.stderr, listed.output
        shown = CliRunner().invoke(main, ["models", "--request-timeout", "3", "show", "qwen3:4b"], env=env)
        assert time.monotonic() - began < 2 * 3 + 4  # each within its request timeout, however slow the drip
        assert shown.exit_code == 1 and len(shown.stderr.splitlines()) == 1, shown.output
        assert "Traceback" not in shown.stderr and isinstance(shown.exception, (SystemExit, type(None)))
    finally:
        server.close()
