"""Distinct counts and rankings over columns and over values written in the messages, by the rules planner.

Expected values are computed here with pandas over the frames given to the engine, never taken from it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from react_engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.result import RunResult


def frame(messages: list[str], **columns: list[Any]) -> pd.DataFrame:
    n = len(messages)
    data = {"timestamp": pd.date_range("2026-11-20 08:00", periods=n, freq="min", tz="UTC"), "message": messages,
            "source": ["/logs/app.log"] * n, "line": list(range(1, n + 1))}
    return pd.DataFrame(data | columns)


def ask(question: str, f: pd.DataFrame) -> RunResult:
    return Engine(RulesPlanner()).ask(question, frame=f)


def _web() -> pd.DataFrame:
    paths = ["/a", "/b", "/a", "/c", "/b", "/d", "/a", "/e"]
    status = [404, 404, 200, 404, 500, 404, 404, 200]
    agents = ["curl/8", "Mozilla/5.0", "curl/8", "Go-http", "curl/8", "Mozilla/5.0", "Wget", "Go-http"]
    messages = [f'"GET {p} HTTP/1.1" {s} 10 "-" "{a}"' for p, s, a in zip(paths, status, agents)]
    return frame(messages, path=paths, status=status, user_agent=agents, method=["GET"] * len(paths))


@pytest.mark.parametrize(("question", "expected"), [
    ("How many unique paths got a 404?", lambda f: f.loc[f.status == 404, "path"].nunique()),
    ("How many unique user agents are there?", lambda f: f.user_agent.nunique()),
    ("how many different paths?", lambda f: f.path.nunique()),
])
def test_a_distinct_count_of_a_column(question: str, expected: Any) -> None:
    f = _web()
    result = ask(question, f)
    assert result.value == expected(f) and result.verified, result.answer
    assert any(s.action == "count_entities" for s in result.steps)


def test_a_distinct_count_of_hosts_pids_and_components() -> None:
    f = frame(["boot", "disk full", "boot", "fan failed", "boot"], host=["n1", "n2", "n1", "n3", "n2"],
              pid=["10", "11", "10", "12", "13"], component=["kernel", "kernel", "init", "kernel", "init"],
              level_raw=["INFO", "FATAL", "INFO", "FATAL", "INFO"],
              severity=["info", "critical", "info", "critical", "info"])
    assert ask("How many unique nodes logged FATAL events?", f).value == f.loc[f.level_raw == "FATAL", "host"].nunique()
    assert ask("How many unique pids are there?", f).value == f.pid.nunique()
    assert ask("How many distinct components are there?", f).value == f.component.nunique()
