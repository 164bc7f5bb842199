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
