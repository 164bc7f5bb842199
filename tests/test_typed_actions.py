"""Typed actions: the rules planner hands the engine typed calls (no JSON in between, no prompt rendered for it),
and a model's text is read into an action once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from react_engine import Engine
from react_engine.contract import actions
from react_engine.contract.actions import Final, Invalid, ToolCall, action_text, read_action
from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.logs import load
from react_engine.loop import run as run_module
from react_engine.planners.rules import RulesPlanner
from react_engine.planners.script import ScriptPlanner
from react_engine.tools import REGISTRY
from react_engine.tools.filters import SearchLogsParams

CMTS = Path(__file__).resolve().parents[1] / "sample_logs" / "cmts" / "MAWED07T01.log"
QUESTION = "How many unique cable modems had T3 timeouts on MAWED07T01 in the last hour?"


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return load([CMTS])


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts = {"dumps": 0, "loads": 0, "prompts": 0}

    def counted(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(json, "dumps", counted("dumps", json.dumps))
    monkeypatch.setattr(json, "loads", counted("loads", json.loads))
    monkeypatch.setattr(run_module, "build_prompt", counted("prompts", run_module.build_prompt))
    return counts


def test_a_rules_question_makes_no_json_conversion_and_renders_no_prompt(frame, monkeypatch) -> None:
    counts = _counting(monkeypatch)
    result = Engine(RulesPlanner()).ask(QUESTION, frame=frame)
    tools = [s.action for s in result.steps if s.kind == "tool"]
    assert len(tools) >= 3 and result.stop_reason == "stop" and result.verified
    assert counts == {"dumps": 0, "loads": 0, "prompts": 0}
    assert all(s.prompt_tokens == 0 and s.reply is None for s in result.steps)


def test_a_model_planner_still_gets_a_prompt_each_turn_and_its_text_is_read_once(frame, monkeypatch) -> None:
    script = [json.dumps({"action": "get_log_count", "params": {}}),
              json.dumps({"action": "finalize_answer", "params": {"answer": f"{len(frame)} lines.", "value": len(frame)}})]
    reads: list[str] = []
    real = actions.parse_reply
    monkeypatch.setattr(actions, "parse_reply", lambda text: reads.append(text) or real(text))
    counts = _counting(monkeypatch)
    result = Engine(ScriptPlanner(script)).ask("how many lines?", frame=frame)
    assert result.verified and result.value == len(frame)
    assert counts["prompts"] == 2 and reads == script
    assert all(s.prompt_tokens > 0 for s in result.steps)


def test_the_same_rules_run_gives_the_same_answer_traced_or_not(frame, tmp_path) -> None:
    from react_engine.tracing import open_tracer

    plain = Engine(RulesPlanner()).ask(QUESTION, frame=frame)
    traced = Engine(RulesPlanner(), tracer_factory=lambda: open_tracer(tmp_path)).ask(QUESTION, frame=frame)
    assert (traced.answer, traced.value, traced.verified) == (plain.answer, plain.value, plain.verified)
    assert [s.reply_text() and json.loads(s.reply_text() or "")["action"] for s in traced.steps] == \
        [s.action for s in plain.steps]


class _Offering(Planner):
    """Hands the engine one typed call of a tool, then a final answer."""

    name = "offering"
    reads_prompt = False

    def __init__(self, action: ToolCall) -> None:
        self.actions = [action, Final("done", None)]

    def plan(self, request: PlanRequest) -> PlannerReply:
        return PlannerReply(action=self.actions.pop(0))


def test_a_typed_call_of_a_tool_not_offered_is_an_invalid_reply(frame) -> None:
    call = ToolCall(REGISTRY["search_logs"], SearchLogsParams(value="T3"))
    tools = {n: t for n, t in REGISTRY.items() if n != "search_logs"}
    result = Engine(_Offering(call), tools=tools).ask("anything", frame=frame)
    first = result.steps[0]
    assert first.kind == "invalid_reply" and first.action == "search_logs" and "unknown tool" in (first.error or "")


@pytest.mark.parametrize("text, kind", [
    ('{"action": "search_logs", "params": {"value": "T3"}}', ToolCall),
    ('{"action": "finalize_answer", "params": {"answer": "7 lines", "value": 7}}', Final),
    ('{"action": "no_such_tool", "params": {}}', Invalid),
    ('{"action": "search_logs", "params": {"regex": "yes please"}}', Invalid),
    ("no json here", Invalid),
])
def test_read_action_types_a_reply_once(text: str, kind: type) -> None:
    action = read_action(text, REGISTRY)
    assert isinstance(action, kind)
    if not isinstance(action, Invalid):  # written back in the contract, it reads as the same action
        assert read_action(action_text(action), REGISTRY) == action


class _Viewing(Planner):
    """Records the views it is shown, then answers."""

    name = "viewing"

    def __init__(self, reads_prompt: bool) -> None:
        self.reads_prompt = reads_prompt
        self.views: list[Any] = []

    def plan(self, request: PlanRequest) -> PlannerReply:
        self.views.append(request.view)
        if len(self.views) == 1:
            return PlannerReply(action=ToolCall(REGISTRY["search_logs"], SearchLogsParams(value="T3")))
        return PlannerReply(action=Final("done", None))


def test_a_planner_that_reads_no_prompt_is_shown_the_severity_mix_without_the_prompt_summary(frame) -> None:
    brief, full = _Viewing(reads_prompt=False), _Viewing(reads_prompt=True)
    Engine(brief).ask("anything", frame=frame)
    Engine(full).ask("anything", frame=frame)
    assert [v.severity_mix for v in brief.views] == [v.severity_mix for v in full.views]
    assert brief.views[-1].row_count == full.views[-1].row_count < len(frame)
    assert all(not v.samples and v.time_range == (None, None) and not v.top_hosts for v in brief.views)
    assert all(v.samples and v.time_range[0] for v in full.views)
