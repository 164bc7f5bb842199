"""Query -> tool calls, tested apart from reading questions: every call is valid for its tool, filters come first in
order, values are found before what is left out of them, and measures without tools compile to `Cannot`."""

from __future__ import annotations

import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from react_engine.compile import Call, Cannot, compile_query
from react_engine.compile.narrowing import compile_filter
from react_engine.question import measures
from react_engine.question.measures import (
    Comparison,
    Count,
    Distinct,
    Duration,
    Gaps,
    Histogram,
    Key,
    Listing,
    Never,
    Occurrence,
    Ordered,
    Patterns,
    Pivot,
    Preceding,
    Rate,
    Share,
    Span,
    Statistic,
    Timeline,
    Top,
    Unusual,
)
from react_engine.question.query import FieldFilter, LevelFilter, Query, TextFilter, TimeFilter
from react_engine.tools import REGISTRY

WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=20)
FILTERS = st.one_of(
    st.builds(TextFilter, value=WORDS, regex=st.booleans(), case_sensitive=st.booleans(), exclude=st.booleans(),
              words=WORDS),
    st.builds(LevelFilter, levels=st.lists(st.sampled_from(["error", "WARN", "critical"]), max_size=2).map(tuple),
              min_level=st.sampled_from([None, "error"]), exclude=st.booleans(), words=WORDS),
    st.builds(FieldFilter, field=st.sampled_from(["host", "status", "ip"]), value=st.one_of(WORDS, st.integers()),
              op=st.sampled_from(["eq", "ne", "regex"]), exclude=st.booleans(), words=WORDS),
    st.builds(TimeFilter, start=st.sampled_from(["now-1h", "2026-11-20T10:00"]), end=st.just("now"),
              exclude=st.booleans(), words=WORDS),
)
UNSERVED = [Comparison(left="today", right="yesterday"),  # which today? (no time window)
            Preceding()]  # the lines before what? (no text filter)
TIMED = [(Occurrence(which="last"), ["time_span"]), (Span(), ["time_span"]), (Gaps(), ["time_span", "gaps"]),
         (Duration(start="started", end="finished", key="pid"), ["durations"]),
         (Statistic(func="percentile", field="request time", q=95), ["field_stats"]), (Share(), ["share"]),
         (Pivot(rows="host", columns="hour"), ["field_stats"]),
         (Rate(func="max", per="1m", noun="errors"), ["field_stats"]),  # and the measures of numbers
         (Statistic(func="min", field="size", spread=True), ["field_stats", "field_stats"]),  # the min and the max
         (Ordered(key=Key(name="host"), which="newest", n=2), ["ordered_values"]),  # values in time order
         (Never(key=Key(name="host"), never="FATAL"), ["never_seen"])]  # values another event's lines never hold
INVESTIGATED = [Patterns(), Unusual(), Unusual(since="now-1h"), Timeline(value="guest"), Preceding(lines=3)]


@pytest.mark.parametrize(("measure", "tools"), TIMED, ids=lambda m: getattr(m, "kind", ""))
def test_time_measures_compile_to_the_time_tools(measure: measures.Measure, tools: list[str]) -> None:
    compiled = compile_query(Query(filters=(TextFilter(value="error"),), measure=measure))
    assert isinstance(compiled, list) and [c.action for c in compiled] == ["search_logs", *tools]
    for c in compiled:
        valid(c)
    assert set(measure.needs) <= {c.action for c in compiled}


def test_a_duration_without_its_start_and_end_compiles_to_a_stated_cannot() -> None:
    assert isinstance(compile_query(Query(measure=Duration(start="", end=""))), Cannot)


@pytest.mark.parametrize("measure", INVESTIGATED, ids=lambda m: m.kind)
def test_investigations_compile_to_their_tools(measure: measures.Measure) -> None:
    compiled = compile_query(Query(filters=(TextFilter(value="Got exception"),), measure=measure))
    assert not isinstance(compiled, Cannot)
    for c in compiled:
        valid(c)
    assert set(measure.needs) & {c.action for c in compiled}


def valid(c: Call) -> None:
    REGISTRY[c.action].params.model_validate(c.params)


