"""Wordings new users type, read against a log's own words: a noun phrase ended by an irregular past tense ("stages
ran tasks"), a terse ranking from the fewest ("rarest level?"), a statistic "in one connection" (one line's value)
and "the longest stretch without" an event (the gaps between its lines)."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import frame

from react_engine.question import Vocabulary
from react_engine.question.measures import Distinct, Gaps, Statistic, Top
from react_engine.question.query import LevelFilter, TextFilter
from react_engine.question.reading.nouns import _noun_phrase
from react_engine.question.reading.read import read_question
from react_engine.question.reading.readout import Reading

NOW = "2026-11-20T09:00:00+00:00"
COLUMNS = ["timestamp", "severity", "level_raw", "host", "component", "message"]
IRREGULAR = ["ran", "runs", "took", "saw", "went", "wrote", "gave", "began"]


@functools.cache
def _vocabulary() -> Vocabulary:
    messages = [f"Running task {i}.0 in stage {i % 3}.0 (TID {100 + i})" for i in range(30)]
    messages += [f"Could not connect to proxy p{i}:5070 - connection attempt failed" for i in range(10)]
    messages += [f"p{i}:443 close, {100 * i} bytes sent, 3 bytes received, lifetime 00:0{i % 10}" for i in range(20)]
    n = len(messages)
    return Vocabulary.build(frame(messages, severity=(["info", "info", "error"] * n)[:n],
                                  level_raw=(["INFO", "INFO", "ERROR"] * n)[:n], host=(["h1", "h2"] * n)[:n],
                                  component=(["executor"] * (n - 1) + ["driver"])))


def read(question: str) -> Reading:
    return read_question(question, COLUMNS, NOW, _vocabulary(), True)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["stages", "partitions", "widget kinds", "executors"]), st.sampled_from(IRREGULAR),
       st.sampled_from(["tasks", "jobs", "over", "the most"]))
def test_an_irregular_past_tense_ends_the_noun_phrase(noun: str, verb: str, rest: str) -> None:
    assert _noun_phrase(f"{noun} {verb} {rest}", None) == noun.split()


def test_distinct_values_of_the_noun_before_a_verb_not_of_its_object() -> None:
    reading = read("how many distinct stages ran tasks?")
    assert reading.query is not None and isinstance(reading.query.measure, Distinct)
    assert "stage" in reading.query.measure.key.shown() and "task" not in reading.query.measure.key.shown()


def test_a_terse_superlative_of_the_fewest_ranks_from_the_fewest() -> None:
    for question in ("rarest level?", "least common host?", "the least frequent components"):
        reading = read(question)
        assert reading.query is not None and isinstance(reading.query.measure, Top), question
        assert reading.query.measure.least, question
    count = read("least errors?")  # names no values to rank: not read as a ranking
    assert count.query is None or not isinstance(count.query.measure, Top)


def test_a_statistic_in_one_connection_is_one_lines_value_with_no_search() -> None:
    for question in ("largest bytes sent in one connection?", "max bytes sent in a single connection"):
        reading = read(question)
        assert reading.problem is None and reading.query is not None, question
        assert isinstance(reading.query.measure, Statistic) and reading.query.measure.func == "max"
        assert not any(isinstance(f, TextFilter) for f in reading.query.filters), question


def test_the_longest_stretch_without_an_event_is_the_gaps_between_its_lines() -> None:
    reading = read("longest stretch without an ERROR?")
    assert reading.query is not None and isinstance(reading.query.measure, Gaps)
    (level,) = reading.query.filters
    assert isinstance(level, LevelFilter) and level.levels == ("error",)
    kept = read("how many lines without an ERROR?")  # elsewhere "without" still leaves the lines out
    assert kept.query is not None and not isinstance(kept.query.measure, Gaps)
    assert any(getattr(f, "exclude", False) or isinstance(f, LevelFilter) for f in kept.query.filters)
