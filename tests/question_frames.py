"""Small frames of log rows and a rules-planner run over one, for the tests of how questions are read (the expected
values are computed with pandas over the same frames)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from react_engine import Engine, Settings
from react_engine.contract.record import RunResult
from react_engine.planners.rules import RulesPlanner


def frame(messages: list[str], **columns: list[Any]) -> pd.DataFrame:
    """One row per message, a minute apart, from `/logs/app.log`; `columns` adds parsed columns."""
    n = len(messages)
    data = {"timestamp": pd.date_range("2026-11-20 08:00", periods=n, freq="min", tz="UTC"), "message": messages,
            "source": ["/logs/app.log"] * n, "line": list(range(1, n + 1))}
    return pd.DataFrame(data | columns)


def ask(question: str, f: pd.DataFrame) -> RunResult:
    """The rules planner's run on `f`."""
    return Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, frame=f)
