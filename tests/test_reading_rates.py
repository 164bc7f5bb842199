"""Rates read from questions: a statistic of the lines counted per time bucket ("average number of errors per hour",
"peak requests per minute", "max failed logins in any hour"), with typos and dates in words read as for counts;
a statistic of a field per hour stays one value per hour."""

from __future__ import annotations

import functools

import pytest
from question_frames import frame

from react_engine.question import Vocabulary
from react_engine.question.measures import Rate, Statistic
from react_engine.question.query import LevelFilter, TextFilter, TimeFilter
from react_engine.question.reading.read import read_question
from react_engine.question.reading.readout import Reading

NOW = "2026-11-20T09:00:00+00:00"
COLUMNS = ["timestamp", "severity", "level_raw", "component", "latency_ms", "message"]


@functools.cache
def _vocabulary() -> Vocabulary:
    messages = [f"Failed password for root from 10.0.0.{i} port 22 ssh2" for i in range(20)]
    messages += [f"request took {i} ms" for i in range(20)]
    n = len(messages)
    return Vocabulary.build(frame(messages, severity=(["info", "error"] * n)[:n], level_raw=(["INFO", "ERROR"] * n)[:n],
                                  component=(["sshd", "api"] * n)[:n], latency_ms=list(range(n))))


def read(question: str) -> Reading:
    return read_question(question, COLUMNS, NOW, _vocabulary(), True)


@pytest.mark.parametrize(("question", "rate"), [
    ("what is the average number of errors per hour?", Rate(func="mean", per="1h", noun="errors")),
    ("avrage nubmer of erors per hour", Rate(func="mean", per="1h", noun="errors")),
    ("how many errors per second on average", Rate(func="mean", per="1s", noun="errors")),
    ("peak errors per minute", Rate(func="max", per="1m", noun="errors")),
    ("what's the max number of errors in any hour?", Rate(func="max", per="1h", noun="errors")),
    ("median errors a day", Rate(func="median", per="1d", noun="errors")),
    ("p95 of errors per minute", Rate(func="percentile", q=95, per="1m", noun="errors")),
])
def test_a_statistic_of_lines_per_bucket_is_a_rate(question: str, rate: Rate) -> None:
    reading = read(question)
    assert reading.query is not None and reading.query.measure == rate, question
    assert [f.levels for f in reading.query.filters if isinstance(f, LevelFilter)] == [("error",)]
    assert not reading.query.unread and not reading.interpretation.ignored


def test_the_searched_lines_are_counted_and_named() -> None:
    reading = read("average failed passwords per hour")
    assert reading.query is not None and reading.query.measure == Rate(func="mean", per="1h", noun="failed passwords")
    assert [f.value for f in reading.query.filters if isinstance(f, TextFilter)] == ["Failed password"]


def test_a_day_in_words_narrows_the_lines_a_rate_counts() -> None:
    reading = read("average number of errors per hour on November 19th?")
    assert reading.query is not None and isinstance(reading.query.measure, Rate)
    (window,) = [f for f in reading.query.filters if isinstance(f, TimeFilter)]
    assert window.start.startswith("2026-11-19")


def test_a_rate_per_key_groups_by_the_key_and_counts_per_bucket() -> None:
    reading = read("average errors per hour per component")
    assert reading.query is not None and isinstance(reading.query.measure, Rate)
    assert (reading.query.grouping.keys, reading.query.grouping.bucket) == (("component",), None)


@pytest.mark.parametrize("question", ["average latency_ms per hour", "p95 of latency_ms per minute",
                                      "average request time per hour", "errors per hour"])
def test_a_field_per_hour_or_lines_per_hour_is_no_rate(question: str) -> None:
    reading = read(question)
    assert reading.query is not None and not isinstance(reading.query.measure, Rate), question
    if "latency" in question:
        assert isinstance(reading.query.measure, Statistic) and reading.query.grouping.bucket is not None
