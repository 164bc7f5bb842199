"""Properties of the loop: whatever a planner replies, the engine never crashes and ends with one stop reason."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine import Engine, Settings
from react_engine.contract.record import STOP_REASONS, RunResult
from react_engine.planners.script import ScriptPlanner
from react_engine.tools import REGISTRY

N = 24
FRAME = pd.DataFrame({
    "timestamp": pd.date_range("2026-11-20T10:00", periods=N, freq="7min", tz="UTC"),
    "severity": [("error", "info", "warning", None)[i % 4] for i in range(N)],
    "level_raw": [("ERR", "INFO", "WARN", None)[i % 4] for i in range(N)],
    "host": [f"host{i % 3}" for i in range(N)],
    "component": ["sshd", "cron"] * (N // 2),
    "pid": [str(100 + i) for i in range(N)],
    "message": [f"Failed password for root from 10.0.0.{i % 5} port {2200 + i}" for i in range(N)],
    "source": ["auth.log"] * N,
    "line": list(range(1, N + 1)),
    "raw": [f"Nov 20 host{i % 3} sshd[{100 + i}]: Failed password from 10.0.0.{i % 5}" for i in range(N)],
})

NEAR_MISSES = [
    '{"action": "search_logs"}',
    '{"action": "search_logs", "params": "value=T3"}',
    '{"tool": "get_log_count", "arguments": {}}',
    '{"name": "finalize_answer", "parameters": {"answer": "There are 24 lines.", "value": 24}}',
    '```json\n{"action": "get_log_count", "params": {}}\n```',
    '<think>count first</think>{"action": "filter_by_time", "params": {"start": "now-1h", "end": "now"}}',
    "{'action': 'filter_by_severity', 'params': {'levels': ['error'],},}",
    '{"reasoning": "r", "action": "top_values", "params": {"field": "host", "n": 3',
    '{"action": "search_logs", "params": {"value": "(a+)+$", "regex": true}}',
    '{"action": "search_logs", "params": {"value": "(", "regex": true}}',
    '{"action": "filter_by_field", "params": {"field": "/etc/passwd", "value": 1}}',
    '{"action": "export_results", "params": {"path": "../escape.csv"}}',
    '{"action": "export_results", "params": {"path": "/tmp/abs.csv", "format": "jsonl"}}',
    '{"action": "finalize_answer", "params": {"answer": ""}}',
    '{"action": "finalize_answer", "params": {"answer": "I will count them now", "value": null}}',
    '{"action": "finalize_answer", "params": {"answer": "No matching lines were found.", "value": 0}}',
    '{"action": ["search_logs"], "params": 3}',
    '{"action": null}',
    '{"action": "count_by_time", "params": {"interval": "0m"}}',
    '{"action": "top_values", "params": {"field": "nope", "n": -1}}',
    '{"action": "filter_by_time", "params": {"start": "yesterday-ish", "end": "now"}}',
    '{"action": "extract_entities", "params": {"types": ["ip"], "pattern": "("}}',
    '{"action": "show_logs", "params": {"n": 1e309}}',
    '{"action": "run_python", "params": {"code": "import os; os.system(\'id\')"}}',
    "I'll search the logs for errors.",
    "null", "[]", "{", "", "   ", "\x00\x1b[31m",
]
_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=True)
                       | st.text(max_size=20), lambda inner: st.lists(inner, max_size=3), max_leaves=6)
_PARAM_NAMES = sorted({n for t in REGISTRY.values() for n in t.params.model_fields} | {"bogus"})
_ACTIONS = st.fixed_dictionaries({
    "action": st.sampled_from([*sorted(REGISTRY), "bogus_tool"]),
    "params": st.dictionaries(st.sampled_from(_PARAM_NAMES), _VALUES, max_size=3),
}).map(json.dumps)
REPLIES = st.one_of(st.text(max_size=200), st.sampled_from(NEAR_MISSES), _ACTIONS)


@pytest.fixture(scope="module")
def output_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("out")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(replies=st.lists(REPLIES, max_size=7))
def test_any_replies_end_with_exactly_one_stop_reason(replies: list[str], output_dir: Path) -> None:
    limits = Settings(max_iterations=6, tool_timeout_seconds=20)
    result = Engine(ScriptPlanner(replies), limits, output_dir=output_dir).ask("How many failed passwords?",
                                                                               frame=FRAME)
    assert result.stop_reason in STOP_REASONS
    assert RunResult.model_validate_json(result.model_dump_json()).stop_reason == result.stop_reason
    assert result.answer.strip()
    assert 1 <= len(result.steps) <= limits.max_iterations or result.stop_reason == "error"
    assert len(result.steps) <= len(replies) + 1  # one step per reply, plus the turn that found none left
    assert (result.stop_reason == "stop") == (result.steps[-1:] and result.steps[-1].kind == "final")
    assert not any(output_dir.iterdir())  # export_results is never approved here


@pytest.mark.parametrize("reply", ["{" * 3000, '{"action": "x", "params": ' + "[" * 3000 + "}",
                                   '{"action":' * 2000])
def test_absurdly_nested_reply_is_an_invalid_reply_not_a_crash(reply: str) -> None:
    result = Engine(ScriptPlanner([reply])).ask("How many failed passwords?", frame=FRAME)
    assert result.steps[0].kind == "invalid_reply" and "no JSON object" in result.steps[0].error
