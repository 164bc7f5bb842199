"""A run's steps are of one kind each (a tool call, a final answer, an invalid reply, a stopped turn): a step of one
kind cannot carry another's outcome, and a run recorded with every step's fields (one flat step) reads back into
the kinds."""

from __future__ import annotations

import pandas as pd
import pytest
from pydantic import ValidationError

from react_engine import Engine
from react_engine.contract.record import STEP, ActionStep, FinalStep, InvalidStep, RunResult, StoppedStep
from react_engine.loop.turn import Turn
from react_engine.planners.script import ScriptPlanner
from react_engine.tools.results import Counted

FRAME = pd.DataFrame({
    "timestamp": pd.date_range("2026-11-20T10:00", periods=6, freq="7min", tz="UTC"),
    "severity": ["error", "info"] * 3,
    "message": [f"Failed password from 10.0.0.{i}" for i in range(6)],
    "source": ["auth.log"] * 6,
    "line": list(range(1, 7)),
})

FLAT = {  # a step as runs recorded it with one flat step: every field, whatever its kind
    "iteration": 1, "kind": "tool", "action": None, "params": {}, "observation": "", "value": None, "ok": True,
    "error": None, "duration_ms": 1.5, "tool_ms": 0.0, "llm_ms": 0.2, "prompt_tokens": 0, "rows_in": 6,
    "rows_out": 6, "reply": None, "thinking": None, "done_reason": None, "usage": {}, "retries": [], "trimmed": [],
    "ignored_actions": [], "reasoning": "",
}


@pytest.mark.parametrize(("fields", "kind"), [
    ({"action": "get_log_count", "observation": "6 of 6 rows", "value": 6, "tool_ms": 3.0}, ActionStep),
    ({"kind": "repeat", "action": "get_log_count", "value": 6}, ActionStep),
    ({"kind": "denied", "action": "export_results", "ok": False, "error": "not approved"}, ActionStep),
    ({"kind": "final", "action": "finalize_answer", "observation": "6 lines.", "value": 6}, FinalStep),
    ({"kind": "invalid_reply", "ok": False, "error": "no JSON object"}, InvalidStep),
    ({"kind": "nudge", "action": "finalize_answer", "ok": False, "observation": "6 lines.", "value": 6}, InvalidStep),
    ({"kind": "stopped", "ok": False, "error": "hit max_iterations"}, StoppedStep),
])
def test_a_flat_recorded_step_reads_back_as_its_kind(fields: dict[str, object], kind: type) -> None:
    step = STEP.validate_python(FLAT | fields)
    assert type(step) is kind and step.kind == (FLAT | fields)["kind"]
    assert {k: v for k, v in step.model_dump().items() if k in fields} == fields


def test_a_tool_step_read_back_carries_its_typed_result() -> None:
    step = STEP.validate_python(FLAT | {"action": "get_log_count", "value": 6})
    assert isinstance(step, ActionStep) and step.result == Counted(6) and "result" not in step.model_dump()


@pytest.mark.parametrize("fields", [
    {"kind": "final", "action": "finalize_answer", "observation": "6 lines.", "ok": False},
    {"kind": "final", "action": "search_logs", "observation": "6 lines."},
    {"kind": "stopped", "ok": True},
    {"kind": "invalid_reply", "ok": True},
    {"kind": "tool", "action": None},
    {"kind": "thinking"},
])
def test_a_step_cannot_hold_another_kinds_outcome(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        STEP.validate_python(FLAT | fields)


def test_a_turn_becomes_the_step_of_its_kind() -> None:
    turn = Turn(iteration=2, rows_in=6)
    turn.action, turn.params, turn.observation, turn.value = "get_log_count", {}, "6 of 6 rows", 6
    assert isinstance(turn.step(), ActionStep) and turn.step().value == 6
    waiting = Turn(iteration=3)  # the run ended before the planner named an action
    assert isinstance(waiting.step(), StoppedStep) and waiting.step().error
    waiting.stop("cancelled")
    assert waiting.step().error == "cancelled"


def test_a_run_of_every_kind_reads_back_from_its_json() -> None:
    replies = ["not json at all", '{"action": "get_log_count", "params": {}}',
               '{"action": "get_log_count", "params": {}}',
               '{"action": "finalize_answer", "params": {"answer": "There are 6 lines.", "value": 6}}']
    result = Engine(ScriptPlanner(replies)).ask("How many lines?", frame=FRAME)
    kinds = [type(s) for s in result.steps]
    assert kinds[:3] == [InvalidStep, ActionStep, ActionStep] and result.steps[2].kind == "repeat"
    assert kinds[-1] is FinalStep and result.value == 6
    again = RunResult.model_validate_json(result.model_dump_json())
    assert again.model_dump() == result.model_dump() and [type(s) for s in again.steps] == kinds
