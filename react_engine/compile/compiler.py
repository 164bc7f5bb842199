"""`compile_query`: a `Query` -> its tool calls (filters, the values' extraction, what is left out, the measure),
or `Cannot` when no tool computes its measure yet. The `match` on the measure is exhaustive (`assert_never`)."""

from __future__ import annotations

from typing import assert_never

from react_engine.compile import analytics, investigation, line_measures, values
from react_engine.compile.calls import Call, Cannot
from react_engine.compile.narrowing import compile_filter
from react_engine.question.measures import (
    Comparison,
    Count,
    Distinct,
    Duration,
    Gaps,
    Histogram,
    Key,
    Listing,
    Measure,
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
from react_engine.question.query import Query

Compiled = list[Call] | Cannot


def compile_query(query: Query) -> Compiled:
    """Every call the query needs, in order; `Cannot` when its measure has no tool yet."""
    measured = compile_measure(query, query.measure)
    if isinstance(measured, Cannot) or isinstance(query.measure, (Comparison, Share)):
        return measured  # a comparison applies the filters each side needs itself, a share orders them
    found = [c for key in _keys(query.measure) for c in values.extraction(key)]
    return [compile_filter(f) for f in query.filters] + found + [compile_filter(f) for f in query.left_out] \
        + measured


def _keys(measure: Measure) -> tuple[Key, ...]:
    """The keys whose values the measure reads (extracted first when they must be)."""
    if isinstance(measure, Top):
        return measure.keys()
    if isinstance(measure, Histogram):
        return (measure.distinct,) if measure.distinct is not None else ()
    return (measure.key,) if isinstance(measure, (Distinct, Listing, Ordered, Never)) and measure.key is not None else ()


def compile_measure(query: Query, measure: Measure) -> Compiled:
    """The calls that compute `measure` over the query's rows: the measures of lines and values here, the others
    in their family's module."""
    match measure:
        case Count():
            return line_measures.compile_count(query, measure)
        case Histogram():
            return line_measures.compile_histogram(query, measure)
        case Listing():
            return line_measures.compile_listing(query, measure)
        case Distinct():
            return values.compile_distinct(query, measure)
        case Top():
            return values.compile_top(query, measure)
        case Ordered():
            return values.compile_ordered(query, measure)
        case Never():
            return values.compile_never(query, measure)
        case Statistic() | Rate() | Occurrence() | Span() | Gaps() | Duration() | Share() | Comparison() | Pivot():
            return analytics.compile_analytics(query, measure)
        case Patterns() | Unusual() | Timeline() | Preceding():
            return investigation.compile_investigation(query, measure)
        case _:
            assert_never(measure)
