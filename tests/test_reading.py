"""Question -> `Query`, without the rules planner: the readers put typed filters and a measure into the query, and
any question gives a query or a stated problem."""

from __future__ import annotations

import functools

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import frame

from react_engine.question import Vocabulary
from react_engine.question.measures import (
    Comparison,
    Count,
    Distinct,
    Histogram,
    Listing,
    Occurrence,
    Rate,
    Share,
    Statistic,
    Top,
)
from react_engine.question.query import FieldFilter, LevelFilter, TextFilter, TimeFilter
from react_engine.question.reading.read import read_question
from react_engine.question.reading.readout import Reading

NOW = "2026-11-20T09:00:00+00:00"
COLUMNS = ["timestamp", "severity", "level_raw", "host", "component", "message"]


@functools.cache
def _vocabulary() -> Vocabulary:
    messages = [f"session opened for user {u} from 10.0.0.{i % 4}" for i, u in enumerate(["root", "alice"] * 20)]
    messages += [f"Connection refused by backend {i}" for i in range(20)]
    n = len(messages)
    f = frame(messages, severity=(["info", "error"] * n)[:n], level_raw=(["INFO", "ERROR"] * n)[:n],
              host=(["web01", "web02", "db01"] * n)[:n], component=(["sshd", "nginx"] * n)[:n])
    return Vocabulary.build(f)


def read(question: str, uses_severity: bool = True) -> Reading:
    return read_question(question, COLUMNS, NOW, _vocabulary(), uses_severity)


def test_names_levels_times_and_quotes_become_typed_filters_in_the_question_order_of_kinds() -> None:
    reading = read("how many ERROR lines on host web01 containing 'Connection refused' in the last hour?")
    assert reading.problem is None and reading.query is not None
    filters = reading.query.filters
    assert [type(f) for f in filters] == [FieldFilter, TimeFilter, TextFilter, LevelFilter]
    host, window, text, level = filters
    assert (host.field, host.value) == ("host", "web01")
    assert (window.start, window.end) == ("now-1h", "now")
    assert text.value == "Connection refused" and not text.regex
    assert level.levels == ("error",)
    assert isinstance(reading.query.measure, Count)


def test_a_level_read_as_words_when_the_rows_have_no_levels() -> None:
    reading = read("how many errors?", uses_severity=False)
    assert reading.query is not None
    assert [type(f) for f in reading.query.filters] == [TextFilter]


def test_negated_words_become_one_excluding_filter() -> None:
    reading = read("how many lines other than 'Connection refused'?")
    assert reading.query is not None
    (left_out,) = reading.query.filters
    assert isinstance(left_out, TextFilter) and left_out.exclude and left_out.words.startswith("not ")
    assert reading.interpretation.excluded


def test_the_goal_gives_the_measure() -> None:
    def measure(question: str) -> type:
        reading = read(question)
        assert reading.query is not None, reading.problem
        return type(reading.query.measure)

    assert measure("how many unique users?") is Distinct
    assert measure("top 3 hosts") is Top
    assert measure("errors per hour") is Histogram
    assert measure("show the error lines") is Listing


def test_a_counted_word_no_row_holds_is_searched_as_an_honest_zero_and_another_is_ignored() -> None:
    counted = read("how many zyxwv?")
    assert counted.query is not None and counted.absent == (r"\bzyxwv",)
    assert [f.value for f in counted.query.filters if isinstance(f, TextFilter)] == [r"\bzyxwv"]
    ranked = read("which host logged the most errors zyxwv")
    assert ranked.query is not None and "zyxwv" in ranked.interpretation.ignored
    assert not any(isinstance(f, TextFilter) for f in ranked.query.filters)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["how many", "which", "top 3", "unique", "errors", "users", "host", "web01", "not",
                                 "other than", "'refused'", "per hour", "today", "average", "latest", "sessions",
                                 "from", "by", "lines", "zyxwv", "?", "%", "10.0.0.1"]), max_size=8).map(" ".join))
def test_any_question_reads_into_a_query_or_a_stated_problem(question: str) -> None:
    reading = read(question)
    assert reading.problem is not None or (reading.query is not None and reading.measured is not None)
    assert reading.interpretation.problem == reading.problem
    window = reading.interpretation.time_window
    if window is not None and window.end != "now":
        assert pd.Timestamp(window.start) <= pd.Timestamp(window.end)


