"""Investigation measures: message patterns, what is unusual, an entity's timeline, the lines before an event.

Each compiles to its tools' calls (see `react_engine.tools.patterns`, `unusual` and `timeline`); the lines before an
event take the event's text, or, without one, the lines the query's other filters keep (a level, a source, a regex);
a query with no filter but time cannot ask for them.
"""

from __future__ import annotations

from typing import assert_never

from react_engine.compile.calls import Call, Cannot, call
from react_engine.question.measures import Patterns, Preceding, Timeline, Unusual
from react_engine.question.query import Query, TextFilter, TimeFilter
from react_engine.tools.patterns import PatternsParams
from react_engine.tools.timeline import EntityTimelineParams, PrecedingParams
from react_engine.tools.unusual import UnusualParams

Investigation = Patterns | Unusual | Timeline | Preceding


def compile_investigation(query: Query, measure: Investigation) -> list[Call] | Cannot:
    """The calls for one investigation measure (exhaustive over `Investigation`)."""
    match measure:
        case Patterns():
            return compile_patterns(query, measure)
        case Unusual():
            return compile_unusual(query, measure)
        case Timeline():
            return compile_timeline(query, measure)
        case Preceding():
            return compile_preceding(query, measure)
        case _:
            assert_never(measure)


def compile_patterns(query: Query, measure: Patterns) -> list[Call] | Cannot:
    return [call(PatternsParams(n=10), "group the lines into message patterns")]


def compile_unusual(query: Query, measure: Unusual) -> list[Call] | Cannot:
    if measure.since is not None:
        return [call(PatternsParams(since=measure.since), f"find the patterns first seen from {measure.since}")]
    return [call(UnusualParams(), "find the times whose count is far from the median"),
            call(PatternsParams(n=5, rarest=True), "find the rarest message patterns")]


def compile_timeline(query: Query, measure: Timeline) -> list[Call] | Cannot:
    return [call(EntityTimelineParams(value=measure.value), f"list every line naming {measure.value}")]


def compile_preceding(query: Query, measure: Preceding) -> list[Call] | Cannot:
    texts = [f for f in query.filters if isinstance(f, TextFilter) and not f.regex and not f.exclude]
    if texts:
        event = texts[-1].value
        return [call(PrecedingParams(value=event), f"group the lines before {event} by pattern")]
    if not any(not isinstance(f, TimeFilter) for f in query.filters):
        return Cannot(measure.asked())
    # "the first ERROR", "the first ftpd connection": the lines the filters keep are the occurrences
    return [call(PrecedingParams(), "group the lines before the matching lines by pattern")]
