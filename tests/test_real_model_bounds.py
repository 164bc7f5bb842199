"""With a real tiny GGUF model in-process: each call is bounded, and the rules planner finishes what it leaves.

Skipped, saying why, where llama-cpp-python or a model from PyPI is not installed (see scripts/real_models.py).
"""

from __future__ import annotations

import json

import pytest
from tiny_models import NO_CACHE, SYSLOG, real_model

from react_engine import Engine, Settings
from react_engine.contract.actions import REASONING_CHARS, parse_reply
from react_engine.planners.factory import PlannerSpec, make_fallback, make_planner
from react_engine.planners.remote import ACTION_TOKENS
from react_engine.planners.rules import RulesPlanner

pytestmark = pytest.mark.real_model


def test_a_real_model_with_the_fallback_answers_at_least_as_the_rules_do() -> None:
    spec = PlannerSpec(kind="llamacpp", model=str(real_model()))
    planner, _ = make_planner(spec)
    question = "How many error lines are there?"
    alone = Engine(RulesPlanner()).ask(question, [str(SYSLOG)], load_options=NO_CACHE)
    result = Engine(planner, Settings(max_iterations=3), fallback=make_fallback(spec, planner)).ask(
        question, [str(SYSLOG)], load_options=NO_CACHE)
    assert alone.verified and result.verified and result.value == alone.value
    assert result.planner in ("llamacpp", "llamacpp+rules")
    assert result.steps[0].llm_ms > 0  # the model was asked first (its call may fail on a busy machine)


def test_a_real_model_call_fits_one_action_and_later_calls_are_bounded_by_the_first() -> None:
    planner, _ = make_planner(PlannerSpec(kind="llamacpp", model=str(real_model())))
    result = Engine(planner, Settings(max_iterations=2)).ask("How many lines are there?", [str(SYSLOG)],
                                                             load_options=NO_CACHE)  # fmt: skip
    replies = [s for s in result.steps if s.reply is not None]
    assert replies
    for step in replies:
        assert step.usage.completion_tokens is not None
        assert step.usage.completion_tokens <= ACTION_TOKENS * step.usage.requests  # never a doubled budget
        if step.done_reason == "stop":
            assert len(json.loads(step.reply)["reasoning"]) <= REASONING_CHARS
            parse_reply(step.reply)
    assert planner.speed is not None  # measured on the first call: the next ones are bounded by it
    assert planner.speed.prompt > 0 and planner.speed.reply > 0
