"""The Anthropic planner through the official SDK against a stand-in Messages API on loopback."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from react_engine import Engine
from react_engine.errors import (
    InputError,
    ModelNotFoundError,
    PlannerOverloadedError,
    PlannerServerError,
    TruncatedReplyError,
)
from react_engine.logs import load
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import PlannerSpec, make_planner
from react_engine.planners.retry import RetryPolicy
from react_engine.tools import REGISTRY

pytest.importorskip("anthropic", reason='the anthropic SDK is an extra: pip install -e ".[anthropic]" to run this')
from react_engine.planners.anthropic import AnthropicPlanner

NO_CACHE = LoadOptions(use_cache=False)
SYSLOG = Path(__file__).resolve().parents[1] / "sample_logs" / "syslog" / "messages"
FAST = RetryPolicy(initial_delay=0.01, max_delay=0.02)


@pytest.fixture
def fake(monkeypatch):
    module = importlib.import_module("fake_anthropic")
    with module.FakeAnthropic() as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
        server.module = module
        yield server


def test_one_tool_call_is_forced_and_becomes_the_action(fake, plan_request):
    fake.push(fake.module.call("filter_by_field", "narrow to the host", field="host", value="db1"))
    planner = AnthropicPlanner("claude-test", retry=FAST)
    reply = planner.plan(plan_request(prompt="Errors on db1?", system="Pick one tool."))
    assert reply.content == ('{"reasoning": "narrow to the host", "action": "filter_by_field", '
                             '"params": {"field": "host", "value": "db1"}}')  # fmt: skip
    assert reply.done_reason == "stop" and reply.usage.requests == 1 and reply.usage.prompt_tokens
    [body] = fake.bodies("/v1/messages")
    assert body["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
    assert body["system"] == "Pick one tool." and body["messages"] == [{"role": "user", "content": "Errors on db1?"}]
    declared = {t["name"]: t for t in body["tools"]}
    assert set(declared) == set(REGISTRY)
    assert declared["top_values"]["input_schema"]["properties"]["n"]["type"] == "integer"
    assert declared["top_values"]["description"] == REGISTRY["top_values"].description
    headers = {k.lower(): v for k, v in fake.requests[-1]["headers"].items()}
    assert "sk-ant-test" in (headers.get("x-api-key") or headers.get("authorization", ""))


def test_a_whole_run_ends_with_a_verified_answer(fake):
    count = len(load([str(SYSLOG)], NO_CACHE))
    fake.push(fake.module.call("get_log_count"),
              fake.module.call("finalize_answer", answer=f"There are {count} lines.", value=count))  # fmt: skip
    result = Engine(AnthropicPlanner(retry=FAST)).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.stop_reason == "stop" and result.verified and result.statistics.llm_calls == 2
    assert [s.action for s in result.steps] == ["get_log_count", "finalize_answer"]


@pytest.mark.parametrize("status", [429, 529])
def test_rate_limits_and_overload_are_retried_with_backoff(fake, plan_request, status):
    fake.push({"status": status, "error": "slow down"}, fake.module.call("get_log_count"))
    reply = AnthropicPlanner(retry=FAST).plan(plan_request())
    assert len(reply.retries) == 1 and f"HTTP {status}" in reply.retries[0].error
    assert '"action": "get_log_count"' in reply.content


def test_overload_that_persists_is_an_overloaded_error(fake, plan_request):
    fake.push(*[fake.module.overloaded()] * 3)
    with pytest.raises(PlannerOverloadedError, match="HTTP 529: Overloaded: the server is busy or rate limiting"):
        AnthropicPlanner(retry=FAST).plan(plan_request())
    assert len(fake.bodies("/v1/messages")) == 3


def test_a_cut_off_reply_is_asked_again_once_with_the_same_budget(fake, plan_request):
    fake.push({"text": "I think", "stop_reason": "max_tokens"}, {"text": "I", "stop_reason": "max_tokens"})
    with pytest.raises(TruncatedReplyError):
        AnthropicPlanner(retry=FAST).plan(plan_request())
    bodies = fake.bodies("/v1/messages")
    assert [b["max_tokens"] for b in bodies] == [128, 128]
    assert "was cut off at 128 tokens" in bodies[1]["messages"][-1]["content"]


def test_unknown_model(fake, plan_request):
    fake.push({"status": 404, "error": "model: claude-9"})
    with pytest.raises(ModelNotFoundError, match="model 'claude-9' not found at .*check --model"):
        AnthropicPlanner("claude-9", retry=FAST).plan(plan_request())


def test_no_key_is_a_one_line_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(InputError, match="^--planner anthropic needs an API key: set ANTHROPIC_API_KEY$"):
        make_planner(PlannerSpec(kind="anthropic"))


def test_a_dripping_reply_is_cut_at_the_request_timeout(fake, plan_request):
    fake.push({**fake.module.call("get_log_count"), "drip": 0.2})
    with pytest.raises(PlannerServerError, match=r"did not answer within 1s: raise --request-timeout"):
        AnthropicPlanner(timeout=1.0, retry=RetryPolicy(max_attempts=1)).plan(plan_request())


def test_http_200_with_a_body_that_is_not_json_is_a_planner_error(fake, plan_request):
    fake.push({"body": "<html>502 Bad Gateway</html>"})
    with pytest.raises(PlannerServerError, match="not a message"):
        AnthropicPlanner(retry=RetryPolicy(max_attempts=1)).plan(plan_request())
