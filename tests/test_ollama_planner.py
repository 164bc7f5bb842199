"""The Ollama planner end to end: the real `ollama` client over real HTTP to the stand-in server."""

from __future__ import annotations

import json
import socket

import pytest

from react_engine.contract.actions import parse_reply, reply_schema
from react_engine.contract.reply_schema import simplify_schema
from react_engine.errors import (
    ContextTooSmallError,
    ModelNotFoundError,
    PlannerConnectionError,
    PlannerOverloadedError,
    PlannerServerError,
    PlannerValidationError,
    TruncatedReplyError,
)
from react_engine.planners.modelfile import parse_modelfile
from react_engine.planners.ollama import OllamaPlanner
from react_engine.planners.retry import RetryPolicy
from react_engine.tools import REGISTRY

REPLY = {"reasoning": "the count is known", "action": "finalize_answer", "params": {"answer": "3 errors", "value": 3}}
FAST = RetryPolicy(initial_delay=0.01, max_delay=0.02)


@pytest.fixture
def planner(fake_ollama):
    made = OllamaPlanner(host=fake_ollama.host, retry=FAST, timeout=5)
    yield made
    made.close()


def test_request_carries_schema_format_options_and_messages(fake_ollama, planner, plan_request):
    fake_ollama.push(fake_ollama_good := json.dumps(REPLY))
    reply = planner.plan(plan_request(prompt="How many errors?", system="Be exact."))
    assert reply.content == fake_ollama_good
    body = fake_ollama.bodies("/api/chat")[-1]
    assert body["format"] == simplify_schema(reply_schema(REGISTRY)) == planner.format_schema
    assert not {"$ref", "oneOf", "const"} & set(json.dumps(body["format"]).replace('"', " ").split())
    assert body["options"]["temperature"] == 0
    assert body["options"]["num_ctx"] == 8192 and body["options"]["num_predict"] == 128
    assert body["options"]["seed"] == 42
    assert body["think"] is False and body["keep_alive"] == "30m" and body["stream"] is False
    assert body["messages"] == [
        {"role": "system", "content": "Be exact."},
        {"role": "user", "content": "How many errors?"},
    ]


def test_metrics_are_converted_to_milliseconds(fake_ollama, planner, plan_request):
    fake_ollama.push(json.dumps(REPLY))
    reply = planner.plan(plan_request())
    usage = reply.usage
    assert (usage.load_ms, usage.prompt_ms, usage.eval_ms, usage.total_ms) == (2969.185, 141.656, 133.294, 3244.884)
    assert usage.prompt_tokens and usage.prompt_tokens > 0 and usage.completion_tokens and usage.requests == 1
    assert reply.model == "qwen3:4b" and reply.done_reason == "stop" and not reply.retries


@pytest.mark.parametrize("shape", ["think_tagged", "fenced"])
def test_think_tagged_and_fenced_replies_come_through(fake_ollama, fake_ollama_module, planner, plan_request, shape):
    fake_ollama.push(getattr(fake_ollama_module, shape)(REPLY))
    reply = planner.plan(plan_request())
    assert "<think>" not in reply.content
    assert parse_reply(reply.content).model_dump() == REPLY
    assert reply.thinking == ("Let me think about the columns first." if shape == "think_tagged" else None)


def test_thinking_text_is_recorded_when_thinking_is_on(fake_ollama, plan_request):
    fake_ollama.push({"content": json.dumps(REPLY), "thinking": "Count first, then answer."})
    reply = OllamaPlanner(host=fake_ollama.host, think=True, retry=FAST).plan(plan_request())
    assert reply.thinking == "Count first, then answer."
    body = fake_ollama.bodies("/api/chat")[-1]
    assert body["think"] is True and body["options"]["num_predict"] == 4096  # room for the reasoning


