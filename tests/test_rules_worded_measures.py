"""Statistics asked in an operator's words: groups named as the log writes them, misspelt and superlative
statistic words, durations the lines write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from react_engine.engine import Engine
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "sample_logs" / "app" / "app.jsonl"


def test_a_statistic_by_level_names_the_levels_as_the_log_writes_them() -> None:
    rows = [json.loads(line) for line in APP.read_text().splitlines()]
    by_level: dict[str, list[int]] = {}
    for row in rows:
        by_level.setdefault(row["level"], []).append(row["latency_ms"])
    result = Engine(RulesPlanner()).ask("avg latency_ms by level", [str(APP)])
    assert result.verified and isinstance(result.value, dict)
    assert set(result.value) == set(by_level)
    for level, values in by_level.items():
        assert result.value[level] == pytest.approx(sum(values) / len(values), rel=1e-5)
    assert "by level:" in result.answer