@given(st.lists(FILTERS, max_size=4))
def test_filters_compile_in_order_to_valid_narrowing_calls(filters: list) -> None:
    calls = compile_query(Query(filters=tuple(filters)))
    assert isinstance(calls, list)
    assert [c.action for c in calls[:-1]] == [
        {"text": "search_logs", "level": "filter_by_severity", "field": "filter_by_field",
         "time": "filter_by_time"}[f.kind] for f in filters]
    assert calls[-1].action == "get_log_count"
    for f, c in zip(filters, calls):
        valid(c)
        assert REGISTRY[c.action].narrows
        assert bool(c.params.get("exclude")) == f.exclude
        sent = REGISTRY[c.action].params.model_validate(c.params)
        said = f.model_dump(exclude={"kind", "words", "exclude"})
        assert {k: getattr(sent, k) for k in said} == {  # compiling loses nothing a filter says
            k: list(v) if isinstance(v, tuple) else v for k, v in said.items()}


def test_only_the_parameters_given_are_sent() -> None:
    assert compile_filter(TextFilter(value="timeout")).params == {"value": "timeout"}
    assert compile_filter(FieldFilter(field="status", value=404, op="ne")).params == \
        {"field": "status", "value": 404, "op": "ne"}
    assert compile_filter(LevelFilter(levels=("error",), exclude=True)).params == {"levels": ["error"], "exclude": True}


@pytest.mark.parametrize(("measure", "actions"), [
    (Count(), ["get_log_count"]),
    (Histogram(interval="1d"), ["count_by_time"]),
    (Listing(limit=3), ["show_logs"]),
    (Distinct(key=Key(name="ip", label="IP addresses", extract=True)), ["extract_entities", "count_entities"]),
    (Distinct(key=Key(name="host", label="hosts")), ["count_entities"]),
    (Top(key=Key(name="block", pattern=r"(blk_-?\d+)"), n=3), ["extract_entities", "top_values"]),
    (Listing(key=Key(name="user", extract=True), limit=4), ["extract_entities", "count_entities", "top_values"]),
])
def test_measures_with_tools_compile_to_valid_calls(measure: measures.Measure, actions: list[str]) -> None:
    calls = compile_query(Query(filters=(TextFilter(value="x"),), measure=measure,
                                left_out=(FieldFilter(field="host", value="a", op="ne"),)))
    assert isinstance(calls, list)
    assert calls[0].action == "search_logs"
    body = [c.action for c in calls[1:] if c.action != "filter_by_field"]
    assert body == actions
    left = [i for i, c in enumerate(calls) if c.action == "filter_by_field"]
    found = [i for i, c in enumerate(calls) if c.action == "extract_entities"]
    assert left and all(f < left[0] for f in found)  # the values are found before some are left out
    for c in calls:
        valid(c)


def test_the_limit_and_the_interval_reach_the_calls() -> None:
    calls = compile_query(Query(measure=Listing(limit=7)))
    assert isinstance(calls, list) and calls[-1].params == {"n": 7}
    calls = compile_query(Query(measure=Listing(order="newest", limit=1)))
    assert isinstance(calls, list) and calls[-1].params == {"n": 1, "order": "newest"}
    calls = compile_query(Query(measure=Histogram(interval="1m")))
    assert isinstance(calls, list) and calls[-1].params == {"interval": "1m"}
    calls = compile_query(Query(measure=Histogram(interval="1h", peak=True, order="asc")))
    assert isinstance(calls, list) and calls[-1].params == {"interval": "1h", "order": "asc"}
    calls = compile_query(Query(measure=Top(key=Key(name="host"), n=80)))
    assert isinstance(calls, list)
    valid(calls[-1])
    calls = compile_query(Query(measure=Top(key=Key(name="host"), n=3, least=True)))
    assert isinstance(calls, list) and calls[-1].params == {"field": "host", "n": 3, "order": "asc"}


@pytest.mark.parametrize("measure", UNSERVED, ids=lambda m: m.kind)
def test_measures_without_tools_compile_to_a_stated_cannot(measure: measures.Measure) -> None:
    compiled = compile_query(Query(measure=measure))
    assert isinstance(compiled, Cannot)
    assert compiled.sentence() == f"I cannot compute {measure.asked()} yet"


def _compared(filters: tuple, left: str, right: str) -> list[Call] | Cannot:
    return compile_query(Query(filters=filters, measure=Comparison(left=left, right=right)))


