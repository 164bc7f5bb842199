"""A file whose lines are not in time order: "first" is said to be the earliest time, and the first line in file
order is named beside it; a count of levels the format's rule inferred says so."""

from __future__ import annotations

from itertools import pairwise

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import frame as question_frame
from tool_frames import context, frame, run

from react_engine.answer.timing import time_answer
from react_engine.contract.planner import HistoryItem
from react_engine.question import Vocabulary
from react_engine.question.measures import Occurrence, Span
from react_engine.question.query import LevelFilter
from react_engine.question.reading.read import read_question

BASE = pd.Timestamp("2026-11-20T10:00:00Z")


def _frame(minutes: list[int]) -> pd.DataFrame:
    return frame([{"message": f"m{i}", "timestamp": BASE + pd.Timedelta(minutes=m)} for i, m in enumerate(minutes)])


def test_time_span_says_where_a_file_goes_back_in_time() -> None:
    value = run("time_span", context(_frame([30, 10, 20, 40]))).value.recorded()
    assert value["first"]["line"] == 2  # the earliest time
    assert value["out_of_order"]["lines_back"] == 1
    assert value["out_of_order"]["first_line"]["line"] == 1
    assert value["out_of_order"]["first_line"]["time"] == (BASE + pd.Timedelta(minutes=30)).isoformat()
    assert "out_of_order" not in run("time_span", context(_frame([1, 2, 2, 3]))).value.recorded()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=25))
def test_lines_back_counts_every_step_back(minutes: list[int]) -> None:
    value = run("time_span", context(_frame(minutes))).value.recorded()
    back = sum(later < earlier for earlier, later in pairwise(minutes))
    assert value.get("out_of_order", {}).get("lines_back", 0) == back


def test_files_are_each_in_order_even_when_the_second_starts_earlier() -> None:
    df = _frame([30, 40, 10, 20])
    df["source"] = pd.Series(["a.log", "a.log", "b.log", "b.log"], index=df.index, dtype=df["source"].dtype)
    assert "out_of_order" not in run("time_span", context(df)).value.recorded()


def _answer(minutes: list[int], measure: Occurrence | Span) -> str:
    result = run("time_span", context(_frame(minutes)))
    history = [HistoryItem(iteration=1, action="time_span", value=result.value.recorded(), result=result.value,
                           summary=result.summary)]
    answer = time_answer(measure, history, "")
    assert answer is not None
    return answer[0]


def test_the_answer_names_the_earliest_and_the_first_line_when_out_of_order() -> None:
    text = _answer([30, 10, 20], Occurrence(which="first"))
    assert text.startswith("The earliest of the 3 lines is at ") and "test.log:2" in text
    assert "out of order" in text and "first line in file order (test.log:1)" in text
    plain = _answer([10, 20, 30], Occurrence(which="first"))
    assert plain.startswith("The first of the 3 lines") and "out of order" not in plain
    assert "out of order" in _answer([30, 10, 20], Span())


def test_a_level_filter_says_when_the_formats_rule_inferred_severities() -> None:
    columns = ["timestamp", "severity", "level_raw", "message"]
    messages = [f"GET /page/{i}" for i in range(6)]
    inferred = question_frame(messages, severity=["info", "error", "warning"] * 2, level_raw=[None] * 6)
    inferred["severity_rule"] = ["", "HTTP status", "HTTP status"] * 2
    inferred["severity_rule"] = inferred["severity_rule"].replace("", None)
    written = question_frame(messages, severity=["info", "error", "warning"] * 2, level_raw=["I", "E", "W"] * 2)
    for frame_, said in ((inferred, True), (written, False)):
        reading = read_question("how many errors?", columns, "2026-11-20T09:00:00+00:00", Vocabulary.build(frame_),
                                True)
        assert reading.query is not None
        level = next(f for f in reading.query.filters if isinstance(f, LevelFilter))
        assert level.levels == ("error",)
        assert ("inferred by the format's rule" in level.words) is said