@functools.cache
def _events() -> Vocabulary:
    messages = [f"synchronized to 10.0.0.{i}, stratum 3" for i in range(30)] + ["clock synchronization lost"]
    messages += [f"Invalid user u{i} from 10.0.1.{i}" for i in range(10)] + ["Can't find child 42 in scoreboard"] * 5
    messages += ["thermal pressure state: 1 polling"] * 4 + [f"Deleting block blk_{i} file /d/{i}" for i in range(6)]
    messages += [f"1{i}4 bytes sent, 3 bytes received, lifetime 00:0{i}" for i in range(5)]
    n = len(messages)
    return Vocabulary.build(frame(messages, severity=(["info", "warning"] * n)[:n], level_raw=(["INFO", "WARN"] * n)[:n],
                                  host=["h1"] * n, component=["ntpd"] * n))


def read_events(question: str) -> Reading:
    return read_question(question, COLUMNS, NOW, _events(), True)


def test_an_event_noun_the_rows_write_as_a_verb_is_searched_by_its_stem() -> None:
    reading = read_events("when was the first synchronizations?")
    assert reading.query is not None and isinstance(reading.query.measure, Occurrence)
    (found,) = reading.query.filters
    assert isinstance(found, TextFilter) and found.value == r"\bsynchroniz"


def test_a_single_quoted_phrase_may_hold_an_apostrophe() -> None:
    reading = read_events("share of 'Can't find child' messages?")
    assert reading.query is not None and isinstance(reading.query.measure, Share)
    assert [f.value for f in reading.query.filters if isinstance(f, TextFilter)] == ["Can't find child"]


def test_an_entity_word_before_a_noun_of_lines_asks_about_the_lines() -> None:
    for question in ("when was the last invalid user attempts?", "list the 3 most recent invalid user attempts"):
        reading = read_events(question)
        assert reading.problem is None and reading.query is not None, question
        assert isinstance(reading.query.measure, (Occurrence, Listing)), question
        assert getattr(reading.query.measure, "key", None) is None, question
        assert reading.query.filters, question


def test_the_sides_of_a_comparison_are_read_apart_into_one_filter_each() -> None:
    reading = read_events("WARN lines versus 'Can't find child' lines")
    assert reading.query is not None and isinstance(reading.query.measure, Comparison)
    assert reading.query.sides is not None
    level, text = reading.query.sides
    assert isinstance(level, LevelFilter) and isinstance(text, TextFilter) and text.value == "Can't find child"
    joined = read_events("synchronizations vs thermal pressure lines").query
    assert joined is not None and joined.sides is not None and joined.sides[1].value == r"(?:\bthermal).*(?:\bpressure)"


def test_a_side_that_names_no_day_takes_the_other_sides_and_before_after_splits_the_day() -> None:
    windows = read_events("warnings between 09:00 and 10:00 on Nov 19 vs between 10:00 and 11:00 that day").query
    assert windows is not None and windows.sides is not None
    assert [(w.start[:13], w.end[:13]) for w in windows.sides] == [  # type: ignore[union-attr]
        ("2026-11-19T09", "2026-11-19T10"), ("2026-11-19T10", "2026-11-19T11")]
    assert [type(f) for f in windows.filters] == [LevelFilter]
    split = read_events("warnings before vs after 12:00 on Nov 19").query
    assert split is not None and split.sides is not None
    assert [(w.start[:16], w.end[:16]) for w in split.sides] == [  # type: ignore[union-attr]
        ("2026-11-19T00:00", "2026-11-19T12:00"), ("2026-11-19T12:00", "2026-11-19T23:59")]


def test_a_window_against_the_one_before_it() -> None:
    def sides(question: str) -> list[tuple[str, str]]:
        query = read_events(question).query
        assert query is not None and query.sides is not None, question
        assert [type(f) for f in query.filters] == [LevelFilter], question  # the level applies to both sides
        return [(w.start, w.end) for w in query.sides]  # type: ignore[union-attr]

    this_hour = ("2026-11-20T09:00:00.000000", "now")
    assert sides("errors this hour vs the previous hour") == [this_hour, ("2026-11-20T08:00:00", this_hour[0])]
    assert sides("are there more errors this hour than last hour") == [this_hour, ("2026-11-20T08:00:00", this_hour[0])]
    assert sides("errors in the last hour compared to the hour before") == [("now-1h", "now"), ("now-2h", "now-1h")]
    assert sides("warnings in the last 30 minutes vs the 30 minutes before") == [("now-30m", "now"),
                                                                                  ("now-1h", "now-30m")]
    assert sides("errors today vs the day before") == [("2026-11-20T00:00:00", "now"),
                                                       ("2026-11-19T00:00:00", "2026-11-20T00:00:00")]


