"""Measures of the matching lines themselves: how many, how many per time bucket, and the lines."""

from __future__ import annotations

from react_engine.compile.calls import Call, call
from react_engine.compile.values import listed_values
from react_engine.question.measures import Count, Histogram, Listing
from react_engine.question.query import Query
from react_engine.tools.stats import CountByTimeParams, GetLogCountParams, ShowLogsParams

MAX_LINES = 50  # the most lines show_logs returns


def compile_count(query: Query, measure: Count) -> list[Call]:
    return [call(GetLogCountParams(), "count the remaining lines")]


def compile_histogram(query: Query, measure: Histogram) -> list[Call]:
    interval = query.grouping.bucket or measure.interval
    order = {"order": measure.order} if measure.order != "time" else {}
    if measure.distinct is not None:
        return [call(CountByTimeParams(interval=interval, distinct=measure.distinct.name, **order),
                     f"count the distinct {measure.distinct.shown()} per {interval}")]
    return [call(CountByTimeParams(interval=interval, **order), f"count lines per {interval}")]


def compile_listing(query: Query, measure: Listing) -> list[Call]:
    if measure.key is not None:
        return listed_values(measure.key, measure.limit)
    if measure.order == "newest":
        return [call(ShowLogsParams(n=min(measure.limit, MAX_LINES), order="newest"), "show the newest matching lines")]
    return [call(ShowLogsParams(n=min(measure.limit, MAX_LINES)), "show the matching lines")]
