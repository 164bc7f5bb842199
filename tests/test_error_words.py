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


def test_in_a_syslog_that_writes_no_level_errors_are_a_stated_text_search(tmp_path: Path) -> None:
    path = tmp_path / "messages"
    path.write_text("Nov  3 09:23:38 gw automount[7]: lookup for foo failed\n"
                    "Nov  3 09:23:39 gw app[9]: error reading /etc/app.conf\n"
                    "Nov  3 09:23:40 gw sudo: session opened\n")
    frame = load([path])
    assert frame["severity"].isna().all()  # no level is invented from "failed" or "error"
    result = Engine(RulesPlanner()).ask("how many error lines?", frame=frame)
    assert result.value == 1  # the line that says "error", found by a search of the text
    assert "record no severities" in result.answer and "containing error" in result.answer
