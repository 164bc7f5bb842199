""""errors" are error or worse, as `inspect` counts them; a level written as the log writes it is that level."""

from __future__ import annotations

from pathlib import Path

import pytest

from react_engine.logs import load
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

LINES = [
    "2026-11-20 10:00:00,000 ERROR [api] request failed",
    "2026-11-20 10:00:01,000 CRITICAL [api] database unreachable",
    "2026-11-20 10:00:02,000 ERROR [db] query failed",
    "2026-11-20 10:00:03,000 INFO [api] request served",
    "2026-11-20 10:00:04,000 FATAL [db] shutting down",
    "2026-11-20 10:00:05,000 WARNING [api] slow request",
]


@pytest.fixture(scope="module")
def frame(tmp_path_factory: pytest.TempPathFactory):
    path: Path = tmp_path_factory.mktemp("errors") / "app.log"
    path.write_text("\n".join(LINES) + "\n")
    return load([path])


@pytest.mark.parametrize("question, expected", [
    ("how many errors are there?", 4),  # error, critical, fatal
    ("count the error lines", 4),
    ("How many ERROR lines?", 2),  # the level as the log writes it
    ("how many critical lines?", 2),  # FATAL is critical
    ("how many warnings or worse?", 5),
])
def test_error_words(frame, question: str, expected: int) -> None:
    levels = set(frame["severity"].dropna())
    assert {"error", "critical"} <= levels  # the log writes levels worse than error
    result = Engine(RulesPlanner()).ask(question, frame=frame)
    assert (result.value, result.verified) == (expected, True), result.answer


def test_an_or_worse_count_says_what_it_includes(frame) -> None:
    result = Engine(RulesPlanner()).ask("how many errors?", frame=frame)
    assert "error or worse" in result.answer and "critical" in result.answer
