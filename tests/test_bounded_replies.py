"""Every model call is bounded: in bytes read, in the work a reply costs to parse, and in time after the first call.

The servers are the stand-ins on loopback (scripts/fake_ollama.py, scripts/fake_anthropic.py) driven through the
real clients.
"""

from __future__ import annotations

import importlib
import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from react_engine.contract.actions import MAX_REPLY_CHARS, parse_reply
from react_engine.errors import PlannerServerError, ReplyError, ReplyTooLargeError
from react_engine.planners import remote
from react_engine.planners.anthropic import AnthropicPlanner
from react_engine.planners.ollama import OllamaPlanner
from react_engine.planners.openai import OpenAIPlanner
from react_engine.planners.remote import closed_in_reasoning, complete_json
from react_engine.planners.retry import RetryPolicy

ONCE = RetryPolicy(max_attempts=1)
REPLY = {"action": "get_log_count", "params": {}, "reasoning": "count them"}


def test_an_unclosed_reply_is_checked_in_linear_time() -> None:
    began = time.perf_counter()
    assert not complete_json("{" * 400_000)  # the old regex scan took minutes on this
    assert not complete_json('{"a": ' * 100_000)
    assert time.perf_counter() - began < 2.0
    assert complete_json('<think>{"x"</think> ok {"action": "a", "params": {}} tail')


@given(st.text(max_size=200))
def test_complete_json_never_fails_on_any_text(text: str) -> None:
    assert complete_json(text) in (True, False)
    closed = closed_in_reasoning(text)
    assert closed is None or isinstance(json.loads(closed)["params"], dict)


def test_a_reply_cut_inside_its_reasoning_is_closed_and_one_cut_in_its_params_is_not() -> None:
    whole = json.dumps({"action": "search_logs", "params": {"value": "Failed password"}, "reasoning": "find them"})
    assert json.loads(closed_in_reasoning(whole[:-5]) or "{}")["params"] == {"value": "Failed password"}
    assert closed_in_reasoning(whole[: whole.index("password")]) is None


def test_a_reply_of_many_broken_objects_costs_little_and_reports_little() -> None:
    broken = '{"action": "show_logs" "params" {"n": 5 "reasoning" "x"}} ' * 100_000  # 5.4 MB
    began = time.perf_counter()
    with pytest.raises(ReplyError, match=r"over the limit of 32,000: reply with one short JSON object"):
        parse_reply(broken)
    names = "".join(json.dumps({"action": "a" * 1000 + str(i), "params": {}}) for i in range(25))
    many = '{"action": "show_logs" "params" {"n": 5}} ' * 700
    within = many[: MAX_REPLY_CHARS - len(names) - 60].rsplit("{", 1)[0] + names
    reply = parse_reply(within)
    assert time.perf_counter() - began < 3.0
    assert reply.action.endswith("24") and len(reply.ignored) <= 7 and all(len(n) <= 40 for n in reply.ignored)


def _ollama(fake) -> OllamaPlanner:
    return OllamaPlanner("qwen3:4b", host=fake.host, retry=ONCE, timeout=60)


def _openai(fake) -> OpenAIPlanner:
    return OpenAIPlanner("qwen3:4b", f"{fake.url}/v1", retry=ONCE, timeout=60)


@pytest.mark.parametrize("make", [_ollama, _openai], ids=["ollama", "openai"])
def test_a_reply_that_never_ends_is_cut_at_a_few_megabytes(fake_ollama, fake_ollama_module, plan_request, make):
    fake_ollama.push(fake_ollama_module.endless())
    planner = make(fake_ollama)
    began = time.monotonic()
    with pytest.raises(ReplyTooLargeError, match=r"^the model server sent more than 4 MB for one reply: stopped"):
        planner.plan(plan_request())
    assert time.monotonic() - began < 30  # the size, not the request timeout, ended it
    planner.close()


def test_an_anthropic_reply_that_never_ends_is_cut_too(monkeypatch, plan_request):
    module = importlib.import_module("fake_anthropic")
    with module.FakeAnthropic([{"endless": True}]) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
        planner = AnthropicPlanner(retry=ONCE, timeout=60)
        with pytest.raises(ReplyTooLargeError, match="more than 4 MB"):
            planner.plan(plan_request())
        planner.close()


def test_after_the_first_call_a_call_is_bounded_by_the_measured_speed(fake_ollama, fake_ollama_module, plan_request,
                                                                       monkeypatch):  # fmt: skip
    monkeypatch.setattr(remote, "MIN_CALL_SECONDS", 1.0)
    planner = _ollama(fake_ollama)
    fake_ollama.push(json.dumps(REPLY), fake_ollama_module.slow(20, REPLY))
    planner.plan(plan_request())  # the stand-in reports 0.14 s of prompt reading and 0.13 s of reply
    assert planner.speed is not None and planner.call_timeout(plan_request()) < 5
    began = time.monotonic()
    with pytest.raises(PlannerServerError, match="did not answer within .*s \\(the limit that the first call's speed"):
        planner.plan(plan_request())
    assert time.monotonic() - began < 10
    planner.close()


def test_a_call_that_cannot_end_before_the_run_limit_is_not_started(fake_ollama, plan_request) -> None:
    from react_engine.contract.planner import ModelUsage, PlannerReply
    from react_engine.errors import RunDeadlineError

    planner = _ollama(fake_ollama)
    slow = PlannerReply(content="{}", usage=ModelUsage(requests=1, completion_tokens=10, prompt_ms=80_000.0,
                                                       eval_ms=20_000.0))  # fmt: skip
    planner.speed = remote.CallSpeed(plan_request(prompt_tokens=800), slow)  # 100 ms a prompt token
    request = plan_request(prompt_tokens=800).model_copy(update={"time_left": 30.0})
    with pytest.raises(RunDeadlineError, match=r"would take about \d+s at the speed of its first call"):
        planner.plan(request)
    assert not fake_ollama.bodies("/api/chat")
    planner.close()
