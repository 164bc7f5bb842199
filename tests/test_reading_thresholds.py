"""Numeric thresholds read into the typed query ("took longer than 1 second", "latency_ms > 500", "with status >=
500", "more than 1000 bytes sent"), and answered end to end on sample_logs/app against pandas over the JSON lines:
counted, as a share, as a statistic and ranked; a threshold no field can take is no answer, and says why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import real_log

from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.question import Vocabulary
from react_engine.question.measures import Count, Share, Statistic
from react_engine.question.query import FieldFilter, LevelFilter
from react_engine.question.reading.read import read_question

APP = Path(__file__).resolve().parents[1] / "sample_logs" / "app" / "app.jsonl"
COLUMNS = ["timestamp", "severity", "level_raw", "component", "message", "user", "latency_ms", "status", "bytes"]
VOCABULARY = Vocabulary()


def thresholds(question: str) -> list[tuple[str, str, str]]:
    reading = read_question(question, COLUMNS, "2026-11-20T09:00:00+00:00", VOCABULARY, True)
    assert reading.query is not None, reading.problem
    return [(f.field, f.op, str(f.value)) for f in reading.query.filters
            if isinstance(f, FieldFilter) and f.op in ("gt", "ge", "lt", "le")]


READ = """\
how many requests took longer than 1 second | duration gt 1 second
how many lines with latency over 500 ms | latency gt 500 ms
how many lines with latency_ms > 500 | latency_ms gt 500
how many lines with status >= 500 | status ge 500
how many responses bigger than 1 MB | bytes gt 1 MB
how many requests faster than 100ms | duration lt 100 ms
how many requests under 50 ms | duration lt 50 ms
how many requests took at least 2 s | duration ge 2 s
how many connections with more than 1,000 bytes sent | bytes sent gt 1000 bytes
how many requests took 500 ms or more | duration ge 500 ms
how many requests took no more than a second | duration le 1 second
how many requests takes longr than 1.5 seconds | duration gt 1.5 seconds
requests > 1s | duration gt 1 s
len>2000 | len gt 2000
"""  # question | field op value (the field may be two words)


@pytest.mark.parametrize("case", READ.splitlines())
def test_a_threshold_is_read_as_a_numeric_field_filter(case: str) -> None:
    question, expected = case.split(" | ")
    *field, op, number, unit = expected.split() if len(expected.split()) > 3 else [*expected.split(), ""]
    assert thresholds(question) == [(" ".join(field), op, f"{number} {unit}".strip())]


@pytest.mark.parametrize("question", ["how many users have more than 5 errors", "errors over the last hour",
                                      "errors per hour sorted by count", "how many lines from 10.0.0.1"])
def test_a_comparison_without_a_field_or_a_unit_is_no_threshold(question: str) -> None:
    assert thresholds(question) == []


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["longer than", "over", "more than", "above", "at least", "under", "below", "at most"]),
       st.integers(1, 5000), st.sampled_from(["ms", "s", "seconds", "milliseconds", "min"]))
def test_every_comparison_word_and_unit_reads_the_number_as_written(words: str, number: int, unit: str) -> None:
    op = {"longer than": "gt", "over": "gt", "more than": "gt", "above": "gt", "at least": "ge", "under": "lt",
          "below": "lt", "at most": "le"}[words]
    assert thresholds(f"how many requests took {words} {number} {unit}") == [("duration", op, f"{number} {unit}")]


def test_the_threshold_goes_last_so_a_share_is_of_the_lines_before_it() -> None:
    reading = read_question("what percent of errors took over 500 ms", COLUMNS, None, VOCABULARY, True)
    assert reading.query is not None and isinstance(reading.query.measure, Share)
    assert [type(f) for f in reading.query.filters] == [LevelFilter, FieldFilter]


def _ask(question: str) -> tuple[str, object, bool, bool]:
    result = Engine(RulesPlanner()).ask(question, [str(APP)])
    return result.answer, result.value, result.verified, result.partial


def _latency() -> pd.DataFrame:
    return pd.DataFrame([json.loads(line) for line in APP.read_text().splitlines() if line.strip()])


def test_a_threshold_composes_with_a_count_a_share_a_statistic_and_a_ranking() -> None:
    app = _latency()
    slow, over = app[app["latency_ms"] > 1000], app[app["latency_ms"] > 500]
    answer, value, verified, _ = _ask("how many requests took longer than 1 second")
    assert verified and value == len(slow) and "longer than 1 second" in answer
    answer, value, verified, _ = _ask("what percent of requests took over 500 ms")
    assert verified and value == pytest.approx(100 * len(over) / len(app), abs=1e-4)
    assert f"{len(over):,} of {len(app):,}" in answer
    errors = app[app["level"] == "ERROR"]
    slow_errors = errors[errors["latency_ms"] > 500]
    answer, value, verified, _ = _ask("what percent of errors took over 500 ms")  # of the errors, not of all lines
    assert verified and value == pytest.approx(100 * len(slow_errors) / len(errors), abs=1e-4)
    assert f"{len(slow_errors):,} of {len(errors):,}" in answer
    _, value, verified, _ = _ask("average latency of requests over 500ms")
    assert verified and value == pytest.approx(over["latency_ms"].mean(), abs=0.01)
    answer, _, verified, _ = _ask("which user has the most requests slower than 1s")
    top = slow["user"].value_counts()
    assert verified and answer.startswith(f"{top.index[0]} has the most, with {top.iloc[0]} lines")


def test_a_threshold_no_field_can_take_is_no_answer_and_says_why_first() -> None:
    answer, value, verified, _ = _ask("how many responses bigger than 1 MB")  # the app log holds no sizes
    assert not verified and value is None and answer.startswith("I could not answer this")
    assert 'no numbers in a unit of size for "bytes"' in answer and "latency_ms (ms)" in answer


@pytest.mark.parametrize(("question", "measure"), [
    ("how many responses bigger than 1 MB", Count), ("how many requests took no more than 40 ms", Count),
    ("what percent of requests took over 500 ms", Share), ("average latency of requests over 500ms", Statistic)])
def test_a_thresholds_words_ask_for_no_comparison_and_name_no_shares_base(question: str, measure: type) -> None:
    reading = read_question(question, COLUMNS, None, VOCABULARY, True)
    assert reading.query is not None and type(reading.query.measure) is measure
    assert not isinstance(reading.query.measure, Share) or not reading.query.measure.base


@pytest.mark.parametrize(("words", "op", "limit_mb"), [("over 90000 MB", "gt", 90000), ("under 90 GB", "lt", 90 * 1024),
                                                      ("at least 95746 MB", "ge", 95746)])
def test_a_field_the_messages_carry_named_before_a_threshold_with_a_unit_is_that_field(
        words: str, op: str, limit_mb: float) -> None:
    """"where free is over 90000 MB": the `free: 95746.00 MB` OpenStack writes, not any field in bytes."""
    log = real_log("OpenStack")
    result = Engine(RulesPlanner()).ask(f"how many lines where free is {words}?", [str(log)])
    free = pd.Series([float(m) for m in re.findall(r"\bfree: ([\d.]+) MB", log.read_text())])
    compared = {"gt": free > limit_mb, "lt": free < limit_mb, "ge": free >= limit_mb}[op]
    assert result.value == int(compared.sum()) and result.verified, result.answer