def test_transient_500_is_retried_and_recorded(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(fake_ollama_module.http_error(500, "runner crashed"), json.dumps(REPLY))
    reply = planner.plan(plan_request())
    assert parse_reply(reply.content).action == "finalize_answer"
    assert [r.attempt for r in reply.retries] == [1]
    assert "HTTP 500: runner crashed" in reply.retries[0].error
    assert 0.01 <= reply.retries[0].delay_s <= 0.02
    assert len(fake_ollama.bodies("/api/chat")) == 2


def test_persistent_500_gives_up_after_max_attempts(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(*[fake_ollama_module.http_error(500)] * 3)
    with pytest.raises(PlannerServerError, match="HTTP 500"):
        planner.plan(plan_request())
    assert len(fake_ollama.bodies("/api/chat")) == FAST.max_attempts


def test_503_is_an_overload_and_retried(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(*[fake_ollama_module.http_error(503, "server busy, please try again")] * 3)
    with pytest.raises(PlannerOverloadedError, match="busy"):
        planner.plan(plan_request())
    assert len(fake_ollama.bodies("/api/chat")) == 3


def test_400_is_not_retried(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(fake_ollama_module.http_error(400, '"qwen3:4b" does not support thinking'))
    with pytest.raises(PlannerValidationError, match="--no-think"):
        planner.plan(plan_request())
    assert len(fake_ollama.bodies("/api/chat")) == 1


def test_slow_reply_times_out_as_a_server_error(fake_ollama, fake_ollama_module, plan_request):
    fake_ollama.push(*[fake_ollama_module.slow(1.0, REPLY)] * 2)
    planner = OllamaPlanner(host=fake_ollama.host, timeout=0.2, retry=RetryPolicy(max_attempts=2, initial_delay=0))
    with pytest.raises(PlannerServerError, match="did not answer within 0.2s") as caught:
        planner.plan(plan_request())
    assert "\n" not in str(caught.value)


def test_prompt_longer_than_the_context_is_context_too_small(fake_ollama, fake_ollama_module, planner, plan_request):
    error = "the prompt is longer than the context length currently available to the model; try a shorter prompt"
    fake_ollama.push(fake_ollama_module.http_error(400, error))
    with pytest.raises(ContextTooSmallError, match="raise num_ctx"):
        planner.plan(plan_request())


def test_unknown_model_is_model_not_found(fake_ollama, plan_request):
    planner = OllamaPlanner("mistral:7b", host=fake_ollama.host, retry=FAST)
    with pytest.raises(ModelNotFoundError) as caught:
        planner.plan(plan_request())
    assert str(caught.value) == (
        "model 'mistral:7b' not found: run `ollama pull mistral:7b` or `react-engine models create modelfiles/...`"
    )
    assert len(fake_ollama.bodies("/api/chat")) == 1  # 404 is not retried


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_server_down_gives_the_one_line_fix(plan_request, monkeypatch):
    port = _closed_port()
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{port}")
    planner = OllamaPlanner(retry=RetryPolicy(initial_delay=30))  # a retry would make the test time out
    with pytest.raises(PlannerConnectionError) as caught:
        planner.plan(plan_request())
    assert caught.value.retryable is False
    assert str(caught.value) == (
        f"Ollama is not reachable at http://127.0.0.1:{port}: start it with `ollama serve`, set OLLAMA_HOST, "
        "or use --planner rules"
    )


def test_truncated_json_is_reasked_once_with_the_same_budget(fake_ollama, fake_ollama_module, planner,
                                                            plan_request):  # fmt: skip
    fake_ollama.push(fake_ollama_module.truncated(REPLY), json.dumps(REPLY))
    reply = planner.plan(plan_request())
    assert parse_reply(reply.content).model_dump() == REPLY
    bodies = fake_ollama.bodies("/api/chat")
    assert [b["options"]["num_predict"] for b in bodies] == [128, 128]
    assert bodies[1]["messages"][-1]["content"].endswith("a reasoning of a few words.")
    assert any("cut off" in w for w in reply.warnings)


def test_a_reply_cut_inside_its_reasoning_needs_no_reask(fake_ollama, planner, plan_request):
    whole = json.dumps({"action": "get_log_count", "params": {}, "reasoning": "count the rows that are left now"})
    fake_ollama.push({"content": whole[:-12], "done_reason": "length"})
    reply = planner.plan(plan_request())
    assert parse_reply(reply.content).action == "get_log_count" and json.loads(reply.content)["params"] == {}
    assert len(fake_ollama.bodies("/api/chat")) == 1


def test_empty_content_after_thinking_is_reasked(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(fake_ollama_module.empty(), json.dumps(REPLY))
    assert parse_reply(planner.plan(plan_request()).content).action == "finalize_answer"
    assert len(fake_ollama.bodies("/api/chat")) == 2


def test_truncated_twice_raises(fake_ollama, fake_ollama_module, planner, plan_request):
    fake_ollama.push(fake_ollama_module.empty(), fake_ollama_module.truncated(REPLY))
    with pytest.raises(TruncatedReplyError, match="cut off twice at num_predict=128"):
        planner.plan(plan_request())


def test_length_with_a_whole_object_is_accepted(fake_ollama, planner, plan_request):
    fake_ollama.push({"content": json.dumps(REPLY), "done_reason": "length"})
    assert parse_reply(planner.plan(plan_request()).content).action == "finalize_answer"
    assert len(fake_ollama.bodies("/api/chat")) == 1


def test_low_prompt_eval_count_warns_of_silent_truncation(fake_ollama, planner, plan_request):
    fake_ollama.push({"content": json.dumps(REPLY), "prompt_eval_count": 449})
    reply = planner.plan(plan_request(prompt_tokens=900))
    assert [w for w in reply.warnings if "449 prompt tokens" in w and "900" in w and "num_ctx" in w]
    fake_ollama.push({"content": json.dumps(REPLY), "prompt_eval_count": 675})  # a normal count for the estimate
    assert planner.plan(plan_request(prompt_tokens=900)).warnings == []


MODELFILE = '''FROM llama3.1:8b
SYSTEM """Only JSON."""
PARAMETER num_ctx 4096
PARAMETER num_predict 256
PARAMETER temperature 0.2
PARAMETER stop "<|eot_id|>"
MESSAGE user How many hosts?
MESSAGE assistant {"reasoning": "count", "action": "finalize_answer", "params": {"answer": "2"}}
'''


def test_modelfile_system_parameters_and_messages_go_with_every_request(fake_ollama, plan_request):
    modelfile = parse_modelfile(MODELFILE)
    planner = OllamaPlanner(modelfile.model, host=fake_ollama.host, modelfile=modelfile, retry=FAST)
    fake_ollama.push(json.dumps(REPLY), json.dumps(REPLY))
    for _ in range(2):
        planner.plan(plan_request(prompt="q", system="engine default"))
    for body in fake_ollama.bodies("/api/chat"):
        assert body["model"] == "llama3.1:8b"
        assert body["options"] == {"temperature": 0.2, "num_ctx": 4096, "num_predict": 256, "seed": 42,
                                   "stop": ["<|eot_id|>"]}  # fmt: skip
        assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
        assert body["messages"][0]["content"] == "Only JSON."
    assert planner.context_tokens == 4096 - 256 - 409


def test_context_budget_leaves_room_for_the_reply_and_a_margin():
    planner = OllamaPlanner(options={"num_ctx": 2048, "num_predict": 512})
    assert planner.context_tokens == 2048 - 512 - 204
    assert OllamaPlanner(options={"num_ctx": 4096, "num_predict": -1}).context_tokens == 4096 - 1024 - 409
