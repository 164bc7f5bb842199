"""Analytics measures: a statistic of a field, a rate, first/last, span, gaps, durations, shares, comparisons, pivots.

Each family's calls are in its module (times, measuring).
"""

from __future__ import annotations

from typing import assert_never

from react_engine.compile import comparing, measuring, time_measures
from react_engine.compile.calls import Call, Cannot
from react_engine.question.measures import (
    Comparison,
    Duration,
    Gaps,
    Occurrence,
    Pivot,
    Rate,
    Share,
    Span,
    Statistic,
)
from react_engine.question.query import Query

Analytics = Statistic | Rate | Occurrence | Span | Gaps | Duration | Share | Comparison | Pivot


def compile_analytics(query: Query, measure: Analytics) -> list[Call] | Cannot:
    """The calls for one analytics measure (exhaustive over `Analytics`)."""
    match measure:
        case Statistic():
            return measuring.compile_statistic(query, measure)
        case Rate():
            return measuring.compile_rate(query, measure)
        case Occurrence():
            return time_measures.compile_occurrence(query, measure)
        case Span():
            return time_measures.compile_span(query, measure)
        case Gaps():
            return time_measures.compile_gaps(query, measure)
        case Duration():
            return time_measures.compile_duration(query, measure)
        case Share():
            return measuring.compile_share(query, measure)
        case Comparison():
            return comparing.compile_comparison(query, measure)
        case Pivot():
            return measuring.compile_pivot(query, measure)
        case _:
            assert_never(measure)