def test_words_before_a_bare_asking_tail_are_what_is_asked_about() -> None:
    reading = read_events("lst synchronizations - what time?")
    assert reading.query is not None and isinstance(reading.query.measure, Occurrence)
    assert reading.query.measure.which == "last" and reading.query.filters


def test_statistic_wordings_read_as_statistics() -> None:
    most = read_events("most bytes sent?").query
    assert most is not None and isinstance(most.measure, Statistic) and most.measure.func == "max"
    each = read_events("average bytes sent per connection?")
    assert each.problem is None and each.query is not None and isinstance(each.query.measure, Statistic)
    assert each.query.filters == ()  # "per connection" is per line, no search for connections
    lifetime = read_events("longest connection lifetime?")
    assert lifetime.problem is None and lifetime.query is not None and lifetime.query.filters == ()
    assert lifetime.query.measure == Statistic(func="max", field="connection lifetime")
    took = read_events("how long did synchronizations take on average?").query
    assert took is not None and isinstance(took.measure, Statistic) and took.measure.func == "mean"


def test_the_last_n_of_an_event_named_after_an_entity_are_lines() -> None:
    reading = read_events("show the last 3 block deletions")
    assert reading.query is not None and isinstance(reading.query.measure, Listing)
    assert reading.query.measure.key is None and reading.query.limit == 3


def test_an_average_number_of_lines_per_hour_is_a_rate_of_the_lines_searched() -> None:
    reading = read_events("average number of synchronizations per hour?")
    assert reading.query is not None
    assert reading.query.measure == Rate(func="mean", per="1h", noun="synchronizations")
    assert [f.value for f in reading.query.filters if isinstance(f, TextFilter)] == [r"\bsynchroniz"]


def test_newest_or_oldest_first_is_the_order_lines_are_shown_in() -> None:
    for question, order, limit in (("last 3 errors, newest first", "newest", 3), ("errors, oldest first", "oldest", None),
                                   ("show the errors most recent first", "newest", None)):
        reading = read(question)
        assert reading.query is not None and isinstance(reading.query.measure, Listing), question
        assert (reading.query.order, reading.query.limit) == (order, limit), question
        assert not reading.interpretation.ignored, question


def test_a_statistic_per_key_or_time_is_grouped_by_them() -> None:
    def grouping(question: str) -> tuple[tuple[str, ...], str | None]:
        reading = read(question)
        assert reading.query is not None and isinstance(reading.query.measure, Statistic), question
        return reading.query.grouping.keys, reading.query.grouping.bucket

    assert grouping("average latency_ms per host") == (("host",), None)
    assert grouping("p95 of latency_ms per hour") == ((), "1h")
    assert grouping("mean latency_ms by host and component") == (("host", "component"), None)
    assert grouping("max latency_ms per host per hour") == (("host",), "1h")
    assert grouping("average latency_ms") == ((), None)


def test_the_busiest_or_quietest_buckets_and_buckets_sorted_by_count() -> None:
    for question, expected in [
            ("which 3 hours had the most errors", Histogram(interval="1h", peak=True, order="desc", n=3)),
            ("top 5 minutes by request count", Histogram(interval="1m", peak=True, order="desc", n=5)),
            ("the 2 busiest days", Histogram(interval="1d", peak=True, order="desc", n=2)),
            ("which hour had the fewest errors", Histogram(interval="1h", peak=True, order="asc", n=1)),
            ("quietest minute", Histogram(interval="1m", peak=True, order="asc", n=1)),
            ("busiest hour", Histogram(interval="1h", peak=True, order="desc", n=1)),
            ("errors per hour sorted by count", Histogram(interval="1h", order="desc")),
            ("hourly errors, lowest first", Histogram(interval="1h", order="asc")),
            ("errors per minute", Histogram(interval="1m"))]:
        reading = read(question)
        assert reading.query is not None and reading.query.measure == expected, question
        assert not reading.query.unread, question
