"""Analytics measures: a statistic of a field, first/last, span, gaps, durations, shares, comparisons, pivots.

Each family's calls are in its module (times, measuring).
"""

from __future__ import annotations

from typing import assert_never

from react_engine.planners.rules.compile import measuring, times
from react_engine.planners.rules.compile.calls import Call, Cannot
from react_engine.understanding.measures import (
    Comparison,
    Duration,
    Gaps,
    Occurrence,
    Pivot,
    Share,
    Span,
    Statistic,
)
from react_engine.understanding.query import Query

Analytics = Statistic | Occurrence | Span | Gaps | Duration | Share | Comparison | Pivot


def compile_analytics(query: Query, measure: Analytics) -> list[Call] | Cannot:
    """The calls for one analytics measure (exhaustive over `Analytics`)."""
    match measure:
        case Statistic():
            return compile_statistic(query, measure)
        case Occurrence():
            return compile_occurrence(query, measure)
        case Span():
            return compile_span(query, measure)
        case Gaps():
            return compile_gaps(query, measure)
        case Duration():
            return compile_duration(query, measure)
        case Share():
            return compile_share(query, measure)
        case Comparison():
            return compile_comparison(query, measure)
        case Pivot():
            return compile_pivot(query, measure)
        case _:
            assert_never(measure)


def compile_statistic(query: Query, measure: Statistic) -> list[Call] | Cannot:
    return measuring.compile_statistic(query, measure)


def compile_occurrence(query: Query, measure: Occurrence) -> list[Call] | Cannot:
    return times.compile_occurrence(query, measure)


def compile_span(query: Query, measure: Span) -> list[Call] | Cannot:
    return times.compile_span(query, measure)


def compile_gaps(query: Query, measure: Gaps) -> list[Call] | Cannot:
    return times.compile_gaps(query, measure)


def compile_duration(query: Query, measure: Duration) -> list[Call] | Cannot:
    return times.compile_duration(query, measure)


def compile_share(query: Query, measure: Share) -> list[Call] | Cannot:
    return measuring.compile_share(query, measure)


def compile_comparison(query: Query, measure: Comparison) -> list[Call] | Cannot:
    return measuring.compile_comparison(query, measure)


def compile_pivot(query: Query, measure: Pivot) -> list[Call] | Cannot:
    return measuring.compile_pivot(query, measure)