@pytest.mark.parametrize(("filters", "left", "right", "by", "a", "b"), [
    ((LevelFilter(levels=("error", "warning")),), "warnings", "errors", "severity", "warning", "error"),
    ((FieldFilter(field="component", value="^(?:firefox\\.exe|chrome\\.exe)$", op="regex"),), "chrome.exe",
     "firefox.exe lines", "component", "chrome.exe", "firefox.exe"),
    ((TextFilter(value='"GET '), TextFilter(value='"POST ')), "GET", "POST requests", "text", '"GET ', '"POST '),
    ((FieldFilter(field="component", value="KERNEL"),), "KERNEL", "APP lines", "component", "KERNEL", "APP"),
    ((TimeFilter(start="2005-12-04T00:00:00", end="2005-12-04T23:59:59.999999"), LevelFilter(levels=("error",))),
     "errors on Dec 4", "Dec 5", "time", "2005-12-04T00:00:00..2005-12-04T23:59:59.999999",
     "2005-12-05T00:00:00..2005-12-05T23:59:59.999999"),
])
def test_a_comparison_compiles_to_one_compare_of_the_sides_in_the_order_asked(
        filters: tuple, left: str, right: str, by: str, a: str, b: str) -> None:
    calls = _compared(filters, left, right)
    assert isinstance(calls, list) and calls[0].action == "reset_filters" and calls[-1].action == "compare"
    assert {k: calls[-1].params[k] for k in ("by", "a", "b")} == {"by": by, "a": a, "b": b}
    for c in calls:
        valid(c)
    kept = [c.action for c in calls[1:-1]]
    assert kept == (["filter_by_severity"] if by == "time" else [])


@pytest.mark.parametrize(("sides", "by", "a", "by_b", "b"), [
    ((LevelFilter(levels=("FATAL",)), TextFilter(value="generating core")), "severity", "FATAL", "text",
     "generating core"),
    ((TextFilter(value="Invalid user", case_sensitive=True), TextFilter(value="Accepted", regex=True)), "regex",
     r"(?-i:Invalid\ user)", None, "Accepted"),
    ((TimeFilter(start="2015-07-30T15:00:00", end="2015-07-30T17:00:00"),
      TimeFilter(start="2015-07-30T17:00:00", end="2015-07-30T19:00:00")), "time",
     "2015-07-30T15:00:00..2015-07-30T17:00:00", None, "2015-07-30T17:00:00..2015-07-30T19:00:00"),
])
def test_a_comparison_of_two_sides_read_apart_compares_each_sides_own_filter(
        sides: tuple, by: str, a: str, by_b: str | None, b: str) -> None:
    query = Query(filters=(LevelFilter(levels=("warning",)),), measure=Comparison(left="x", right="y"), sides=sides)
    calls = compile_query(query)
    assert isinstance(calls, list) and [c.action for c in calls] == ["reset_filters", "filter_by_severity", "compare"]
    assert {k: calls[-1].params.get(k) for k in ("by", "a", "by_b", "b")} == {"by": by, "a": a, "by_b": by_b, "b": b}


def test_a_comparison_whose_sides_name_no_filter_apart_is_a_stated_cannot() -> None:
    assert isinstance(_compared((TextFilter(value="error"),), "Cocoa errors", "thermal lines"), Cannot)


def test_every_measure_of_the_union_is_covered_here() -> None:
    union = typing.get_args(typing.get_args(measures.Measure)[0])
    covered = {type(m) for m in UNSERVED + INVESTIGATED + [m for m, _ in TIMED]} | {Count, Distinct, Top, Histogram, Listing}
    assert set(union) == covered


def test_unanswered_names_the_measure_until_its_tool_ran_then_the_unread_words() -> None:
    query = Query(measure=Statistic(func="percentile", field="request time", q=95))
    assert query.unanswered(set()) == "the 95th percentile of request time"
    assert query.unanswered({"field_stats"}) is None
    assert Query(unread=("yesterday", "more")).unanswered({"get_log_count"}) == 'what "yesterday", "more" asks'
    assert Query().unanswered(set()) is None


def test_a_query_is_immutable_and_rejects_unknown_parts() -> None:
    query = Query()
    with pytest.raises(ValidationError):
        query.limit = 3  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Query(grouping={"keys": ["host", "component", "hour"]})
    with pytest.raises(ValidationError):
        Query.model_validate({"measure": {"kind": "median"}})
    assert Query.model_validate_json(Query(measure=Share(base=("all",))).model_dump_json()).measure == Share(
        base=("all",))
