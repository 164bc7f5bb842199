"""The OpenAI-compatible planner over real HTTP to the stand-in server's /v1/chat/completions."""

from __future__ import annotations

import json
import socket

import pytest

from react_engine import errors
from react_engine.contract.actions import parse_reply
from react_engine.planners.openai import RESPONSE_FORMATS, OpenAIPlanner, response_format
from react_engine.planners.retry import RetryPolicy

REPLY = {"reasoning": "known", "action": "finalize_answer", "params": {"answer": "2 hosts", "value": 2}}
FAST = RetryPolicy(initial_delay=0.01, max_delay=0.02)


@pytest.fixture
def planner(fake_ollama, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("REACT_ENGINE_API_KEY", raising=False)
    made = OpenAIPlanner("qwen3:4b", f"{fake_ollama.url}/v1/", retry=FAST, timeout=5)
    yield made
    made.close()


def test_request_shape_and_reply(fake_ollama, planner, plan_request):
    fake_ollama.push(json.dumps(REPLY))
    reply = planner.plan(plan_request(prompt="How many hosts?", system="JSON only."))
    assert parse_reply(reply.content).model_dump() == REPLY
    usage = reply.usage
    assert usage.prompt_tokens and usage.completion_tokens and reply.done_reason == "stop" and usage.total_ms > 0
    body = fake_ollama.bodies("/v1/chat/completions")[-1]
    assert body["temperature"] == 0 and body["max_tokens"] == 128 and body["seed"] == 42
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == planner.format_schema
    assert body["messages"] == [
        {"role": "system", "content": "JSON only."},
        {"role": "user", "content": "How many hosts?"},
    ]
    sent = [r["headers"] for r in fake_ollama.requests if r["path"] == "/v1/chat/completions"]
    assert sent[-1]["Authorization"] == "Bearer sk-test"


def test_reasoning_is_recorded_and_think_tags_stripped(fake_ollama, planner, plan_request):
    fake_ollama.push({"content": f"<think>hmm</think>{json.dumps(REPLY)}", "thinking": "first count"})
    reply = planner.plan(plan_request())
    assert reply.thinking == "first count" and reply.content == json.dumps(REPLY)


def test_500_retried_then_ok(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(fake_ollama_module.http_error(502, "bad gateway"), json.dumps(REPLY))
    reply = planner.plan(plan_request())
    assert len(reply.retries) == 1 and "HTTP 502: bad gateway" in reply.retries[0].error


@pytest.mark.parametrize(
    ("status", "error", "fix"),
    [(429, errors.PlannerOverloadedError, "try again later"), (401, errors.PlannerValidationError, "OPENAI_API_KEY")],
)
def test_status_errors_map_to_the_hierarchy(fake_ollama, fake_ollama_module, planner, plan_request, status, error,
                                            fix):  # fmt: skip
    fake_ollama.push(*[fake_ollama_module.http_error(status, "nope")] * 3)
    with pytest.raises(error, match=fix):
        planner.plan(plan_request())
    assert len(fake_ollama.bodies("/v1/chat/completions")) == (3 if error.retryable else 1)


def test_unknown_model(fake_ollama, plan_request):
    planner = OpenAIPlanner("gpt-9", f"{fake_ollama.url}/v1", retry=FAST)
    with pytest.raises(errors.ModelNotFoundError, match="model 'gpt-9' not found at .*check --model"):
        planner.plan(plan_request())


def test_truncation_is_reasked_once_with_the_same_budget_and_a_reminder(fake_ollama, fake_ollama_module, planner,
                                                                         plan_request):  # fmt: skip
    fake_ollama.push(fake_ollama_module.truncated(REPLY), fake_ollama_module.truncated(REPLY))
    with pytest.raises(errors.TruncatedReplyError):
        planner.plan(plan_request())
    bodies = fake_ollama.bodies("/v1/chat/completions")
    assert [b["max_tokens"] for b in bodies] == [128, 128]
    assert "was cut off at 128 tokens" in bodies[1]["messages"][-1]["content"]
    assert "cut off" not in bodies[0]["messages"][-1]["content"]


def test_server_down(plan_request):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    planner = OpenAIPlanner("m", f"http://127.0.0.1:{port}/v1", retry=RetryPolicy(initial_delay=30))
    with pytest.raises(errors.PlannerConnectionError, match=r"not reachable .*: start it, fix --base-url") as caught:
        planner.plan(plan_request())
    assert caught.value.retryable is False


@pytest.mark.parametrize(
    ("accepted", "chosen"),
    [
        (("text", "json_object+schema", "json_object"), "json_object+schema"),  # llama-cpp-python's server
        (("text", "json_object"), "json_object"),
    ],
)
def test_response_format_is_negotiated_once_per_run(fake_ollama_module, plan_request, accepted, chosen):
    with fake_ollama_module.FakeOllama(models=["m"], response_formats=accepted) as server:
        server.push(json.dumps(REPLY), json.dumps(REPLY))
        planner = OpenAIPlanner("m", f"{server.url}/v1", retry=FAST)
        first, second = planner.plan(plan_request()), planner.plan(plan_request())
        sent = [b["response_format"] for b in server.bodies("/v1/chat/completions")]
    tried = list(RESPONSE_FORMATS[: RESPONSE_FORMATS.index(chosen) + 1])
    assert sent == [response_format(kind, planner.format_schema) for kind in [*tried, chosen]]
    assert parse_reply(first.content).model_dump() == REPLY and planner.format == chosen
    assert first.warnings == [f"the server at {server.url}/v1 does not accept response_format "
                              f"{' or '.join(tried[:-1])}: using {chosen}"]
    assert second.warnings == [] and not first.retries


def test_an_error_not_about_the_format_is_not_negotiated(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(fake_ollama_module.http_error(400, "context length exceeded"))
    with pytest.raises(errors.PlannerValidationError, match="HTTP 400: context length exceeded"):
        planner.plan(plan_request())
    assert planner.format == "json_schema" and len(fake_ollama.bodies("/v1/chat/completions")) == 1


def test_usage_is_summed_over_a_reask(fake_ollama, fake_ollama_module, planner, plan_request):
    cut = fake_ollama_module.truncated(REPLY)
    fake_ollama.push(cut, json.dumps(REPLY))
    reply = planner.plan(plan_request())
    assert len(fake_ollama.bodies("/v1/chat/completions")) == 2 and reply.usage.requests == 2
    assert reply.usage.completion_tokens == len(cut["content"]) // 4 + len(json.dumps(REPLY)) // 4


def test_a_prompt_past_the_servers_window_is_a_context_error(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push({"status": 400, "error": "Requested tokens (5000) exceed context window of 4096",
                      "code": "context_length_exceeded"})
    with pytest.raises(errors.ContextTooSmallError, match="does not fit the context window"):
        planner.plan(plan_request())
